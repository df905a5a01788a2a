import Basics
import Foundation

/// Why reading a paged feed stopped before its last page. Only the first two mean episodes
/// may be missing (`isFailure`); the others stop a chain that would never end, with every page
/// it really has read.
public enum FeedPageError: SentenceError {
  /// Page `page` (2 or later) could not be fetched or parsed.
  case unreadable(page: Int, url: String, reason: any Error)
  /// Page `page` is a different feed (another show), so the chain is broken there.
  case otherFeed(page: Int, url: String)
  /// Page `page` links to a page already read.
  case loop(page: Int, url: String)
  /// The chain goes on past `limit` pages.
  case tooManyPages(limit: Int, next: String)

  /// Whether `message`, a subscription's stored `lastError`, is the description of a failure
  /// of this kind: the library keeps the sentence, not the case, and only a failed page leaves
  /// a sync half done. The sentences of the failures begin so, and no other (the notes' do
  /// not; transfer, feed and library errors begin with a URL, a path or another word).
  public static func isPageFailure(_ message: String) -> Bool {
    message.hasPrefix("page ")
  }

  public var isFailure: Bool {
    switch self {
    case .unreadable, .otherFeed: return true
    case .loop, .tooManyPages: return false
    }
  }

  /// The page whose link was followed last (the one that failed, or the one that linked back).
  public var url: String {
    switch self {
    case .unreadable(_, let url, _), .otherFeed(_, let url), .loop(_, let url): return url
    case .tooManyPages(_, let next): return next
    }
  }

  public var description: String {
    switch self {
    case .unreadable(let page, let url, let reason):
      return "page \(page) of the feed: \(Self.subject(url, reason)); "
        + "its episodes and those of later pages are missing"
    case .otherFeed(let page, let url):
      return "page \(page) of the feed, \(url), is another feed; "
        + "its episodes and those of later pages are left out"
    case .loop(let page, let url):
      return "the feed's page \(page) links back to \(url), a page already read; "
        + "stopped there with every page read once"
    case .tooManyPages(let limit, let next):
      return "the feed has more than \(limit) pages; read the first \(limit) (the next is \(next))"
    }
  }
}

extension FeedPageError {
  /// `url: reason` once: transfer and feed errors start with the URL they fetched, which for a
  /// private feed's page is the link with the feed's credentials written in.
  fileprivate static func subject(_ url: String, _ reason: any Error) -> String {
    let text = String(describing: reason)
    if text.hasPrefix(url) { return text }
    if let colon = text.range(of: ": "),
      PagedFeedLoader.pageKey(String(text[..<colon.lowerBound])) == PagedFeedLoader.pageKey(url)
    {
      return url + text[colon.lowerBound...]
    }
    return "\(url): \(text)"
  }
}
