import ArgumentParser
import Foundation
import PodcastKit

struct Import: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Subscribe to every feed in an OPML file; feeds already subscribed are skipped."
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(help: "OPML file exported by another podcast app.")
  var file: String

  @Flag(
    help: "Print what was done as JSON: {added, alreadySubscribed, failed: [{feedURL, error}]}.")
  var json = false

  func run() throws {
    let entries = try readEntries()
    let store = try libraryOptions.openStore()
    var added: [String] = []
    var failed: [(feedURL: String, error: String)] = []
    for (entry, outcome) in zip(entries, try store.importSubscriptions(entries)) {
      switch outcome {
      case .added: added.append(entry.feedURL)
      case .alreadySubscribed: break
      case .failed(let error):
        Console.error("cannot import \(entry.feedURL): \(CommandFailure.message(for: error))")
        failed.append((entry.feedURL, CommandFailure.message(for: error)))
      }
    }
    let skipped = entries.count - added.count - failed.count
    if json {
      Console.print(
        JSONValue.object([
          ("added", .array(added.map { .url($0) })), ("alreadySubscribed", .int(skipped)),
          (
            "failed",
            .array(
              failed.map {
                .object([("feedURL", .url($0.feedURL)), ("error", .string($0.error))])
              })
          ),
        ]).rendered())
    } else {
      Console.print(
        "Imported \(added.count) subscription\(added.count == 1 ? "" : "s") from \(file)"
          + (skipped > 0 ? " (\(skipped) already subscribed)." : "."))
    }
    if !failed.isEmpty { throw ExitCode.failure }
  }

  private func readEntries() throws -> [OPMLEntry] {
    guard FileManager.default.fileExists(atPath: file) else {
      throw ImportError(file: file, reason: "no such file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      throw ImportError(file: file, reason: "cannot read it (\(error.localizedDescription))")
    }
    do {
      return try OPML.parse(data)
    } catch {
      throw ImportError(file: file, reason: "\(error)")
    }
  }
}

struct ImportError: Error, CustomStringConvertible {
  var file: String
  var reason: String
  var description: String { "cannot import \(file): \(reason)" }
}
