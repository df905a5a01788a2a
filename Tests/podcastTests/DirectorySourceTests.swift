import DirectoryTestSupport
import Foundation
import LoopbackServer
import XCTest

/// `podcastindex:ID`, `guid:GUID` and `fyyd:ID` wherever a FEED is taken (`episodes`,
/// `download`, `subscribe`), resolved through the directories on loopback, as `itunes:ID` is.
final class DirectorySourceTests: XCTestCase {
  private var directories: LoopbackDirectories!
  private var show: Show!
  private let guid = "9b024349-ccf0-5f69-a609-6b82873eab3c"

  override func setUpWithError() throws {
    directories = try LoopbackDirectories()
    show = Show("loopback", episodes: 3, on: directories.server)
    let byID = LoopbackDirectories.json(
      DirectoryAnswers.podcastIndexFeed(id: 920_666, feedURL: show.feedURL))
    directories.answer("/api/1.0/podcasts/byfeedid", .podcastindex, with: byID)
    directories.answer("/api/1.0/podcasts/byguid", .podcastindex, with: byID)
    directories.answer(
      "/0.2/podcast", .fyyd,
      with: LoopbackDirectories.json(DirectoryAnswers.fyydPodcast(id: 85, feedURL: show.feedURL)))
  }

  override func tearDown() {
    directories?.server.stop()
    directories = nil
  }

  private func binary(withKey: Bool = true) throws -> PodcastBinary {
    var binary = try PodcastBinary()
    binary.environment.merge(directories.environment(withKey: withKey)) { _, new in new }
    return binary
  }

  func testEpisodesOfAPodcastIndexIDAGUIDAndAFyydID() throws {
    let podcast = try binary()
    for source in ["podcastindex:920666", "guid:\(guid)", "fyyd:85"] {
      let run = try podcast.run(["episodes", source, "--json"])

      XCTAssertEqual(run.exitCode, 0, "\(source): \(run.stderr)")
      let listing = try XCTUnwrap(try run.json() as? [String: Any])
      XCTAssertEqual(
        (listing["podcast"] as? [String: Any])?["feedURL"] as? String, show.feedURL, source)
      XCTAssertEqual((listing["episodes"] as? [Any])?.count, 3, source)
    }
    XCTAssertEqual(
      directories.requests(to: .podcastindex).map(\.target),
      ["/api/1.0/podcasts/byfeedid?id=920666", "/api/1.0/podcasts/byguid?guid=\(guid)"])
    XCTAssertEqual(directories.requests(to: .fyyd).map(\.target), ["/0.2/podcast?podcast_id=85"])
  }

  func testSubscribeKeepsTheFeedURLNotTheReference() throws {
    let podcast = try binary()

    let subscribed = try podcast.run(["subscribe", "podcastindex:920666", "--name", "loop"])
    let listed = try podcast.run(["subscriptions", "--json"])

    XCTAssertEqual(subscribed.exitCode, 0, subscribed.stderr)
    let subscriptions = try XCTUnwrap(try listed.json() as? [[String: Any]])
    XCTAssertEqual(subscriptions.first?["feedURL"] as? String, show.feedURL)
  }

  func testDownloadFromAFyydID() throws {
    let podcast = try binary()

    let run = try podcast.run(["download", "fyyd:85", "1"])

    XCTAssertEqual(run.exitCode, 0, run.stderr)
    XCTAssertEqual(podcast.episodeFiles().count, 1, "\(podcast.episodeFiles())")
  }

  func testAPodcastIndexSourceWithoutAKeySaysWhereToGetOne() throws {
    let run = try binary(withKey: false).run(["episodes", "podcastindex:920666"])

    XCTAssertEqual(run.exitCode, 64)
    XCTAssertTrue(run.stderr.contains("https://api.podcastindex.org"), run.stderr)
    XCTAssertTrue(run.stderr.contains("PODCAST_INDEX_KEY"), run.stderr)
    XCTAssertEqual(directories.server.requests.count, 0)
  }

  func testAnIDTheDirectoryDoesNotKnowIsNamed() throws {
    directories.answer(
      "/api/1.0/podcasts/byfeedid", .podcastindex,
      with: LoopbackDirectories.json(DirectoryAnswers.podcastIndexNotFound))
    directories.answer("/0.2/podcast", .fyyd, with: .status(404))
    let podcast = try binary()

    let index = try podcast.run(["episodes", "podcastindex:1"])
    let fyyd = try podcast.run(["episodes", "fyyd:2"])
    let malformed = try podcast.run(["episodes", "podcastindex:abc"])

    XCTAssertEqual(index.exitCode, 1)
    XCTAssertEqual(index.stderr, "podcast: no podcast has the Podcast Index id 1\n")
    XCTAssertEqual(fyyd.exitCode, 1)
    XCTAssertEqual(fyyd.stderr, "podcast: no podcast has the fyyd id 2\n")
    XCTAssertEqual(malformed.exitCode, 1)
    XCTAssertTrue(
      malformed.stderr.contains("podcastindex:abc: give the id after the colon"), malformed.stderr)
  }

  /// Apple lists some shows without their feed; Podcast Index may know it by the iTunes id.
  func testAnITunesIDApplesListsWithoutAFeedIsFoundThroughPodcastIndex() throws {
    directories.answer(
      "/lookup", .apple,
      with: LoopbackDirectories.json(
        #"{"resultCount":1,"results":[{"wrapperType":"track","kind":"podcast","collectionId":1512345678,"collectionName":"Loopback Show","trackCount":3}]}"#
      ))
    directories.answer(
      "/api/1.0/podcasts/byitunesid", .podcastindex,
      with: LoopbackDirectories.json(
        DirectoryAnswers.podcastIndexFeed(id: 920_666, feedURL: show.feedURL)))

    let withKey = try binary().run(["episodes", "itunes:1512345678", "--json"])
    let withoutKey = try binary(withKey: false).run(["episodes", "itunes:1512345678"])

    XCTAssertEqual(withKey.exitCode, 0, withKey.stderr)
    XCTAssertEqual(
      directories.requests(to: .podcastindex).map(\.target),
      ["/api/1.0/podcasts/byitunesid?id=1512345678"])
    XCTAssertEqual(withoutKey.exitCode, 1)
    XCTAssertTrue(withoutKey.stderr.contains("has no public feed URL"), withoutKey.stderr)
  }
}
