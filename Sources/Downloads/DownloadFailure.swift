import Basics
import Foundation

/// Why one episode was not downloaded: the typed error that stopped it (transfer, download,
/// library, tags ...) and, when even recording the failure went wrong, that error as well.
/// Carried as a value, not a string, so callers can tell the causes apart; its sentence is the
/// one line users see and the `error` text of the JSON output.
public struct DownloadFailure: Error, Sendable, Equatable, CustomStringConvertible {
  public var cause: any Error
  /// The error that kept the failure out of the library, if any.
  public var unrecorded: (any Error)?

  public init(_ cause: any Error, unrecorded: (any Error)? = nil) {
    self.cause = cause
    self.unrecorded = unrecorded
  }

  public var description: String {
    let sentence = String(describing: cause)
    guard let unrecorded else { return sentence }
    return sentence + "; the failure could not be recorded either: \(unrecorded)"
  }

  /// Two failures are the same when they say the same thing.
  public static func == (lhs: DownloadFailure, rhs: DownloadFailure) -> Bool {
    lhs.description == rhs.description
  }
}

extension DownloadFailure: LocalizedError {
  public var errorDescription: String? { description }
}
