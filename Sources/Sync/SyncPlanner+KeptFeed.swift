import Basics
import Model
import Source
import Store
import Transfer

/// Sync keeps the library's copy of each feed current (`KeptFeeds`): every whole feed it
/// fetches replaces the copy, and every 304 confirms it.
extension SyncPlanner {
  /// The validators a conditional request for the subscription sends: its own, but only while
  /// the library keeps the copy of the feed they belong to. Without that copy (a library
  /// older than kept copies, a copy lost or cut short, one `episodes` cannot use) a 304 would
  /// leave the feed uncopied for as long as it does not change, and a feed that never changes
  /// again (a show that ended) is the one whose copy matters most: so the whole feed is asked
  /// for once, and kept.
  func conditionalValidators(for subscription: Subscription) -> Validators {
    let own = Validators(etag: subscription.etag, lastModified: subscription.lastModified)
    guard !own.isEmpty, let id = subscription.id else { return own }
    let kept = keptFeeds.validators(subscriptionId: id, feedURL: subscription.feedURL)
    return kept == own ? own : Validators()
  }

  /// Keeps `documents` (the feed's pages as read, page one first) as the subscription's copy,
  /// with the validators the subscription is recorded with (none after a move: the next sync
  /// asks the new address for the whole feed). A paged feed's copy keeps every page: a first
  /// sync reads them all; a later one reads only as far as it must, and then
  /// (`keepingLaterPages`) the pages of the old copy after the ones it read stay behind them,
  /// so the copy still holds the whole archive, its later pages as of when they were read. (An
  /// episode pushed from one page to the next since then is on neither; `episodes` reads the
  /// later pages from the server whenever it can.) A copy that cannot be made or written is
  /// not a failed feed: everything the feed said has been used, and the next sync, finding no
  /// copy to match, fetches it whole and tries again.
  func keepCopy(
    _ documents: [FeedDocument], of subscription: Subscription, keepingLaterPages: Bool
  ) {
    guard let id = subscription.id, !documents.isEmpty,
      var pages = try? documents.map(KeptFeed.Page.init)
    else { return }
    if keepingLaterPages, let old = try? keptFeeds.copy(subscriptionId: id)?.feed,
      old.feedURL == subscription.feedURL
    {
      pages += old.pages.dropFirst(pages.count)
    }
    let copy = KeptFeed(
      feedURL: subscription.feedURL,
      validators: Validators(etag: subscription.etag, lastModified: subscription.lastModified),
      pages: pages)
    try? keptFeeds.keep(copy, subscriptionId: id)
  }

  /// The server said the copy is still the feed: it is that much younger.
  func confirmKeptCopy(of subscription: Subscription) {
    guard let id = subscription.id else { return }
    keptFeeds.confirm(subscriptionId: id)
  }
}
