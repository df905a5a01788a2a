import Fetching
import Foundation
import LoopbackServer
import SideFiles
import StoreTestSupport
import TagsTestSupport
import XCTest

/// A batch's cover pictures stay in memory only while a download still needs them: an
/// episode's own picture is dropped once that episode is done, the show's shared one stays
/// until its last episode is.
final class CoverCacheTests: XCTestCase {
  private var server: LoopbackServer!
  private var library: TemporaryLibrary!
  private var audio: AudioFixtures!
  private var episodePicture = Data()

  override func setUpWithError() throws {
    server = try LoopbackServer()
    library = try TemporaryLibrary()
    audio = try AudioFixtures()
    try library.paths.prepare()
    server.set("/show.png", .data(try audio.picture("show.png"), contentType: "image/png"))
    episodePicture = try audio.picture("1.png", color: "blue")
    server.set("/1.png", .data(episodePicture, contentType: "image/png"))
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  func testAPictureIsHeldUntilTheLastDownloadClaimingItIsDone() async throws {
    let cache = CoverCache(
      http: .shared, options: DownloadOptions(), scratchDirectory: library.paths.partials)
    let (show, episode) = (server.url("/show.png"), server.url("/1.png"))
    // Two episodes of one show, the first with a picture of its own.
    cache.claim([episode, show])
    cache.claim([show])
    let cover = await cache.image(from: [episode, show])
    XCTAssertEqual(cover?.data, episodePicture, "the episode's own picture comes first")
    _ = try await cache.image(at: show).get()
    let fetches = (
      show: server.requests(for: "/show.png").count, episode: server.requests(for: "/1.png").count
    )

    cache.release([episode, show])
    _ = try await cache.image(at: show).get()
    XCTAssertEqual(
      server.requests(for: "/show.png").count, fetches.show,
      "the second episode still needs the show's picture: it is not fetched again")
    _ = try await cache.image(at: episode).get()
    XCTAssertGreaterThan(
      server.requests(for: "/1.png").count, fetches.episode,
      "the first episode's own picture was dropped once it was done")

    cache.release([show])
    _ = try await cache.image(at: show).get()
    XCTAssertGreaterThan(
      server.requests(for: "/show.png").count, fetches.show,
      "no download needs the show's picture any more")
  }
}
