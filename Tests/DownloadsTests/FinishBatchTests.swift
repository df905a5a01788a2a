import Basics
import Downloads
import Fetching
import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The finish batch against a real library: what it puts in place and records, and what it
/// takes back when a record is refused.
final class FinishBatchTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  /// A download queued and begun, by this process or (`owner`) another; its partial file holds
  /// `bytes` and is written out, ready to finish into `Show/<index>.mp3`.
  private func request(_ index: Int, bytes: Data, owner: ProcessOwner = .current) throws
    -> FinishBatch.Request
  {
    let url = "https://cdn.example/\(index).mp3"
    let wanted = QueuedDownload(url: url, episodeTitle: "Ep \(index)", owner: .current)
    let key = try XCTUnwrap(DownloadRows(store: store).queue([wanted]).first)
    let begun = try XCTUnwrap(
      try DownloadRows(store: store).transition(key, .begin(wanted, owner: owner, bytesOnDisk: 0)))
    let file = try XCTUnwrap(try PartialFile(path: library.paths.partial(forKey: key)))
    try bytes.withUnsafeBytes { try file.append($0) }
    let descriptor = try file.writeOut()
    let destination = try Finisher.Destination(
      episodesDirectory: library.paths.episodes, relativePath: "Show/\(index).mp3")
    let row = DownloadRow(store: store, begun: begun)
    return FinishBatch.Request(
      file: file, descriptor: descriptor, staged: try Finisher.stage(file, to: destination),
      destination: destination, row: row, store: store,
      record: row.finishing(bytes: Int64(bytes.count), episode: nil), url: url)
  }

  private static func finish(_ request: FinishBatch.Request, in batch: FinishBatch) async -> Result<
    String, Error
  > {
    do {
      return .success(try await batch.finish(request))
    } catch {
      return .failure(error)
    }
  }

  /// Whatever rounds the two share, each stands alone: the one another process is running is
  /// not recorded, its name under Episodes is taken back (a rerun would otherwise download it
  /// again beside itself) and its complete partial stays for the next run; the other is in
  /// place with its bytes and recorded done where it landed.
  func testARefusedRecordTakesBackItsNameAndLeavesTheOtherFinished() async throws {
    let bytes = [Data(repeating: 7, count: 70_000), Data(repeating: 9, count: 90_000)]
    let finished = try request(0, bytes: bytes[0])
    // pid 1 is always alive: the row says another process is fetching it.
    let refused = try request(1, bytes: bytes[1], owner: XCTUnwrap(ProcessOwner(running: 1)))
    let batch = FinishBatch()
    async let first = Self.finish(finished, in: batch)
    async let second = Self.finish(refused, in: batch)
    let (placed, failed) = await (first, second)

    let episodes = library.paths.episodes + "/Show/"
    XCTAssertEqual(try placed.get(), episodes + "0.mp3")
    XCTAssertEqual(FileManager.default.contents(atPath: episodes + "0.mp3"), bytes[0])
    let row = try XCTUnwrap(DownloadRows(store: store).find(key: finished.record.key))
    XCTAssertEqual(row.state, .done)
    XCTAssertEqual(row.file, episodes + "0.mp3")
    XCTAssertEqual(row.bytes, 70_000)

    guard case .failure(let error) = failed,
      case .cannotRecord(let url, .illegalDownloadMove) = error as? DownloadError
    else { return XCTFail("\(failed)") }
    XCTAssertEqual(url, refused.url)
    XCTAssertFalse(FileManager.default.fileExists(atPath: episodes + "1.mp3"))
    XCTAssertEqual(
      try DownloadRows(store: store).find(key: refused.record.key)?.state, .downloading)
    XCTAssertEqual(FileManager.default.contents(atPath: refused.file.path), bytes[1])
  }

  /// A folder emptied and pruned between an episode's staging and its finish (another
  /// process's `prune`) is made again, and the episode lands in it.
  func testAFolderRemovedAfterStagingIsMadeAgainForTheFinish() async throws {
    let bytes = Data(repeating: 5, count: 30_000)
    let request = try request(0, bytes: bytes)
    let folder = library.paths.episodes + "/Show"
    XCTAssertEqual(rmdir(folder), 0, "staging made the folder, and nothing is in it yet")

    let placed = try await FinishBatch().finish(request)
    XCTAssertEqual(placed, folder + "/0.mp3")
    XCTAssertEqual(FileManager.default.contents(atPath: placed), bytes)
    XCTAssertEqual(try DownloadRows(store: store).find(key: request.record.key)?.state, .done)
  }

  /// Many at once, into one folder and into several: each lands under its own name with its
  /// own bytes, and each row says where.
  func testManyFinishingAtOnceEachLandAndAreRecorded() async throws {
    let requests = try (0..<12).map { index in
      try request(index, bytes: Data(repeating: UInt8(index), count: 50_000 + index))
    }
    let batch = FinishBatch()
    let paths = await withTaskGroup(of: (Int, Result<String, Error>).self) { group in
      for (index, request) in requests.enumerated() {
        group.addTask { (index, await Self.finish(request, in: batch)) }
      }
      var paths: [Int: Result<String, Error>] = [:]
      for await (index, result) in group { paths[index] = result }
      return paths
    }
    for (index, request) in requests.enumerated() {
      let path = try XCTUnwrap(paths[index]).get()
      XCTAssertEqual(path, library.paths.episodes + "/Show/\(index).mp3")
      XCTAssertEqual(
        FileManager.default.contents(atPath: path),
        Data(repeating: UInt8(index), count: 50_000 + index))
      let row = try XCTUnwrap(DownloadRows(store: store).find(key: request.record.key))
      XCTAssertEqual(row.state, .done, "\(index)")
      XCTAssertEqual(row.file, path)
    }
  }
}
