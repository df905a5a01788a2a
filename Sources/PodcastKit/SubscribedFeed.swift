import Feeds
import Foundation
import Model
import Source
import Store
import Transfer

/// A subscription's feed as `episodes` lists it: asked for with the validators of the
/// library's kept copy (`KeptFeeds`), so an unchanged feed costs a 304 and is read from the
/// copy, and a feed that cannot be had (no network, a server gone or failing) is listed from
/// the copy with a word on how old it is.
///
/// Of a paged feed (RFC 5005) the copy holds every page sync read (`FeedRefresher.copy`):
/// online, after page one's 304, the later pages are read from the server, as a listing of the
/// feed by URL reads them (kept later pages may be older than page one); offline, every kept
/// page is listed.
///
/// Only reads. A fresh feed (a 200) is listed but not kept: sync is the one writer of the
/// copies, so a copy and the validators sync sends keep agreeing, and the hourly sync stays
/// a 304 (a copy `episodes` replaced would no longer match them, and the next sync would fetch
/// the whole feed again); listing also stays possible on a read-only or full disk.
public struct SubscribedFeed: Sendable {
  /// Where the listed feed came from.
  public enum Origin: Sendable, Equatable {
    /// The feed as the server sent it now (also every FEED that is not a subscription).
    case server
    /// The server said the kept copy is current (304).
    case keptCopy
    /// The feed could not be had (`reason`), so the kept copy is listed: last known to be the
    /// feed as served at `checked`. `firstPageOnly`: the feed is paged, and the copy (page
    /// one) holds only the newest of its episodes.
    case keptCopyInstead(reason: String, checked: Date, firstPageOnly: Bool)
  }

  var resolved: ResolvedFeed
  var origin: Origin

  /// The feed of `subscription`, which is on the web. Throws what the fetch threw when there
  /// is no usable copy to fall back on. `readsPages`: whether a paged feed is read past page
  /// one (asked only of a feed that is paged).
  static func load(
    _ subscription: Subscription, loader: FeedLoader, keptFeeds: KeptFeeds,
    readsPages: () throws -> Bool
  ) async throws -> SubscribedFeed {
    // A copy that cannot be read counts as none: the listing then needs the network, as it
    // did before copies were kept.
    let copy = try? keptFeeds.copy(subscriptionId: subscription.id)
    // Its validators are sent only to the address the copy was kept for.
    let validators =
      copy.flatMap { $0.feed.feedURL == subscription.feedURL ? $0.feed.validators : nil }
      ?? Validators()
    let fetched: FeedLoader.Fetch
    do {
      fetched = try await loader.fetch(
        url: subscription.feedURL, validators: validators.isEmpty ? nil : validators)
    } catch {
      guard let copy, !Self.isCancellation(error) else { throw error }
      // Every page the copy holds, unless page one is all that is wanted.
      let severalPages = copy.feed.pages.count > 1
      let paged = severalPages ? try readsPages() : false
      guard let kept = try? Self.parse(copy.feed, allPages: paged) else { throw error }
      // A paged feed kept as its page one alone (a copy from before pages were kept).
      let firstPageOnly =
        !severalPages && kept.feed.pageLinks.next != nil ? try readsPages() : false
      return SubscribedFeed(
        resolved: kept,
        origin: .keptCopyInstead(
          reason: String(describing: error), checked: copy.checked,
          firstPageOnly: firstPageOnly))
    }
    var loaded: SubscribedFeed
    switch fetched {
    case .notModified:
      if let copy, let kept = try? Self.parse(copy.feed) {
        loaded = SubscribedFeed(resolved: kept, origin: .keptCopy)
      } else {
        // The copy failed its check after the server confirmed it (damaged on disk since it
        // was kept): the feed itself, whole.
        let whole = try await loader.fetchWhole(url: subscription.feedURL)
        loaded = SubscribedFeed(
          resolved: Self.resolved(whole.feed, url: whole.url, validators: whole.validators),
          origin: .server)
      }
    case .fetched(let feed, let url, let validators, _, _):
      loaded = SubscribedFeed(
        resolved: Self.resolved(feed, url: url, validators: validators), origin: .server)
    }
    if loaded.resolved.feed.pageLinks.next != nil, try readsPages() {
      let first = loaded.resolved
      let paged = await PagedFeedLoader(loader: loader).pages(
        first: first.feed, url: first.location, validators: first.validators,
        origin: subscription.feedURL)
      loaded.resolved.feed = paged.feed
      loaded.resolved.feed.podcast.feedURL = first.location
      loaded.resolved.pages = paged.pages
      loaded.resolved.pageProblem = paged.stop
      loaded.resolved.readToEnd = paged.readToEnd
    }
    return loaded
  }

  /// A fresh copy, located where it finally came from.
  private static func resolved(_ feed: Feed, url: String, validators: Validators) -> ResolvedFeed {
    var feed = feed
    feed.podcast.feedURL = url
    return ResolvedFeed(feed: feed, location: url, validators: validators)
  }

  /// The copy as a resolved feed, located where its page one came from (as a fetch of it
  /// would be, so downloads recorded from it are matched): page one, or with `allPages` every
  /// page it holds, put together as a paged read puts them.
  static func parse(_ copy: KeptFeed, allPages: Bool = false) throws -> ResolvedFeed {
    var feed =
      allPages ? try PagedFeedLoader.merged(copy.pageFeeds()) ?? copy.feed() : try copy.feed()
    let location = copy.pages.first?.url ?? copy.feedURL
    feed.podcast.feedURL = location
    return ResolvedFeed(feed: feed, location: location, validators: copy.validators)
  }

  /// Ctrl-C is not a network that is down.
  private static func isCancellation(_ error: any Error) -> Bool {
    if error is CancellationError { return true }
    if case .cancelled = error as? TransferError { return true }
    return false
  }
}
