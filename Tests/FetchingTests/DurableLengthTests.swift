import Fetching
import Foundation
import XCTest

/// A partial file's row never vouches for bytes that are not the file's synced bytes: a
/// checkpoint measured before bytes were dropped records nothing, and bytes the row vouches for
/// are only dropped once the row stops vouching for them.
final class DurableLengthTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-synced-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func file(holding count: Int) throws -> PartialFile {
    let file = try XCTUnwrap(try PartialFile(path: directory.appendingPathComponent("a.part").path))
    let bytes = [UInt8](repeating: 7, count: count)
    try bytes.withUnsafeBytes { try file.append($0) }
    try file.flush()
    return file
  }

  func testACheckpointRecordsWhatWasWrittenBeforeItsSync() throws {
    let file = try file(holding: 3_000)
    let mark = file.synced.mark()
    XCTAssertEqual(mark.length, 3_000)
    XCTAssertTrue(file.flushData())
    var recorded: [Int64] = []
    XCTAssertTrue(file.synced.record(mark) { recorded.append($0) })
    XCTAssertEqual(recorded, [3_000])
    XCTAssertEqual(file.synced.claimed, 3_000)
    XCTAssertEqual(file.synced.sinceCheckpoint.unclaimed, 0)
    XCTAssertFalse(file.synced.record(mark) { recorded.append($0) }, "nothing new to vouch for")
    XCTAssertEqual(recorded, [3_000])
  }

  func testACheckpointMeasuredBeforeADropRecordsNothing() throws {
    let file = try file(holding: 3_000)
    let mark = file.synced.mark()
    XCTAssertTrue(try file.truncate(to: 0))
    try [UInt8](repeating: 9, count: 5_000).withUnsafeBytes { try file.append($0) }
    try file.flush()
    XCTAssertFalse(file.synced.record(mark) { _ in XCTFail("recorded a dropped length") })
    XCTAssertEqual(file.synced.claimed, 0)
  }

  func testBytesTheRowVouchesForAreDroppedOnlyOnceItStops() throws {
    let file = try file(holding: 3_000)
    file.synced.claim(2_000)
    XCTAssertFalse(try file.truncate(to: 1_000), "refused without lowering the row first")
    XCTAssertEqual(try file.seekToEnd(), 3_000, "and the file is as it was")
    XCTAssertTrue(try file.truncate(to: 2_500), "what it does not vouch for may go")

    var lowered: [Int64] = []
    XCTAssertTrue(try file.truncate(to: 0) { lowered.append($0) })
    XCTAssertEqual(lowered, [0])
    XCTAssertEqual(file.synced.claimed, 0)
    XCTAssertEqual(try file.seekToEnd(), 0)

    struct Refused: Error {}
    file.synced.claim(0)
    try [UInt8](repeating: 9, count: 100).withUnsafeBytes { try file.append($0) }
    try file.flush()
    file.synced.claim(100)
    XCTAssertThrowsError(try file.truncate(to: 0) { _ in throw Refused() })
    XCTAssertEqual(try file.seekToEnd(), 100, "the row could not be told: nothing dropped")
  }
}
