import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// An episode whose link changes between two runs (a signed or tokenised link gains a new
/// query string; the old one may have expired meanwhile), same GUID, with the first run killed
/// mid-body: the rerun resumes the bytes already fetched from the new link with one `Range`
/// request (the server's `If-Range` decides it is the same file), the file is byte-exact, no
/// partial file is left behind, and `status` shows the episode once.
final class EpisodeLinkChangeTests: LibraryTestCase {
  private let size = 400_000
  /// What the server sends of the body before it stops, in the killed run.
  private let kept = 150_000
  private let media = "/media/signed.mp3"
  private let etag = "\"signed-file\""
  private lazy var body = FeedFixture.bytes(size, seed: 23)

  func testDownloadResumesFromTheNewLink() throws {
    try killMidBody(["download", feedURL, "1"])
    try rerunAfterTheLinkChanged(["download", feedURL, "1"])
    try assertResumedOnce()
  }

  func testDownloadResumesFromTheNewLinkWhenTheOldOneExpired() throws {
    try killMidBody(["download", feedURL, "1"])
    try rerunAfterTheLinkChanged(["download", feedURL, "1"], oldLinkAnswers: 403)
    try assertResumedOnce()
  }

  func testSyncResumesFromTheNewLink() throws {
    XCTAssertEqual(try podcast("subscribe", feedURL, "--name", "links").status, 0)
    try killMidBody(["sync"])
    try rerunAfterTheLinkChanged(["sync"])
    try assertResumedOnce()
  }

  func testSyncResumesFromTheNewLinkWhenTheOldOneExpired() throws {
    XCTAssertEqual(try podcast("subscribe", feedURL, "--name", "links").status, 0)
    try killMidBody(["sync"])
    try rerunAfterTheLinkChanged(["sync"], oldLinkAnswers: 403)
    try assertResumedOnce()
  }

  /// The feed answers the rerun's conditional GET with 304, so sync asks the old link, which
  /// has expired: the feed read again gives the new one, and the bytes move with the row.
  func testSyncResumesFromTheNewLinkWhenTheOldOneExpiredBehindA304() throws {
    XCTAssertEqual(try podcast("subscribe", feedURL, "--name", "links").status, 0)
    try killMidBody(["sync"])
    try rerunAfterTheLinkChanged(["sync"], oldLinkAnswers: 410, feedUnchanged: true)
    let refused = server.requests(for: media).filter { $0.query == "v=1" }
    XCTAssertEqual(refused.count, 2, "the killed run's request, then the refused one")
    try assertResumedOnce(afterRefusals: 1)
  }

  // MARK: steps

  private var feedURL: String { server.url("/links.xml") }

  private func episode(query: String) -> FakeEpisode {
    FakeEpisode(
      title: "Signed", guid: "signed-1", published: Date(timeIntervalSince1970: 1_715_335_200),
      path: media + "?" + query, body: body)
  }

  /// The feed listing the episode at `?query`, under the ETag `version` (kept when the link
  /// changes, a conditional GET gets 304, as from a CDN's stale validator).
  private func serveFeed(query: String, version: Int) {
    server.set(
      "/links.xml",
      .text(
        FeedFixture.rss(title: "Links", episodes: [episode(query: query)], base: server.baseURL),
        contentType: "application/rss+xml"
      ).withETag("\"links-v\(version)\""))
  }

  override func setUpWithError() throws {
    try super.setUpWithError()
    serveFeed(query: "v=1", version: 1)
  }

  /// Runs `arguments` until the server has sent `kept` bytes of the body, they are in the
  /// partial file and the row holds the response's validators and size; then `kill -9`.
  private func killMidBody(_ arguments: [String]) throws {
    server.set(
      media,
      Route.data(body, contentType: "audio/mpeg").withETag(etag)
        .stalling(after: kept, seconds: nil, times: 1))
    let running = try binary.start(arguments)
    let stopped = DownloadScenario.waitUntil(seconds: 60) {
      partialSizes() == [kept] && (try? statusRows())?.first?["total"] as? Int == size
    }
    running.signal(SIGKILL)
    _ = try running.wait(timeout: 10)
    XCTAssertTrue(stopped, "never stopped mid-body: partial files \(partialSizes())")
    XCTAssertEqual(partialSizes(), [kept])
    XCTAssertEqual(binary.episodeFiles(), [])
  }

  /// The feed now lists `?v=2`; `oldLinkAnswers`: what `?v=1` answers from now on (nil: the
  /// file, as before). The file itself is the same: same ETag.
  private func rerunAfterTheLinkChanged(
    _ arguments: [String], oldLinkAnswers status: Int? = nil, feedUnchanged: Bool = false
  ) throws {
    server.set(media, Route.data(body, contentType: "audio/mpeg").withETag(etag))
    if let status { server.set(media + "?v=1", .status(status)) }
    serveFeed(query: "v=2", version: feedUnchanged ? 1 : 2)
    requestsBeforeRerun = server.requests(for: media).count
    let rerun = try binary.run(arguments, timeout: 60)
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    if feedUnchanged {
      XCTAssertTrue(
        responses.entries.contains { $0.path == "/links.xml" && $0.status == 304 },
        "the rerun's feed answered 304")
    }
  }

  private var requestsBeforeRerun = 0

  /// One request of the rerun fetched bytes: a `Range` from the kept bytes, to the new link,
  /// with `If-Range`; the file is whole, the partial gone, the episode one row in `status`.
  private func assertResumedOnce(
    afterRefusals refusals: Int = 0, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let rerun = Array(server.requests(for: media).dropFirst(requestsBeforeRerun))
    XCTAssertEqual(rerun.count, refusals + 1, "\(rerun.map(\.target))", file: file, line: line)
    let resume = try XCTUnwrap(rerun.last, file: file, line: line)
    XCTAssertEqual(resume.query, "v=2", file: file, line: line)
    XCTAssertEqual(resume.header("range"), "bytes=\(kept)-", file: file, line: line)
    XCTAssertEqual(resume.header("if-range"), etag, file: file, line: line)
    let bodies = responses.entries.filter { $0.path == media && $0.method == "GET" }
    XCTAssertEqual(
      bodies.filter { $0.status == 200 }.count, 0, "never the whole file again", file: file,
      line: line)
    XCTAssertEqual(bodies.filter { $0.status == 206 }.count, 1, file: file, line: line)

    assertEpisodeFiles([episode(query: "v=2")], file: file, line: line)
    XCTAssertEqual(binary.partialFiles(), [], "left in .podcast/partial", file: file, line: line)
    let rows = try statusRows()
    XCTAssertEqual(rows.count, 1, "status: \(rows)", file: file, line: line)
    XCTAssertEqual(rows.first?["state"] as? String, "done", file: file, line: line)
    XCTAssertEqual(
      rows.first?["url"] as? String, server.url(media + "?v=2"), file: file, line: line)
    let plain = try podcast("status")
    XCTAssertEqual(
      plain.stdout.split(separator: "\n").count, 2, plain.stdout, file: file, line: line)
  }

  private func partialSizes() -> [Int] {
    binary.partialFiles().compactMap { name in
      let path = binary.library + "/.podcast/partial/" + name
      return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }
  }
}
