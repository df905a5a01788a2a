import Foundation
import Synchronization

/// Cover images for one batch of downloads, each URL fetched at most once: twenty episodes of
/// one show share the show's picture. Fetched like any side file (retried, resumed, checked);
/// a picture that cannot be had (an error, a page that is no JPEG or PNG, too big) is
/// remembered as missing, and only costs the episode its cover.
final class CoverCache: Sendable {
  /// Covers are a few hundred KB; a larger answer is not one worth holding in memory.
  static let maxBytes: Int64 = 8 << 20

  private let http: HTTPClient
  private let options: DownloadOptions
  private let scratchDirectory: String
  private let fetches = Mutex<[String: Task<Result<CoverImage, SideFileError>, Never>]>([:])

  init(http: HTTPClient, options: DownloadOptions, scratchDirectory: String) {
    self.http = http
    self.options = options
    self.scratchDirectory = scratchDirectory
  }

  /// The first of `urls` that is a usable picture.
  func image(from urls: [String]) async -> CoverImage? {
    for url in urls {
      if case .success(let image) = await image(at: url) { return image }
    }
    return nil
  }

  /// The picture at `url`, or why there is none.
  func image(at url: String) async -> Result<CoverImage, SideFileError> {
    let task = fetches.withLock { fetches in
      if let task = fetches[url] { return task }
      let download = SideFileDownload(
        url: url, fileExtension: "image", feedURL: nil, http: http, options: options,
        limit: Self.maxBytes, scratchDirectory: scratchDirectory)
      let task = Task { () -> Result<CoverImage, SideFileError> in
        do throws(SideFileError) {
          let body = try await download.run()
          guard let image = CoverImage(data: body) else { return .failure(.notAPicture(url: url)) }
          return .success(image)
        } catch {
          return .failure(error)
        }
      }
      fetches[url] = task
      return task
    }
    return await task.value
  }
}
