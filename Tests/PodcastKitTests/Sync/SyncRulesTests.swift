import Foundation
import XCTest

@testable import Feeds
@testable import Library
@testable import Selection
@testable import Sync

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
}
