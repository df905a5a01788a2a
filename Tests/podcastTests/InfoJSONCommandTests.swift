import Foundation
import LoopbackServer
import XCTest

/// `--info-json` (on `download` and `sync`, a subscription setting and a config key): an
/// `<episode>.info.json` beside the audio with what the feed said about the episode and its
/// podcast, the keys `episodes --json` uses; written complete or not at all, and never at the
/// cost of the episode.
final class InfoJSONCommandTests: LibraryTestCase {
  private let feedPath = "/info/feed.xml"
  private let secret = "s3cr3t-token"
  private let rich = FakeEpisode(
    title: "Rich & Rare", guid: "info-2", published: Date(timeIntervalSince1970: 1_715_421_600),
    path: "/info/2.mp3", body: FeedFixture.bytes(20_000, seed: 21))
  private let plain = FakeEpisode(
    title: "Plain", guid: "info-1", published: Date(timeIntervalSince1970: 1_715_248_800),
    path: "/info/1.mp3", body: FeedFixture.bytes(20_000, seed: 22))

  private var folder: String { binary.episodesDirectory + "/Info Show" }
  private var infoPath: String { folder + "/2024-05-11 Rich & Rare.info.json" }

  override func setUpWithError() throws {
    try super.setUpWithError()
    serveFeed()
  }

  /// The newer episode with the details a feed gives (notes, numbers, flags, a link carrying
  /// a secret); served with an ETag, so an unchanged feed gets a 304.
  private func serveFeed() {
    var rss = FeedFixture.rss(title: "Info Show", episodes: [rich, plain], base: server.baseURL)
    let details =
      "<itunes:episode>3</itunes:episode><itunes:season>2</itunes:season>"
      + "<itunes:episodeType>full</itunes:episodeType><itunes:explicit>false</itunes:explicit>"
      + "<description>&lt;p&gt;All about &lt;b&gt;440 Hz&lt;/b&gt;.&lt;/p&gt;</description>"
      + "<link>https://info.example/episodes/2?auth=\(secret)</link>"
    if let range = rss.range(of: "<itunes:duration>") {
      rss.replaceSubrange(range, with: details + "<itunes:duration>")
    }
    server.set(
      feedPath, .text(rss, contentType: "application/rss+xml").withETag("\"info-v1\""))
    for episode in [rich, plain] {
      server.set(episode.path, .data(episode.body, contentType: "audio/mpeg"))
    }
  }

  private var folderFiles: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  /// The info file beside the rich episode, parsed as any JSON reader would.
  private func info(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
    let data = try XCTUnwrap(
      FileManager.default.contents(atPath: infoPath), "no \(infoPath)", file: file, line: line)
    XCTAssertFalse(
      String(decoding: data, as: UTF8.self).contains(secret), "a secret in the info file",
      file: file, line: line)
    return try XCTUnwrap(
      JSONSerialization.jsonObject(with: data) as? [String: Any], file: file, line: line)
  }

  /// What a user (or a media server's script) reads from the file.
  private func assertDescribesTheRichEpisode(
    _ info: [String: Any], file: StaticString = #filePath, line: UInt = #line
  ) throws {
    XCTAssertEqual(info["title"] as? String, "Rich & Rare", file: file, line: line)
    XCTAssertEqual(info["guid"] as? String, "info-2", file: file, line: line)
    XCTAssertEqual(info["published"] as? String, "2024-05-11T10:00:00Z", file: file, line: line)
    XCTAssertEqual(info["duration"] as? Int, 754, file: file, line: line)
    XCTAssertEqual(info["season"] as? Int, 2, file: file, line: line)
    XCTAssertEqual(info["number"] as? Int, 3, file: file, line: line)
    XCTAssertEqual(
      info["description"] as? String, "<p>All about <b>440 Hz</b>.</p>", file: file, line: line)
    XCTAssertEqual(info["file"] as? String, "2024-05-11 Rich & Rare.mp3", file: file, line: line)
    let enclosure = try XCTUnwrap(info["enclosure"] as? [String: Any], file: file, line: line)
    XCTAssertEqual(enclosure["url"] as? String, server.url(rich.path), file: file, line: line)
    XCTAssertEqual(enclosure["length"] as? Int, rich.body.count, file: file, line: line)
    XCTAssertEqual(enclosure["type"] as? String, "audio/mpeg", file: file, line: line)
    let link = try XCTUnwrap(info["link"] as? String, file: file, line: line)
    XCTAssertTrue(link.hasPrefix("https://info.example/episodes/2?auth="), link)
    XCTAssertTrue(info["chapters"] is NSNull, "unknown is null", file: file, line: line)
    XCTAssertEqual((info["transcripts"] as? [Any])?.count, 0, file: file, line: line)
    let podcast = try XCTUnwrap(info["podcast"] as? [String: Any], file: file, line: line)
    XCTAssertEqual(podcast["title"] as? String, "Info Show", file: file, line: line)
    XCTAssertEqual(podcast["author"] as? String, "Test Author", file: file, line: line)
    XCTAssertEqual(podcast["feedURL"] as? String, server.url(feedPath), file: file, line: line)
    for listingOnly in ["index", "state", "progress"] {
      XCTAssertNil(info[listingOnly], "\(listingOnly) is the listing's", file: file, line: line)
    }
  }

  func testDownloadWritesTheInfoFileBesideTheAudio() throws {
    let result = try podcast("download", server.url(feedPath), "1", "--info-json", "--json")

    XCTAssertEqual(result.status, 0, result.stderr)
    try assertDescribesTheRichEpisode(try info())
    XCTAssertEqual(
      folderFiles,
      ["2024-05-11 Rich & Rare.info.json", "2024-05-11 Rich & Rare.mp3", "Info Show.m3u8"],
      "no temporary file left")
    let document = try XCTUnwrap(try result.json() as? [String: Any])
    let downloaded = try XCTUnwrap((document["downloaded"] as? [[String: Any]])?.first)
    XCTAssertEqual(downloaded["sideFiles"] as? [String], [infoPath])
  }

  func testWithoutTheFlagThereIsNoInfoFile() throws {
    let result = try podcast("download", server.url(feedPath), "--all")

    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      folderFiles, ["2024-05-09 Plain.mp3", "2024-05-11 Rich & Rare.mp3", "Info Show.m3u8"])
  }

  /// An episode downloaded before the flag was asked for gets its file from a rerun with it,
  /// without being fetched again.
  func testARerunWithTheFlagAddsTheInfoFileToAnEpisodeAlreadyHere() throws {
    XCTAssertEqual(try podcast("download", server.url(feedPath), "1").status, 0)

    let rerun = try podcast("download", server.url(feedPath), "1", "--info-json")

    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    try assertDescribesTheRichEpisode(try info())
    XCTAssertEqual(requestCount(rich), 1)
  }

  /// A name the file cannot take (a directory is in the way) is a note on the episode, which
  /// is downloaded all the same; nothing half-written is left.
  func testAnInfoFileThatCannotBeWrittenIsANoteNotAFailure() throws {
    try FileManager.default.createDirectory(atPath: infoPath, withIntermediateDirectories: true)

    let result = try podcast("download", server.url(feedPath), "1", "--info-json", "--json")

    XCTAssertEqual(result.status, 0, result.stderr)
    let document = try XCTUnwrap(try result.json() as? [String: Any])
    let downloaded = try XCTUnwrap((document["downloaded"] as? [[String: Any]])?.first)
    let notes = try XCTUnwrap(downloaded["sideFileNotes"] as? [String])
    XCTAssertEqual(notes.count, 1, "\(notes)")
    XCTAssertTrue(notes.first?.hasPrefix("info file not kept: \(infoPath)") == true, "\(notes)")
    XCTAssertEqual(
      folderFiles,
      ["2024-05-11 Rich & Rare.info.json", "2024-05-11 Rich & Rare.mp3", "Info Show.m3u8"])
    XCTAssertEqual(
      FileManager.default.contents(atPath: folder + "/2024-05-11 Rich & Rare.mp3"), rich.body)
  }

  /// `subscribe --info-json` queues the newest episode with what the feed said; the first
  /// sync's feed answers 304 and its download still gets the whole info file.
  func testTheSettingWritesTheInfoFileOnTheFirstSyncAfterA304() throws {
    let subscribed = try podcast(
      "subscribe", server.url(feedPath), "--name", "info", "--info-json")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    let settings = try XCTUnwrap(try subscriptions().first?["settings"] as? [String: Any])
    XCTAssertEqual(settings["infoJSON"] as? Bool, true)

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    let feedAnswers = responses.entries.filter { $0.path == feedPath }
    XCTAssertEqual(feedAnswers.last?.status, 304, "\(feedAnswers)")
    try assertDescribesTheRichEpisode(try info())
  }

  /// Queued by `subscribe` before the setting was asked for, and started after a 304: the
  /// file says what the library kept, and null for what it did not.
  func testAnEpisodeQueuedBeforeTheSettingGetsWhatTheLibraryKept() throws {
    XCTAssertEqual(try podcast("subscribe", server.url(feedPath), "--name", "info").status, 0)
    XCTAssertEqual(try podcast("set", "info", "--info-json").status, 0)

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(responses.entries.filter { $0.path == feedPath }.last?.status, 304)
    let info = try info()
    XCTAssertEqual(info["title"] as? String, "Rich & Rare")
    XCTAssertEqual(info["guid"] as? String, "info-2")
    XCTAssertEqual(info["published"] as? String, "2024-05-11T10:00:00Z")
    XCTAssertEqual(info["number"] as? Int, 3)
    XCTAssertEqual(info["description"] as? String, "All about 440 Hz.", "the tag's plain text")
    XCTAssertTrue(info["duration"] is NSNull, "not kept, so unknown")
    XCTAssertEqual(info["file"] as? String, "2024-05-11 Rich & Rare.mp3")
    let enclosure = try XCTUnwrap(info["enclosure"] as? [String: Any])
    XCTAssertEqual(enclosure["url"] as? String, server.url(rich.path))
    XCTAssertEqual(enclosure["type"] as? String, "audio/mpeg")
    let podcast = try XCTUnwrap(info["podcast"] as? [String: Any])
    XCTAssertEqual(podcast["title"] as? String, "Info Show")
    XCTAssertEqual(podcast["author"] as? String, "Test Author")
  }

  func testSyncTakesTheFlagAndUnsetTurnsTheSettingOff() throws {
    XCTAssertEqual(
      try podcast("subscribe", server.url(feedPath), "--name", "info", "--first", "none").status,
      0)
    XCTAssertEqual(try podcast("mark", "info", "1", "--new").status, 0)

    let sync = try podcast("sync", "--info-json")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    try assertDescribesTheRichEpisode(try info())

    XCTAssertEqual(try podcast("set", "info", "--info-json").status, 0)
    XCTAssertEqual(try podcast("set", "info", "--unset", "info-json").status, 0)
    let settings = try XCTUnwrap(try subscriptions().first?["settings"] as? [String: Any])
    XCTAssertTrue(settings["infoJSON"] is NSNull, "\(settings)")
  }

  /// Pruning an episode takes its info file with it.
  func testThePrunedEpisodesInfoFileGoesWithIt() throws {
    let show = Show("pruned", episodes: 1, on: server)
    let subscribed = try podcast(
      "subscribe", show.feedURL, "--name", "pruned", "--keep", "1", "--info-json")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(
      binary.allFiles(),
      [
        "pruned show/2024-05-02 pruned episode 1.info.json",
        "pruned show/2024-05-02 pruned episode 1.mp3", "pruned show/pruned show.m3u8",
      ])

    show.publish(1)
    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(
      binary.allFiles(),
      [
        "pruned show/2024-05-03 pruned episode 2.info.json",
        "pruned show/2024-05-03 pruned episode 2.mp3", "pruned show/pruned show.m3u8",
      ])
  }

  func testTheSettingSurvivesAnOPMLRoundTripAndTheConfigFileTurnsItOn() throws {
    XCTAssertEqual(
      try podcast("subscribe", server.url(feedPath), "--name", "info", "--info-json").status, 0)
    let opml = binary.library + "/backup.opml"
    XCTAssertEqual(try podcast("export", opml).status, 0)
    let text = try String(contentsOfFile: opml, encoding: .utf8)
    XCTAssertTrue(text.contains("podcast:infoJSON=\"true\""), text)

    var other = try PodcastBinary()
    defer { try? FileManager.default.removeItem(atPath: other.library) }
    let imported = try other.run(["import", opml])
    XCTAssertEqual(imported.status, 0, imported.stderr)
    let listed = try XCTUnwrap(
      try other.run(["subscriptions", "--json"]).json() as? [[String: Any]])
    let settings = try XCTUnwrap(listed.first?["settings"] as? [String: Any])
    XCTAssertEqual(settings["infoJSON"] as? Bool, true)

    let config = other.library + "/config"
    try FileManager.default.createDirectory(
      atPath: config + "/podcast", withIntermediateDirectories: true)
    try Data("info-json = true\n".utf8).write(
      to: URL(fileURLWithPath: config + "/podcast/config.toml"))
    other.environment["XDG_CONFIG_HOME"] = config
    let download = try other.run(["download", server.url(feedPath), "1"])
    XCTAssertEqual(download.status, 0, download.stderr)
    XCTAssertTrue(
      FileManager.default.fileExists(
        atPath: other.episodesDirectory + "/Info Show/2024-05-11 Rich & Rare.info.json"),
      "\(other.allFiles())")
  }
}
