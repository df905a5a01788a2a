import ArgumentParser
import Foundation

/// Where the library lives; accepted by every command that touches it.
struct LibraryOptions: ParsableArguments {
  @Option(help: "Library root (default: $PODCAST_LIBRARY or ~/Podcasts).")
  var library: String?

  @Option(
    help: "Where finished episodes go (default: $PODCAST_EPISODES_DIR or <library>/Episodes).")
  var episodesDir: String?

  var libraryPath: String {
    let environment = ProcessInfo.processInfo.environment
    if let library { return library }
    if let fromEnvironment = environment["PODCAST_LIBRARY"], !fromEnvironment.isEmpty {
      return fromEnvironment
    }
    return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Podcasts").path
  }

  var episodesPath: String? {
    if let episodesDir { return episodesDir }
    let fromEnvironment = ProcessInfo.processInfo.environment["PODCAST_EPISODES_DIR"]
    return fromEnvironment?.isEmpty == false ? fromEnvironment : nil
  }
}
