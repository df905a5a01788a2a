import Basics
import Foundation

/// Why one episode was not downloaded: the typed error that stopped it (transfer, download,
/// library, tags ...) and, when even recording the failure went wrong, that error as well.
/// Carried as a value, not a string, so callers can tell the causes apart; its sentence is the
/// one line users see and the `error` text of the JSON output.
public struct DownloadFailure: SentenceError, Sendable, Equatable {
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

  /// Two failures are the same when their causes are equal errors of the same type; an
  /// error type that is not Equatable can only be told apart by its sentence.
  public static func == (lhs: DownloadFailure, rhs: DownloadFailure) -> Bool {
    same(lhs.cause, rhs.cause) && same(lhs.unrecorded, rhs.unrecorded)
  }

  private static func same(_ lhs: (any Error)?, _ rhs: (any Error)?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case (let lhs?, let rhs?):
      guard type(of: lhs) == type(of: rhs) else { return false }
      if let lhs = (lhs as Any) as? any Equatable { return lhs.isEqual(to: rhs) }
      return String(describing: lhs) == String(describing: rhs)
    default: return false
    }
  }
}

extension Equatable {
  /// `self == other` when `other` is of this type.
  fileprivate func isEqual(to other: Any) -> Bool {
    (other as? Self).map { $0 == self } ?? false
  }
}
