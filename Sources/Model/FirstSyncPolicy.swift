import Basics
import Foundation
import Selection

/// What a subscription's first sync downloads from the backlog it finds: the newest episode
/// (the default, so a 700-episode feed does not fetch 700 files), the newest N, all, or none.
public enum FirstSyncPolicy: Sendable, Equatable, Codable, CustomStringConvertible {
  case latest
  case newest(Int)
  case all
  case none

  public init(parsing text: String) throws {
    switch text.trimmingCharacters(in: .whitespaces).lowercased() {
    case "latest": self = .latest
    case "all": self = .all
    case "none": self = .none
    case let other:
      guard let count = Int(other), count >= 0 else { throw FilterError.badFirstPolicy(text) }
      self = count == 0 ? .none : .newest(count)
    }
  }

  /// How many of the matching episodes, newest first, the first sync takes; nil is all.
  public var count: Int? {
    switch self {
    case .latest: 1
    case .newest(let count): count
    case .all: nil
    case .none: 0
    }
  }

  public var description: String {
    switch self {
    case .latest: "latest"
    case .newest(let count): String(count)
    case .all: "all"
    case .none: "none"
    }
  }

  public init(from decoder: Decoder) throws {
    self = try Self(parsing: try decoder.singleValueContainer().decode(String.self))
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
