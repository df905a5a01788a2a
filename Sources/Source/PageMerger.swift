import Basics
import Feeds

/// Puts a paged feed's pages together as one feed, a page at a time: page one's show, every
/// page's episodes once each (an episode listed again on a later page, because one was
/// published while the chain was read, is kept where it came first), newest first. Used for
/// pages as they are fetched (`PagedFeedLoader`) and for the pages a library kept.
struct PageMerger {
  private var feed: Feed
  private var episodes: [Episode]
  private var seen: Set<String>
  /// Page one's parser kept its notes within the budget; the count goes on from there.
  private var notes = ShowNotesBudget()
  private var pages = 1

  init(first: Feed) {
    feed = first
    episodes = first.episodes
    seen = Set(first.episodes.map(Self.episodeKey))
    for index in episodes.indices { notes.account(&episodes[index]) }
  }

  mutating func add(_ page: Feed) {
    pages += 1
    for var episode in page.episodes where seen.insert(Self.episodeKey(episode)).inserted {
      notes.account(&episode)
      episodes.append(episode)
    }
  }

  /// The pages so far as one feed. Pages are newest first one after another as a rule; the
  /// sort keeps dated episodes in order when a publisher's pages overlap in time.
  var merged: Feed {
    var whole = feed
    if pages > 1 { whole.episodes = FeedParser.newestFirst(episodes) }
    return whole
  }

  /// What makes two listings one episode here: the GUID, else the enclosure URL. (The library's
  /// own identity, which also strips tracking prefixes, is a layer above; an episode repeated
  /// by paging is repeated exactly.)
  private static func episodeKey(_ episode: Episode) -> String {
    episode.guid.map { "g:" + $0 } ?? "u:" + episode.enclosure.url
  }
}

extension PagedFeedLoader {
  /// Pages already at hand (a kept copy's), page one first, as one feed.
  public static func merged(_ pages: [Feed]) -> Feed? {
    guard let first = pages.first else { return nil }
    var merger = PageMerger(first: first)
    for page in pages.dropFirst() { merger.add(page) }
    return merger.merged
  }
}
