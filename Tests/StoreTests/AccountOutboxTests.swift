import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The outbox of episode actions the library owes its account's server: a download recorded
/// done owes one in its own transaction, only while there is an account; an upload marks its
/// actions sent first, and forgets them once the server has them.
final class AccountOutboxTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var outbox: AccountOutbox!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    outbox = AccountOutbox(store: store)
  }

  private func link() throws {
    try AccountState(store: store).link(
      AccountRecord(
        server: "https://sync.example", user: "ada", password: "pw", device: "box",
        api: "gpodder"))
  }

  func testAFinishedDownloadOwesADownloadActionOnlyWithAnAccount() throws {
    try store.seed(finished("https://cdn.example/1.mp3", key: "guid:ep-1"))
    XCTAssertEqual(try outbox.pending(), [])
    try link()
    try store.seed(finished("https://cdn.example/2.mp3", key: "guid:ep-2"))
    try store.seed(finished("https://cdn.example/3.mp3?x=1", key: "url:cdn.example/3.mp3"))

    let owed = try outbox.pending()
    XCTAssertEqual(owed.map(\.kind), [.download, .download])
    XCTAssertEqual(
      owed.map(\.episodeURL), ["https://cdn.example/2.mp3", "https://cdn.example/3.mp3?x=1"])
    XCTAssertEqual(owed.map(\.guid), ["ep-2", nil])
    XCTAssertEqual(owed.map(\.feedURL), ["https://a.example/feed", "https://a.example/feed"])
    XCTAssertEqual(owed.map(\.sent), [false, false])
  }

  func testSentActionsAreMarkedThenForgotten() throws {
    try link()
    for index in 1...3 {
      try store.seed(finished("https://cdn.example/\(index).mp3", key: "guid:ep-\(index)"))
    }
    let owed = try outbox.pending()

    try outbox.markSent([owed[0].id, owed[1].id])
    XCTAssertEqual(try outbox.pending().map(\.sent), [true, true, false])
    try outbox.forget([owed[1].id])
    XCTAssertEqual(try outbox.pending().map(\.id), [owed[0].id, owed[2].id])
    try outbox.forget([])
    try outbox.forget(owed.map(\.id) + [9_999])
    XCTAssertEqual(try outbox.pending(), [])
  }

  func testManyActionsAreForgottenInSlices() throws {
    try link()
    for index in 1...1_200 {
      try store.seed(finished("https://cdn.example/\(index).mp3", key: "guid:ep-\(index)"))
    }
    let owed = try outbox.pending()
    XCTAssertEqual(owed.count, 1_200)

    try outbox.markSent(owed.map(\.id))
    XCTAssertTrue(try outbox.pending().allSatisfy(\.sent))
    try outbox.forget(owed.map(\.id))
    XCTAssertEqual(try outbox.pending(), [])
  }

  private func finished(_ url: String, key: String) -> DownloadRecord {
    DownloadRecord(
      url: url, podcastTitle: "Show", episodeTitle: "Episode", state: .done, bytes: 10,
      partialPath: "", file: library.paths.episodes + "/Show/" + UUID().uuidString + ".mp3",
      episodeKey: key, feedURL: "https://a.example/feed")
  }
}
