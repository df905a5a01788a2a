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

  func run() throws {
    try CommandFailure.reported {
      let store = try libraryOptions.openStore()
      let subscriptions = try store.subscriptions()
      let document = OPML.export(subscriptions, settings: try store.allSettings())
      guard let file else {
        Console.write(document, to: STDOUT_FILENO)
        return
      }
      do {
        try Data(document.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
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
