import Basics
import Library
import Source
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

  /// Keeps `documents` (the feed's pages as read, page one first) as the subscription's
  /// copy, with the validators the subscription is recorded with (none after a move: the next
  /// sync asks the new address for the whole feed). Sync gives it page one only: a later sync
  /// reads a paged feed only as far as it must, so later pages kept from an earlier run would
  /// no longer line up with page one (an episode pushed from page one to two would be on
  /// neither); `episodes` reads them from the server. A copy that cannot be made or written is
  /// not a failed feed: everything the feed said has been used, and the next sync, finding no
  /// copy to match, fetches it whole and tries again.
  func keepCopy(_ documents: [FeedDocument], of subscription: Subscription) {
    guard let id = subscription.id, !documents.isEmpty,
      let pages = try? documents.map(KeptFeed.Page.init)
    else { return }
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
