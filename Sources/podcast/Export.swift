import ArgumentParser
import Foundation
import PodcastKit

struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write the subscriptions as OPML 2.0, for other podcast apps."
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(help: "File to write (default: standard output).")
  var file: String?

  @Flag(help: "Also write private feeds (their URLs hold a token or password).")
  var includePrivate = false

  func run() throws {
    try CommandFailure.reported {
      let store = try libraryOptions.openStore()
      let all = try store.subscriptions()
      // A private feed's URL is its password: it leaves the library only when asked for.
      let subscriptions = includePrivate ? all : all.filter { !SecretMask.hasSecret($0.feedURL) }
      let left = all.count - subscriptions.count
      if left > 0 {
        Console.error(
          "left out \(left) private feed\(left == 1 ? "" : "s") (\(all.filter { SecretMask.hasSecret($0.feedURL) }.map(\.name).joined(separator: ", "))); --include-private writes them"
        )
      } else if includePrivate, all.contains(where: { SecretMask.hasSecret($0.feedURL) }) {
        Console.error(
          "warning: \(file ?? "the output") holds private feed URLs, which are passwords: keep it private"
        )
      }
      let document = OPML.export(subscriptions, settings: try store.allSettings())
      guard let file else {
        Console.write(document, to: STDOUT_FILENO)
        return
      }
      do {
        try Data(document.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        if includePrivate { chmod(file, 0o600) }  // it may hold private feeds' passwords
      } catch {
        throw ExportError(file: file, reason: error.localizedDescription)
      }
      Console.print(
        "Exported \(subscriptions.count) subscription\(subscriptions.count == 1 ? "" : "s") to \(file)."
      )
    }
  }
}

struct ExportError: Error, CustomStringConvertible {
  var file: String
  var reason: String
  var description: String { "cannot write \(file): \(reason)" }
}
