import ArgumentParser
import PodcastKit

struct Unsubscribe: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "unsubscribe",
    abstract: "Stop following a subscription; its downloaded files stay unless --delete-files."
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(
    help: "Subscription name, unambiguous name prefix, or number.",
    completion: SubscriptionCompletion.names)
  var name: String

  @Flag(help: "Also delete the episodes downloaded for it.")
  var deleteFiles = false

  @Flag(help: "Print what was done as JSON: {name, feedURL, deleted, failed}.")
  var json = false

  func run() throws {
    let outcome = try RemoveSubscription(paths: libraryOptions.paths).run(
      name: name, deleteFiles: deleteFiles)
    let subscription = outcome.subscription
    for failure in outcome.failures { Console.error(failure) }
    for failure in outcome.playlistFailures { Console.error(String(describing: failure)) }
    if json {
      Console.print(
        JSONValue.object([
          ("name", .string(subscription.name)), ("feedURL", .url(subscription.feedURL)),
          ("deleted", .array(outcome.deleted.map { .string($0) })),
          ("failed", .array(outcome.failures.map { .string(CommandFailure.message(for: $0)) })),
        ]).rendered())
    } else {
      var message = "Unsubscribed from \"\(subscription.name)\" (\(subscription.feedURL))"
      if deleteFiles {
        let deleted = outcome.deleted.count
        message += "; deleted \(deleted) file\(deleted == 1 ? "" : "s")"
      }
      Console.print(message + ".")
    }
    if !outcome.failures.isEmpty { throw ExitCode.failure }
  }
}
