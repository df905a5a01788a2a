import ArgumentParser
import Foundation
import PodcastKit

struct Unsubscribe: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Stop following a subscription; its downloaded files stay unless --delete-files."
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(
    help: "Subscription name, unambiguous name prefix, or number.",
    completion: SubscriptionCompletion.names)
  var name: String

  @Flag(help: "Also delete the episodes downloaded for it.")
  var deleteFiles = false

  func run() throws {
    try CommandFailure.reported {
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
      var message = "Unsubscribed from \"\(subscription.name)\" (\(subscription.feedURL))"
      if deleteFiles {
        let outcome = DownloadedFiles.delete(files, paths: store.paths)
        outcome.failures.forEach { Console.error($0) }
        try store.forgetFinishedDownloads(
          files: files.filter { path in
            !FileManager.default.fileExists(atPath: path)
          })
        message += "; deleted \(outcome.deleted.count) file\(outcome.deleted.count == 1 ? "" : "s")"
        Console.print(message + ".")
        if !outcome.failures.isEmpty { throw ExitCode(1) }
      } else {
        Console.print(message + ".")
      }
    }
  }
}
