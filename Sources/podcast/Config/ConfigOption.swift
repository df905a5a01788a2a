import Foundation
import PodcastKit

/// What a config file may set, which commands take it, and how its value becomes the
/// command-line words it stands for (so a default in the file is checked exactly like a flag).
struct ConfigOption: Sendable {
  let commands: Swift.Set<String>
  /// The words to add to the command line; throws the reason a value is wrong.
  let arguments: @Sendable (String, TOMLSubset.Value) throws -> [String]

  /// Keys read by the library layer itself, where the environment beats them: not flags.
  static let libraryKeys: Swift.Set<String> = ["library", "episodes-dir", "timeout"]

  static let all: [String: ConfigOption] = {
    let filtering: Swift.Set<String> = ["episodes", "download", "sync"]
    let downloading: Swift.Set<String> = ["download", "sync"]
    var all: [String: ConfigOption] = [
      "match": .text(filtering) { _ = try EpisodeFilter(match: $0).predicate() },
      "exclude": .text(filtering) { _ = try EpisodeFilter(exclude: $0).predicate() },
      "match-in": .text(filtering) { _ = try EpisodeFilter.fields($0) },
      "since": .text(filtering) { _ = try DateBound.resolve($0, setting: "since") },
      "until": .text(filtering) { _ = try DateBound.resolve($0, setting: "until") },
      "min-duration": .text(filtering) {
        _ = try DurationText.seconds($0, setting: "min-duration")
      },
      "max-duration": .text(filtering) {
        _ = try DurationText.seconds($0, setting: "max-duration")
      },
      "type": .text(filtering) {
        if !EpisodeFilter.episodeTypes.contains($0) { throw FilterError.badEpisodeType($0) }
      },
      "name-template": .text(downloading) { _ = try FileNamer(template: $0) },
      "limit-rate": .text(downloading, integerAllowed: true) {
        _ = try TransferRate.bytesPerSecond($0)
      },
      "concurrency": .count(downloading, ParallelDownloads.range),
      "write-feed": .flag(downloading),
      "info-json": .flag(downloading),
      "feed-base-url": .text(downloading) { _ = try FeedBaseURL($0) },
      "per-host": .count(downloading, ParallelDownloads.range),
      "first": .text(["subscribe"]) { _ = try FirstSyncPolicy(parsing: $0) },
      "keep": .count(["subscribe"], 1...Int.max),
      "delete-played": .text(["subscribe"]) { _ = try DateBound.age($0, setting: "delete-played") },
      "limit": .count(["episodes", "search"], 1...Int.max),
      "country": .text(["search"]) { _ in },
      "directories": .directories(["search"]),
      "podcastindex-key": .secret,
      "podcastindex-secret": .secret,
      "quiet": .flag(["sync"]),
      "wait": .flag(["sync"]),
    ]
    for key in libraryKeys {
      all[key] = ConfigOption(commands: []) { _, _ in [] }
    }
    return all
  }()

  private static func text(
    _ commands: Swift.Set<String>, integerAllowed: Bool = false,
    check: @escaping @Sendable (String) throws -> Void
  ) -> ConfigOption {
    ConfigOption(commands: commands) { key, value in
      let text: String
      switch value {
      case .string(let string): text = string
      case .integer(let number) where integerAllowed: text = String(number)
      default: throw ConfigReason("the value must be a \"string\"")
      }
      do {
        try check(text)
      } catch {
        throw ConfigReason(String(describing: error))
      }
      return ["--\(key)", text]
    }
  }

  private static func count(_ commands: Swift.Set<String>, _ range: ClosedRange<Int>)
    -> ConfigOption
  {
    ConfigOption(commands: commands) { key, value in
      guard case .integer(let number) = value, range.contains(number) else {
        throw ConfigReason(
          range.upperBound == Int.max
            ? "the value must be an integer of at least \(range.lowerBound)"
            : "the value must be an integer from \(range.lowerBound) to \(range.upperBound)")
      }
      return ["--\(key)", String(number)]
    }
  }

  /// `directories = ["apple", "fyyd"]`: read by `search` itself (a `--directory` given beats
  /// it), so it adds no words.
  private static func directories(_ commands: Swift.Set<String>) -> ConfigOption {
    ConfigOption(commands: commands) { _, value in
      guard case .strings(let names) = value, !names.isEmpty else {
        throw ConfigReason("the value must be a list such as [\"apple\", \"fyyd\"]")
      }
      do {
        _ = try Directory.list(parsing: names.joined(separator: ","))
      } catch {
        throw ConfigReason(String(describing: error))
      }
      return []
    }
  }

  /// The user's Podcast Index key or secret, at the top of the file (the environment beats
  /// it): read where the network is set up, never turned into words, never quoted back.
  private static let secret = ConfigOption(commands: []) { _, value in
    guard case .string(let text) = value,
      !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    else {
      throw ConfigReason(
        "the value must be a \"string\" (from \(PodcastIndexCredentials.signUpURL))")
    }
    return []
  }

  private static func flag(_ commands: Swift.Set<String>) -> ConfigOption {
    ConfigOption(commands: commands) { key, value in
      guard case .boolean(let on) = value else {
        throw ConfigReason("the value must be true or false")
      }
      return on ? ["--\(key)"] : []
    }
  }
}

/// Why one value is wrong; `ConfigFile` adds the file, line and key.
struct ConfigReason: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
