import Basics
import Foundation

/// The user's own Podcast Index API key and secret. The service's terms forbid shipping one in
/// an open-source program, so each user gets theirs (free) at `signUpURL`.
///
/// The secret never leaves this value except inside the signature's hash: printing the value
/// (by mistake, in a log or an error) shows the key and a mask.
public struct PodcastIndexCredentials: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  public static let signUpURL = "https://api.podcastindex.org"

  public let key: String
  private let secret: String

  /// Nil unless both are given and neither is blank; surrounding white space (a pasted line
  /// break) is dropped.
  public init?(key: String?, secret: String?) {
    guard let key = key?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty,
      let secret = secret?.trimmingCharacters(in: .whitespacesAndNewlines), !secret.isEmpty
    else { return nil }
    self.key = key
    self.secret = secret
  }

  /// The request headers Podcast Index checks: the key, the time as unix seconds, and
  /// `Authorization`, the lowercase hex SHA-1 of key + secret + that time. The service accepts
  /// a signature for 5 minutes either side of its own clock.
  package func headers(at unixSeconds: Int) -> [(name: String, value: String)] {
    let date = String(unixSeconds)
    return [
      ("X-Auth-Key", key),
      ("X-Auth-Date", date),
      ("Authorization", SHA1.hex(Array((key + secret + date).utf8))),
    ]
  }

  /// `text` with the secret and the signature replaced by `****`, for words a server sent back.
  package func masked(_ text: String, headers: [(name: String, value: String)]) -> String {
    let secrets = [secret] + headers.filter { $0.name == "Authorization" }.map(\.value)
    return secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "****") }
  }

  public var description: String { "Podcast Index key \(key) (secret not shown)" }
  public var debugDescription: String { description }
}
