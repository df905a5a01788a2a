import Downloads
import Fetching
import Foundation
import XCTest

/// A finished episode copied onto the Episodes filesystem: the copy has no name until it is
/// whole and synced, so nothing half-copied is ever seen there, and naming it never replaces
/// a file already in place.
final class StagedCopyTests: XCTestCase {
  private var root: String!
  private var episodes: String { root + "/Episodes" }

  override func setUpWithError() throws {
    root = NSTemporaryDirectory() + "podcast-staged-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: episodes, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: root)
  }

  /// A partial file holding `bytes`, some of them still in its memory buffer.
  private func partial(_ bytes: [UInt8]) throws -> PartialFile {
    let file = try XCTUnwrap(try PartialFile(path: root + "/ep.part"))
    let split = bytes.count / 2
    try bytes[..<split].withUnsafeBytes { try file.append($0) }
    try file.flush()
    try bytes[split...].withUnsafeBytes { try file.append($0) }
    return file
  }

  private func pattern(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
  }

  private func listing() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: episodes).sorted()
  }

  func testTheCopyIsInvisibleUntilNamedThenWholeUnderItsName() throws {
    let bytes = pattern(3 << 20)
    let file = try partial(bytes)

    let copy = try StagedCopy(copying: file, into: episodes)
    XCTAssertEqual(try listing(), [], "a copy without a name shows nothing in the folder")

    XCTAssertTrue(try copy.name(episodes + "/ep.mp3"))
    XCTAssertEqual(try listing(), ["ep.mp3"])
    let copied = try Data(contentsOf: URL(fileURLWithPath: episodes + "/ep.mp3"))
    XCTAssertEqual(copied.count, bytes.count, "the bytes still buffered were copied too")
    XCTAssertTrue(copied == Data(bytes))
  }

  /// A run that stops between copying and naming (an error, a kill) leaves nothing behind.
  func testACopyNeverNamedLeavesNothing() throws {
    let file = try partial(pattern(100_000))
    do {
      let copy = try StagedCopy(copying: file, into: episodes)
      _ = copy
    }
    XCTAssertEqual(try listing(), [])
  }

  func testNamingNeverReplacesAFileAlreadyThere() throws {
    let existing = Data("someone else's episode".utf8)
    try existing.write(to: URL(fileURLWithPath: episodes + "/ep.mp3"))
    let copy = try StagedCopy(copying: try partial(pattern(50_000)), into: episodes)

    XCTAssertFalse(try copy.name(episodes + "/ep.mp3"), "the name is taken")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: episodes + "/ep.mp3")), existing)
    XCTAssertTrue(try copy.name(episodes + "/ep (2).mp3"), "another name still works")
    XCTAssertEqual(try listing(), ["ep (2).mp3", "ep.mp3"])
  }

  func testAnEmptyEpisodeCopiesToAnEmptyFile() throws {
    let file = try XCTUnwrap(try PartialFile(path: root + "/empty.part"))
    let copy = try StagedCopy(copying: file, into: episodes)
    XCTAssertTrue(try copy.name(episodes + "/empty.mp3"))
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: episodes + "/empty.mp3")), Data())
  }

  /// A folder that is not there is an error naming it, and nothing is created anywhere.
  func testAMissingFolderIsAnErrorThatNamesIt() throws {
    let file = try partial(pattern(1_000))
    let missing = episodes + "/gone"
    XCTAssertThrowsError(try StagedCopy(copying: file, into: missing)) { error in
      guard case DownloadError.cannotWrite(let path, _) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, missing)
    }
    XCTAssertEqual(try listing(), [])
  }
}
