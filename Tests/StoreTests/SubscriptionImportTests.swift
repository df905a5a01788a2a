import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// `podcast import`: an OPML file's entries added in one transaction, each on its own.
final class SubscriptionImportTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  func testImportAddsEachFeedOnceWithUniqueNames() throws {
    try Subscriptions(store: store).add(
      name: "show-7", feedURL: "https://feeds.example/7", title: nil, keep: nil)
    var entries = (1...600).map {
      OPMLEntry(title: "Show \($0 % 50)", feedURL: "https://feeds.example/\($0)")
    }
    // The same feed twice in one file, and a feed subscribed before the import.
    entries.append(OPMLEntry(title: "Again", feedURL: "https://feeds.example/12"))
    var settings = SubscriptionSettings()
    settings.nameTemplate = "{title}"
    entries.append(
      OPMLEntry(
        title: nil, feedURL: "https://feeds.example/kept", name: "kept", keep: 2,
        settings: settings))
    entries.append(OPMLEntry(title: nil, feedURL: "https://feeds.example/bad", name: "1234"))
    let outcomes = try SubscriptionImport(store: store).add(entries)
    XCTAssertEqual(outcomes.count, entries.count)
    let added = outcomes.compactMap { if case .added(let s) = $0 { s } else { nil } }
    let skipped = outcomes.filter { if case .alreadySubscribed = $0 { true } else { false } }
    let failed = outcomes.filter { if case .failed = $0 { true } else { false } }
    XCTAssertEqual(added.count, 600)
    XCTAssertEqual(skipped.count, 2)
    XCTAssertEqual(failed.count, 1)
    let all = try Subscriptions(store: store).all()
    XCTAssertEqual(all.count, 601)
    XCTAssertEqual(Set(all.map(\.feedURL)).count, 601)
    XCTAssertEqual(Set(all.map { $0.name.lowercased() }).count, 601)
    XCTAssertTrue(all.contains { $0.name == "show-1-2" })
    let kept = try Subscriptions(store: store).matching("kept")
    XCTAssertEqual(kept.keep, 2)
    XCTAssertEqual(try SavedSettings(store: store).of(subscriptionId: kept.id), settings)
  }

  /// An entry that cannot be added (a name that is a number) leaves nothing of itself, and
  /// the entries after it still go in, in the same transaction.
  func testAFailingEntryLeavesNothingAndTheOthersGoIn() throws {
    var settings = SubscriptionSettings()
    settings.nameTemplate = "{title}"
    let outcomes = try SubscriptionImport(store: store).add([
      OPMLEntry(title: nil, feedURL: "https://feeds.example/a", name: "a"),
      OPMLEntry(
        title: nil, feedURL: "https://feeds.example/bad", name: "42", settings: settings),
      OPMLEntry(title: nil, feedURL: "https://feeds.example/b", name: "b", keep: 0),
      OPMLEntry(title: nil, feedURL: "https://feeds.example/c", name: "c"),
    ])
    XCTAssertEqual(
      outcomes.map { if case .added(let s) = $0 { s.name } else { "failed" } },
      ["a", "failed", "failed", "c"])
    XCTAssertEqual(try Subscriptions(store: store).all().map(\.name), ["a", "c"])
    XCTAssertEqual(try SavedSettings(store: store).all(), [:], "the failed entry's settings too")
  }
}
