import Basics
import Feeds
import Model
import Source
import Store
import Transfer

/// The refresh part of a sync: one subscription's feed as its server has it now. A
/// conditional request (with validators only while the library keeps the copy they belong to),
/// tried again as `RetryPolicy` says; a paged feed's later pages, as far as this run needs
/// them; where the feed moved; and the copy of it the library is to keep (`KeptFeeds`), which
/// the feed's record replaces with every whole feed fetched and confirms with every 304.
struct FeedRefresher: Sendable {
  let store: LibraryStore
  let loader: FeedLoader
  /// What every kept copy was fetched with, as the run began.
  let keptValidators: [Int64: LibraryStore.KeptValidators]
  /// `sync --dry-run`: nothing is kept.
  let dryRun: Bool
  let retry: RetryPolicy
  /// False for `sync --no-pages`: paged feeds are read on their first page only this run.
  let readsPages: Bool

  /// A conditional GET for feeds on the web (when the library keeps a copy to go with it);
  /// local feed files are simply read. A 5xx or a timeout is tried again within the run (a
  /// feed that failed once would otherwise wait for the next sync).
  /// `answered`: the answer to the first request, already made (`startConditional`).
  func fetch(
    _ subscription: Subscription, conditional: Bool = true,
    answered: Result<HTTPResponse, Error>? = nil
  ) async throws -> FeedLoader.Fetch {
    guard FeedLocation.isRemote(subscription.feedURL) else {
      let feed = try loader.load(file: subscription.feedURL)
      return .fetched(
        feed, url: subscription.feedURL, validators: Validators(), movedTo: nil, document: nil)
    }
    return try await loader.fetch(
      url: subscription.feedURL,
      validators: conditional ? conditionalValidators(for: subscription) : Validators(),
      keepingDocument: !dryRun, retry: retry, answered: answered)
  }

  /// Starts the conditional request for a feed on the web with validators to send, without a
  /// task waiting for it (`FeedLoader.start`); false, starting nothing, for any other (a local
  /// file, a feed asked for whole), which only `fetch` reads.
  func startConditional(
    _ subscription: Subscription,
    completion: @escaping @Sendable (Result<HTTPResponse, Error>) -> Void
  ) -> Bool {
    let validators = conditionalValidators(for: subscription)
    guard !validators.isEmpty, FeedLocation.isRemote(subscription.feedURL) else { return false }
    loader.start(url: subscription.feedURL, validators: validators, completion: completion)
    return true
  }

  /// The validators a conditional request for the subscription sends: its own, but only while
  /// the library keeps the copy of the feed they belong to. Without that copy (a library
  /// older than kept copies, a copy lost or cut short, one `episodes` cannot use) a 304 would
  /// leave the feed uncopied for as long as it does not change, and a feed that never changes
  /// again (a show that ended) is the one whose copy matters most: so the whole feed is asked
  /// for once, and kept.
  func conditionalValidators(for subscription: Subscription) -> Validators {
    let own = Validators(etag: subscription.etag, lastModified: subscription.lastModified)
    guard !own.isEmpty else { return own }
    let kept = keptValidators[subscription.id]
    return kept?.feedURL == subscription.feedURL && kept?.validators == own ? own : Validators()
  }

  /// A paged feed's later pages (RFC 5005), as far as this sync needs them; nil when the feed
  /// is not paged, or the run or the subscription reads page one only (`--no-pages`).
  ///
  /// A first sync reads every page, as does the run after one whose page failed: that run
  /// recorded the pages before it, so "nothing seen" would stop short of the episodes the
  /// failed page hid (a run that failed whole recorded nothing and needs no more than usual).
  /// Later syncs follow `next` only while a page holds nothing the library has seen (`stored`):
  /// a normal run costs the one request for page one, and a run after a burst of new episodes
  /// reads just as far as it must.
  func pages(
    of first: Feed, url: String, validators: Validators, for subscription: Subscription,
    rules: SyncRules, stored: [SeenEpisode]
  ) async -> FeedPages? {
    guard readsPages, rules.readsPages, first.pageLinks.next != nil,
      FeedLocation.isRemote(subscription.feedURL)
    else { return nil }
    var loader = PagedFeedLoader(loader: self.loader)
    loader.retry = retry
    loader.keepsDocuments = !dryRun
    if subscription.lastChecked == nil
      || subscription.lastError.map(FeedPageError.isPageFailure) == true
    {
      return await loader.pages(
        first: first, url: url, validators: validators, origin: subscription.feedURL)
    }
    let seen = Set(stored.map(\.key))
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

  /// Follows a permanent redirect or the publisher's `itunes:new-feed-url`; returns the old URL.
  /// A move onto a feed another subscription already follows is refused with a failure that
  /// says so: taking it would break the one-subscription-per-feed rule, and ignoring it would
  /// repeat the move on every sync.
  func move(_ subscription: inout Subscription, redirectedTo: String?, newFeedURL: String?)
    throws -> String?
  {
    let target = redirectedTo ?? newFeedURL.flatMap { URLPolicy.isAllowed($0) ? $0 : nil }
    guard let target, target != subscription.feedURL else { return nil }
    if let other = try Subscriptions(store: store).name(following: target, except: subscription.id)
    {
      throw SyncError.movedToSubscribedFeed(url: target, name: other)
    }
    let old = subscription.feedURL
    subscription.feedURL = target
    return old
  }

  /// The copy to keep of `documents` (the feed's pages as read, page one first), with the
  /// validators the subscription is recorded with (none after a move: the next sync asks the
  /// new address for the whole feed). A paged feed's copy keeps every page: a first sync reads
  /// them all; a later one reads only as far as it must, and then (`keepingLaterPages`) the
  /// pages of the old copy after the ones it read stay behind them, so the copy still holds
  /// the whole archive, its later pages as of when they were read. (An episode pushed from one
  /// page to the next since then is on neither; `episodes` reads the later pages from the
  /// server whenever it can.) Nil for a copy that cannot be made: that is not a failed feed,
  /// everything the feed said has been used, and the next sync, finding no copy to match,
  /// fetches it whole and tries again.
  func copy(
    of documents: [FeedDocument], for subscription: Subscription, keepingLaterPages: Bool
  ) -> KeptFeed? {
    guard !dryRun, !documents.isEmpty, var pages = try? documents.map(KeptFeed.Page.init)
    else { return nil }
    if keepingLaterPages,
      let old = try? KeptFeeds(store: store).copy(subscriptionId: subscription.id)?.feed,
      old.feedURL == subscription.feedURL
    {
      pages += old.pages.dropFirst(pages.count)
    }
    return KeptFeed(
      feedURL: subscription.feedURL,
      validators: Validators(etag: subscription.etag, lastModified: subscription.lastModified),
      pages: pages)
  }
}
