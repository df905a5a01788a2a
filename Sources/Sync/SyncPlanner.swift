import Basics
import Downloads
import Feeds
import Fetching
import Foundation
import Model
import Selection
import Source
import Store
import Transfer

/// The cron job's first half: each subscription's feed refreshed (`FeedRefresher`), what it
/// calls for planned (`FeedPlanner`, jobs made as `DownloadJob.init(episode:...)` makes them)
/// and written to the library (`FeedRecord`), then handed on as soon as it is: sync's download
/// manager starts on it while the other feeds are still coming in, and `SyncPruner` prunes
/// once all are done.
public struct SyncPlanner: Sendable {
  let store: LibraryStore
  let loader: FeedLoader
  private let namer: FileNamer
  let dryRun: Bool
  /// The run's own filter (`sync --match ...`), on top of each subscription's.
  private let filter: EpisodePredicate?
  /// When a feed (or a page of one) is tried again within the run: as an episode is.
  package var feedRetry = RetryPolicy()
  /// `sync --write-feed`: every download keeps what the feed says of its episode (a
  /// subscription's own `--write-feed` does so for its downloads anyway).
  public var writesFeed = false
  /// `sync --info-json`: every download gets `<episode>.info.json` beside it.
  public var writesInfo = false
  /// False for `sync --no-pages`: paged feeds are read on their first page only this run.
  public var readsPages = true
  /// Feeds read whole this run, without validators: those whose episodes a run that died may
  /// have left without their side files (`RunMark.feedsOfDeadRuns`), which only a feed read
  /// whole names.
  package var readsWhole: Set<String> = []

  public init(
    store: LibraryStore, loader: FeedLoader, namer: FileNamer, dryRun: Bool,
    filter: EpisodePredicate? = nil
  ) {
    self.store = store
    self.loader = loader
    self.namer = namer
    self.dryRun = dryRun
    self.filter = filter
  }

  /// Feed refreshes in flight when the run asks for `downloads` downloads at once (nil: the
  /// default). A refresh is one small request, mostly a 304, so its time is the round trip:
  /// at 80 ms, 8 at a time took 2.5 s for 200 feeds where 24 took 1.8 s, 48 ~1 s and 96
  /// ~0.9 s (12 servers: each still gets no more than its share, `feedsPerHost`). Twice the
  /// downloads when more are asked for, so `--concurrency` speeds up the refreshes too.
  public static func feedsInFlight(downloads: Int?) -> Int {
    max(96, 2 * (downloads ?? 0))
  }

  /// Refreshes of feeds on one host at once: its connections, over HTTP/1.1 with keep-alive,
  /// each waiting a round trip per feed; thousands of feeds on one hosting platform are
  /// common. Against nginx on loopback, a warm sync of 10,000 feeds took 1.40 s at 4, 1.29 s
  /// at 8 and 1.19 s at 16, and nginx's CPU was the same for all three (0.45 s): a connection
  /// more costs such a server a socket, not work. 8 stays near what browsers open to a host
  /// (6), which servers that count connections per client expect. A host seen to answer over
  /// HTTP/2 takes three times as many, as streams on its one connection (`CURLOPT_PIPEWAIT`):
  /// with a dozen hosts, 4 each held the run below its total.
  public static let feedsPerHost = 8

  /// Refreshes every subscription, `concurrency` feeds at a time and at most `perHost` from
  /// one server; one failing never stops the others. What every feed needs from the library
  /// (settings, marks, unfinished downloads) is read once; per feed, only its own episodes are
  /// read, and what it changes is written in one short transaction, shared with the other
  /// feeds that are ready at the same moment (`Rounds`).
  ///
  /// `planned` hears each feed's part but a 304's (below), with the subscription's place in
  /// `subscriptions`, as soon as that feed is refreshed and recorded, its new episodes seen and
  /// queued in the library (so a download begun from it survives a kill), before the others;
  /// what it returns of the part is what the answer keeps (all of it unless told otherwise),
  /// so a caller that hands the downloads on as they come keeps none of them. Feeds wait for
  /// their server's turn as values, not as tasks (`FeedTurns`), and a feed's place is held
  /// until `planned` returns: planning runs only as far ahead of a slow `planned` as
  /// `concurrency` feeds.
  ///
  /// One loop starts every feed. A feed asked conditionally gets no task: its request is
  /// started (`FeedRefresher.startConditional`) and its answer heard on the transfer thread,
  /// which records a 304 there and then (`unchanged`) and starts the feeds after it;
  /// anything else (a changed feed, an error to try again) goes to the loop, which gives it a
  /// task of its own with the answer it got. A warm sync's thousands of 304s cost a request
  /// and a row each, not a task, a continuation or a hand-over between threads. Such a part
  /// has no downloads and is kept as it is: `planned` hears only the parts of feeds that
  /// had a task.
  public func plan(
    _ subscriptions: [Subscription], concurrency: Int = feedsInFlight(downloads: nil),
    perHost: Int = feedsPerHost,
    planned: @escaping @Sendable (_ index: Int, SyncPlan) async -> SyncPlan = { $1 }
  ) async -> SyncPlan {
    let snapshot: FeedRefreshes.Snapshot
    do {
      snapshot = try FeedRefreshes(store: store).snapshot()
    } catch {
      return SyncPlan(
        feeds: subscriptions.map {
          .init(subscription: $0, outcome: .failed(error))
        })
    }
    let records = FeedRecords(store: store)
    let refresher = FeedRefresher(
      store: store, loader: loader, keptValidators: snapshot.keptValidators, dryRun: dryRun,
      retry: feedRetry, readsPages: readsPages)
    let loop = Locked(
      Loop(
        turns: FeedTurns(
          feedURLs: subscriptions.map(\.feedURL), total: concurrency, perHost: perHost)))
    let (events, feedEnded) = AsyncStream<FeedEvent>.makeStream()
    // A feed's part is in: its place goes to the next that may start, in the same hold of the
    // loop's state, so that no one can see the run as over while a feed is being started.
    // `running` counts the feeds started and not handed on: nothing else can start one once
    // it is 0. Called on the loop, and on the transfer thread for a 304.
    @Sendable func handedOn(_ index: Int, host: String, _ part: SyncPlan) {
      records.withdraw()
      let (next, over) = loop.withLock { loop in
        loop.kept.append((index, part))
        loop.turns.release(host)
        loop.running -= 1
        return loop.startable()
      }
      start(next)
      // The last: every batch written from the transfer thread was yielded before.
      if over { feedEnded.yield(.over) }
    }
    // The usual hour: a conditional GET started here, whose 304 is recorded as it comes on
    // the transfer thread (`unchanged`), with no task and no hand-over; a feed with more to do
    // than that goes to the loop, which gives it a task.
    @Sendable func start(_ feeds: [(host: String, index: Int)]) {
      // Each may have a record to write soon (`FeedRecords.now`): a round of records waits
      // for the feeds under way, each withdrawn once its part is made.
      records.announce(feeds.count)
      for (host, index) in feeds {
        let subscription = subscriptions[index]
        let asked =
          !readsWhole.contains(subscription.feedURL)
          && !snapshot.unfinishedSubscriptions.contains(subscription.id)
          && refresher.startConditional(subscription) { answer in
            // A subscription's own settings may not make rules (a filter that no longer
            // parses): its task says so, as it would have before asking.
            guard case .success(let response) = answer, response.notModified,
              snapshot.settings[subscription.id] == nil
                || (try? rules(for: subscription, snapshot: snapshot)) != nil
            else {
              feedEnded.yield(.task(index: index, host: host, answered: answer))
              return
            }
            // A full batch of checked feeds is written in a task: nothing here waits for
            // the library (another process may hold it).
            let part = unchanged(
              subscription, index: index, records: records,
              writing: { feedEnded.yield(.write($0)) }, downloads: { _ in [] })
            handedOn(index, host: host, part)
          }
        if !asked { feedEnded.yield(.task(index: index, host: host, answered: nil)) }
      }
    }
    await withDiscardingTaskGroup { group in
      var next = events.makeAsyncIterator()
      let (first, none) = loop.withLock { $0.startable() }
      if none { feedEnded.yield(.over) }
      start(first)
      // Until the last feed's part is in: each batch to write is heard before that.
      hearing: while let event = await next.next() {
        switch event {
        case .task(let index, let host, let answered):
          group.addTask {
            let part = await self.refresh(
              subscriptions[index], index: index, snapshot: snapshot, records: records,
              refresher: refresher, answered: answered)
            feedEnded.yield(.handedOn(index: index, host: host, await planned(index, part)))
          }
        case .handedOn(let index, let host, let part):
          handedOn(index, host: host, part)
        case .write(let batch):
          group.addTask { records.write(batch) }
        case .over:
          break hearing
        }
      }
      feedEnded.finish()
    }
    let kept = loop.withLock { $0.kept }
    // Written last, those that waited may have been refused: their feeds failed after all.
    let refused = dryRun ? [:] : records.finish()
    var plan = SyncPlan()
    // Each feed's row made once where it lands: grown as they came, ten thousand rows were
    // copied again at every growth, about 1% of a warm sync's CPU.
    plan.feeds.reserveCapacity(kept.reduce(0) { $0 + $1.1.feeds.count })
    for (index, handed) in kept.sorted(by: { $0.0 < $1.0 }) {
      let part = refused[index].map { Self.unrecorded($0.original, error: $0.error) } ?? handed
      plan.feeds += part.feeds
      plan.downloads += part.downloads
      plan.sideFileChecks += part.sideFileChecks
    }
    return plan
  }

  /// What the loop of `plan` hears: a feed needs a task (with the answer its conditional GET
  /// got, if one was made: anything but a 304 that needs nothing more), a feed's task has its
  /// part, as `planned` left it, a batch of checked feeds is ready to be written, or the last
  /// feed's part is in.
  private enum FeedEvent: Sendable {
    case task(index: Int, host: String, answered: Result<HTTPResponse, Error>?)
    case handedOn(index: Int, host: String, SyncPlan)
    case write(FeedRecords.Batch)
    case over
  }

  /// What `plan`'s loop and the transfer thread share: which feeds may start, how many are
  /// under way, and the parts handed on.
  private struct Loop: Sendable {
    var turns: FeedTurns
    var running = 0
    var kept: [(Int, SyncPlan)] = []

    /// The feeds that may start now, counted as running, and whether none is running after.
    mutating func startable() -> (next: [(host: String, index: Int)], over: Bool) {
      let next = turns.startable()
      running += next.count
      return (next, running == 0)
    }
  }

  /// The part of a feed that answered 304: its subscription checked now and kept to be
  /// recorded with others (`FeedRecords.keep`; `writing` writes the batch it completes), with
  /// `downloads` of it still waiting.
  private func unchanged(
    _ original: Subscription, index: Int, records: FeedRecords,
    writing: (FeedRecords.Batch) -> Void,
    downloads: (Subscription) throws -> [SyncPlan.PlannedDownload]
  ) rethrows -> SyncPlan {
    var subscription = original
    subscription.lastChecked = Date()
    subscription.lastError = nil
    var plan = SyncPlan(feeds: [.init(subscription: subscription, outcome: .unchanged)])
    plan.downloads = try downloads(subscription)
    if !dryRun {
      // The subscription's row alone: its `lastChecked` is what confirms the kept copy.
      let record = FeedRecord(subscription: subscription, previous: original)
      if let batch = records.keep(record, index: index, original: original) { writing(batch) }
    }
    return plan
  }

  /// One subscription's part of the run: refreshed, planned, recorded. A subscription whose
  /// refresh the library refuses to record becomes a failed feed with nothing to download, as
  /// it was before the run. `answered`: the answer to its first request, already made.
  private func refresh(
    _ original: Subscription, index: Int, snapshot: FeedRefreshes.Snapshot,
    records: FeedRecords, refresher: FeedRefresher, answered: Result<HTTPResponse, Error>?
  ) async -> SyncPlan {
    var subscription = original
    var plan = SyncPlan()
    var pageProblem: FeedPageError?
    // What the library holds of the subscription's episodes, read once, when first needed.
    var stored: StoredEpisodes?
    do {
      let rules = try rules(for: subscription, snapshot: snapshot)
      var fetched = try await refresher.fetch(
        subscription, conditional: !readsWhole.contains(subscription.feedURL),
        answered: answered)
      // Only a subscription that may have a download waiting reads its episodes after a 304.
      let mayWait = snapshot.unfinishedSubscriptions.contains(subscription.id)
      if case .notModified = fetched, filter != nil, mayWait {
        let read = try storedEpisodes(of: subscription)
        stored = read
        if try !planner(subscription, rules, snapshot)
          .unfinishedDownloads(feed: nil, stored: read.episodes).isEmpty
        {
          // The run's own filter (`sync --match`) needs the full entries of the episodes still
          // waiting (those `subscribe` chose, say), which a 304 does not give.
          fetched = try await refresher.fetch(subscription, conditional: false)
        }
      }
      switch fetched {
      case .notModified:
        plan = try unchanged(original, index: index, records: records, writing: records.write) {
          checked in
          guard mayWait else { return [] }
          let read = try stored ?? storedEpisodes(of: checked)
          return try planner(checked, rules, snapshot)
            .unfinishedDownloads(feed: nil, stored: read.episodes)
        }
      case .fetched(let firstPage, let pageURL, let newValidators, let movedTo, let document):
        var read = try stored ?? storedEpisodes(of: subscription)
        let paged = await refresher.pages(
          of: firstPage, url: pageURL, validators: newValidators, for: subscription,
          rules: rules, stored: read.episodes)
        let feed = paged?.feed ?? firstPage
        pageProblem = paged?.stop
        let movedFrom = try refresher.move(
          &subscription, redirectedTo: movedTo, newFeedURL: feed.podcast.newFeedURL)
        subscription.etag = movedFrom == nil ? newValidators.etag : nil
        subscription.lastModified = movedFrom == nil ? newValidators.lastModified : nil
        if subscription.title == nil { subscription.title = feed.podcast.title }
        let checked = subscription
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
        }
        // Planned as the subscription stood when the feed came in (its first sync is still a
        // first sync), recorded as it stands now.
        let planner = planner(checked, rules, snapshot)
        var news = planner.news(in: feed, stored: read.episodes)
        // Read short of the last page (as a later sync reads), the pages kept before stay
        // after the ones read now.
        let copy = document.flatMap {
          refresher.copy(
            of: [$0] + (paged?.laterDocuments ?? []), for: subscription,
            keepingLaterPages: firstPage.pageLinks.next != nil && paged?.readToEnd != true)
        }
        // For `find`: what `episodes` lists from the copy, in its order, when the copy is what
        // was read (not a paged feed read short of its end, whose kept later pages follow).
        let texts = FeedTexts(
          feed.episodes, isListing: firstPage.pageLinks.next == nil || paged?.readToEnd == true)
        var attempts = 1
        while !dryRun {
          var record = FeedRecord(
            subscription: subscription, previous: original, planned: read.version)
          record.added = news.added
          record.relisted = news.relisted
          // Queued for this process, which downloads every job it plans: the download
          // manager need not queue them again, and a run killed before one begins leaves it
          // paused, as the manager's queue did.
          record.queued = news.planned.map { $0.job.queued(owner: .current) }
          record.copy = copy
          record.texts = texts
          switch try await records.now(record) {
          case .recorded(let keys, let alreadyHad):
            for index in news.planned.indices {
              news.planned[index].job.queuedAs = keys[index]
              news.planned[index].alreadyHad = alreadyHad.contains(news.planned[index].job.url)
            }
          case .refused(let error):
            return Self.unrecorded(original, error: error)
          case .failed(let error):
            throw error
          case .stale:
            // Another process added or removed episodes of this subscription meanwhile: read
            // and plan again (the feed itself is still what was fetched).
            guard attempts < 3 else {
              throw SyncError.cannotRecordRefresh(
                .failed("its episodes kept changing while the feed was planned"))
            }
            attempts += 1
            // Read, never assumed (`storedEpisodes`): what was assumed may be what went stale.
            read = try EpisodeLog(store: store).stored(subscriptionId: subscription.id)
            news = planner.news(in: feed, stored: read.episodes)
            continue
          }
          break
        }
        if dryRun {
          // What the real run would count as already here, without writing it.
          for index in news.planned.indices {
            let job = news.planned[index].job
            news.planned[index].alreadyHad =
              try FinishedDownloads(store: store).find(
                url: job.url, keys: job.identityKeys, feedURL: job.feedURL, show: job.show) != nil
          }
        }
        let fresh = news.planned
        let freshURLs = Set(fresh.map(\.job.url))
        plan.downloads =
          try fresh
          + planner.unfinishedDownloads(feed: feed, stored: news.storedAfter)
          .filter { !freshURLs.contains($0.job.url) }
        if !dryRun {
          plan.sideFileChecks = planner.sideFileChecks(in: feed, stored: news.storedAfter)
        }
        // An episode the library already has (`download` fetched it) is planned so the
        // subscription learns its file, but it is not news: the run reports it as skipped.
        let newCount = fresh.filter { !$0.alreadyHad }.count
        let outcome: SyncPlan.FeedOutcome =
          if let pageProblem, pageProblem.isFailure {
            .failed(pageProblem)
          } else {
            newCount == 0 ? .unchanged : .updated(newEpisodes: newCount)
          }
        plan.feeds.append(
          .init(
            subscription: subscription, outcome: outcome, movedFrom: movedFrom,
            imageURL: feed.podcast.imageURL))
      }
    } catch {
      subscription.lastChecked = original.lastChecked
      subscription.lastError = String(describing: error)
      if !dryRun {
        records.later(
          FeedRecord(subscription: subscription, previous: original), index: index,
          original: original)
      }
      plan = SyncPlan(feeds: [.init(subscription: subscription, outcome: .failed(error))])
    }
    return plan
  }

  private static func unrecorded(_ original: Subscription, error: LibraryError) -> SyncPlan {
    SyncPlan(
      feeds: [.init(subscription: original, outcome: .failed(SyncError.cannotRecordRefresh(error)))]
    )
  }

  private func storedEpisodes(of subscription: Subscription) throws -> StoredEpisodes {
    // Never refreshed (imported, or subscribed without its feed's validators): nothing is
    // stored, and a first sync of thousands of imported feeds skips a read per feed. Should
    // something be (a run that read some pages of the feed and failed), its record finds the
    // stored version changed and the feed is planned again from what is read then.
    if subscription.lastChecked == nil, subscription.etag == nil, subscription.lastModified == nil {
      return StoredEpisodes(episodes: [])
    }
    return try EpisodeLog(store: store).stored(subscriptionId: subscription.id)
  }

  private func planner(
    _ subscription: Subscription, _ rules: SyncRules, _ snapshot: FeedRefreshes.Snapshot
  ) -> FeedPlanner {
    FeedPlanner(
      subscription: subscription, rules: rules, snapshot: snapshot, store: store, dryRun: dryRun)
  }

  private func rules(for subscription: Subscription, snapshot: FeedRefreshes.Snapshot) throws
    -> SyncRules
  {
    try SyncRules(
      runFilter: filter,
      settings: snapshot.settings[subscription.id] ?? SubscriptionSettings(),
      marks: snapshot.marks, defaultNamer: namer, runWritesFeed: writesFeed,
      runWritesInfo: writesInfo)
  }
}
