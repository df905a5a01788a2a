import Basics
import Foundation

/// A reference to a show in Apple's catalogue, as users paste it: an Apple Podcasts page
/// (`https://podcasts.apple.com/us/podcast/some-show/id123456789`, also the older
/// `itunes.apple.com` pages and episode links with `?i=`) or the short form `itunes:123456789`.
/// It yields the show's iTunes id; `ITunesClient.feedURL(forPodcastID:)` turns that into a feed.
public struct ApplePodcastsLink: Sendable, Equatable {
  public let podcastID: Int

  /// `nil` when `text` is not an Apple Podcasts reference, so callers can try other readings.
  /// An apple.com URL without a show id (Apple hosts some feeds there) is not one either.
  public init?(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if let id = ApplePodcastsLink.idInShortForm(trimmed) ?? ApplePodcastsLink.idInPageURL(trimmed) {
      podcastID = id
    } else {
      return nil
    }
  }

  public init(podcastID: Int) {
    self.podcastID = podcastID
  }

  /// The short form the CLI prints in search results.
  public var shortForm: String { "itunes:\(podcastID)" }

  private static func idInShortForm(_ text: String) -> Int? {
    let prefix = "itunes:"
    guard text.lowercased().hasPrefix(prefix) else { return nil }
    return positiveNumber(text.dropFirst(prefix.count))
  }

  /// The show id is the `id<digits>` path segment; an episode link's `?i=` names the episode,
  /// not the show, so it is ignored. Old store links may carry the id as `?id=` instead.
  private static func idInPageURL(_ text: String) -> Int? {
    guard let components = URLComponents(string: text),
      let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
      let host = components.host?.lowercased(), host == "apple.com" || host.hasSuffix(".apple.com")
    else { return nil }
    let segments = components.path.split(separator: "/")
    for segment in segments.reversed() where segment.hasPrefix("id") {
      if let id = positiveNumber(segment.dropFirst(2)) { return id }
    }
    let idItem = components.queryItems?.first { $0.name == "id" }
    return idItem?.value.flatMap { positiveNumber(Substring($0)) }
  }

  private static func positiveNumber(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }),
      let number = Int(text), number > 0
    else { return nil }
    return number
  }
}
