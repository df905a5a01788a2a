import ArgumentParser
import Foundation
import PodcastKit

struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write the subscriptions as OPML 2.0, for other podcast apps."
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(help: "File to write (default: standard output).")
  var file: String?

  @Flag(help: "Also write private feeds (their URLs hold a token or password).")
  var includePrivate = false

  @Flag(help: "With FILE: print what was written as JSON: {file, exported, leftOut}.")
  var json = false

  func validate() throws {
    if json && file == nil {
      throw ValidationError("--json needs a FILE: without one the OPML itself is the output")
    }
  }

  func run() throws {
    let outcome = try ExportSubscriptions(paths: libraryOptions.paths).run(
      includePrivate: includePrivate, to: file)
    let leftOut = outcome.leftOut
    if !leftOut.isEmpty {
      Console.error(
        "left out \(leftOut.count) private feed\(leftOut.count == 1 ? "" : "s") (\(leftOut.joined(separator: ", "))); --include-private writes them"
      )
    } else if outcome.holdsPrivateFeeds {
      Console.error(
        "warning: \(file ?? "the output") holds private feed URLs, which are passwords: keep it private"
      )
    }
    guard let file else {
      Console.write(outcome.document, to: STDOUT_FILENO)
      return
    }
    if let failure = outcome.writeFailure { throw failure }
    if json {
      Console.print(
        JSONValue.object([
          ("file", .string(file)), ("exported", .int(outcome.exported)),
          ("leftOut", .array(leftOut.map { .string($0) })),
        ]).rendered())
      return
    }
    Console.print(
      "Exported \(outcome.exported) subscription\(outcome.exported == 1 ? "" : "s") to \(file)."
    )
  }
}
