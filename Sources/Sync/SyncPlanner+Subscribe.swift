import Basics
import Feeds
import Foundation
import Model
import Source
import Store
import Transfer

extension SyncPlanner {
  /// The refresh a first sync would make, for `subscribe` to save with the subscription (see
  /// `FirstRefresh`): every episode of `feed` as seen, and the ones the subscription's filters
  /// and first-sync policy choose as queued, so the first sync costs a 304 and still downloads
  /// exactly what it would have. Nothing is written here.
  public static func firstRefresh(
    of feed: Feed, feedURL: String, name: String, settings: SubscriptionSettings,
    validators: Validators, store: LibraryStore, namer: FileNamer? = nil
  ) throws -> FirstRefresh {
    let rules = try SyncRules(
      runFilter: nil, settings: settings, marks: try EpisodeMarks(store: store).all(),
      defaultNamer: try namer ?? FileNamer())
    let seen = feed.episodes.map {
      SeenEpisode(
        guid: $0.guid, enclosureURL: $0.enclosure.url, title: $0.title, published: $0.published)
    }
    let keys = seen.map(\.key)
    let chosen = rules.selection(
      of: feed.episodes, keys: keys, added: Set(keys), firstRefresh: true)
    // A feed that names its new home is left for the first sync to fetch whole and move
    // (`itunes:new-feed-url`): a 304 from the old address would hide the move.
    let moving = feed.podcast.newFeedURL.map { $0 != feedURL && URLPolicy.isAllowed($0) } ?? false
    var refresh = FirstRefresh(
      validators: FeedLocation.isRemote(feedURL) && !moving ? validators : Validators(),
      episodes: seen)
    refresh.listing = feed.episodes
    for offset in chosen {
      let episode = feed.episodes[offset]
      let url = episode.enclosure.url
      if let had = try FinishedDownloads(store: store).find(
        url: url, keys: [keys[offset]], feedURL: feedURL, show: ShowIdentity.key(feed.podcast)),
        let file = had.file
      {
        refresh.episodes[offset].downloadedFile = file
        continue
      }
      // The job sync would plan from this feed: its details go with the queued row, so the
      // first sync's 304 loses none of them.
      let job = FeedPlanner.downloadJob(
        episode, podcast: feed.podcast, index: offset + 1, feedURL: feedURL,
        fallbackTitle: name, key: keys[offset], namer: rules.namer,
        archive: rules.writesFeed, info: rules.writesInfo)
      refresh.queued.append(job.queued())
    }
    return refresh
  }
}
