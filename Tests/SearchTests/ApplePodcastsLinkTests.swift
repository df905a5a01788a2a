import Search
import XCTest

final class ApplePodcastsLinkTests: XCTestCase {
  func testApplePodcastsPagesYieldTheShowID() {
    let links = [
      "https://podcasts.apple.com/us/podcast/hardcore-history/id173001861",
      "https://podcasts.apple.com/de/podcast/sp%C3%A4ti-talk/id173001861?l=en&mt=2",
      "https://podcasts.apple.com/us/podcast/id173001861",
      "http://podcasts.apple.com/podcast/id173001861#reviews",
      "  https://podcasts.apple.com/us/podcast/hardcore-history/id173001861\n",
      "https://itunes.apple.com/us/podcast/hardcore-history/id173001861?mt=2&uo=4",
      "https://itunes.apple.com/WebObjects/MZStore.woa/wa/viewPodcast?id=173001861",
      "HTTPS://PODCASTS.APPLE.COM/us/podcast/x/id173001861",
    ]
    for link in links {
      XCTAssertEqual(ApplePodcastsLink(link)?.podcastID, 173_001_861, link)
    }
  }

  func testAnEpisodeLinkYieldsTheShowNotTheEpisode() {
    let link = "https://podcasts.apple.com/us/podcast/show-69-supernova/id173001861?i=1000654321987"

    XCTAssertEqual(ApplePodcastsLink(link)?.podcastID, 173_001_861)
  }

  func testShortForm() {
    XCTAssertEqual(ApplePodcastsLink("itunes:537879700")?.podcastID, 537_879_700)
    XCTAssertEqual(ApplePodcastsLink("ITUNES:537879700")?.podcastID, 537_879_700)
    XCTAssertEqual(ApplePodcastsLink(podcastID: 537_879_700).shortForm, "itunes:537879700")
  }

  func testOtherTextIsNotAnApplePodcastsLink() {
    let others = [
      "https://feeds.example.com/show.xml",
      "https://example.com/us/podcast/show/id173001861",
      "https://podcasts.apple.com.evil.example/us/podcast/show/id173001861",
      "http://podcasts.apple.com/apple_keynotes/apple_keynotes.xml",
      "https://podcasts.apple.com/us/podcast/show/idea",
      "ftp://podcasts.apple.com/us/podcast/show/id173001861",
      "itunes:", "itunes:12ab", "itunes:-5", "itunes:0", "itunes:99999999999999999999999",
      "itunes: 123", "./id123.xml", "id173001861", "",
    ]
    for text in others {
      XCTAssertNil(ApplePodcastsLink(text), text)
    }
  }
}
