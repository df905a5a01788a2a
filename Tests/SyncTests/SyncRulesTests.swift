import Feeds
import Foundation
import Model
import Selection
import Sync
import XCTest

/// What one subscription's sync takes: both filters, no marked episode, the first-sync count.
final class SyncRulesTests: XCTestCase {
  private let namer: FileNamer? = try? FileNamer()

  private func episode(_ title: String, duration: Int? = nil) -> Episode {
    Episode(
      guid: title, title: title, duration: duration,
      enclosure: Enclosure(url: "https://cdn.example/\(title).mp3"))
  }

  private func rules(
    run: EpisodeFilter? = nil, own: EpisodeFilter = EpisodeFilter(),
    first: FirstSyncPolicy? = nil, marks: [String: EpisodeMark.State] = [:]
  ) throws -> SyncRules {
    var settings = SubscriptionSettings()
    settings.filter = own
    settings.first = first
    return try SyncRules(
      runFilter: try run.map { try EpisodePredicate(filter: $0) }, settings: settings,
      marks: marks, defaultNamer: try XCTUnwrap(namer))
  }

  func testAnEpisodeMustPassTheRunFilterAndTheSubscriptionsOwn() throws {
    let rules = try rules(
      run: EpisodeFilter(match: "interview"), own: EpisodeFilter(minDuration: 600))
    XCTAssertTrue(rules.wants(episode("Interview one", duration: 900), key: "a"))
    XCTAssertFalse(rules.wants(episode("Interview two", duration: 300), key: "b"), "too short")
    XCTAssertFalse(rules.wants(episode("News", duration: 900), key: "c"), "run filter")
  }

  func testAMarkedEpisodeIsNeverWanted() throws {
    let rules = try rules(marks: ["guid:skipped": .skip, "guid:had": .downloaded])
    XCTAssertFalse(rules.wants(episode("Skipped"), key: "guid:skipped"))
    XCTAssertFalse(rules.wants(episode("Had"), key: "guid:had"))
    XCTAssertTrue(rules.wants(episode("Fresh"), key: "guid:fresh"))
  }

  func testTheFirstSyncTakesTheNewestUnlessTheSubscriptionSaysOtherwise() throws {
    XCTAssertEqual(try rules().firstCount, 1)
    XCTAssertEqual(try rules(first: .newest(3)).firstCount, 3)
    XCTAssertNil(try rules(first: .all).firstCount)
    XCTAssertEqual(try rules(first: FirstSyncPolicy.none).firstCount, 0)
  }

  func testABadStoredFilterIsAnErrorNotAnEmptyFilter() {
    XCTAssertThrowsError(try rules(own: EpisodeFilter(match: "("))) { error in
      XCTAssertEqual((error as? FilterError)?.setting, "match")
    }
  }

  func testAFirstRefreshTakesTheNewestOfTheWholeFeedAndCountsWhatItChoseBefore() throws {
    let episodes = (1...6).reversed().map { episode("E\($0)") }
    let keys = episodes.map { $0.guid ?? "" }
    let rules = try rules(first: .newest(3))
    // One go: the newest three.
    XCTAssertEqual(
      rules.selection(of: episodes, keys: keys, added: Set(keys), firstRefresh: true), [0, 1, 2])
    // Finished after a page failed: the first two were seen (and chosen) then; only the third
    // newest is still to take, not three more.
    XCTAssertEqual(
      rules.selection(
        of: episodes, keys: keys, added: Set(keys.dropFirst(2)), firstRefresh: true), [2])
    // Not a first refresh: everything added is new.
    XCTAssertEqual(
      rules.selection(
        of: episodes, keys: keys, added: Set(keys.dropFirst(2)), firstRefresh: false),
      [2, 3, 4, 5])
  }

  func testTheNoPagesSettingIsReadAndUnset() throws {
    var settings = SubscriptionSettings()
    settings.pages = false
    XCTAssertFalse(
      try SyncRules(
        runFilter: nil, settings: settings, marks: [:], defaultNamer: try XCTUnwrap(namer)
      ).readsPages)
    let attributes = Dictionary(
      uniqueKeysWithValues: OPMLSettings.attributes(name: "n", keep: nil, settings: settings).map {
        (String($0.0.dropFirst("podcast:".count)).lowercased(), $0.1)
      })
    XCTAssertEqual(attributes["pages"], "false")
    XCTAssertEqual(OPMLSettings.settings(from: attributes).pages, false, "OPML carries it")
    try settings.unset("pages")
    XCTAssertNil(settings.pages)
    XCTAssertTrue(
      try SyncRules(
        runFilter: nil, settings: settings, marks: [:], defaultNamer: try XCTUnwrap(namer)
      ).readsPages)
  }
}
