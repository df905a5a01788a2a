import Basics
import Foundation

/// Joins what several directories found into one list, as AntennaPod's combined search does:
/// results that are the same podcast become one, and reciprocal-rank fusion orders them.
///
/// - Same podcast: the same feed URL once normalised (`feedKey`: scheme, host case, default
///   port and a trailing slash ignored), the same iTunes id, or the same podcast:guid; and
///   transitively so (Apple and Podcast Index share an iTunes id, Podcast Index and fyyd a
///   feed URL: one podcast).
/// - Order: each directory's list is a ranking; a podcast scores the sum over the directories
///   that listed it of 1 / (60 + its rank there), so one listed high by several directories
///   comes first, and one listed by a single directory keeps its place among that
///   directory's. Equal scores go by best rank, then by `Directory` order.
/// - Fields: the richest win: the largest episode count and the newest date; for the rest
///   the first directory in `Directory` order that has one, so Apple's title and artwork when
///   Apple listed it.
///
/// A pure function of its input: no clock, no network.
public enum ResultMerge {
  /// The constant of reciprocal-rank fusion (Cormack, Clarke and Büttcher, 2009): large
  /// enough that a first place alone does not outweigh being listed by a second directory.
  public static let rankConstant = 60

  /// `rankings`: one list per directory, in that directory's order, each result naming its
  /// directory. At most `limit` results come back.
  public static func merge(_ rankings: [[SearchResult]], limit: Int) -> [SearchResult] {
    var entries: [Entry] = []
    for ranking in rankings {
      for (offset, result) in ranking.enumerated() {
        entries.append(Entry(result: result, rank: offset + 1, order: entries.count))
      }
    }
    var groups = DisjointSets(count: entries.count)
    var firstWithKey: [Key: Int] = [:]
    for (index, entry) in entries.enumerated() {
      for key in keys(of: entry.result) {
        if let first = firstWithKey[key] {
          groups.join(first, index)
        } else {
          firstWithKey[key] = index
        }
      }
    }
    var members: [Int: [Entry]] = [:]
    for (index, entry) in entries.enumerated() {
      members[groups.root(of: index), default: []].append(entry)
    }
    let merged = members.values.map(Merged.init)
    return Array(merged.sorted(by: Merged.precedes).prefix(max(limit, 0)).map(\.result))
  }

  /// The feed URL as the merge compares it: without scheme, user info and fragment, the host
  /// lowercased, the scheme's default port and a trailing slash of the path dropped
  /// (`HTTP://Feeds.Example.com:80/show/` and `https://feeds.example.com/show` are one feed).
  public static func feedKey(_ url: String) -> String {
    var rest = Substring(url.trimmingCharacters(in: .whitespacesAndNewlines))
    var defaultPort = ""
    if let separator = rest.range(of: "://") {
      let scheme = rest[..<separator.lowerBound].lowercased()
      defaultPort = scheme == "https" ? "443" : scheme == "http" ? "80" : ""
      rest = rest[separator.upperBound...]
    }
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    var authority = rest[..<authorityEnd]
    if let at = authority.lastIndex(of: "@") {
      authority = authority[authority.index(after: at)...]
    }
    var host = authority.lowercased()
    if !defaultPort.isEmpty, host.hasSuffix(":" + defaultPort) {
      host.removeLast(defaultPort.count + 1)
    }
    let tail = rest[authorityEnd...]
    let queryStart = tail.firstIndex(of: "?") ?? tail.endIndex
    var path = String(tail[..<queryStart])
    while path.hasSuffix("/") { path.removeLast() }
    return host + path + tail[queryStart...]
  }

  private enum Key: Hashable {
    case feed(String)
    case iTunes(Int)
    case guid(String)
  }

  private static func keys(of result: SearchResult) -> [Key] {
    var keys: [Key] = []
    if let feedURL = result.feedURL { keys.append(.feed(feedKey(feedURL))) }
    if let id = result.iTunesID { keys.append(.iTunes(id)) }
    if let guid = result.podcastGUID { keys.append(.guid(guid.lowercased())) }
    return keys
  }

  private struct Entry {
    var result: SearchResult
    /// 1 for the first of its directory's list.
    var rank: Int
    /// Where it came in the input, to keep equal things in a stable order.
    var order: Int

    var directory: Directory? { result.directories.first }
  }

  /// One podcast: the entries that are it, the fused score and the joined fields.
  private struct Merged {
    var result: SearchResult
    var score: Double
    var bestRank: Int
    var bestDirectory: Directory?
    var order: Int

    init(_ entries: [Entry]) {
      var bestRanks: [Directory: Int] = [:]
      for entry in entries {
        guard let directory = entry.directory else { continue }
        bestRanks[directory] = min(bestRanks[directory] ?? .max, entry.rank)
      }
      score = bestRanks.values.reduce(0) { $0 + 1 / Double(ResultMerge.rankConstant + $1) }
      bestRank = entries.map(\.rank).min() ?? .max
      bestDirectory = bestRanks.keys.min()
      order = entries.map(\.order).min() ?? 0
      let trusted = entries.sorted {
        ($0.directory ?? .gpodder, $0.rank, $0.order) < (
          $1.directory ?? .gpodder, $1.rank, $1.order
        )
      }.map(\.result)
      func first<T>(_ field: (SearchResult) -> T?) -> T? {
        trusted.lazy.compactMap(field).first
      }
      result = SearchResult(
        iTunesID: first(\.iTunesID),
        title: first(\.title),
        author: first(\.author),
        feedURL: first(\.feedURL),
        episodeCount: trusted.compactMap(\.episodeCount).max(),
        genre: first(\.genre),
        artworkURL: first(\.artworkURL),
        storeURL: first(\.storeURL),
        releaseDate: first(\.releaseDate),
        lastPublished: trusted.compactMap(\.lastPublished).max(),
        directories: bestRanks.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key),
        podcastIndexID: first(\.podcastIndexID),
        fyydID: first(\.fyydID),
        podcastGUID: first(\.podcastGUID))
    }

    static func precedes(_ left: Merged, _ right: Merged) -> Bool {
      if left.score != right.score { return left.score > right.score }
      if left.bestRank != right.bestRank { return left.bestRank < right.bestRank }
      if left.bestDirectory != right.bestDirectory {
        return (left.bestDirectory ?? .gpodder) < (right.bestDirectory ?? .gpodder)
      }
      return left.order < right.order
    }
  }
}

/// Union-find over 0..<count, for the podcasts that are one.
private struct DisjointSets {
  private var parents: [Int]

  init(count: Int) { parents = Array(0..<count) }

  mutating func root(of element: Int) -> Int {
    var root = element
    while parents[root] != root { root = parents[root] }
    var current = element
    while parents[current] != root {
      let next = parents[current]
      parents[current] = root
      current = next
    }
    return root
  }

  mutating func join(_ first: Int, _ second: Int) {
    let (a, b) = (root(of: first), root(of: second))
    if a != b { parents[max(a, b)] = min(a, b) }
  }
}
