import ArgumentParser
import Foundation
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
    let store = try libraryOptions.openStore()
    let subscription = try store.subscription(matching: name)
    guard let id = subscription.id else { return }
    // What sync recorded for it, and what `download` fetched from its feed.
    let files = Array(
      Set(
        try store.seenEpisodes(subscriptionId: id).compactMap(\.downloadedFile)
          + store.finishedFiles(feedURL: subscription.feedURL))
    ).sorted()
    try store.removeSubscription(id: id)
    var deleted: [String] = []
    var failures: [LibraryError] = []
    if deleteFiles {
      let outcome = DownloadedFiles.delete(files, paths: store.paths)
      deleted = outcome.deleted
      failures = outcome.failures
      for failure in failures { Console.error(failure) }
      try store.forgetFinishedDownloads(
        files: files.filter { path in
          !FileManager.default.fileExists(atPath: path)
        })
      // Another podcast can share the folder; a folder left empty is gone with its playlist.
      for failure in FolderPlaylist.update(
        foldersOf: deleted, episodesDirectories: [store.paths.episodes], store: store)
      {
        Console.error(String(describing: failure))
      }
    }
    if json {
      Console.print(
        JSONValue.object([
          ("name", .string(subscription.name)), ("feedURL", .url(subscription.feedURL)),
          ("deleted", .array(deleted.map { .string($0) })),
          ("failed", .array(failures.map { .string(CommandFailure.message(for: $0)) })),
        ]).rendered())
    } else {
      var message = "Unsubscribed from \"\(subscription.name)\" (\(subscription.feedURL))"
      if deleteFiles {
        message += "; deleted \(deleted.count) file\(deleted.count == 1 ? "" : "s")"
      }
      Console.print(message + ".")
    }
    if !failures.isEmpty { throw ExitCode.failure }
  }
}
