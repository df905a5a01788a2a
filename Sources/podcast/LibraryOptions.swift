import ArgumentParser
import Foundation
import PodcastKit

/// Where the library lives; accepted by every command that touches it.
struct LibraryOptions: ParsableArguments {
  @Option(help: "Library root (default: $PODCAST_LIBRARY, config.toml's library, or ~/Podcasts).")
  var library: String?

  @Option(
    help: "Where finished episodes go (default: $PODCAST_EPISODES_DIR or <library>/Episodes).")
  var episodesDir: String?

  var libraryPath: String { Self.libraryPath(flag: library) }

  /// `--library`, else `PODCAST_LIBRARY`, else config.toml's `library`, else ~/Podcasts.
  static func libraryPath(flag: String?) -> String {
    let environment = ProcessInfo.processInfo.environment
    if let flag { return flag }
    if let fromEnvironment = environment["PODCAST_LIBRARY"], !fromEnvironment.isEmpty {
      return fromEnvironment
    }
    if let fromFile = Configuration.file?.libraryValue("library") { return fromFile }
    return homeDirectory + "/Podcasts"
  }

  /// `$HOME` as every Unix tool reads it (the password database only when it is unset).
  static var homeDirectory: String {
    ConfigFile.home(environment: ProcessInfo.processInfo.environment)
  }

  var episodesPath: String? {
    if let episodesDir { return episodesDir }
    let fromEnvironment = ProcessInfo.processInfo.environment["PODCAST_EPISODES_DIR"]
    if fromEnvironment?.isEmpty == false { return fromEnvironment }
    return Configuration.file?.libraryValue("episodes-dir")
  }
}
