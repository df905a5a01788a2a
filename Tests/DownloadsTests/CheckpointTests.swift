import Basics
import Downloads
import Fetching
import Foundation
import LoopbackServer
import Model
import Store
import StoreTestSupport
import XCTest

/// A large episode's partial file is synced at checkpoints while it arrives, each synced
/// length recorded in its row. In the boot that wrote it, a resume builds on the whole file;
/// after a reboot only on the last checkpoint, whatever the file looks like past it.
final class CheckpointTests: XCTestCase {
  private var server: LoopbackServer!
  private var library: TemporaryLibrary!
  private let mib = 1 << 20
  private lazy var body = Data(
    (0..<(20 * mib)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) })

  override func setUpWithError() throws {
    server = try LoopbackServer()
    library = try TemporaryLibrary()
    // 12 MiB arrive, then the first response hangs until the download is stopped.
    server.set(
      "/big.mp3",
      .data(body, contentType: "audio/mpeg").withETag("\"v1\"")
        .stalling(after: 12 * mib, seconds: nil, times: 1))
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  private var job: DownloadJob {
    DownloadJob(
      url: server.url("/big.mp3"), title: "Big", podcastTitle: "Show",
      relativePath: "Show/Big.mp3", mimeType: "audio/mpeg", declaredLength: Int64(body.count),
      feedURL: server.url("/feed.xml"), identityKeys: ["guid:big"])
  }

  private func manager(_ store: LibraryStore) -> DownloadManager {
    var options = DownloadOptions()
    options.attempts = 1
    return DownloadManager(store: store, options: options)
  }

  /// Runs the download until 12 MiB are in and a checkpoint of at least 8 MiB is recorded,
  /// then stops it (as Ctrl-C does); returns the row as it was left.
  private func interruptAfterACheckpoint(_ store: LibraryStore) async throws -> DownloadRecord {
    let (manager, job) = (manager(store), job)
    let running = Task { await manager.download([job]) }
    let url = server.url("/big.mp3")
    var row = try DownloadRows(store: store).find(url: url)
    let deadline = Date().addingTimeInterval(60)
    while (row?.durableBytes ?? 0) < 8 * mib
      || (row.flatMap(DownloadRows(store: store).partialSize) ?? 0) < 12 * mib
    {
      guard Date() < deadline else {
        running.cancel()
        XCTFail("no checkpoint of 8 MiB recorded in 60 s: \(String(describing: row))")
        throw CancellationError()
      }
      try await Task.sleep(for: .milliseconds(20))
      row = try DownloadRows(store: store).find(url: url)
    }
    running.cancel()
    _ = await running.value
    let stopped = try XCTUnwrap(try DownloadRows(store: store).find(url: url))
    // Once the stopped download has returned, nothing of it holds its partial: the next run
    // here, which stands for a new process, can take the file's lock at once.
    let free = try PartialFile(path: stopped.partialPath)
    XCTAssertNotNil(free, "the stopped download still holds \(stopped.partialPath)")
    return stopped
  }

  private func resumedFrom() -> String? {
    server.requests(for: "/big.mp3").last?.headers["range"]
  }

  func testAResumeInTheBootThatWroteThePartialTrustsAllOfIt() async throws {
    let store = try library.store()
    let stopped = try await interruptAfterACheckpoint(store)
    XCTAssertEqual(stopped.state, .paused)
    XCTAssertEqual(stopped.partialBoot, ProcessOwner.currentBoot)

    let results = await manager(store).download([job])

    XCTAssertEqual(resumedFrom(), "bytes=\(12 * mib)-")
    let file = library.paths.episodes + "/Show/Big.mp3"
    XCTAssertEqual(results.map(\.outcome), [.downloaded(file: file, bytes: Int64(body.count))])
    XCTAssertEqual(FileManager.default.contents(atPath: file), body)
  }

  /// After a reboot the bytes past the last checkpoint may be anything, here zeros where
  /// writes were lost (a filesystem that kept later writes and lost earlier ones): the resume
  /// asks from the checkpoint, and the episode ends byte-exact.
  func testAfterARebootAResumeStartsFromTheLastCheckpoint() async throws {
    let store = try library.store()
    let stopped = try await interruptAfterACheckpoint(store)
    let durable = stopped.durableBytes
    XCTAssertGreaterThanOrEqual(durable, Int64(8 * mib))
    XCTAssertLessThanOrEqual(durable, Int64(12 * mib))
    try tearTail(of: stopped, after: durable)
    try rebootHappened(to: stopped, in: store)

    let results = await manager(store).download([job])

    XCTAssertEqual(resumedFrom(), "bytes=\(durable)-")
    let file = library.paths.episodes + "/Show/Big.mp3"
    XCTAssertEqual(results.map(\.outcome), [.downloaded(file: file, bytes: Int64(body.count))])
    XCTAssertEqual(FileManager.default.contents(atPath: file), body)
  }

  /// A power cut between a finish's link into Episodes and its record leaves the partial file
  /// with two names, synced whole. After the reboot the episode is adopted as it is: the
  /// partial is not cut to its last checkpoint first, which would cut the episode with it.
  func testAfterARebootAPartialAlreadyLinkedIntoEpisodesIsAdoptedWhole() async throws {
    let store = try library.store()
    let stopped = try await interruptAfterACheckpoint(store)
    XCTAssertLessThan(stopped.durableBytes, Int64(body.count))
    try body.write(to: URL(fileURLWithPath: stopped.partialPath))
    let file = library.paths.episodes + "/Show/Big.mp3"
    try FileManager.default.createDirectory(
      atPath: library.paths.episodes + "/Show", withIntermediateDirectories: true)
    XCTAssertEqual(link(stopped.partialPath, file), 0)
    try rebootHappened(to: stopped, in: store)
    let requests = server.requests(for: "/big.mp3").count

    let results = await manager(store).download([job])

    XCTAssertEqual(results.map(\.outcome), [.alreadyDownloaded(file: file)])
    XCTAssertEqual(FileManager.default.contents(atPath: file), body)
    XCTAssertEqual(server.requests(for: "/big.mp3").count, requests, "fetched again")
    XCTAssertEqual(try DownloadRows(store: store).find(key: stopped.key)?.state, .done)
  }

  /// Zeros from `offset` to the end of the partial file, its length kept.
  private func tearTail(of row: DownloadRecord, after offset: Int64) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: row.partialPath))
    defer { try? handle.close() }
    let length = try handle.seekToEnd()
    try handle.seek(toOffset: UInt64(offset))
    try handle.write(contentsOf: Data(count: Int(length) - Int(offset)))
  }

  /// The row as a run of the boot before this one would have left it: that run wrote the
  /// partial file, and died with the power.
  private func rebootHappened(to row: DownloadRecord, in store: LibraryStore) throws {
    let before = ProcessOwner(pid: 1, started: 1, boot: String(repeating: "0", count: 32))
    let wanted = QueuedDownload(
      url: row.url, feedURL: row.feedURL, identityKeys: row.episodeKey.map { [$0] } ?? [])
    let onDisk = try XCTUnwrap(DownloadRows(store: store).partialSize(of: row))
    try DownloadRows(store: store).transition(
      row.key, .begin(wanted, owner: before, bytesOnDisk: onDisk))
    XCTAssertEqual(try DownloadRows(store: store).find(key: row.key)?.partialBoot, before.boot)
  }
}

/// When a checkpoint is worth its sync: never with nothing new, at once for a file's first
/// step of the body.
final class CheckpointDueTests: XCTestCase {
  func testTheFirstStepOfABodyIsDueAndNothingNewNeverIs() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-due-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try XCTUnwrap(try PartialFile(path: directory.appendingPathComponent("a.part").path))
    XCTAssertFalse(Checkpoints.isDue(file.synced), "nothing written")
    let step = [UInt8](repeating: 1, count: PartialFile.writebackStep)
    try step.withUnsafeBytes { try file.append($0) }
    try file.flush()
    XCTAssertTrue(Checkpoints.isDue(file.synced), "a whole step, never checkpointed")
    let mark = file.synced.mark()
    XCTAssertTrue(file.flushData())
    XCTAssertTrue(file.synced.record(mark) { _ in })
    XCTAssertFalse(Checkpoints.isDue(file.synced), "nothing new since")
  }
}
