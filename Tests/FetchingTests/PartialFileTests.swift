import Fetching
import Foundation
import XCTest

/// The partial file gathers libcurl's 16 KiB pieces in memory; what it promises is that the
/// bytes still come out whole and in order, and reach the disk whenever a transfer pauses.
final class PartialFileTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-partial-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func open(_ name: String = "a.part") throws -> (PartialFile, String) {
    let path = directory.appendingPathComponent(name).path
    return (try XCTUnwrap(try PartialFile(path: path)), path)
  }

  private func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) &+ seed }
  }

  private func onDisk(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  func testManySmallPiecesArriveWholeAndInOrder() throws {
    let (file, path) = try open()
    // Several buffers' worth, in the odd sizes a network delivers.
    let bytes = pattern(3 * PartialFile.bufferSize + 12_345)
    var offset = 0
    var piece = 1
    while offset < bytes.count {
      let end = min(bytes.count, offset + piece)
      try bytes[offset..<end].withUnsafeBytes { try file.append($0) }
      offset = end
      piece = piece % 16_384 + 7_919
    }
    XCTAssertEqual(file.size, Int64(bytes.count))
    XCTAssertEqual(try file.seekToEnd(), Int64(bytes.count))
    XCTAssertEqual(try onDisk(path), bytes)
  }

  /// What makes kill -9 resumable: after a flush, another process sees every byte.
  func testFlushPutsEverythingOnDisk() throws {
    let (file, path) = try open()
    let bytes = pattern(150_000)
    try bytes.withUnsafeBytes { try file.append($0) }
    XCTAssertLessThan(try onDisk(path).count, bytes.count, "nothing was held back")
    try file.flush()
    XCTAssertEqual(try onDisk(path), bytes)
  }

  func testClosingWritesWhatWasHeld() throws {
    let path: String
    do {
      let (file, opened) = try open()
      path = opened
      try pattern(70_000).withUnsafeBytes { try file.append($0) }
    }
    XCTAssertEqual(try onDisk(path), pattern(70_000))
  }

  func testTruncateDropsHeldBytesAndStartsOver() throws {
    let (file, path) = try open()
    try pattern(90_000).withUnsafeBytes { try file.append($0) }
    try file.truncate(to: 0)
    XCTAssertEqual(file.size, 0)
    try pattern(5_000, seed: 9).withUnsafeBytes { try file.append($0) }
    _ = try file.writeOut()
    XCTAssertEqual(try onDisk(path), pattern(5_000, seed: 9))
  }

  /// The size a resume starts from is the file's, kept as it is written rather than asked of
  /// the disk: what an earlier run left, what arrives after, what a truncation leaves, each
  /// as the file on disk says once written out.
  func testTheSizeIsTheFilesAcrossRunsWritesAndTruncations() throws {
    do {
      let (first, _) = try open()
      try pattern(1_000).withUnsafeBytes { try first.append($0) }
    }
    let (file, path) = try open()
    XCTAssertEqual(file.size, 1_000, "what the last run left")
    XCTAssertEqual(try file.seekToEnd(), 1_000)
    try pattern(600_000, seed: 3).withUnsafeBytes { try file.append($0) }
    XCTAssertEqual(file.size, 601_000, "written and held together")
    try file.flush()
    XCTAssertEqual(file.size, Int64(try onDisk(path).count))
    XCTAssertTrue(try file.truncate(to: 400))
    XCTAssertEqual(file.size, 400)
    XCTAssertEqual(try onDisk(path).count, 400)
    try pattern(10).withUnsafeBytes { try file.append($0) }
    XCTAssertEqual(file.size, 410)
    _ = try file.writeOut()
    XCTAssertEqual(try onDisk(path), pattern(1_000).prefix(400) + pattern(10))
  }

  func testASecondOpenerIsRefusedWhileTheFirstHoldsTheLock() throws {
    let (first, path) = try open()
    XCTAssertNil(try PartialFile(path: path))
    _ = first
  }
}

/// Copying a partial onto another filesystem reports a full disk as such.
final class PartialFileCopyTests: XCTestCase {
  func testAFullDiskDuringTheCopyIsNamedAsOne() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-copy-\(UUID().uuidString).part").path
    defer { unlink(path) }
    let file = try XCTUnwrap(try PartialFile(path: path))
    let bytes = [UInt8](repeating: 1, count: 100_000)
    try bytes.withUnsafeBytes { try file.append($0) }
    let full = open("/dev/full", O_WRONLY)
    XCTAssertGreaterThanOrEqual(full, 0)
    defer { close(full) }
    XCTAssertThrowsError(try file.copy(to: full, targetPath: "/episodes/a.mp3")) { error in
      XCTAssertEqual(error as? DownloadError, .diskFull(path: "/episodes/a.mp3"))
      XCTAssertEqual("\(error)", "/episodes/a.mp3: no space left on the device")
    }
  }
}
