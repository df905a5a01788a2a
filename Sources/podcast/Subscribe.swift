import ArgumentParser
import Foundation
import PodcastKit

struct Subscribe: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Follow a feed, so `podcast sync` downloads its new episodes."
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(help: "Feed URL (http or https) or local feed file.")
  var feed: String

  @Option(help: "Short name to refer to the subscription (default: derived from the feed).")
  var name: String?

  @Option(help: "Keep only the newest N downloaded episodes when syncing.")
  var keep: Int?

  func run() throws {
    try CommandFailure.reported {
      let location = try FeedLocation.subscribable(feed)
      let store = try libraryOptions.openStore()
      // TODO(lead): fetch title — fetch and parse the feed here (HTTPClient + FeedParser) to
      // store its title and to name the subscription after it instead of after the URL.
      let title: String? = nil
      let chosenName = try name ?? store.availableName(
        basedOn: SubscriptionName.guess(fromFeed: location))
      let subscription = try store.addSubscription(
        name: chosenName, feedURL: location, title: title, keep: keep)
      let number = try store.subscriptions().firstIndex { $0.id == subscription.id }.map { $0 + 1 }
      Console.print(
        "Subscribed to \(location) as \"\(subscription.name)\"\(number.map { " (number \($0))" } ?? "").")
    }
  }
}

/// What `subscribe` accepts as FEED, in the form stored in the library.
enum FeedLocation {
  static func subscribable(_ text: String) throws -> String {
    if let scheme = text.range(of: "://").map({ text[..<$0.lowerBound].lowercased() }) {
      guard scheme == "http" || scheme == "https", URL(string: text)?.host != nil else {
        throw FeedLocationError.unsupported(text)
      }
      // TODO(lead): resolve Apple Podcasts pages through the iTunes lookup API.
      return text
    }
    if text.lowercased().hasPrefix("itunes:") { throw FeedLocationError.unsupported(text) }
    var isDirectory: ObjCBool = false
    let path = URL(fileURLWithPath: text).standardizedFileURL.path
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else { throw FeedLocationError.noSuchFile(text) }
    return path
  }
}

enum FeedLocationError: Error, CustomStringConvertible {
  case unsupported(String)
  case noSuchFile(String)

  var description: String {
    switch self {
    case .unsupported(let text):
      return "cannot subscribe to \(text): give an http(s) feed URL or a feed file"
    case .noSuchFile(let text):
      return "cannot subscribe to \(text): no such file, and not an http(s) URL"
    }
  }
}
