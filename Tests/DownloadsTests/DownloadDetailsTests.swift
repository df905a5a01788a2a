import Downloads
import Feeds
import Foundation
import SideFiles
import Tags
import XCTest

/// The details kept with a queued download give back the job they were taken from.
final class DownloadDetailsTests: XCTestCase {
  private func fullJob() -> DownloadJob {
    let podcast = Podcast(
      title: "Detail Show", author: "Ann Author", imageURL: "https://a.example/show.jpg")
    var episode = Episode(
      guid: "g-1", title: "Tones\n  & Things",
      published: Date(timeIntervalSince1970: 1_715_421_600.5),
      enclosure: Enclosure(url: "https://a.example/1.mp3", length: 12_345, type: "audio/mpeg"),
      description: "<p>All about <b>440 Hz</b> — “quoted”.</p>", season: 2, number: 3,
      imageURL: "https://a.example/1.png",
      transcripts: [
        Transcript(url: "https://a.example/1.vtt", type: "text/vtt", language: "en"),
        Transcript(url: "https://a.example/1.srt"),
      ],
      chapters: Chapters(url: "https://a.example/1.json", type: "application/json+chapters"))
    episode.episodeType = "full"
    var tagging = TagRequest(podcast: podcast, episode: episode)
    tagging.tags.genre = "Talk"
    return DownloadJob(
      url: episode.enclosure.url, title: episode.title, podcastTitle: podcast.title,
      relativePath: "Detail Show/2024-05-11 Tones & Things.mp3", mimeType: "audio/mpeg",
      declaredLength: 12_345, feedURL: "https://a.example/feed.xml", identityKeys: ["guid:g-1"],
      tagging: tagging, folderCoverURL: podcast.imageURL, transcripts: episode.transcripts,
      chaptersURL: episode.chapters?.url, published: episode.published)
  }

  func testAJobRebuiltFromItsRowAndDetailsIsTheJobItWas() throws {
    let job = fullJob()
    let text = try XCTUnwrap(DownloadDetails(of: job).encoded)
    let details = try XCTUnwrap(DownloadDetails(encoded: text))
    // What sync knows of a queued download without its details: the row's columns.
    let bare = DownloadJob(
      url: job.url, title: job.title, podcastTitle: job.podcastTitle,
      relativePath: "Detail Show/Tones.mp3", mimeType: nil, feedURL: job.feedURL,
      identityKeys: job.identityKeys, published: nil)
    XCTAssertEqual(details.applied(to: bare), job)
  }

  /// `--info-json`: what the feed said of the episode and its podcast comes back whole, so a
  /// download started after a 304 writes the info file a fresh feed would have.
  func testTheInfoFileDetailsComeBackWithTheJob() throws {
    var job = fullJob()
    var episode = Episode(
      guid: "g-1", title: "Tones", published: Date(timeIntervalSince1970: 1_715_421_600.5),
      duration: 754,
      enclosure: Enclosure(url: "https://a.example/1.mp3", length: 12_345, type: "audio/mpeg"),
      link: "https://a.example/1", description: "<p>All about 440 Hz.</p>", season: 2,
      number: 3, explicit: false, imageURL: "https://a.example/1.png",
      transcripts: [Transcript(url: "https://a.example/1.vtt", type: "text/vtt", language: "en")],
      chapters: Chapters(url: "https://a.example/1.json", type: "application/json+chapters"))
    episode.episodeType = "full"
    job.info = EpisodeInfo(
      episode: episode,
      podcast: Podcast(
        title: "Detail Show", author: "Ann Author", link: "https://a.example/",
        description: "About tones", language: "en", imageURL: "https://a.example/show.jpg",
        feedURL: "https://a.example/feed.xml"))
    let text = try XCTUnwrap(DownloadDetails(of: job).encoded)
    let details = try XCTUnwrap(DownloadDetails(encoded: text))
    var bare = job
    bare.info = nil

    XCTAssertEqual(details.applied(to: bare).info, job.info)
  }

  func testAbsentValuesAreLeftOut() throws {
    let job = DownloadJob(
      url: "https://a.example/1.mp3", title: "One", podcastTitle: "Show",
      relativePath: "Show/One.mp3", mimeType: nil)
    XCTAssertEqual(DownloadDetails(of: job).encoded, #"{"p":"Show\/One.mp3"}"#)
    let tagged = DownloadJob(
      url: "https://a.example/1.mp3", title: "One", podcastTitle: "Show",
      relativePath: "S/1.mp3", mimeType: nil, tagging: TagRequest(tags: EpisodeTags(title: "One")))
    XCTAssertEqual(DownloadDetails(of: tagged).encoded, #"{"p":"S\/1.mp3","t":{"t":"One"}}"#)
  }

  /// Rows queued by an older build kept the tag's chapters (always none) under "k" and the
  /// chapters URL a second time under the tagging's "h": they still read, with their tags and
  /// the one chapters URL.
  func testDetailsAnOlderBuildWroteStillRead() throws {
    let text =
      #"{"h":"https:\/\/a.example\/1.json","p":"S\/1.mp3","#
      + #""t":{"h":"https:\/\/a.example\/1.json","k":[{"e":1000,"s":0,"t":"Opening"}],"t":"One"}}"#
    let details = try XCTUnwrap(DownloadDetails(encoded: text))
    XCTAssertEqual(details.relativePath, "S/1.mp3")
    XCTAssertEqual(details.chaptersURL, "https://a.example/1.json")
    XCTAssertEqual(details.tagging?.request(published: nil).tags.title, "One")
  }

  /// The details are written without `JSONEncoder` (their own writer, for speed) into the
  /// very text it writes: a row's column then never differs for the same details.
  func testTheDetailsTextIsJSONEncodersWithSortedKeys() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var jobs = [fullJob()]
    var odd = fullJob()
    odd.relativePath = #"Q "&" A\B/ü 🎧.mp3"#
    odd.published = Date(timeIntervalSinceReferenceDate: 1e-7)
    odd.tagging?.tags.comment = "Line one\nline two"  // A control character: JSONEncoder's own.
    odd.tagging?.tags.number = -3
    odd.transcripts = []
    jobs.append(odd)
    var bare = DownloadJob(
      url: "https://a.example/1.mp3", title: "One", podcastTitle: "Show",
      relativePath: "Show/One.mp3", mimeType: nil)
    jobs.append(bare)
    bare.published = Date(timeIntervalSinceReferenceDate: 737_114_400)
    bare.declaredLength = Int64.max
    jobs.append(bare)
    for job in jobs {
      let details = DownloadDetails(of: job)
      let expected = String(decoding: try encoder.encode(details), as: UTF8.self)
      XCTAssertEqual(details.encoded, expected)
      XCTAssertEqual(details.encoded.flatMap(DownloadDetails.init(encoded:)), details)
    }
  }

  func testDetailsThisBuildCannotReadAreNone() {
    XCTAssertNil(DownloadDetails(encoded: "not json"))
    XCTAssertNil(DownloadDetails(encoded: #"{"m":"audio/mpeg"}"#), "no path")
  }
}
