import Basics
import Foundation

/// The picture to embed as the front cover: the episode's image, else the podcast's.
public struct CoverImage: Sendable, Equatable {
  public let data: Data
  /// `image/jpeg` or `image/png`, from the bytes.
  public let mimeType: String

  /// A cover from downloaded image bytes, or nil when they are not a JPEG or PNG (the only
  /// picture types ID3, MP4 and Ogg players all show; an error page must never become a cover).
  /// The type comes from the bytes, because image servers mislabel as often as audio ones.
  public init?(data: Data) {
    if data.starts(with: [0xFF, 0xD8, 0xFF]) {
      mimeType = "image/jpeg"
    } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      mimeType = "image/png"
    } else {
      return nil
    }
    self.data = data
  }
}
