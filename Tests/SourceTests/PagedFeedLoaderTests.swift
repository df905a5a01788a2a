import Basics
import Foundation
import LoopbackServer
import Source
import Transfer
import XCTest

/// Following `rel="next"`: the guards a broken chain needs, each ending with the pages read.
final class PagedFeedLoaderTests: XCTestCase {
  private var server: LoopbackServer!

  override func setUpWithError() throws {
    server = try LoopbackServer()
  }

  override func tearDown() {
    server.stop()
  }

  /// A page of `numbers` (episode N published N days after the epoch day used), titled `title`,
  /// linking `next`.
  private func page(
    _ numbers: [Int], title: String = "Show", next: String? = nil, guid: String? = nil
  )
    -> String
  {
    let items = numbers.map { number in
      """
      <item><title>E\(number)</title><guid>e-\(number)</guid>
      <pubDate>\(XMLText.rfc822(Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 86_400)))</pubDate>
      <enclosure url="\(server.baseURL)/e\(number).mp3" length="1000" type="audio/mpeg"/></item>
      """
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:podcast="https://podcastindex.org/namespace/1.0">
      <channel><title>\(title)</title>\(guid.map { "<podcast:guid>\($0)</podcast:guid>" } ?? "")
      \(next.map { #"<atom:link rel="next" href="\#($0)"/>"# } ?? "")
      \(items.joined(separator: "\n"))
      </channel></rss>
      """
  }

  private func serve(_ path: String, _ xml: String) {
    server.set(path, .text(xml, contentType: "application/rss+xml"))
  }

  private func load(_ path: String, limit: Int = PagedFeedLoader.defaultPageLimit) async throws
    -> FeedPages
  {
    let loader = FeedLoader(http: HTTPClient())
    guard
      case .fetched(let first, let url, let validators, _, _) = try await loader.fetch(
        url: server.url(path))
    else { throw TransferError.network(url: path, reason: "304") }
    var paging = PagedFeedLoader(loader: loader)
    paging.pageLimit = limit
    return await paging.pages(
      first: first, url: url, validators: validators, origin: server.url(path))
  }

  func testAnEpisodeRepeatedOnALaterPageIsKeptOnce() async throws {
    serve("/feed", page([6, 5, 4], next: "/feed?p=2"))
    serve("/feed?p=2", page([4, 3, 2], next: "/feed?p=3"))
    serve("/feed?p=3", page([1]))
    let pages = try await load("/feed")
    XCTAssertEqual(pages.feed.episodes.map(\.title), ["E6", "E5", "E4", "E3", "E2", "E1"])
    XCTAssertEqual(pages.pages.map(\.episodeCount), [3, 3, 1])
    XCTAssertEqual(pages.pages.map(\.url), ["/feed", "/feed?p=2", "/feed?p=3"].map(server.url))
    XCTAssertNil(pages.stop)
  }

  func testAPageOfAnotherShowEndsTheChainBeforeIt() async throws {
    serve("/feed", page([4, 3], next: "/feed?p=2", guid: "show-a"))
    serve("/feed?p=2", page([2, 1], title: "Other", guid: "show-b"))
    let pages = try await load("/feed")
    XCTAssertEqual(pages.feed.episodes.map(\.title), ["E4", "E3"])
    guard case .otherFeed(2, let url) = pages.stop else {
      return XCTFail("\(String(describing: pages.stop))")
    }
    XCTAssertEqual(url, server.url("/feed?p=2"))
    XCTAssertTrue(pages.isIncomplete)
  }

  func testAChainPastTheLimitStopsAndSaysSo() async throws {
    for number in 1...5 {
      serve("/feed?p=\(number)", page([100 - number], next: "/feed?p=\(number + 1)"))
    }
    serve("/feed", page([100], next: "/feed?p=1"))
    let pages = try await load("/feed", limit: 3)
    XCTAssertEqual(pages.pages.count, 3)
    XCTAssertEqual(pages.feed.episodes.count, 3)
    guard case .tooManyPages(3, let next) = pages.stop else {
      return XCTFail("\(String(describing: pages.stop))")
    }
    XCTAssertEqual(next, server.url("/feed?p=3"))
    XCTAssertFalse(pages.isIncomplete, "a cap is a note: every page read is kept")
    XCTAssertTrue(pages.stop?.description.contains("more than 3 pages") == true)
  }

  func testAPageLinkingToItselfIsALoop() async throws {
    serve("/feed", page([2], next: "/feed?p=2"))
    serve("/feed?p=2", page([1], next: "/feed?p=2"))
    let pages = try await load("/feed")
    XCTAssertEqual(pages.feed.episodes.map(\.title), ["E2", "E1"])
    guard case .loop(2, _) = pages.stop else { return XCTFail("\(String(describing: pages.stop))") }
    XCTAssertEqual(server.requests(for: "/feed").count, 2, "one request per page")
  }

  func testANextLinkThatIsNotHTTPIsAFailedPageAndNothingIsRead() async throws {
    serve("/feed", page([2], next: "file:///etc/passwd"))
    let pages = try await load("/feed")
    XCTAssertEqual(pages.feed.episodes.map(\.title), ["E2"])
    guard case .unreadable(2, "file:///etc/passwd", _) = pages.stop else {
      return XCTFail("\(String(describing: pages.stop))")
    }
  }

  func testCredentialsGoToPagesOnTheFeedsHostOnly() async throws {
    let other = try LoopbackServer()
    defer { other.stop() }
    server.set(
      "/feed",
      Route.text(page([3], next: "/feed?p=2")).requiringBasicAuth(user: "ada", password: "pw"))
    server.set(
      "/feed?p=2",
      Route.text(page([2], next: other.url("/feed?p=3"))).requiringBasicAuth(
        user: "ada", password: "pw"))
    other.set("/feed?p=3", .text(page([1])))
    let origin = "http://ada:pw@127.0.0.1:\(server.port)/feed"
    let loader = FeedLoader(http: HTTPClient())
    guard
      case .fetched(let first, let url, let validators, _, _) = try await loader.fetch(url: origin)
    else { return XCTFail("304") }
    let pages = await PagedFeedLoader(loader: loader).pages(
      first: first, url: url, validators: validators, origin: origin)
    XCTAssertEqual(pages.feed.episodes.map(\.title), ["E3", "E2", "E1"])
    XCTAssertNil(pages.stop)
    XCTAssertNil(other.requests.first?.header("authorization"), "credentials went to another host")
  }
}
