import Basics
import Foundation

/// Where the Episodes directory is served (`--feed-base-url`): the folder feeds' links are
/// made from it. Always ends with `/`; http or https, with no user name or password (a
/// password in it would be written into every feed), no query and no fragment.
public struct FeedBaseURL: Sendable, Hashable, CustomStringConvertible {
  public let text: String

  public init(_ text: String) throws(FeedBaseURLError) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let components = URLComponents(string: trimmed),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty
    else { throw .notHTTP(text) }
    guard components.user == nil, components.password == nil else {
      throw .hasCredentials
    }
    guard components.query == nil, components.fragment == nil else {
      throw .hasQuery(text)
    }
    self.text = trimmed.hasSuffix("/") ? trimmed : trimmed + "/"
  }

  public var description: String { text }

  /// `segments` appended, each percent-encoded.
  package func appending(_ segments: [String]) -> String {
    text + FeedBaseURL.encodedPath(segments)
  }

  /// The segments joined with `/`, each percent-encoded (every byte but letters, digits and
  /// `-._~`): a file name with `#`, `?`, `%`, a space or non-ASCII letters stays one segment.
  package static func encodedPath(_ segments: [String]) -> String {
    segments.map(encodedSegment).joined(separator: "/")
  }

  package static func encodedSegment(_ segment: String) -> String {
    var out = ""
    out.reserveCapacity(segment.utf8.count)
    for byte in segment.utf8 {
      if byte.isASCIILetterOrDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
      {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return out
  }
}

extension UInt8 {
  fileprivate var isASCIILetterOrDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

/// Why a `--feed-base-url` is refused. Each case reads as a sentence.
public enum FeedBaseURLError: Error, Equatable, CustomStringConvertible {
  case notHTTP(String)
  case hasCredentials
  case hasQuery(String)

  public var description: String {
    switch self {
    case .notHTTP(let text):
      return
        "--feed-base-url \(text): not an http or https URL such as https://home.example.net/podcasts/"
    case .hasCredentials:
      return
        "--feed-base-url: a user name or password in it would be written into every feed; give them to the podcast app instead"
    case .hasQuery(let text):
      return "--feed-base-url \(text): give the folder's URL, without ? or #"
    }
  }
}
