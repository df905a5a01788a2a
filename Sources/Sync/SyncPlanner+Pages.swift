import Basics
import Feeds
import Model
import Source
import Transfer

extension SyncPlanner {
  /// A paged feed's later pages (RFC 5005), as far as this sync needs them; nil when the feed
  /// is not paged, or the run or the subscription reads page one only (`--no-pages`).
  ///
  /// A first sync reads every page, as does the run after one whose page failed: that run
  /// recorded the pages before it, so "nothing seen" would stop short of the episodes the
  /// failed page hid (a run that failed whole recorded nothing and needs no more than usual).
  /// Later syncs follow `next` only while a page holds nothing the library has seen: a normal
  /// run costs the one request for page one, and a run after a burst of new episodes reads
  /// just as far as it must.
  func pages(
    of first: Feed, url: String, validators: Validators, for subscription: Subscription,
    rules: SyncRules
  ) async throws -> FeedPages? {
    guard readsPages, rules.readsPages, first.pageLinks.next != nil,
      FeedLocation.isRemote(subscription.feedURL),
      let id = subscription.id
    else { return nil }
    var loader = PagedFeedLoader(loader: self.loader)
    loader.attempts = feedAttempts
    loader.retryDelay = feedRetryDelay
    loader.keepsDocuments = !dryRun
    if subscription.lastChecked == nil
      || subscription.lastError.map(FeedPageError.isPageFailure) == true
    {
      return await loader.pages(
        first: first, url: url, validators: validators, origin: subscription.feedURL)
    }
    let seen = Set(try store.seenEpisodes(subscriptionId: id).map(\.key))
    return await loader.pages(
      first: first, url: url, validators: validators, origin: subscription.feedURL,
      following: { page in
        !page.episodes.contains {
          seen.contains(
            EpisodeIdentity.key(
              guid: $0.guid, enclosureURL: $0.enclosure.url, title: $0.title,
              published: $0.published))
        }
      })
  }
}
