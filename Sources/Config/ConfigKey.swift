import Foundation
import Model
import Search
import Selection
import SideFiles
import Transfer

/// What a config file may set, which commands take it, and how its value becomes the
/// command-line words it stands for (so a default in the file is checked exactly like a flag).
///
/// One rule for every value: a number may be written as a TOML number or as a string holding
/// one (`keep = 5`, `keep = "5"`), and a key whose flag takes text takes a number as its
/// decimal text (`first = 2`, `limit-rate = 1048576`); a switch is `true` or `false`.
struct ConfigKey: Sendable {
  enum Kind: Sendable {
    /// `--key TEXT`, checked by the closure, which throws the reason a value is wrong.
    case text(@Sendable (String) throws -> Void)
    /// `--key N`, N in the range.
    case number(ClosedRange<Int>)
    /// `--key` when true, nothing when false.
    case flag
    /// Read by the library layer itself (the environment beats it): no flag, top level only.
    case path
    case seconds
    /// A secret of the user's (the Podcast Index key): top level only, never quoted back.
    case secret
    /// Strings on one line, read by the command itself (a flag given beats it): no words.
    case list(@Sendable ([String]) throws -> Void)
  }

  /// The commands whose flag this key gives a default for; empty for the library's own keys.
  let commands: Swift.Set<String>
  let kind: Kind

  /// Keys read by the library layer itself, where the environment beats them: not flags.
  static let libraryKeys = Swift.Set(all.filter { $0.value.commands.isEmpty }.keys)

  static let all: [String: ConfigKey] = {
    let filtering: Swift.Set<String> = ["episodes", "download", "sync"]
    let downloading: Swift.Set<String> = ["download", "sync"]
    let counts = ParallelDownloads.range
    return [
      "library": ConfigKey(commands: [], kind: .path),
      "episodes-dir": ConfigKey(commands: [], kind: .path),
      "timeout": ConfigKey(commands: [], kind: .seconds),
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
      "limit-rate": .text(downloading) { _ = try TransferRate.bytesPerSecond($0) },
      "concurrency": ConfigKey(commands: downloading, kind: .number(counts)),
      "per-host": ConfigKey(commands: downloading, kind: .number(counts)),
      "write-feed": ConfigKey(commands: downloading, kind: .flag),
      "write-page": ConfigKey(commands: downloading, kind: .flag),
      "info-json": ConfigKey(commands: downloading, kind: .flag),
      "feed-base-url": .text(downloading) { _ = try FeedBaseURL($0) },
      "first": .text(["subscribe"]) { _ = try FirstSyncPolicy(parsing: $0) },
      "keep": ConfigKey(commands: ["subscribe"], kind: .number(1...Int.max)),
      "delete-played": .text(["subscribe"]) { _ = try DateBound.age($0, setting: "delete-played") },
      "limit": ConfigKey(commands: ["episodes", "search"], kind: .number(1...Int.max)),
      "country": .text(["search"]) { _ in },
      // `search --directory` beats it; search reads it itself.
      "directories": ConfigKey(
        commands: ["search"],
        kind: .list { names in
          guard !names.isEmpty else { throw ValueProblem("give at least one directory") }
          _ = try Directory.list(parsing: names.joined(separator: ","))
        }),
      "podcastindex-key": ConfigKey(commands: [], kind: .secret),
      "podcastindex-secret": ConfigKey(commands: [], kind: .secret),
      "quiet": ConfigKey(commands: ["sync"], kind: .flag),
      "wait": ConfigKey(commands: ["sync"], kind: .flag),
    ]
  }()

  private static func text(
    _ commands: Swift.Set<String>, check: @escaping @Sendable (String) throws -> Void
  ) -> ConfigKey {
    ConfigKey(commands: commands, kind: .text(check))
  }

  /// The words to add to the command line for `key = value`; throws the reason the value is
  /// wrong, in words that say what would be right.
  func arguments(_ key: String, _ value: ConfigValue) throws(ValueProblem) -> [String] {
    switch kind {
    case .text(let check):
      guard let text = value.text else {
        throw ValueProblem("the value must be a \"string\", not true, false or a list")
      }
      do {
        try check(text)
      } catch {
        throw ValueProblem(String(describing: error))
      }
      return ["--\(key)", text]
    case .number(let range):
      return ["--\(key)", String(try Self.number(value, in: range, unit: ""))]
    case .flag:
      guard case .boolean(let on) = value else {
        throw ValueProblem("the value must be true or false")
      }
      return on ? ["--\(key)"] : []
    case .path:
      guard case .string(let text) = value, !text.isEmpty else {
        throw ValueProblem("the value must be a \"path\"")
      }
      return []
    case .seconds:
      _ = try Self.number(value, in: 1...Int.max, unit: " of seconds")
      return []
    case .secret:
      guard case .string(let text) = value,
        !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
      else {
        throw ValueProblem(
          "the value must be a \"string\" (from \(PodcastIndexCredentials.signUpURL))")
      }
      return []
    case .list(let check):
      guard case .strings(let list) = value else {
        throw ValueProblem("the value must be a list such as [\"apple\", \"fyyd\"]")
      }
      do {
        try check(list)
      } catch let problem as ValueProblem {
        throw problem
      } catch {
        throw ValueProblem(String(describing: error))
      }
      return []
    }
  }

  /// `value` as a number in `range`, from a TOML number or a string holding one.
  static func number(_ value: ConfigValue, in range: ClosedRange<Int>, unit: String)
    throws(ValueProblem) -> Int
  {
    let wanted =
      range.upperBound == Int.max
      ? "a whole number\(unit) of at least \(range.lowerBound)"
      : "a whole number\(unit) from \(range.lowerBound) to \(range.upperBound)"
    guard let number = value.number else {
      let given =
        switch value {
        case .string(let text): "\"\(text)\" is not a number"
        case .boolean(let flag): "\(flag) is not a number"
        case .strings: "a list is not a number"
        case .integer(let number): "\(number)"
        }
      throw ValueProblem("\(given); the value must be \(wanted)")
    }
    guard range.contains(number) else {
      throw ValueProblem("\(number) is out of range; the value must be \(wanted)")
    }
    return number
  }
}

/// Why one value is wrong; `ConfigFile` adds the file, line and key.
struct ValueProblem: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
