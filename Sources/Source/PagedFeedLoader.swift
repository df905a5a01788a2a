import Basics
import Feeds
import Foundation
import Privacy
import Transfer

/// Follows a paged feed's `rel="next"` links (RFC 5005) from its first page, one page at a
/// time and in order, and puts the pages together as one feed.
///
/// Guards against what a broken chain does: a page read twice (a loop) ends the chain; a page
/// that is another show ends it before that page; an episode listed again on a later page (one
/// was published while the chain was read, so everything moved down a place) is kept once; and
/// past `pageLimit` pages it stops and says so. A page that fails ends the chain with the
/// episodes of the pages before it.
public struct PagedFeedLoader: Sendable {
  /// Pages read at most: above any real archive (a 20,000-episode show at 50 a page is 400
  /// pages), low enough that a generator linking page N to N+1 forever ends.
  public static let defaultPageLimit = 500

  /// Whether to read the page after one just read: false stops after it.
  public typealias Continuation = @Sendable (_ page: Feed) -> Bool

  private let loader: FeedLoader
  package var pageLimit = PagedFeedLoader.defaultPageLimit
  /// When a page is tried again: sync gives a page what it gives a feed's first, so a passing
  /// 503 on page 3 does not fail the feed until next run.
  public var retry = RetryPolicy.once
  /// Whether the later pages' documents come back as served (`FeedPages.laterDocuments`), for
  /// the library's copy of the feed.
  public var keepsDocuments = false

  public init(loader: FeedLoader) {
    self.loader = loader
  }

  /// The whole feed, starting with its already fetched first page (`first`, read from `url`
  /// with `validators`). `origin` is the feed URL as the user or subscription gives it: its
  /// credentials (userinfo) go to later pages on the same host, as they go to the first.
  /// `following` decides after each page whether to read the next (all of them by default).
  public func pages(
    first: Feed, url: String, validators: Validators, origin: String,
    following: Continuation = { _ in true }
  ) async -> FeedPages {
    var pages = [
      FeedPages.Page(url: url, validators: validators, episodeCount: first.episodes.count)
    ]
    var merger = PageMerger(first: first)
    var documents: [FeedDocument] = []
    var seenPages: Set<String> = [Self.pageKey(origin), Self.pageKey(url)]
    var stop: FeedPageError?
    // Whether a page after the last one read is linked: the chain was not read to its end.
    var more = first.pageLinks.next != nil
    var next = following(first) ? first.pageLinks.next : nil
    while let link = next {
      next = nil
      let number = pages.count + 1
      guard pages.count < pageLimit else {
        stop = .tooManyPages(limit: pageLimit, next: Self.shown(link))
        break
      }
      guard seenPages.insert(Self.pageKey(link)).inserted else {
        stop = .loop(page: number - 1, url: Self.shown(link))
        break
      }
      let page: Feed
      let pageURL: String
      let pageValidators: Validators
      do {
        try URLPolicy.check(link)
        // Tried again as a sync tries page one, so a passing 503 on page 3 does not fail it.
        let fetched = try await loader.fetchWhole(
          url: Self.withCredentials(of: origin, link), keepingDocument: keepsDocuments,
          retry: retry)
        (page, pageURL, pageValidators) = (fetched.feed, fetched.url, fetched.validators)
        if let document = fetched.document { documents.append(document) }
      } catch {
        stop = .unreadable(page: number, url: Self.shown(link), reason: error)
        break
      }
      let finalKey = Self.pageKey(pageURL)
      if finalKey != Self.pageKey(link), !seenPages.insert(finalKey).inserted {
        // Redirected onto a page already read.
        stop = .loop(page: number - 1, url: Self.shown(link))
        break
      }
      guard Self.isSameFeed(page, as: first) else {
        stop = .otherFeed(page: number, url: Self.shown(link))
        break
      }
      pages.append(
        .init(url: pageURL, validators: pageValidators, episodeCount: page.episodes.count))
      merger.add(page)
      more = page.pageLinks.next != nil
      if following(page) { next = page.pageLinks.next }
    }
    if case .loop = stop { more = false }
    var read = FeedPages(feed: merger.merged, pages: pages, stop: stop)
    read.readToEnd = !more
    read.laterDocuments = documents
    return read
  }

  /// The same page whatever its userinfo or fragment, and however its scheme and host are cased.
  static func pageKey(_ url: String) -> String {
    guard var components = URLComponents(string: url) else { return url }
    components.user = nil
    components.password = nil
    components.fragment = nil
    components.scheme = components.scheme?.lowercased()
    components.host = components.host?.lowercased()
    return components.string ?? url
  }

  /// A later page is another show when what identifies a show differs: its Podcasting 2.0
  /// GUID, else its `rel="first"` link, else its title (one a prefix of the other still
  /// agrees). A page that omits one is given the benefit of the doubt.
  private static func isSameFeed(_ page: Feed, as first: Feed) -> Bool {
    if let one = first.podcast.podcastGUID, let other = page.podcast.podcastGUID {
      return one == other
    }
    if let one = first.pageLinks.first, let other = page.pageLinks.first {
      return pageKey(one) == pageKey(other)
    }
    // Some generators add the page to the title ("Show – Page 2").
    if let one = first.podcast.title, let other = page.podcast.title {
      return other.hasPrefix(one) || one.hasPrefix(other)
    }
    return true
  }

  /// A link as messages name it: a relative link resolved against a private feed's page
  /// carries the feed's user name and password, which say nothing about the page.
  private static func shown(_ link: String) -> String {
    guard var components = URLComponents(string: link), components.user != nil else { return link }
    components.user = nil
    components.password = nil
    return components.string ?? link
  }

  /// `link` with the credentials written into `origin` when it is on the same scheme, host and
  /// port, as the first page is fetched; never for another host.
  private static func withCredentials(of origin: String, _ link: String) -> String {
    FeedCredentials.forEnclosure(link, feedURL: origin)?.applied(to: link) ?? link
  }
}
