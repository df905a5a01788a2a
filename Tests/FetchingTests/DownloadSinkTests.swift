import Fetching
import Foundation
import XCTest

@testable import Transfer

/// What a response may add to the bytes on disk: only the rest of the same file.
final class DownloadSinkTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-sink-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// A partial file holding 1,000 bytes of version "A".
  private func partial() throws -> PartialFile {
    let file = try XCTUnwrap(try PartialFile(path: directory.appendingPathComponent("a.part").path))
    let bytes = [UInt8](repeating: 7, count: 1_000)
    try bytes.withUnsafeBytes { try file.append($0) }
    try file.flush()
    return file
  }

  private func sink(_ file: PartialFile) -> DownloadSink {
    DownloadSink(
      url: "https://cdn.example/a.mp3", file: file,
      resuming: ResumeBasis(offset: 1_000, total: 5_000, etag: "\"A\"", lastModified: nil),
      acceptsHTML: false, progress: ProgressBuffer(), onHead: { _, _ in })
  }

  private func head(_ status: Int, _ headers: [String: String]) -> ResponseHead {
    ResponseHead(status: status, url: "https://cdn.example/a.mp3", headers: headers, redirects: [])
  }

  private func assertStartsOver(
    _ headers: [String: String], because reason: String, line: UInt = #line
  ) throws {
    let file = try partial()
    XCTAssertThrowsError(try sink(file).receive(head: head(206, headers)), line: line) { error in
      guard case DownloadError.changedOnServer(_, let why) = error else {
        return XCTFail("\(error)", line: line)
      }
      XCTAssertTrue(why.contains(reason), why, line: line)
    }
    XCTAssertEqual(file.size, 0, "the old bytes must go", line: line)
  }

  func testA206ForAnotherVersionDropsTheBytesOnDisk() throws {
    try assertStartsOver(
      ["content-range": "bytes 1000-4999/5000", "etag": "\"B\""], because: "ETag \"A\" became \"B\""
    )
  }

  func testA206ThatDoesNotStartWhereTheFileEndsDropsTheBytesOnDisk() throws {
    try assertStartsOver(
      ["content-range": "bytes 0-4999/5000", "etag": "\"A\""], because: "does not continue")
    try assertStartsOver(["etag": "\"A\""], because: "no Content-Range")
  }

  func testA206ForAFileOfAnotherSizeDropsTheBytesOnDisk() throws {
    try assertStartsOver(
      ["content-range": "bytes 1000-5999/6000", "etag": "\"A\""], because: "from 5000 to 6000")
  }

  func testTheRestOfTheSameFileContinuesIt() throws {
    let file = try partial()
    let sink = sink(file)
    try sink.receive(head: head(206, ["content-range": "bytes 1000-4999/5000", "etag": "\"A\""]))
    XCTAssertEqual(sink.written, 1_000)
    XCTAssertEqual(sink.total, 5_000)
    XCTAssertEqual(file.size, 1_000)
  }

  func testAnEncodedBodyIsRefused() throws {
    let file = try partial()
    XCTAssertThrowsError(try sink(file).receive(head: head(200, ["content-encoding": "gzip"]))) {
      XCTAssertTrue("\($0)".contains("gzip-compressed"), "\($0)")
    }
  }
}

/// Bodies that cannot be the episode the feed announced.
final class BodyCheckTests: XCTestCase {
  private func problem(
    size: Int64, declared: Int64? = nil, types: [String] = ["audio/mpeg"],
    prefix: [UInt8] = [0x49, 0x44]
  ) -> String? {
    BodyCheck(url: "u", declaredLength: declared, mediaTypes: types)
      .problem(size: size, prefix: prefix).map(String.init(describing:))
  }

  func testRefusesEmptyTinyAndCompressedBodies() {
    XCTAssertEqual(problem(size: 0), "u: the server sent an empty file (0 bytes)")
    XCTAssertTrue(problem(size: 45, declared: 30_000_000)?.contains("less than 1%") == true)
    XCTAssertTrue(problem(size: 999)?.contains("too small to be an audio file") == true)
    XCTAssertTrue(problem(size: 50_000, prefix: [0x1f, 0x8b])?.contains("gzip") == true)
    XCTAssertTrue(
      problem(size: 50_000, types: ["video/mp4"], prefix: [0x1f, 0x8b])?.contains("gzip") == true)
  }

  func testAcceptsWhatCanBeTheEpisode() {
    XCTAssertNil(problem(size: 300_000, declared: 30_000_000), "1% is enough: feeds misstate")
    XCTAssertNil(problem(size: 1_000))
    XCTAssertNil(problem(size: 500, declared: 1, types: ["application/pdf"]))
    XCTAssertNil(problem(size: 50_000, types: ["application/gzip"], prefix: [0x1f, 0x8b]))
  }
}
