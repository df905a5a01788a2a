import ArgumentParser
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
    let outcome = try ImportSubscriptions(paths: libraryOptions.paths).run(file: file)
    let failed = outcome.failed.map {
      (feedURL: $0.feedURL, message: CommandFailure.message(for: $0.error))
    }
    for failure in failed {
      Console.error("cannot import \(failure.feedURL): \(failure.message)")
    }
    let added = outcome.added
    let skipped = outcome.alreadySubscribed
    if json {
      Console.print(
        JSONValue.object([
          ("added", .array(added.map { .url($0) })), ("alreadySubscribed", .int(skipped)),
          (
            "failed",
            .array(
              failed.map {
                .object([("feedURL", .url($0.feedURL)), ("error", .string($0.message))])
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
}
