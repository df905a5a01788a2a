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
    let store = try libraryOptions.openStore()
    let all = try store.subscriptions()
    // A private feed's URL is its password: it leaves the library only when asked for.
    let subscriptions = includePrivate ? all : all.filter { !SecretMask.hasSecret($0.feedURL) }
    let leftOut = all.filter { !subscriptions.contains($0) }.map(\.name)
    if !leftOut.isEmpty {
      Console.error(
        "left out \(leftOut.count) private feed\(leftOut.count == 1 ? "" : "s") (\(leftOut.joined(separator: ", "))); --include-private writes them"
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
    // Created 0600 when it may hold private feeds' passwords, not chmod-ed after the write.
    if let code = AtomicFile.write(
      Data(document.utf8), to: file, mode: includePrivate ? 0o600 : 0o644,
      prefix: ".podcast-export-")
    {
      throw ExportError(file: file, reason: String(cString: strerror(code)))
    }
    if json {
      Console.print(
        JSONValue.object([
          ("file", .string(file)), ("exported", .int(subscriptions.count)),
          ("leftOut", .array(leftOut.map { .string($0) })),
        ]).rendered())
      return
    }
    Console.print(
      "Exported \(subscriptions.count) subscription\(subscriptions.count == 1 ? "" : "s") to \(file)."
    )
  }
}

struct ExportError: Error, CustomStringConvertible {
  var file: String
  var reason: String
  var description: String { "cannot write \(file): \(reason)" }
}
