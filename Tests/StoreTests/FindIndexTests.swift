import Feeds
import Foundation
import FullText
import GRDB
import Model
import StoreTestSupport
import XCTest

@testable import Store

/// The full-text index's front: kept in step by the transactions that record a feed, a side
/// file and a prune; an episode's removal takes its row; a build from what the library keeps.
final class FindIndexTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var show: Subscription!
  private var index: FindIndex { FindIndex(store: store) }

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    show = try Subscriptions(store: store).add(
      name: "show", feedURL: "https://a.example/feed", title: "Show", keep: nil)
  }

  private func episode(_ n: Int, notes: String) -> Episode {
    Episode(
      guid: "g\(n)", title: "Episode \(n)",
      published: Date(timeIntervalSince1970: Double(n) * 86_400),
      enclosure: Enclosure(url: "https://cdn.example/\(n).mp3"), description: notes)
  }

  /// A sync's record of `episodes` (newest first), as `SyncPlanner` writes it.
  @discardableResult
  private func record(_ episodes: [Episode], isListing: Bool = true) throws -> FeedRecord.Outcome {
    let stored = try EpisodeLog(store: store).stored(subscriptionId: show.id)
    let seen = episodes.map {
      SeenEpisode(
        subscriptionId: show.id, guid: $0.guid, enclosureURL: $0.enclosure.url, title: $0.title,
        published: $0.published)
    }
    var record = FeedRecord(subscription: show, previous: show, planned: stored.version)
    record.added = EpisodeLog.classify(seen, stored: stored.episodes).added
    record.texts = FeedTexts(episodes, isListing: isListing)
    return try FeedRefreshes(store: store).record([record])[0]
  }

  private func titles(_ words: String..., filter: FindIndex.Filter = .init()) throws -> [String] {
    try index.search(FindQuery(words), filter: filter, limit: 20).compactMap(\.episode.title)
  }

  private func sql(_ statement: String) throws -> Int {
    let queue = try DatabaseQueue(path: library.paths.database)
    defer { try? queue.close() }
    return try queue.read { db in try Int.fetchOne(db, sql: statement) ?? -1 }
  }

  func testARecordedFeedIsFoundByItsWordsWithItsIndex() throws {
    XCTAssertEqual(try index.readiness(), .ready, "a new library's index covers it")
    try record([episode(2, notes: "<p>The <b>Voyager</b> probes</p>"), episode(1, notes: "Copper")])
    XCTAssertEqual(try titles("voyager"), ["Episode 2"])
    XCTAssertEqual(Set(try titles("episode")), ["Episode 2", "Episode 1"])
    let hit = try XCTUnwrap(index.search(FindQuery(["copper"]), limit: 5).first)
    XCTAssertEqual(hit.index, .known(2))
    XCTAssertEqual(hit.moments.map(\.field), [.notes])
    XCTAssertEqual(hit.moments.first?.snippet.text, "Copper")
  }

  /// A round's texts are indexed after all of its feeds are written; when that fails for one
  /// feed (here an index row already holding its first episode's place), that feed alone is
  /// refused, as when each feed's texts went in with it, and the others are written and found.
  func testAFeedWhoseTextsCannotBeIndexedIsRefusedAloneInItsRound() throws {
    let other = try Subscriptions(store: store).add(
      name: "other", feedURL: "https://b.example/feed", title: "Other", keep: nil)
    let recordOf = { (subscription: Subscription, episodes: [Episode]) throws -> FeedRecord in
      let stored = try EpisodeLog(store: self.store).stored(subscriptionId: subscription.id)
      var record = FeedRecord(
        subscription: subscription, previous: subscription, planned: stored.version)
      record.added =
        EpisodeLog.classify(
          episodes.map {
            SeenEpisode(
              subscriptionId: subscription.id, guid: $0.guid, enclosureURL: $0.enclosure.url,
              title: $0.title, published: $0.published)
          }, stored: stored.episodes
        ).added
      record.texts = FeedTexts(episodes, isListing: true)
      return record
    }
    // `other`'s two episodes become rows 1 and 2, `show`'s first row 3.
    let queue = try DatabaseQueue(path: library.paths.database)
    try queue.write { db in
      try db.execute(
        sql: "INSERT INTO findText (rowid, title, chapters, notes, transcripts) "
          + "VALUES (3, 'stray', '', '', '')")
    }
    try queue.close()
    let outcomes = try FeedRefreshes(store: store).record([
      try recordOf(other, [episode(2, notes: "Heliopause"), episode(1, notes: "Copper")]),
      try recordOf(show, [episode(4, notes: "Voyager")]),
    ])
    XCTAssertEqual(outcomes.first, .recorded(keys: [], alreadyHad: []))
    guard case .failed = outcomes.last else {
      return XCTFail(
        "the feed whose texts fail is refused, not \(String(describing: outcomes.last))")
    }
    XCTAssertEqual(try titles("heliopause"), ["Episode 2"])
    XCTAssertEqual(Set(try titles("episode")), ["Episode 2", "Episode 1"])
    XCTAssertEqual(try EpisodeLog(store: store).episodes(subscriptionId: show.id).count, 0)
    XCTAssertEqual(try EpisodeLog(store: store).episodes(subscriptionId: other.id).count, 2)
  }

  /// One new episode moves the others down; a changed note is indexed again, the old words go.
  func testARefreshIndexesWhatChangedAndMovesTheIndexes() throws {
    try record([episode(2, notes: "alpha"), episode(1, notes: "beta")])
    try record([episode(3, notes: "gamma"), episode(2, notes: "alpha"), episode(1, notes: "delta")])
    XCTAssertEqual(try titles("delta"), ["Episode 1"])
    XCTAssertEqual(try titles("beta"), [])
    let places = try index.search(FindQuery(["episode"]), limit: 5).map {
      ($0.episode.title ?? "", $0.index)
    }
    XCTAssertEqual(
      Dictionary(uniqueKeysWithValues: places),
      ["Episode 3": .known(1), "Episode 2": .known(2), "Episode 1": .known(3)])
    try record([episode(3, notes: "gamma")])
    XCTAssertEqual(
      try index.search(FindQuery(["alpha"]), limit: 5).first?.index, .known(nil),
      "gone from the feed: no index, still found")
    try record([episode(4, notes: "omega")], isListing: false)
    XCTAssertEqual(try index.search(FindQuery(["omega"]), limit: 5).first?.index, .unknown)
  }

  func testAnEpisodeLeavesTheIndexWithItsSubscription() throws {
    try record([episode(1, notes: "alpha")])
    XCTAssertEqual(try sql("SELECT count(*) FROM findSources"), 1)
    try Subscriptions(store: store).remove(id: show.id)
    XCTAssertEqual(try titles("alpha"), [])
    XCTAssertEqual(try sql("SELECT count(*) FROM findSources"), 0)
    XCTAssertEqual(try sql("SELECT count(*) FROM findText"), 0)
    XCTAssertEqual(try sql("SELECT count(*) FROM findFeeds"), 0)
  }

  /// Every episode has a row: one recorded without its feed's words is found by its title.
  func testEpisodesRecordedWithoutTheirWordsAreFoundByTitle() throws {
    try EpisodeLog(store: store).record(
      subscriptionId: show.id,
      episodes: [SeenEpisode(guid: "x", enclosureURL: nil, title: "Zebra crossing", published: nil)]
    )
    XCTAssertEqual(try titles("zebra"), ["Zebra crossing"])
    XCTAssertEqual(
      try sql("SELECT count(*) FROM episodes WHERE id NOT IN (SELECT episodeId FROM findSources)"),
      0)
  }

  /// An index not built (a library from before it) is not written by syncs: the build reads
  /// everything they recorded.
  func testAnUnbuiltIndexIsLeftToItsBuild() throws {
    let queue = try DatabaseQueue(path: library.paths.database)
    try queue.write { db in try db.execute(sql: "UPDATE findState SET built = 0") }
    try queue.close()
    try record([episode(1, notes: "alpha")])
    XCTAssertEqual(try sql("SELECT count(*) FROM findSources"), 0)
    XCTAssertEqual(try index.readiness(), .unbuilt)
    let summary = try XCTUnwrap(try index.build(rebuilding: false, sideFiles: { _ in [] }))
    XCTAssertEqual(summary.episodes, 1)
    XCTAssertEqual(try index.readiness(), .ready)
    XCTAssertNil(try index.build(rebuilding: false, sideFiles: { _ in [] }), "nothing left to do")
    // No kept copy of the feed here: the title is all a build knows.
    XCTAssertEqual(try titles("episode"), ["Episode 1"])
  }

  /// A rebuild keeps what only the index held (notes of an episode no kept feed lists any
  /// more, a transcript whose file is gone), and the timeline with it.
  func testARebuildKeepsWhatOnlyTheIndexHeld() throws {
    try record([episode(1, notes: "walrus notes")])
    let folder = library.paths.episodes + "/Show"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let transcript = folder + "/1.vtt"
    try Data("WEBVTT\n\n01:00.000 --> 01:02.000\nthe narwhal sings\n".utf8).write(
      to: URL(fileURLWithPath: transcript))
    try index.indexSideFiles(
      of: SubscriptionEpisode(subscriptionId: show.id, key: "guid:g1"), feedURL: nil,
      identityKeys: [], sideFiles: [transcript])
    XCTAssertEqual(
      try index.search(FindQuery(["narwhal"]), limit: 1).first?.moments.first?.seconds, 60)
    try FileManager.default.removeItem(atPath: transcript)

    let summary = try XCTUnwrap(try index.build(rebuilding: true, sideFiles: { _ in [] }))
    XCTAssertEqual(summary.podcasts, 1)
    XCTAssertEqual(try titles("walrus"), ["Episode 1"])
    XCTAssertEqual(
      try index.search(FindQuery(["narwhal"]), limit: 1).first?.moments.first?.seconds, 60)
    XCTAssertEqual(try sql("SELECT count(*) FROM sqlite_master WHERE name LIKE '%Old%'"), 0)
    XCTAssertNotNil(summary.indexBytes)
  }

  /// Side files are read again only when they changed (name, size, time).
  func testSideFilesAreReadAgainWhenTheyChange() throws {
    try record([episode(1, notes: "notes")])
    let file = library.paths.episodes + "/1.chapters.json"
    try FileManager.default.createDirectory(
      atPath: library.paths.episodes, withIntermediateDirectories: true)
    func write(_ title: String) throws {
      try Data(#"{"chapters":[{"startTime":75,"title":"\#(title)"}]}"#.utf8).write(
        to: URL(fileURLWithPath: file))
    }
    func index() throws {
      try self.index.indexSideFiles(
        of: nil, feedURL: show.feedURL, identityKeys: ["guid:g1"], sideFiles: [file])
    }
    try write("Kuiper belt")
    try index()
    XCTAssertEqual(try titles("kuiper"), ["Episode 1"])
    // Written behind the index's back (same name, size and time): not read again.
    let queue = try DatabaseQueue(path: library.paths.database)
    try queue.write { db in try db.execute(sql: "UPDATE findText SET chapters = 'stale'") }
    try queue.close()
    try index()
    XCTAssertEqual(try titles("stale"), ["Episode 1"])
    try write("Oort cloud, further out")
    try index()
    XCTAssertEqual(try titles("oort"), ["Episode 1"])
    XCTAssertEqual(try titles("stale"), [])
  }

  /// A deleted episode (retention, played, by hand) stays, marked so; its row is untouched otherwise.
  func testADeletionIsNotedWithTheForgottenFile() throws {
    try record([episode(1, notes: "alpha")])
    try EpisodeLog(store: store).markDownloaded(
      subscriptionId: show.id, key: "guid:g1", file: "/x/1.mp3")
    XCTAssertEqual(try index.search(FindQuery(["alpha"]), limit: 1).first?.pruned, false)
    try EpisodeLog(store: store).recordDeleted(subscriptionId: show.id, key: "guid:g1")
    let hit = try XCTUnwrap(index.search(FindQuery(["alpha"]), limit: 1).first)
    XCTAssertTrue(hit.pruned)
    XCTAssertNil(hit.episode.downloadedFile)
  }

  /// Whatever the query, the store runs it without an SQLite error.
  func testNoQueryIsAnSQLiteError() throws {
    try record([episode(1, notes: "alpha beta")])
    for text in [#""unbalanced"#, "NEAR(", "col:val", "title:alpha", "a*", "AND OR NOT", "{}"] {
      XCTAssertNoThrow(try index.search(FindQuery([text]), limit: 5), text)
    }
    XCTAssertEqual(try titles("ALPHA"), ["Episode 1"])
    XCTAssertEqual(try titles("alp*"), ["Episode 1"])
  }

  /// A library migrated from before the index is left for its first `find` to build.
  func testALibraryFromBeforeTheIndexIsUnbuilt() throws {
    let old = try TemporaryLibrary()
    try old.paths.prepare()
    let queue = try DatabaseQueue(path: old.paths.database)
    try LibrarySchema.migrator.migrate(queue, upTo: "v11-feed-shows")
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO subscriptions (id, name, feedURL, addedAt) VALUES (1, 'x', 'https://x', '2024-01-01');
          INSERT INTO episodes (subscriptionId, key, title, firstSeen) VALUES (1, 'guid:1', 'Old one', '2024-01-01');
          """)
    }
    try queue.close()
    let store = try old.store()
    XCTAssertEqual(try FindIndex(store: store).readiness(), .unbuilt)
    _ = try FindIndex(store: store).build(rebuilding: false, sideFiles: { _ in [] })
    XCTAssertEqual(
      try FindIndex(store: store).search(FindQuery(["old"]), limit: 1).first?.episode.title,
      "Old one")
  }
}
