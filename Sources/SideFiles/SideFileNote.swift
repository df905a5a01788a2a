import Basics

/// A side file that could not be kept, and why: one line for the user, never a failure of
/// the episode, which is in place all the same (the next run of it tries again).
public struct SideFileNote: Sendable, Equatable, CustomStringConvertible {
  public enum Kind: String, Sendable {
    case cover
    case transcript
    case chapters
    /// `<episode>.info.json` (`--info-json`).
    case info = "info file"
  }

  public var kind: Kind
  public var error: SideFileError
  /// What it belonged to, when the sentence must say: a subscription's name or an episode's
  /// file (sync's notes on episodes it did not download).
  public var subject: String?

  public init(_ kind: Kind, _ error: SideFileError, subject: String? = nil) {
    self.kind = kind
    self.error = error
    self.subject = subject
  }

  /// `transcript not kept: <url>: why`, after `<subject>: ` when there is one.
  public var description: String {
    let sentence = "\(kind.rawValue) not kept: \(error)"
    return subject.map { "\($0): \(sentence)" } ?? sentence
  }
}
