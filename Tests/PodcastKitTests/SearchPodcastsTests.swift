import DirectoryTestSupport
import Foundation
import LoopbackServer
import PodcastKit
import Search
import XCTest

/// `SearchPodcasts` against the four directories on loopback: asked at once, each within its
/// own time limit, merged.
final class SearchPodcastsTests: XCTestCase {
  private var directories: LoopbackDirectories!

  override func setUpWithError() throws {
    directories = try LoopbackDirectories()
  }

  override func tearDown() {
    directories?.server.stop()
    directories = nil
  }

  private func network(withKey: Bool = true) -> Network {
    let base = directories.server.baseURL
    return Network(
      stallTimeout: 5, iTunesBaseURL: base, podcastIndexBaseURL: base, fyydBaseURL: base,
      gpodderBaseURL: base,
      podcastIndexCredentials: withKey
        ? PodcastIndexCredentials(key: LoopbackDirectories.key, secret: LoopbackDirectories.secret)
        : nil)
  }

  private func answerAll(delay: Double? = nil) {
    directories.answerSearch(.apple, json: DirectoryAnswers.apple, delay: delay)
    directories.answerSearch(.podcastindex, json: DirectoryAnswers.podcastIndex, delay: delay)
    directories.answerSearch(.fyyd, json: DirectoryAnswers.fyyd, delay: delay)
    directories.answerSearch(.gpodder, json: DirectoryAnswers.gpodder, delay: delay)
  }

  func testTheDirectoriesAreAskedAtOnceAndMerged() async {
    answerAll(delay: 0.6)

    let outcome = await SearchPodcasts(network: network()).run(
      term: DirectoryAnswers.term, limit: 10, country: "US", directories: Directory.allCases)

    XCTAssertEqual(outcome.failures, [])
    XCTAssertEqual(outcome.asked, [.apple, .podcastindex, .fyyd, .gpodder])
    XCTAssertEqual(outcome.results.count, 6)
    XCTAssertEqual(outcome.results.first?.directories, [.apple, .podcastindex, .fyyd, .gpodder])
    let events = directories.events
    XCTAssertEqual(
      Set(events.prefix(4)),
      [.arrived(.apple), .arrived(.podcastindex), .arrived(.fyyd), .arrived(.gpodder)],
      "every request before any answer: \(events)")
  }

  func testNoDirectoriesNamedMeansAppleAndPodcastIndexWhenThereIsAKey() async {
    answerAll()

    let withKey = await SearchPodcasts(network: network()).run(
      term: "x", limit: 10, country: "US", directories: [])
    let withoutKey = await SearchPodcasts(network: network(withKey: false)).run(
      term: "x", limit: 10, country: "US", directories: [])

    XCTAssertEqual(withKey.asked, [.apple, .podcastindex])
    XCTAssertEqual(withoutKey.asked, [.apple])
    XCTAssertThrowsError(
      try SearchPodcasts.check(directories: [.fyyd, .podcastindex], hasPodcastIndexKey: false))
  }

  func testEachDirectoryHasItsOwnTimeLimit() async {
    answerAll()
    directories.answer(
      LoopbackDirectories.Kind.gpodder.searchPath, .gpodder,
      with: LoopbackDirectories.json(DirectoryAnswers.gpodder).stalling(after: 0, seconds: nil))

    let outcome = await SearchPodcasts(network: network()).run(
      term: "x", limit: 10, country: "US", directories: [.apple, .gpodder], timeLimit: 0.5)

    XCTAssertEqual(outcome.failures, [.timedOut(.gpodder, seconds: 0.5)])
    XCTAssertEqual(outcome.results.map(\.title).first, "Freak Show")
    XCTAssertTrue(outcome.results.allSatisfy { $0.directories == [.apple] })
  }

  func testA429IsRetriedOnceAfterItsWait() async {
    answerAll()
    directories.answer(
      LoopbackDirectories.Kind.fyyd.searchPath, .fyyd,
      with: .sequence([
        .tooManyRequests(retryAfter: 1), LoopbackDirectories.json(DirectoryAnswers.fyyd),
      ]))

    let outcome = await SearchPodcasts(network: network()).run(
      term: "x", limit: 10, country: "US", directories: [.fyyd])

    XCTAssertEqual(outcome.failures, [])
    XCTAssertEqual(outcome.results.count, 2)
    let asked = directories.requests(to: .fyyd)
    XCTAssertEqual(asked.count, 2)
    guard asked.count == 2 else { return }
    XCTAssertGreaterThanOrEqual(asked[1].received - asked[0].received, .seconds(1))
  }
}
