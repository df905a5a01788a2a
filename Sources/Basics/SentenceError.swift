import Foundation

/// An error that is one sentence for the user: its `description` names the thing and the
/// reason. Foundation's `localizedDescription` (and so the command line) shows that sentence
/// instead of a generic "The operation could not be completed".
public protocol SentenceError: Error, CustomStringConvertible, LocalizedError {}

extension SentenceError {
  public var errorDescription: String? { description }
}
