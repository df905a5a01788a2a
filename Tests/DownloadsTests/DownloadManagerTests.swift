import Downloads
import Fetching
import Foundation
import LoopbackServer
import Store
import StoreTestSupport
import Transfer
import XCTest

/// The downloader in-process, against the loopback server and a real library.
final class DownloadManagerTests: XCTestCase {
  private var server: LoopbackServer!
  private var library: TemporaryLibrary!
  private let body = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

  override func setUpWithError() throws {
    server = try LoopbackServer()
    library = try TemporaryLibrary()
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  private func job(_ path: String, keys: [String] = ["guid:one"]) -> DownloadJob {
    DownloadJob(
      url: server.url(path), title: "One", podcastTitle: "Show", relativePath: "Show/One.mp3",
      mimeType: "audio/mpeg", declaredLength: Int64(body.count), feedURL: server.url("/feed.xml"),
      identityKeys: keys)
  }

  private func manager(_ store: LibraryStore, attempts: Int = 3) -> DownloadManager {
    var options = DownloadOptions()
    options.attempts = attempts
    options.retryDelay = .milliseconds(10)
    return DownloadManager(store: store, options: options)
  }

  func testAFinishedDownloadIsRecordedWithItsFeedAndIdentity() async throws {
    server.set("/a.mp3", .data(body, contentType: "audio/mpeg").withETag("\"v1\""))
    let store = try library.store()
    let results = await manager(store).download([job("/a.mp3")])
    let file = library.paths.episodes + "/Show/One.mp3"
    XCTAssertEqual(results.map(\.outcome), [.downloaded(file: file, bytes: Int64(body.count))])
    XCTAssertEqual(FileManager.default.contents(atPath: file), body)
    let row = try XCTUnwrap(try DownloadRows(store: store).find(url: server.url("/a.mp3")))
    XCTAssertEqual(row.state, .done)
    XCTAssertEqual(row.feedURL, server.url("/feed.xml"))
    XCTAssertEqual(row.episodeKey, "guid:one")
    XCTAssertNil(row.owner)
    XCTAssertFalse(FileManager.default.fileExists(atPath: library.paths.partial(forKey: row.key)))
  }

  /// The response head is recorded (off the transfer thread) as soon as it arrives: a failed
  /// attempt leaves the validators a resume needs.
  func testAFailedAttemptLeavesTheValidatorsForTheResume() async throws {
    server.set(
      "/a.mp3", .data(body, contentType: "audio/mpeg").withETag("\"v1\"").dropping(after: 50_000))
    let store = try library.store()
    let results = await manager(store, attempts: 1).download([job("/a.mp3")])
    guard case .failed(let failure) = results.first?.outcome else {
      return XCTFail("\(results)")
    }
    XCTAssertTrue(failure.description.contains("/a.mp3"), failure.description)
    // The cause stays a typed error a caller can tell apart, not just its text.
    XCTAssertTrue(
      failure.cause is TransferError || failure.cause is DownloadError, "\(type(of: failure.cause))"
    )
    let row = try XCTUnwrap(try DownloadRows(store: store).find(url: server.url("/a.mp3")))
    XCTAssertEqual(row.state, .failed)
    XCTAssertEqual(row.etag, "\"v1\"")
    XCTAssertEqual(row.total, Int64(body.count))
    XCTAssertEqual(row.bytes, 50_000)
    XCTAssertEqual(DownloadRows(store: store).partialSize(of: row), 50_000)
  }

  func testTheSameEpisodeUnderANewURLIsAlreadyDownloaded() async throws {
    server.set("/a.mp3", .data(body, contentType: "audio/mpeg"))
    server.set("/moved/a.mp3", .data(body, contentType: "audio/mpeg"))
    let store = try library.store()
    _ = await manager(store).download([job("/a.mp3")])
    let again = await manager(store).download([job("/moved/a.mp3")])
    XCTAssertEqual(
      again.map(\.outcome), [.alreadyDownloaded(file: library.paths.episodes + "/Show/One.mp3")])
    XCTAssertEqual(server.requests(for: "/moved/a.mp3").count, 0)
  }

  /// GUIDs such as "1" repeat across feeds: identity is matched within one feed only.
  func testTheSameGUIDInAnotherFeedIsAnotherEpisode() async throws {
    server.set("/a.mp3", .data(body, contentType: "audio/mpeg"))
    server.set("/other/a.mp3", .data(body, contentType: "audio/mpeg"))
    let store = try library.store()
    _ = await manager(store).download([job("/a.mp3")])
    var other = job("/other/a.mp3")
    other.feedURL = server.url("/other-feed.xml")
    other.relativePath = "Other/One.mp3"
    let results = await manager(store).download([other])
    XCTAssertEqual(
      results.map(\.outcome),
      [.downloaded(file: library.paths.episodes + "/Other/One.mp3", bytes: Int64(body.count))])
  }

  /// A batch of episodes finishing side by side, in one folder and in several, two of them
  /// wanting one name: each is in place with its own bytes, recorded done where it landed,
  /// and no partial file is left.
  func testEpisodesFinishingSideBySideAreEachInPlaceAndRecorded() async throws {
    var jobs: [DownloadJob] = []
    var bodies: [String: Data] = [:]
    for index in 0..<16 {
      let bytes = Data(body.map { $0 &+ UInt8(index) })
      server.set("/\(index).mp3", .data(bytes, contentType: "audio/mpeg"))
      var episode = job("/\(index).mp3", keys: ["guid:\(index)"])
      episode.relativePath =
        index == 15 ? "Show 0/Episode 0.mp3" : "Show \(index % 3)/Episode \(index).mp3"
      jobs.append(episode)
      bodies[server.url("/\(index).mp3")] = bytes
    }
    let store = try library.store()
    let results = await manager(store).download(jobs)
    var files: Set<String> = []
    for result in results {
      guard case .downloaded(let file, _, _) = result.outcome else {
        return XCTFail("\(result.job.url): \(result.outcome)")
      }
      files.insert(file)
      XCTAssertEqual(FileManager.default.contents(atPath: file), bodies[result.job.url])
      let row = try XCTUnwrap(try DownloadRows(store: store).find(url: result.job.url))
      XCTAssertEqual(row.state, .done)
      XCTAssertEqual(row.file, file)
    }
    XCTAssertEqual(files.count, 16)
    XCTAssertTrue(files.contains(library.paths.episodes + "/Show 0/Episode 0 (2).mp3"), "\(files)")
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: library.paths.partials), [])
  }

  /// Two jobs that would land on one path: a file found there could be either's, so neither
  /// adopts it; both download, side by side.
  func testAFileAtAPathTwoJobsShareIsAdoptedByNeither() async throws {
    server.set("/a.mp3", .data(body, contentType: "audio/mpeg"))
    server.set("/b.mp3", .data(Data(body.reversed()), contentType: "audio/mpeg"))
    let store = try library.store()
    let folder = library.paths.episodes + "/Show"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    XCTAssertTrue(
      FileManager.default.createFile(atPath: folder + "/One.mp3", contents: Data("old".utf8)))
    let results = await manager(store).download([job("/a.mp3", keys: []), job("/b.mp3", keys: [])])
    XCTAssertEqual(
      Set(
        results.compactMap {
          if case .downloaded(let file, _, _) = $0.outcome { file } else { nil }
        }),
      [folder + "/One (2).mp3", folder + "/One (3).mp3"])
  }
}

/// libcurl's answers are checked: an option it refuses is an error, not a silently looser
/// transfer.
final class CurlOptionTests: XCTestCase {
  func testAProtocolListLibcurlRefusesFailsTheTransfer() async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    server.set("/a", .text("hello"))
    var request = TransferRequest(url: server.url("/a"), options: TransferOptions())
    request.protocols = "http,no-such-protocol"
    do {
      _ = try await HTTPClient.shared.perform(
        request, into: MemorySink(url: request.url, limit: 1_000))
      XCTFail("the transfer ran with an option libcurl refused")
    } catch let error as TransferError {
      guard case .setup(_, let reason) = error else { return XCTFail("\(error)") }
      XCTAssertTrue(reason.contains("libcurl refused"), reason)
    }
    XCTAssertEqual(server.requests(for: "/a").count, 0)
  }
}
