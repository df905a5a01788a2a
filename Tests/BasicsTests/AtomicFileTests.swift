import Basics
import Foundation
import XCTest

/// Files written together (`AtomicFile.write(_:)`, what 200 podcast folders' playlists use)
/// keep the promise each file has alone: complete new contents under the name, or the old
/// ones and nothing left behind.
final class AtomicFileTests: XCTestCase {
  private var folder: String!

  override func setUpWithError() throws {
    folder =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-atomic-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: folder + "/staging", withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: folder)
  }

  func testEachFileOfABatchHasItsOwnContentsAndAFailedOneChangesNothingElse() throws {
    for index in 0..<20 {
      try FileManager.default.createDirectory(
        atPath: folder + "/\(index)", withIntermediateDirectories: true)
    }
    try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/3/list.m3u8"))
    var files = (0..<20).map { index in
      AtomicFile.Pending(
        Data("playlist \(index)\n".utf8), to: folder + "/\(index)/list.m3u8", prefix: ".t-",
        in: folder + "/staging")
    }
    // Its folder does not exist: it alone fails, with the reason.
    files.append(
      AtomicFile.Pending(Data("lost".utf8), to: folder + "/missing/list.m3u8", prefix: ".t-"))

    let results = AtomicFile.write(files)

    XCTAssertEqual(results.count, 21)
    XCTAssertEqual(Array(results.prefix(20)), Array(repeating: nil, count: 20))
    XCTAssertEqual(results.last, ENOENT)
    for index in 0..<20 {
      XCTAssertEqual(
        try String(contentsOfFile: folder + "/\(index)/list.m3u8", encoding: .utf8),
        "playlist \(index)\n")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/staging"), [])
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/missing"))
  }

  func testATemporaryOnAnotherFilesystemLeavesTheOldFileAndNoTemporary() throws {
    // /dev/shm is tmpfs: a rename from there into the test folder crosses filesystems.
    var shm = stat()
    var here = stat()
    guard stat("/dev/shm", &shm) == 0, stat(folder, &here) == 0, shm.st_dev != here.st_dev else {
      throw XCTSkip("no second filesystem to stage on")
    }
    let target = folder + "/list.m3u8"
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    let prefix = ".podcast-atomic-test-\(getpid())-"
    let results = AtomicFile.write([
      AtomicFile.Pending(Data("new".utf8), to: target, prefix: prefix, in: "/dev/shm")
    ])
    XCTAssertEqual(results, [EXDEV])
    XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "old")
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: "/dev/shm").filter {
        $0.hasPrefix(prefix)
      }, [])
  }
}
