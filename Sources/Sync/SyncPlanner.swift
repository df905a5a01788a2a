import Basics
import Downloads
import Feeds
import Fetching
import Foundation
import Model
import Selection
import SideFiles
import Source
import Store
import Tags
import Transfer

/// The cron job's first half: refresh subscriptions with conditional GETs and decide what to
/// download. The CLI runs the downloads (with its progress display; each episode is recorded
/// as it lands), then `SyncPruner` prunes.
public struct SyncPlanner: Sendable {
  let store: LibraryStore
  let loader: FeedLoader
  /// The last copy of each feed: kept current by every fetch, and what makes a request
  /// conditional (see `conditionalValidators`).
  let keptFeeds: KeptFeeds
  private let namer: FileNamer
  let dryRun: Bool
  /// The run's own filter (`sync --match ...`), on top of each subscription's.
  private let filter: EpisodePredicate?
  /// Tries per feed within one run, and the first pause between them (doubling).
  package var feedAttempts = 3
  package var feedRetryDelay: Duration = .seconds(1)
  /// `sync --write-feed`: every download keeps what the feed says of its episode (a
  /// subscription's own `--write-feed` does so for its downloads anyway).
  public var writesFeed = false
  /// `sync --info-json`: every download gets `<episode>.info.json` beside it.
  public var writesInfo = false
  /// False for `sync --no-pages`: paged feeds are read on their first page only this run.
  public var readsPages = true

  public init(
    store: LibraryStore, loader: FeedLoader, namer: FileNamer, dryRun: Bool,
    filter: EpisodePredicate? = nil
  ) {
    self.store = store
    self.loader = loader
    self.keptFeeds = KeptFeeds(paths: store.paths)
    self.namer = namer
    self.dryRun = dryRun
    self.filter = filter
  }

  /// Feed refreshes in flight when the run asks for `downloads` downloads at once (nil: the
  /// default). A refresh is one small request, mostly a 304, so its time is the round trip:
  /// at 80 ms, 8 at a time took 2.5 s for 200 feeds where 24 took 1.8 s and 48 take ~1 s.
  /// Twice the downloads when more are asked for, so `--concurrency` speeds up the refreshes
  /// too.
  public static func feedsInFlight(downloads: Int?) -> Int {
    max(48, 2 * (downloads ?? 0))
  }

  /// Refreshes of feeds on one host at once, as before (8 in flight allowed 4 per host); 6 per
  /// host made a loopback sync (one host, HTTP/1.1, CPU-bound) a fifth slower. A host seen to
  /// answer over HTTP/2 takes three times as many, as streams on its one connection
  /// (`CURLOPT_PIPEWAIT`): with a dozen hosts, 4 each held the run below its total.
  public static let feedsPerHost = 4

  /// Refreshes every subscription, `concurrency` feeds at a time and at most `perHost` from
  /// one server; one failing never stops the others. What every feed needs from the library
  /// (settings, marks, unfinished downloads) is read once, and what the run learned about the
  /// subscriptions is written once, at the end: per feed, only the feed's own episodes are
  /// read and written.
  ///
  /// `planned` hears each feed's part as soon as that feed is refreshed, its new episodes
  /// seen and queued in the library (so a download begun from it survives a kill), before
  /// the other feeds are in.
  public func plan(
    _ subscriptions: [Subscription], concurrency: Int = feedsInFlight(downloads: nil),
    perHost: Int = feedsPerHost, planned: @Sendable (SyncPlan) -> Void = { _ in }
  ) async -> SyncPlan {
    let snapshot: LibraryStore.SyncSnapshot
    do {
      snapshot = try store.syncSnapshot()
    } catch {
      return SyncPlan(
        feeds: subscriptions.map {
          .init(subscription: $0, outcome: .failed(error))
        })
    }
    if !dryRun { keptFeeds.removeAbandonedTemporaries() }
    let slots = HostSlots(total: concurrency, perHost: perHost)
    var parts = await withTaskGroup(of: (Int, SyncPlan).self) { group in
      for (index, subscription) in subscriptions.enumerated() {
        group.addTask {
          let host = MultiplexingServers.host(of: subscription.feedURL)
          await slots.acquire(host: host)
          let part = await self.refresh(subscription, snapshot: snapshot)
          await slots.release(host: host)
          return (index, part)
        }
      }
      var parts: [(Int, SyncPlan)] = []
      for await part in group {
        planned(part.1)
        parts.append(part)
      }
      return parts.sorted { $0.0 < $1.0 }.map(\.1)
    }
    if !dryRun { record(&parts, originals: subscriptions) }
    var plan = SyncPlan()
    for part in parts {
      plan.feeds += part.feeds
      plan.downloads += part.downloads
      plan.sideFileChecks += part.sideFileChecks
    }
    return plan
  }

  /// Saves every refreshed subscription in one transaction. A subscription that cannot be
  /// recorded becomes a failed feed with nothing to download, as it was before the run.
  private func record(_ parts: inout [SyncPlan], originals: [Subscription]) {
    let refreshed = parts.compactMap { $0.feeds.first?.subscription }
    let refused: [Int64: LibraryError]
    do {
      refused = try store.recordRefreshes(refreshed)
    } catch {
      for index in parts.indices {
        parts[index] = Self.unrecorded(originals[index], error: LibraryError(error))
      }
      return
    }
    guard !refused.isEmpty else { return }
    for (index, original) in originals.enumerated() {
      if let id = original.id, let error = refused[id] {
        parts[index] = Self.unrecorded(original, error: error)
      }
    }
  }

  private static func unrecorded(_ original: Subscription, error: LibraryError) -> SyncPlan {
    SyncPlan(
      feeds: [.init(subscription: original, outcome: .failed(SyncError.cannotRecordRefresh(error)))]
    )
  }

  private func refresh(_ original: Subscription, snapshot: LibraryStore.SyncSnapshot) async
    -> SyncPlan
  {
    var subscription = original
    var plan = SyncPlan()
    var pageProblem: FeedPageError?
    do {
      let rules = try rules(for: subscription, snapshot: snapshot)
      var fetched = try await fetch(subscription)
      if case .notModified = fetched, filter != nil,
        try !unfinishedDownloads(of: subscription, feed: nil, rules: rules, snapshot: snapshot)
          .isEmpty
      {
        // The run's own filter (`sync --match`) needs the full entries of the episodes still
        // waiting (those `subscribe` chose, say), which a 304 does not give.
        fetched = try await fetch(subscription, conditional: false)
      }
      switch fetched {
      case .notModified:
        if !dryRun { confirmKeptCopy(of: subscription) }
        plan.feeds.append(.init(subscription: subscription, outcome: .unchanged))
        plan.downloads = try unfinishedDownloads(
          of: subscription, feed: nil, rules: rules, snapshot: snapshot)
      case .fetched(let firstPage, let pageURL, let newValidators, let movedTo, let document):
        let paged = try await pages(
          of: firstPage, url: pageURL, validators: newValidators, for: subscription, rules: rules)
        let feed = paged?.feed ?? firstPage
        pageProblem = paged?.stop
        let movedFrom = try move(
          &subscription, redirectedTo: movedTo, newFeedURL: feed.podcast.newFeedURL)
        subscription.etag = movedFrom == nil ? newValidators.etag : nil
        subscription.lastModified = movedFrom == nil ? newValidators.lastModified : nil
        if subscription.title == nil { subscription.title = feed.podcast.title }
        var (fresh, alreadyHad) = try newEpisodes(in: feed, for: subscription, rules: rules)
        for index in fresh.indices {
          fresh[index].alreadyHad = alreadyHad.contains(fresh[index].job.url)
        }
        let freshURLs = Set(fresh.map(\.job.url))
        plan.downloads =
          try fresh
          + unfinishedDownloads(of: subscription, feed: feed, rules: rules, snapshot: snapshot)
          .filter { !freshURLs.contains($0.job.url) }
        if !dryRun {
          plan.sideFileChecks = try sideFileChecks(in: feed, for: subscription, rules: rules)
        }
        // An episode the library already has (`download` fetched it) is planned so the
        // subscription learns its file, but it is not news: the run reports it as skipped.
        let news = fresh.filter { !$0.alreadyHad }.count
        if !dryRun, let document {
          // Read short of the last page (as a later sync reads), the pages kept before stay
          // after the ones read now.
          keepCopy(
            [document] + (paged?.laterDocuments ?? []), of: subscription,
            keepingLaterPages: firstPage.pageLinks.next != nil && paged?.readToEnd != true)
        }
        let outcome: SyncPlan.FeedOutcome = news == 0 ? .unchanged : .updated(newEpisodes: news)
        plan.feeds.append(
          .init(
            subscription: subscription, outcome: outcome, movedFrom: movedFrom,
            imageURL: feed.podcast.imageURL))
      }
      subscription.lastChecked = Date()
      subscription.lastError = nil
      if let pageProblem, pageProblem.isFailure {
        // The pages read are planned; the feed failed. Without validators page one is read in
        // full next time, and the error left here has that run read every page again, so the
        // episodes the missing page hid are found (a first sync stays a first sync).
        subscription.lastChecked = original.lastChecked
        subscription.lastError = String(describing: pageProblem)
        subscription.etag = nil
        subscription.lastModified = nil
        plan.feeds[0].outcome = .failed(pageProblem)
      }
      plan.feeds[0].subscription = subscription
    } catch {
      subscription.lastError = String(describing: error)
      plan.feeds = [
        .init(subscription: subscription, outcome: .failed(error))
      ]
      plan.downloads = []
      plan.sideFileChecks = []
    }
    return plan
  }

  /// The feed's downloaded episodes that link a transcript or chapters (read only when the
  /// feed changed: a 304 names no new side file).
  private func sideFileChecks(in feed: Feed, for subscription: Subscription, rules: SyncRules)
    throws -> [SyncPlan.SideFileCheck]
  {
    guard let id = subscription.id,
      feed.episodes.contains(where: { !$0.transcripts.isEmpty || $0.chapters != nil })
    else { return [] }
    var files: [String: (key: String, file: String)] = [:]
    for seen in try store.seenEpisodes(subscriptionId: id) {
      guard let file = seen.downloadedFile else { continue }
      for key in seen.identityKeys { files[key] = (seen.key, file) }
    }
    var checks: [SyncPlan.SideFileCheck] = []
    for (offset, episode) in feed.episodes.enumerated()
    where !episode.transcripts.isEmpty || episode.chapters != nil {
      let keys = EpisodeIdentity.identityKeys(
        guid: episode.guid, enclosureURL: episode.enclosure.url, title: episode.title,
        published: episode.published)
      guard let found = keys.lazy.compactMap({ files[$0] }).first else { continue }
      let job = Self.plannedDownload(
        episode, podcast: feed.podcast, index: offset + 1, subscription: subscription,
        key: found.key, namer: rules.namer
      ).job
      checks.append(.init(job: job, file: found.file, subscriptionId: id))
    }
    return checks
  }

  private func rules(for subscription: Subscription, snapshot: LibraryStore.SyncSnapshot) throws
    -> SyncRules
  {
    try SyncRules(
      runFilter: filter,
      settings: subscription.id.flatMap { snapshot.settings[$0] } ?? SubscriptionSettings(),
      marks: snapshot.marks, defaultNamer: namer, runWritesFeed: writesFeed,
      runWritesInfo: writesInfo)
  }

  /// A conditional GET for feeds on the web (when the library keeps a copy to go with it);
  /// local feed files are simply read. A 5xx or a timeout is tried again within the run (a
  /// feed that failed once would otherwise wait for the next sync).
  private func fetch(_ subscription: Subscription, conditional: Bool = true) async throws
    -> FeedLoader.Fetch
  {
    guard FeedLocation.isRemote(subscription.feedURL) else {
      let feed = try loader.load(file: subscription.feedURL)
      return .fetched(
        feed, url: subscription.feedURL, validators: Validators(), movedTo: nil, document: nil)
    }
    return try await loader.fetch(
      url: subscription.feedURL,
      validators: conditional ? conditionalValidators(for: subscription) : Validators(),
      keepingDocument: !dryRun, attempts: feedAttempts, retryDelay: feedRetryDelay)
  }

  /// Follows a permanent redirect or the publisher's `itunes:new-feed-url`; returns the old URL.
  /// A move onto a feed another subscription already follows is refused with a failure that
  /// says so: taking it would break the one-subscription-per-feed rule, and ignoring it would
  /// repeat the move on every sync.
  private func move(_ subscription: inout Subscription, redirectedTo: String?, newFeedURL: String?)
    throws -> String?
  {
    let target = redirectedTo ?? newFeedURL.flatMap { URLPolicy.isAllowed($0) ? $0 : nil }
    guard let target, target != subscription.feedURL else { return nil }
    if let other = try store.subscriptionName(feedURL: target, except: subscription.id) {
      throw SyncError.movedToSubscribedFeed(url: target, name: other)
    }
    let old = subscription.feedURL
    subscription.feedURL = target
    return old
  }

  /// Episodes never seen before that pass the filters and are not marked. On a subscription's
  /// first sync only the newest is wanted (or what its `--first` policy says), so subscribing
  /// to a 700-episode feed does not fetch 700 files. Filtered-out episodes are still recorded
  /// as seen: a later change of filter applies to what is published after it.
  ///
  /// Also returns the URLs of those the library already has (`download` fetched them), found
  /// in the same transaction.
  private func newEpisodes(in feed: Feed, for subscription: Subscription, rules: SyncRules) throws
    -> (planned: [SyncPlan.PlannedDownload], alreadyHad: Set<String>)
  {
    guard let id = subscription.id else { return ([], []) }
    let seen = feed.episodes.map {
      SeenEpisode(
        subscriptionId: id, guid: $0.guid, enclosureURL: $0.enclosure.url, title: $0.title,
        published: $0.published)
    }
    // Never synced, and nothing recorded by `subscribe` either (`hadNone`): the backlog rule
    // applies.
    let wanted = { (added: [SeenEpisode], hadNone: Bool) -> [SyncPlan.PlannedDownload] in
      let chosen = rules.selection(
        of: feed.episodes, keys: seen.map(\.key), added: Set(added.map(\.key)),
        // A first sync that failed part way (a page of a paged feed) is finished as one.
        firstRefresh: subscription.lastChecked == nil
          && (hadNone || subscription.lastError.map(FeedPageError.isPageFailure) == true))
      // Every key each one answers to, so that a file `download` fetched before the feed
      // gave the episode a GUID (or moved its link) is found; worked out only when something
      // is chosen.
      let keys = chosen.isEmpty ? [] : EpisodeIdentity.distinctKeys(of: feed.episodes)
      return chosen.map { offset in
        Self.plannedDownload(
          feed.episodes[offset], podcast: feed.podcast, index: offset + 1,
          subscription: subscription, key: seen[offset].key, otherKeys: keys[offset],
          namer: rules.namer, archive: rules.writesFeed, info: rules.writesInfo)
      }
    }
    if dryRun {
      // What the real run would count as new, without writing it.
      let stored = try store.seenEpisodes(subscriptionId: id)
      let planned = wanted(LibraryStore.classify(seen, stored: stored).added, stored.isEmpty)
      return (planned, try Set(planned.filter(alreadyHad).map(\.job.url)))
    }
    var planned: [SyncPlan.PlannedDownload] = []
    // Seen and queued in one transaction: a run killed at any moment either saw nothing new
    // or left the downloads queued for the next run. Queued for this process, which downloads
    // every job it plans: the download manager need not queue them again (one transaction a
    // feed fewer on the library's one writer), and a run killed before one begins leaves it
    // paused, as the manager's queue did.
    let pid = ProcessInfo.processInfo.processIdentifier
    let recorded = try store.recordSeen(subscriptionId: id, episodes: seen) { added, hadNone in
      planned = wanted(added, hadNone)
      return planned.map { $0.job.queued(pid: pid) }
    }
    for (index, key) in recorded.keys.enumerated() { planned[index].job.queuedAs = key }
    return (planned, recorded.alreadyHad)
  }

  private func alreadyHad(_ planned: SyncPlan.PlannedDownload) throws -> Bool {
    try store.finishedDownload(
      url: planned.job.url, keys: planned.job.identityKeys, feedURL: planned.job.feedURL) != nil
  }

  /// Downloads an earlier sync wanted but did not finish (failed, interrupted, killed).
  /// `snapshot` has the unfinished download rows as the run started; the ones this run
  /// queues are its fresh downloads, which the caller has already.
  private func unfinishedDownloads(
    of subscription: Subscription, feed: Feed?, rules: SyncRules,
    snapshot: LibraryStore.SyncSnapshot
  ) throws -> [SyncPlan.PlannedDownload] {
    guard let id = subscription.id, !snapshot.unfinished.isEmpty else { return [] }
    let podcast = feed?.podcast ?? Podcast(title: subscription.title, feedURL: subscription.feedURL)
    // Looked up by URL, else by key, once per waiting episode: the first listing of each, as
    // `firstIndex` found it, without a scan of the feed per episode.
    var byURL: [String: Int] = [:]
    var byKey: [String: Int] = [:]
    for (offset, listed) in (feed?.episodes ?? []).enumerated() {
      if byURL[listed.enclosure.url] == nil { byURL[listed.enclosure.url] = offset }
      let key = EpisodeIdentity.key(
        guid: listed.guid, enclosureURL: listed.enclosure.url, title: listed.title,
        published: listed.published)
      if byKey[key] == nil { byKey[key] = offset }
    }
    return try store.undownloadedEpisodes(subscriptionId: id).compactMap {
      seen -> SyncPlan.PlannedDownload? in
      guard seen.downloadedFile == nil, let seenURL = seen.enclosureURL,
        let waiting = snapshot.unfinishedDownload(
          feedURL: subscription.feedURL, episodeKey: seen.key, url: seenURL),
        rules.marks[seen.key] == nil
      else {
        return nil
      }
      // Where the download's row points now (a `download` run may have moved it).
      let url = waiting.url
      let index = byURL[url] ?? byURL[seenURL] ?? byKey[seen.key]
      // Listed in the feed: the filters (this run's, the subscription's as it is now) apply.
      if let index, let listed = feed?.episodes[index], !rules.passes(listed) { return nil }
      var episode =
        index.flatMap { feed?.episodes[$0] }
        ?? Episode(
          guid: seen.guid, title: seen.title, published: seen.published,
          enclosure: Enclosure(url: url))
      // The feed links the episode elsewhere now (signed links rotate): the download, begun
      // or not, moves to the fresh link with its validators, and its partial file (named after
      // the episode) resumes there; one another process is fetching now keeps its own.
      if episode.enclosure.url != url, !dryRun,
        try store.relinkDownload(waiting.key, to: episode.enclosure.url, seen: seen)?.url
          != episode.enclosure.url
      {
        episode.enclosure.url = url
      }
      // Made from what the library remembers (not listed in the feed as read): no archive,
      // the row's own (if any) stays; an info file of what the row knows, unless its details
      // say more (below).
      var planned = Self.plannedDownload(
        episode, podcast: podcast, index: (index ?? 0) + 1, subscription: subscription,
        key: seen.key, namer: rules.namer, archive: rules.writesFeed && index != nil,
        info: rules.writesInfo)
      // Not in the feed as read (a 304, or gone from it): the details kept with the row make
      // it the download the feed described when it was queued.
      if index == nil, let details = waiting.details.flatMap(DownloadDetails.init(encoded:)) {
        planned.job = details.applied(to: planned.job)
        // For a row queued before the feed was asked for: what the details say of it.
        if rules.writesFeed { planned.job.archive = details.archive(guid: seen.guid) }
        // The info file as the feed described the episode when it was queued (kept when that
        // run wanted one), else what the details say; none when no longer asked for.
        planned.job.info =
          rules.writesInfo
          ? planned.job.info ?? details.info(of: episode, podcast: podcast) : nil
      }
      return planned
    }
  }

  /// `key` is the subscription's own key for the episode (its episodes table already decided
  /// what is one episode); `otherKeys` the rest it answers to in the feed, none shared with
  /// another of the feed's episodes (`EpisodeIdentity.distinctKeys`).
  package static func plannedDownload(
    _ episode: Episode, podcast: Podcast, index: Int, subscription: Subscription, key: String,
    otherKeys: [String] = [], namer: FileNamer, archive: Bool = false, info: Bool = false
  ) -> SyncPlan.PlannedDownload {
    var podcast = podcast
    if podcast.title == nil { podcast.title = subscription.title ?? subscription.name }
    let job = DownloadJob(
      url: episode.enclosure.url, title: episode.title, podcastTitle: podcast.title,
      relativePath: namer.relativePath(for: episode, podcast: podcast, index: index),
      mimeType: episode.enclosure.type, declaredLength: episode.enclosure.length,
      feedURL: subscription.feedURL,
      identityKeys: [key] + otherKeys.filter { $0 != key },
      subscriptionEpisode: SubscriptionEpisode(subscriptionId: subscription.id ?? 0, key: key),
      tagging: TagRequest(podcast: podcast, episode: episode), folderCoverURL: podcast.imageURL,
      transcripts: episode.transcripts, chaptersURL: episode.chapters?.url,
      published: episode.published,
      archive: archive ? ArchivedEpisode(podcast: podcast, episode: episode) : nil,
      info: info ? EpisodeInfo(episode: episode, podcast: podcast) : nil)
    return SyncPlan.PlannedDownload(job: job, subscriptionId: subscription.id ?? 0)
  }
}
