import Foundation
import GRDB
import Model
import StoreTestSupport
import XCTest

@testable import Store

/// The set-based paths a large library takes: the indexed duplicate check (the one-transaction
/// import is in `SubscriptionImportTests`, sync's once-per-run reads and writes in
/// `FeedRefreshesTests`).
final class LibraryScaleTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  func testDuplicateNamesAreCaseInsensitiveBeyondASCII() throws {
    try Subscriptions(store: store).add(
      name: "Ärger", feedURL: "https://a.example/1", title: nil, keep: nil)
    XCTAssertThrowsError(
      try Subscriptions(store: store).add(
        name: "äRGER", feedURL: "https://a.example/2", title: nil, keep: nil)
    ) { error in
      XCTAssertEqual(error as? LibraryError, .duplicateName("äRGER"))
    }
    var other = try Subscriptions(store: store).add(
      name: "other", feedURL: "https://a.example/3", title: nil, keep: nil)
    other.name = "ÄRGER"
    XCTAssertThrowsError(try Subscriptions(store: store).update(other)) { error in
      XCTAssertEqual(error as? LibraryError, .duplicateName("ÄRGER"))
    }
    // A subscription renamed to its own name in another case is not its own duplicate.
    var first = try Subscriptions(store: store).matching("Ärger")
    first.name = "ärger"
    try Subscriptions(store: store).update(first)
    XCTAssertEqual(try Subscriptions(store: store).availableName(basedOn: "ÄRGER"), "ÄRGER-2")
  }

  func testALibraryFromBeforeTheIndexesKeepsRefusingDuplicates() throws {
    let old = try TemporaryLibrary()
    try old.paths.prepare()
    let queue = try DatabaseQueue(path: old.paths.database)
    try LibrarySchema.migrator.migrate(queue, upTo: "v2-downloads")
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO subscriptions (name, feedURL, addedAt) VALUES ('Radiolab', 'https://r.example/f', '2024-01-01 00:00:00.000')
          """)
    }
    try queue.close()
    let upgraded = try old.store()
    XCTAssertThrowsError(
      try Subscriptions(store: upgraded).add(
        name: "RADIOLAB", feedURL: "https://r.example/g", title: nil, keep: nil)
    ) { error in
      XCTAssertEqual(error as? LibraryError, .duplicateName("RADIOLAB"))
    }
    XCTAssertEqual(try Subscriptions(store: upgraded).all().map(\.name), ["Radiolab"])
  }

}
