import Basics
import Downloads
import Feeds
import Foundation
import Model
import Source
import Store

/// The plan part of a sync: what one feed calls for, worked out from what was read (the feed,
/// or nothing after a 304) and what the library held when the feed's turn came (the
/// subscription's stored episodes, the run's snapshot), outside any transaction: the episodes
/// to record as seen, the downloads (the new episodes wanted, and those an earlier run left
/// unfinished) and the side files to check beside earlier downloads. `SyncPlanner` then writes
/// it in one short transaction that checks the stored episodes are still those it was made
/// from (`FeedRecord`).
struct FeedPlanner {
  /// As refreshed: moved, with the feed's validators and title.
  let subscription: Subscription
  let rules: SyncRules
  let snapshot: FeedRefreshes.Snapshot
  /// For moving an unfinished download to the feed's current link.
  let store: LibraryStore
  let dryRun: Bool

  /// What a fetched feed brings: its episodes never seen before and those it re-lists, and the
  /// new ones wanted, planned.
  struct News {
    var added: [SeenEpisode] = []
    var relisted: [SeenEpisode] = []
    var planned: [SyncPlan.PlannedDownload] = []
    /// The stored episodes as recording these makes them: re-listed ones under their new
    /// identity, added ones after (in the order a read after the write would give).
    var storedAfter: [SeenEpisode] = []
  }

  /// Episodes never seen before that pass the filters and are not marked. On a subscription's
  /// first sync only the newest is wanted (or what its `--first` policy says), so subscribing
  /// to a 700-episode feed does not fetch 700 files. Filtered-out episodes are still recorded
  /// as seen: a later change of filter applies to what is published after it.
  func news(in feed: Feed, stored: [SeenEpisode]) -> News {
    let seen = feed.episodes.map {
      SeenEpisode(
        subscriptionId: subscription.id, guid: $0.guid, enclosureURL: $0.enclosure.url,
        title: $0.title, published: $0.published)
    }
    let sorted = EpisodeLog.classify(seen, stored: stored)
    // Never synced, and nothing recorded by `subscribe` either: the backlog rule applies. A
    // first sync that failed part way (a page of a paged feed) is finished as one.
    let chosen = rules.selection(
      of: feed.episodes, keys: seen.map(\.key), added: Set(sorted.added.map(\.key)),
      firstRefresh: subscription.lastChecked == nil
        && (stored.isEmpty || subscription.lastError.map(FeedPageError.isPageFailure) == true))
    // Every key each one answers to, so that a file `download` fetched before the feed
    // gave the episode a GUID (or moved its link) is found; worked out only when something
    // is chosen.
    let keys = chosen.isEmpty ? [] : EpisodeIdentity.distinctKeys(of: feed.episodes)
    let planned = chosen.map { offset in
      Self.plannedDownload(
        feed.episodes[offset], podcast: feed.podcast, index: offset + 1,
        subscription: subscription, key: seen[offset].key, otherKeys: keys[offset],
        namer: rules.namer, archive: rules.writesFeed, info: rules.writesInfo)
    }
    let relisted = Dictionary(
      sorted.relisted.compactMap { episode in episode.id.map { ($0, episode) } },
      uniquingKeysWith: { first, _ in first })
    let storedAfter =
      stored.map { episode in episode.id.flatMap { relisted[$0] } ?? episode } + sorted.added
    return News(
      added: sorted.added, relisted: sorted.relisted, planned: planned, storedAfter: storedAfter)
  }

  /// Downloads an earlier sync wanted but did not finish (failed, interrupted, killed), among
  /// `stored`. `snapshot` has the unfinished download rows as the run started; the ones this
  /// run queues are its fresh downloads, which the caller has already.
  func unfinishedDownloads(feed: Feed?, stored: [SeenEpisode]) throws
    -> [SyncPlan.PlannedDownload]
  {
    guard !snapshot.unfinished.isEmpty else { return [] }
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
    return try stored.compactMap { seen -> SyncPlan.PlannedDownload? in
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
        try DownloadRows(store: store).relink(waiting.key, to: episode.enclosure.url, seen: seen)?
          .url
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

  /// The downloaded episodes among `stored` that the feed links a transcript or chapters for
  /// (only when the feed changed: a 304 names no new side file).
  func sideFileChecks(in feed: Feed, stored: [SeenEpisode]) -> [SyncPlan.SideFileCheck] {
    guard feed.episodes.contains(where: { !$0.transcripts.isEmpty || $0.chapters != nil }) else {
      return []
    }
    var files: [String: (key: String, file: String)] = [:]
    for seen in stored {
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
      checks.append(.init(job: job, file: found.file, subscriptionId: subscription.id))
    }
    return checks
  }

  /// The download of one of the subscription's episodes (see `downloadJob`), recorded
  /// against it when it finishes.
  static func plannedDownload(
    _ episode: Episode, podcast: Podcast, index: Int, subscription: Subscription, key: String,
    otherKeys: [String] = [], namer: FileNamer, archive: Bool = false, info: Bool = false
  ) -> SyncPlan.PlannedDownload {
    var job = downloadJob(
      episode, podcast: podcast, index: index, feedURL: subscription.feedURL,
      fallbackTitle: subscription.title ?? subscription.name, key: key, otherKeys: otherKeys,
      namer: namer, archive: archive, info: info)
    job.subscriptionEpisode = SubscriptionEpisode(subscriptionId: subscription.id, key: key)
    return SyncPlan.PlannedDownload(job: job, subscriptionId: subscription.id)
  }

  /// The download of one of the episodes of the feed at `feedURL` (see
  /// `DownloadJob.init(episode:...)`), its podcast called `fallbackTitle` when the feed gives
  /// no title. `key` is the subscription's own key for the episode (its episodes table already
  /// decided what is one episode); `otherKeys` the rest it answers to in the feed, none shared
  /// with another of the feed's episodes (`EpisodeIdentity.distinctKeys`).
  static func downloadJob(
    _ episode: Episode, podcast: Podcast, index: Int, feedURL: String, fallbackTitle: String,
    key: String, otherKeys: [String] = [], namer: FileNamer, archive: Bool = false,
    info: Bool = false
  ) -> DownloadJob {
    var titled = podcast
    if titled.title == nil { titled.title = fallbackTitle }
    var job = DownloadJob(
      episode: episode, podcast: titled, index: index, namer: namer, feedURL: feedURL,
      identityKeys: [key] + otherKeys.filter { $0 != key }, archive: archive, info: info)
    // The show as its feed names it, not by the stand-in title.
    job.show = ShowIdentity.key(podcast)
    return job
  }
}
