import Feeds
import Model
import XCTest

/// Two feeds are one show by `podcast:guid`, else by title and link together.
final class ShowIdentityTests: XCTestCase {
  func testTheGUIDNamesTheShowWhateverItsTitle() {
    let guid = "917393e3-1b1e-5cef-ace4-edaa54e1f810"
    XCTAssertEqual(
      ShowIdentity.key(Podcast(title: "Show", podcastGUID: guid)),
      ShowIdentity.key(
        Podcast(title: "Show (mirror)", link: "https://x", podcastGUID: " \(guid.uppercased())")))
  }

  func testTitleAndLinkTogetherNameTheShow() {
    let show = Podcast(title: "Mirrored  Show", link: "https://show.example/")
    XCTAssertEqual(
      ShowIdentity.key(show),
      ShowIdentity.key(Podcast(title: "mirrored show", link: "HTTPS://Show.example")))
    XCTAssertNotEqual(
      ShowIdentity.key(show),
      ShowIdentity.key(Podcast(title: "Other", link: "https://show.example/")))
    XCTAssertNotEqual(
      ShowIdentity.key(show),
      ShowIdentity.key(Podcast(title: "Mirrored Show", link: "https://b.example/")))
  }

  func testAFeedThatSaysTooLittleHasNoIdentity() {
    XCTAssertNil(ShowIdentity.key(Podcast(title: "Only a title")))
    XCTAssertNil(ShowIdentity.key(Podcast(link: "https://only.example/")))
    XCTAssertNil(ShowIdentity.key(Podcast(title: "  ", link: "https://x", podcastGUID: " ")))
  }
}
