import Foundation
import Model
import Search
import Selection
import Source
import Sync
import Transfer
import XCTest

/// PodcastKit's sentences stand on their own: they name the value and what is wrong with it,
/// never a CLI flag or command (the CLI adds those), and Foundation sees the same sentence.
final class ErrorSentenceTests: XCTestCase {
  private let errors: [any Error] = [
    SearchError.limitOutOfRange(0), SearchError.invalidCountry("usa"),
    SearchError.unknownDirectory("itunes"), SearchError.podcastIndexKeyMissing,
    SearchError.keyRefused(
      url: "https://api.podcastindex.org/api/1.0/search/byterm?q=x", status: 401),
    SearchError.timedOut(.fyyd, seconds: 10), SearchError.notListed(.podcastGUID("abc")),
    SearchError.invalidReference("podcastindex:abc"),
    LibraryError.duplicateName("radiolab"), LibraryError.noSubscription("x", count: 3),
    FilterError.badRegex(setting: "match", pattern: "(", reason: "unbalanced"),
    FilterError.badDate(setting: "since", text: "soon"),
    FilterError.badDuration(setting: "min-duration", text: "long"),
    TransferRateError(setting: "limit-rate", text: "fast"), FilterError.badEpisodeType("movie"),
    FilterError.badField("author"), FilterError.badFirstPolicy("some"),
    FilterError.unknownSetting("colour"),
    LibraryError.outsideEpisodes(
      file: "/home/me/notes.txt", episodes: "/home/me/Podcasts/Episodes"),
    LibraryError.cannotDelete(path: "/p/Episodes/Show/One.mp3", reason: "Permission denied"),
    LibraryError.illegalDownloadMove(url: "https://cdn.example/1.mp3", move: "begin", from: "done"),
    SyncError.cannotPrune(
      subscription: "daily",
      .databaseFailed(path: "/p/.podcast/library.sqlite", reason: "disk I/O error")),
    SyncError.cannotRemove(.cannotDelete(path: "/p/Episodes/a.mp3", reason: "Read-only")),
    FeedPageError.unreadable(
      page: 3, url: "https://example.com/feed/?paged=3",
      reason: TransferError.httpStatus(
        url: "https://example.com/feed/?paged=3", status: 500, retryAfter: nil)),
    FeedPageError.otherFeed(page: 2, url: "https://example.com/feed/?paged=2"),
    FeedPageError.loop(page: 4, url: "https://example.com/feed/"),
    FeedPageError.tooManyPages(limit: 500, next: "https://example.com/feed/?paged=501"),
  ]

  func testCoreSentencesNameNoFlagOrCommand() {
    for error in errors {
      let sentence = String(describing: error)
      XCTAssertFalse(sentence.contains("--"), sentence)
      XCTAssertFalse(sentence.contains("`podcast"), sentence)
    }
  }

  func testTheSentenceIsTheLocalizedDescription() {
    for error in errors {
      XCTAssertEqual(error.localizedDescription, String(describing: error))
    }
  }

  /// A subscription keeps its last error as text; a failed page must be told from the rest.
  func testAFailedPageIsKnownByItsSentenceAndNoOtherErrorIs() throws {
    for error in errors {
      let sentence = String(describing: error)
      let isPage = (error as? FeedPageError)?.isFailure == true
      XCTAssertEqual(FeedPageError.isPageFailure(sentence), isPage, sentence)
    }
    XCTAssertEqual(
      String(describing: try XCTUnwrap(errors.first { $0 is FeedPageError })),
      "page 3 of the feed: https://example.com/feed/?paged=3: HTTP 500 Internal Server Error; "
        + "its episodes and those of later pages are missing")
  }

  func testAFilterErrorStartsWithItsSettingAndKeepsTheValue() {
    let error = FilterError.badDate(setting: "since", text: "soon")
    XCTAssertEqual(error.setting, "since")
    XCTAssertTrue(error.problem.hasPrefix("soon: not a date"), error.problem)
    XCTAssertEqual(error.description, "since " + error.problem)
  }
}
