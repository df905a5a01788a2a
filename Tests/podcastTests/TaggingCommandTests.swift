import Foundation
import LoopbackServer
import XCTest

/// `download` and `sync` write the feed's tags into each episode through the real binary,
/// checked with ffprobe: every field, the cover, and the audio untouched. `--no-tags` and a
/// subscription's `--no-tags` leave the files exactly as served.
final class TaggingCommandTests: XCTestCase {
  private var server: LoopbackServer!
  private var binary: PodcastBinary!
  private var mp3 = Data()
  private var cover = Data()

  override func setUpWithError() throws {
    server = try LoopbackServer()
    binary = try PodcastBinary()
    mp3 = try AudioTool.tone(codec: "libmp3lame", ext: "mp3")
    cover = try AudioTool.png()
    server.set("/art/cover.png", .data(cover, contentType: "image/png"))
  }

  override func tearDownWithError() throws {
    server.stop()
    try? FileManager.default.removeItem(atPath: binary.library)
  }

  /// A feed of one MP3 episode (number 3 of season 2) at `/<slug>/feed.xml`, whose podcast
  /// picture is `image`; `number` makes it another episode of the same show.
  private func serveShow(
    _ slug: String, title: String, body: Data? = nil, type: String = "audio/mpeg",
    image: String = "/art/cover.png", number: Int = 1, itemExtra: String = ""
  ) -> (feed: String, episode: FakeEpisode) {
    let ext = type == "audio/wav" ? "wav" : "mp3"
    let episode = FakeEpisode(
      title: "Tones & Things \(number)", guid: "\(slug)-\(number)",
      published: Date(timeIntervalSince1970: 1_715_335_200 + Double(number) * 86_400),
      path: "/\(slug)/\(number).\(ext)", body: body ?? mp3, type: type)
    var rss = FeedFixture.rss(
      title: title, episodes: [episode], base: server.baseURL,
      channelExtra: "<itunes:image href=\"\(server.url(image))\"/>")
    rss = rss.replacingOccurrences(
      of: "<itunes:duration>",
      with: "<itunes:episode>3</itunes:episode><itunes:season>2</itunes:season>"
        + "<description>&lt;p&gt;All about &lt;b&gt;440 Hz&lt;/b&gt;.&lt;/p&gt;</description>"
        + itemExtra + "<itunes:duration>")
    rss = rss.replacingOccurrences(
      of: "<rss version=\"2.0\"",
      with: "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"")
    server.set("/\(slug)/feed.xml", .text(rss, contentType: "application/rss+xml"))
    server.set(episode.path, .data(episode.body, contentType: type).withETag("\"\(slug)\""))
    return (server.url("/\(slug)/feed.xml"), episode)
  }

  private func downloadedItems(_ result: PodcastBinary.Result) throws -> [[String: Any]] {
    XCTAssertEqual(result.status, 0, result.stderr)
    let document = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    return try XCTUnwrap(document["downloaded"] as? [[String: Any]], result.stdout)
  }

  func testDownloadWritesTheFeedsTagsAndCoverAndKeepsTheAudio() throws {
    let (feed, _) = serveShow("sine", title: "Sine Weekly")

    let items = try downloadedItems(try binary.run(["download", feed, "--json"]))

    let item = try XCTUnwrap(items.first)
    XCTAssertEqual(item["tagged"] as? Bool, true)
    XCTAssertEqual(item["cover"] as? Bool, true)
    XCTAssertTrue(item["tagNote"] is NSNull)
    let folderCover = binary.episodesDirectory + "/Sine Weekly/cover.png"
    XCTAssertEqual(item["sideFiles"] as? [String], [folderCover])
    XCTAssertEqual(FileManager.default.contents(atPath: folderCover), cover)
    let file = try XCTUnwrap(item["file"] as? String)
    XCTAssertEqual(
      (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue,
      item["bytes"] as? Int, "bytes is the size of the tagged file")
    let tags = try AudioTool.tags(file)
    XCTAssertEqual(tags["title"], "Tones & Things 1")
    XCTAssertEqual(tags["album"], "Sine Weekly")
    XCTAssertEqual(tags["album_artist"], "Sine Weekly")
    XCTAssertEqual(tags["artist"], "Test Author")
    XCTAssertEqual(tags["genre"], "Podcast")
    XCTAssertEqual(tags["track"], "3")
    XCTAssertEqual(tags["disc"], "2")
    XCTAssertEqual(tags["date"]?.prefix(10), "2024-05-11")
    XCTAssertEqual(tags["comment"], "All about 440 Hz.")
    XCTAssertTrue(try AudioTool.hasCover(file), "the podcast's image is the front cover")
    XCTAssertEqual(try AudioTool.audioMD5(file), try AudioTool.audioMD5(of: mp3, ext: "mp3"))
    XCTAssertEqual(
      server.requests(for: "/art/cover.png").count, 1, "one fetch for the tag and the folder")
    XCTAssertEqual(binary.partialFiles(), [])
  }

  func testNoTagsLeavesTheEpisodeExactlyAsServed() throws {
    let (feed, _) = serveShow("sine", title: "Sine Weekly")

    let items = try downloadedItems(try binary.run(["download", feed, "--json", "--no-tags"]))

    let item = try XCTUnwrap(items.first)
    XCTAssertEqual(item["tagged"] as? Bool, false)
    XCTAssertTrue(item["tagNote"] is NSNull, "not asked to tag is nothing to note")
    let file = try XCTUnwrap(item["file"] as? String)
    XCTAssertEqual(FileManager.default.contents(atPath: file), mp3)
  }

  func testAFormatTagLibCannotWriteIsDownloadedAsServedWithOneNote() throws {
    let wav = try AudioTool.tone(codec: "pcm_s16le", ext: "wav")
    let (feed, _) = serveShow("wave", title: "Wave Weekly", body: wav, type: "audio/wav")

    let result = try binary.run(["download", feed])

    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 1, result.stdout)
    XCTAssertTrue(
      lines.first?.hasSuffix("(not tagged: TagLib does not write WAV)") == true, result.stdout)
    let audio = binary.episodeFiles().filter { $0.hasSuffix(".wav") }
    XCTAssertEqual(audio.count, 1)
    let file = try XCTUnwrap(audio.first)
    XCTAssertEqual(FileManager.default.contents(atPath: binary.episodesDirectory + "/" + file), wav)
  }

  func testSyncTagsUnlessTheRunOrTheSubscriptionSaysNoTags() throws {
    let tagged = serveShow("tagged", title: "Tagged Show")
    let plain = serveShow("plain", title: "Plain Show")
    for (feed, name) in [(tagged.feed, "tagged"), (plain.feed, "plain")] {
      let result = try binary.run(["subscribe", feed, "--name", name])
      XCTAssertEqual(result.status, 0, result.stderr)
    }
    let set = try binary.run(["set", "plain", "--no-tags"])
    XCTAssertEqual(set.status, 0, set.stderr)

    let items = try downloadedItems(try binary.run(["sync", "--json"]))

    let byURL = Dictionary(
      uniqueKeysWithValues: items.map { ($0["url"] as? String ?? "", $0) })
    let taggedItem = try XCTUnwrap(byURL[server.url(tagged.episode.path)])
    let plainItem = try XCTUnwrap(byURL[server.url(plain.episode.path)])
    XCTAssertEqual(taggedItem["tagged"] as? Bool, true)
    XCTAssertEqual(plainItem["tagged"] as? Bool, false)
    let taggedFile = try XCTUnwrap(taggedItem["file"] as? String)
    XCTAssertEqual(try AudioTool.tags(taggedFile)["album"], "Tagged Show")
    let plainFile = try XCTUnwrap(plainItem["file"] as? String)
    XCTAssertEqual(FileManager.default.contents(atPath: plainFile), mp3)
  }

  func testSyncNoTagsLeavesEverySubscriptionAsServed() throws {
    let show = serveShow("tagged", title: "Tagged Show")
    XCTAssertEqual(try binary.run(["subscribe", show.feed, "--name", "tagged"]).status, 0)

    let items = try downloadedItems(try binary.run(["sync", "--json", "--no-tags"]))

    let file = try XCTUnwrap(items.first?["file"] as? String)
    XCTAssertEqual(items.first?["tagged"] as? Bool, false)
    XCTAssertEqual(FileManager.default.contents(atPath: file), mp3)
  }

  func testNoCoverLeavesThePodcastFolderWithoutAPicture() throws {
    let (feed, _) = serveShow("sine", title: "Sine Weekly")

    let items = try downloadedItems(try binary.run(["download", feed, "--json", "--no-cover"]))

    XCTAssertEqual(items.first?["sideFiles"] as? [String], [])
    XCTAssertEqual(items.first?["tagged"] as? Bool, true, "--no-cover is about the folder")
    XCTAssertEqual(binary.allFiles().filter { $0.contains("cover.") }, [])
  }

  /// The folder's picture is fetched once, and again only when the feed names another one.
  func testTheFolderCoverIsRefreshedOnlyWhenTheFeedsImageChanges() throws {
    let jpeg = try AudioTool.jpeg()
    server.set("/art/new.jpg", .data(jpeg, contentType: "image/jpeg"))
    let first = serveShow("sine", title: "Sine Weekly", number: 1)
    XCTAssertEqual(try binary.run(["download", first.feed]).status, 0)
    let second = serveShow("sine", title: "Sine Weekly", number: 2)
    XCTAssertEqual(try binary.run(["download", second.feed, "--no-tags"]).status, 0)
    XCTAssertEqual(
      server.requests(for: "/art/cover.png").count, 1, "an unchanged picture is not fetched again")

    let third = serveShow("sine", title: "Sine Weekly", image: "/art/new.jpg", number: 3)
    let items = try downloadedItems(
      try binary.run(["download", third.feed, "--json", "--no-tags"]))

    let folder = binary.episodesDirectory + "/Sine Weekly"
    XCTAssertEqual(items.first?["sideFiles"] as? [String], [folder + "/cover.jpg"])
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/cover.jpg"), jpeg)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: folder + "/cover.png"), "the old picture is replaced")
  }
}
