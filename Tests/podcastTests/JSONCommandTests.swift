import Foundation
import XCTest

/// Every command that changes the library can say what it did as JSON, for scripts.
final class JSONCommandTests: LibraryTestCase {
  func testSubscribeUnsubscribeAndExportSpeakJSON() throws {
    let show = Show("scripted", episodes: 1, on: server)
    let subscribed = try XCTUnwrap(
      try json("subscribe", show.feedURL, "--name", "scripted", "--keep", "2", "--json")
        as? [String: Any])
    XCTAssertEqual(subscribed["name"] as? String, "scripted")
    XCTAssertEqual(subscribed["feedURL"] as? String, show.feedURL)
    XCTAssertEqual(subscribed["index"] as? Int, 1)
    XCTAssertEqual((subscribed["settings"] as? [String: Any])?["keep"] as? Int, 2)

    let file = binary.library + "/out.opml"
    let exported = try XCTUnwrap(try json("export", file, "--json") as? [String: Any])
    XCTAssertEqual(exported["exported"] as? Int, 1)
    XCTAssertEqual(exported["file"] as? String, file)
    XCTAssertEqual(try podcast("export", "--json").status, 64, "no FILE: the OPML is the output")

    let reimported = try XCTUnwrap(try json("import", file, "--json") as? [String: Any])
    XCTAssertEqual((reimported["added"] as? [String])?.count, 0)
    XCTAssertEqual(reimported["alreadySubscribed"] as? Int, 1)

    XCTAssertEqual(try podcast("sync").status, 0)
    let removed = try XCTUnwrap(
      try json("unsubscribe", "scripted", "--delete-files", "--json") as? [String: Any])
    XCTAssertEqual((removed["deleted"] as? [String])?.count, 1)
    XCTAssertEqual((removed["failed"] as? [String])?.count, 0)
    XCTAssertEqual(binary.episodeFiles(), [])
  }

  func testDryRunSaysWhatTheSyncWouldPruneAndPrunesNothing() throws {
    let show = Show("pruned", episodes: 1, on: server)
    try subscribe(show, keep: 1)
    XCTAssertEqual(try podcast("sync").status, 0)
    let before = binary.episodeFiles()
    XCTAssertEqual(before.count, 1)
    show.publish(1)

    let plan = try XCTUnwrap(try json("sync", "--dry-run", "--json") as? [String: Any])
    XCTAssertEqual((plan["wouldDownload"] as? [Any])?.count, 1)
    let prune = try XCTUnwrap(plan["wouldPrune"] as? [String])
    XCTAssertEqual(
      prune.map { URL(fileURLWithPath: $0).lastPathComponent },
      before.map { URL(fileURLWithPath: $0).lastPathComponent })
    XCTAssertEqual(binary.episodeFiles(), before, "a dry run deletes nothing")
    let text = try podcast("sync", "--dry-run").stdout
    XCTAssertTrue(text.contains("would prune"), text)

    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(binary.episodeFiles().count, 1)
    XCTAssertNotEqual(binary.episodeFiles(), before, "the real sync pruned what the dry run named")
  }
}
