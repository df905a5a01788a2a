import Basics
import Foundation

/// Which episodes a user picked by index: `3`, `2-5`, `1,4,9`, in any mix.
public struct EpisodeSelection: Sendable, Equatable {
  /// 1-based indexes as `podcast episodes` prints them, in the order first named, no repeats.
  public let indexes: [Int]

  public init(parsing words: [String]) throws {
    var indexes: [Int] = []
    for word in words {
      for part in word.split(separator: ",", omittingEmptySubsequences: false) {
        for index in try Self.parsePart(part.trimmingCharacters(in: .whitespaces), word: word)
        where !indexes.contains(index) {
          indexes.append(index)
        }
      }
    }
    self.indexes = indexes
  }

  /// Checks the indexes against the feed's episode count.
  public func validate(episodeCount: Int) throws {
    if let bad = indexes.first(where: { $0 > episodeCount }) {
      throw SelectionError.outOfRange(bad, count: episodeCount)
    }
  }

  private static func parsePart(_ part: String, word: String) throws -> [Int] {
    let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard let first = bounds.first.flatMap({ Int($0) }), first >= 1 else {
      throw SelectionError.malformed(word)
    }
    guard bounds.count == 2 else { return [first] }
    guard let last = Int(bounds[1]), last >= first else { throw SelectionError.malformed(word) }
    guard last - first < 100_000 else { throw SelectionError.malformed(word) }
    return Array(first...last)
  }
}

/// Why a selection cannot be used; both are usage errors.
public enum SelectionError: SentenceError, Equatable {
  case malformed(String)
  case outOfRange(Int, count: Int)

  public var description: String {
    switch self {
    case .malformed(let word):
      return "'\(word)' is not a selection: use indexes like 3, 2-5 or 1,4,9 (1 is the newest)"
    case .outOfRange(let index, let count):
      return count == 0
        ? "episode \(index) does not exist: the feed has no episodes"
        : "episode \(index) does not exist: the feed has \(count) episode\(count == 1 ? "" : "s") (1-\(count))"
    }
  }
}
