import Foundation
import LoopbackServer
import XCTest

/// `--write-page` in a real browser: pages the binary wrote from loopback feeds with real,
/// decodable audio (ffmpeg), served by the loopback server (which answers byte ranges, as
/// seeking needs) and opened from `file://`, in Debian's Chromium driven by Selenium. What a
/// household relies on: the page lists exactly the files on disk, plays them, seeks to a
/// chapter, follows the transcript; hostile show notes run nothing and fetch nothing; the
/// console stays clean; axe-core finds nothing serious; a phone's 375 px need no sideways
/// scroll. The last test measures a podcast with 2,000 episodes on disk.
final class PageBrowserTests: LibraryTestCase {
  /// Another origin, standing for a tracker: the hostile show notes all try to reach it, and
  /// it must never hear from the browser.
  private var tracker: LoopbackServer!

  override func setUpWithError() throws {
    try super.setUpWithError()
    tracker = try LoopbackServer()
  }

  override func tearDownWithError() throws {
    tracker.stop()
    try super.tearDownWithError()
  }

  private var show: String { binary.episodesDirectory + "/Browser Show" }

  /// `seconds` of a tone as MP3, made by ffmpeg.
  private func tone(seconds: Int, frequency: Int = 440) throws -> Data {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-page-tone-\(UUID().uuidString).mp3").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try ExternalTool.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "sine=frequency=\(frequency):duration=\(seconds)",
        "-c:a", "libmp3lame", "-b:a", "32k", path,
      ])
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  private func picture(_ color: String) throws -> Data {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-page-cover-\(UUID().uuidString).jpg").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try ExternalTool.run(
      "ffmpeg",
      ["-v", "error", "-f", "lavfi", "-i", "color=c=\(color):s=256x256", "-frames:v", "1", path])
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  /// What every hostile piece of the notes tries: tell the tracker it ran.
  private var beacon: String { tracker.url("/ran") }

  private var hostileNotes: String {
    let tracker = self.tracker.baseURL
    return """
      <p>Hostile notes follow.</p>
      <script>window.pwned = 1; fetch("\(beacon)?script")</script>
      <img src="\(tracker)/tracker.gif" onerror="window.pwned = 2; fetch('\(beacon)?onerror')">
      <a href="javascript:fetch('\(beacon)?javascript')">a javascript: link</a>
      <a href="data:text/html,<script>fetch('\(beacon)?data')</script>">a data: link</a>
      <iframe src="\(tracker)/frame" srcdoc="<script>parent.pwned = 3</script>"></iframe>
      <style>body { background: url(\(tracker)/style.png) } .ep { display: none }</style>
      <p style="background: url(\(tracker)/inline.png)">a styled paragraph</p>
      <svg onload="window.pwned = 4; fetch('\(beacon)?svg')"><circle r="4"/></svg>
      <p>&lt;script&gt;window.pwned = 5&lt;/script&gt; stays text</p>
      <object data="\(tracker)/object"></object><link rel="stylesheet" href="\(tracker)/link.css">
      <form action="\(tracker)/form"><input name="q"></form>
      <meta http-equiv="refresh" content="0;url=\(tracker)/refresh">
      <video poster="\(tracker)/poster.jpg" src="\(tracker)/video.mp4"></video>
      <p>A <a href="https://example.com/fine">fine link</a> and <strong>bold</strong> text.</p>
      """
  }

  private static let hostileTitle =
    "Three </title><script>window.pwned = 6</script> <img src=x onerror=\"window.pwned = 7\">"

  /// Publishes "Browser Show" (three episodes: chapters and a WebVTT transcript, an SRT one,
  /// hostile show notes with a JSON transcript) and "Other Show" (one episode), and downloads
  /// both with `--write-page`.
  private func publishAndDownload() throws {
    let long = try tone(seconds: 60)
    let short = try tone(seconds: 30, frequency: 660)
    let day = { (n: Double) in Date(timeIntervalSince1970: 1_714_521_600 + n * 86_400) }
    let vtt = """
      WEBVTT

      00:00.000 --> 00:10.000
      Welcome to the browser show.

      00:19.500 --> 00:30.000
      <v Ana>The middle part starts here.

      00:39.000 --> 00:50.000
      Closing words at forty seconds.

      """
    let chapters = """
      {"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Opening"},
       {"startTime": 20, "title": "Middle"}, {"startTime": 40, "title": "Closing"}]}
      """
    let srt =
      "1\n00:00:00,000 --> 00:00:15,000\nFirst half of the second episode.\n\n"
      + "2\n00:00:15,000 --> 00:00:30,000\nSecond half.\n"
    let json = """
      {"version": "1.0.0", "segments": [
        {"speaker": "Eve", "startTime": 0, "endTime": 5, "body": "<script>window.pwned = 8</script> said as text."}]}
      """
    server.set("/b/cover.jpg", .data(try picture("0x2a6f97"), contentType: "image/jpeg"))
    server.set("/o/cover.jpg", .data(try picture("0xc05a28"), contentType: "image/jpeg"))
    server.set("/b/1.mp3", .data(long, contentType: "audio/mpeg"))
    server.set("/b/2.mp3", .data(short, contentType: "audio/mpeg"))
    server.set("/b/3.mp3", .data(short, contentType: "audio/mpeg"))
    server.set("/o/1.mp3", .data(short, contentType: "audio/mpeg"))
    server.set("/b/1.vtt", .text(vtt, contentType: "text/vtt"))
    server.set("/b/1.json", .text(chapters, contentType: "application/json+chapters"))
    server.set("/b/2.srt", .text(srt, contentType: "application/x-subrip"))
    server.set("/b/3.json", .text(json, contentType: "application/json"))
    let item = {
      (title: String, guid: String, date: Date, path: String, notes: String, extra: String)
        -> String in
      """
          <item>
            <title>\(FeedFixture.escape(title))</title>
            <guid isPermaLink="false">\(guid)</guid>
            <pubDate>\(FeedFixture.rfc822(date))</pubDate>
            <description><![CDATA[\(notes)]]></description>
            <itunes:duration>\(path.hasSuffix("1.mp3") ? "1:00" : "0:30")</itunes:duration>
            <enclosure url="\(self.server.url(path))" length="0" type="audio/mpeg"/>
            \(extra)
          </item>
      """
    }
    let rss = { (title: String, cover: String, items: [String]) in
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
           xmlns:podcast="https://podcastindex.org/namespace/1.0">
        <channel>
          <title>\(title)</title>
          <description><![CDATA[<p>A show made for the <em>browser</em> tests.</p><img src="\(self.tracker.baseURL)/channel.gif">]]></description>
          <language>en</language>
          <itunes:author>The Test Team</itunes:author>
          <itunes:image href="\(self.server.url(cover))"/>
      \(items.joined(separator: "\n"))
        </channel>
      </rss>
      """
    }
    server.set(
      "/b/feed.xml",
      .text(
        rss(
          "Browser Show", "/b/cover.jpg",
          [
            item(
              "Chapters and captions", "b1", day(3), "/b/1.mp3",
              "<p>Chapters at 0, 20 and 40 seconds; a <a href=\"https://example.com\">link</a>.</p>",
              "<podcast:transcript url=\"\(server.url("/b/1.vtt"))\" type=\"text/vtt\"/>"
                + "<podcast:chapters url=\"\(server.url("/b/1.json"))\" type=\"application/json+chapters\"/>"
            ),
            item(
              "Subtitles from SRT", "b2", day(2), "/b/2.mp3",
              "Plain text notes.\n\nTwo paragraphs.",
              "<podcast:transcript url=\"\(server.url("/b/2.srt"))\" type=\"application/x-subrip\"/>"
            ),
            item(
              Self.hostileTitle, "b3", day(1), "/b/3.mp3", hostileNotes,
              "<podcast:transcript url=\"\(server.url("/b/3.json"))\" type=\"application/json\"/>"
            ),
          ]), contentType: "application/rss+xml"))
    server.set(
      "/o/feed.xml",
      .text(
        rss(
          "Other Show", "/o/cover.jpg",
          [item("The only one", "o1", day(0), "/o/1.mp3", "<p>Nothing to see.</p>", "")]),
        contentType: "application/rss+xml"))
    for feed in ["/b/feed.xml", "/o/feed.xml"] {
      let result = try podcast("download", server.url(feed), "--all", "--write-page")
      XCTAssertEqual(result.status, 0, result.stderr)
    }
    server.setDirectory(binary.episodesDirectory, under: "/site")
  }

  /// The episode files on disk in the folder, relative to it, sorted.
  private func filesOnDisk(_ folder: String) -> [String] {
    binary.episodeFiles().filter { $0.hasPrefix(folder + "/") }
      .map { String($0.dropFirst(folder.count + 1)) }
      .filter { !$0.hasSuffix(".html") && !$0.hasSuffix(".m3u8") && !$0.hasPrefix("cover.") }
      .sorted()
  }

  /// The files the page offers to play, decoded, sorted.
  private static let listedFiles = """
    return Array.from(document.querySelectorAll('.ep')).map(e => decodeURIComponent(e.getAttribute('data-file'))).sort();
    """

  /// Every inert-ness check of the hostile notes, as one object (each key should be true).
  private static let inert = """
    const notes = Array.from(document.querySelectorAll('.notes'));
    return {
      nothingRan: window.pwned === undefined,
      noScriptButTheShared: Array.from(document.scripts).every(s => s.src.endsWith('/podcast-page.js')),
      noJavascriptLink: document.querySelectorAll('[href^="javascript" i], [href^="data" i], [src^="data" i]').length === 0,
      noForeignElements: notes.every(n => n.querySelectorAll('script, img, iframe, style, svg, object, embed, video, form, link, meta, base, [style], [onerror], [onload]').length === 0),
      noStyleAttribute: document.querySelectorAll('[style]').length === 0,
      escapedTextShown: document.body.textContent.includes('<script>window.pwned = 5</script> stays text'),
      hostileTitleIsText: Array.from(document.querySelectorAll('h2')).some(h => h.textContent === \(jsString(hostileTitle))),
      episodesVisible: Array.from(document.querySelectorAll('.ep')).every(e => getComputedStyle(e).display !== 'none'),
      fineLinkKept: !!document.querySelector('a[href="https://example.com/fine"][rel~="noreferrer"]'),
    };
    """

  private static func jsString(_ text: String) -> String {
    let data = try? JSONSerialization.data(withJSONObject: [text])
    let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
    return String(array.dropFirst().dropLast())
  }

  /// Whether the page scrolls sideways at its width: it must not at 375 px.
  private static let noSidewaysScroll = """
    const root = document.documentElement;
    return root.scrollWidth <= root.clientWidth && document.body.scrollWidth <= root.clientWidth;
    """

  private static let playerState = """
    const a = document.getElementById('player');
    const chapter = document.querySelector('.ep.current ol.chapters button[aria-current="true"]');
    const cue = document.querySelector('.ep.current .cues button[aria-current="true"]');
    const track = a.querySelector('track');
    return {time: a.currentTime, paused: a.paused, chapter: chapter ? chapter.textContent : null,
            cue: document.getElementById('cue').textContent, listed: cue ? cue.textContent : null,
            track: track ? {src: track.getAttribute('src'), state: track.readyState} : null,
            current: document.querySelector('.ep.current h2').textContent};
    """

  func testTheServedPagesPlaySeekFollowTheTranscriptAndStayInert() throws {
    let browser = try Browser()
    try publishAndDownload()
    let page = server.url("/site/Browser%20Show/index.html")
    let index = server.url("/site/index.html")
    let shots = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-page-shots-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: shots) }

    let results = try browser.session([
      ["open": page, "width": 1024, "height": 1000],  // 0
      ["script": Self.listedFiles],  // 1
      ["script": Self.inert],  // 2
      ["script": "document.querySelectorAll('details').forEach(d => d.open = true); return true"],
      ["script": Self.inert],  // 4: with every show note and transcript open
      ["click": "#e1 .play"],  // 5
      [
        "wait":
          "const a = document.getElementById('player'); return !a.paused && a.currentTime > 0.3 && a.currentTime"
      ],  // 6
      ["script": "window.t0 = document.getElementById('player').currentTime; return window.t0"],
      ["wait": "return document.getElementById('player').currentTime > window.t0 + 0.5"],  // 8
      ["click": "#e1 ol.chapters button[data-t=\"40\"]"],  // 9
      [
        "wait":
          "const a = document.getElementById('player'); return !a.paused && a.currentTime >= 40 && a.currentTime < 50 && document.getElementById('cue').textContent !== ''"
      ],  // 10
      ["script": Self.playerState],  // 11
      ["wait": "const t = document.querySelector('#player track'); return t && t.readyState === 2"],
      ["screenshot": shots + "/page.png", "top": true],  // 13
      ["axe": true],  // 14
      ["open": page, "width": 375, "height": 800],  // 15
      ["script": Self.noSidewaysScroll],  // 16
      ["script": "document.querySelectorAll('details').forEach(d => d.open = true); return true"],
      ["script": Self.noSidewaysScroll],  // 18
      ["open": index, "width": 1024, "height": 700],  // 19
      [
        "script":
          "return Array.from(document.querySelectorAll('.podcasts a')).map(a => decodeURIComponent(a.getAttribute('href')))"
      ],  // 20
      ["type": "#filter", "text": "brow"],  // 21
      [
        "script":
          "return Array.from(document.querySelectorAll('.podcasts li')).filter(li => !li.hidden).map(li => li.querySelector('.title').textContent)"
      ],  // 22
      ["type": "#filter", "text": ""],  // 23
      ["screenshot": shots + "/index.png"],  // 24
      ["axe": true],  // 25
      ["open": index, "width": 375, "height": 800],  // 26
      ["script": Self.noSidewaysScroll],  // 27
      // Dark, as a system set to it shows the pages.
      ["dark": true],  // 28
      ["axe": true],  // 29: the index
      ["open": page, "width": 1024, "height": 900],  // 30
      ["axe": true],  // 31
      // On a keyboard alone: Tab to the first episode's Play, Enter plays it.
      ["tabTo": "#e1 .play"],  // 32
      ["press": "ENTER"],  // 33
      [
        "wait":
          "const a = document.getElementById('player'); return !a.paused && a.currentTime > 0.3"
      ],
      ["log": true],  // 35
    ])

    // The page lists exactly the episode files on disk.
    XCTAssertEqual(results[1] as? [String], filesOnDisk("Browser Show"))
    XCTAssertEqual((results[1] as? [String])?.count, 3)
    for check in [2, 4] {
      let inert = try XCTUnwrap(results[check] as? [String: Bool])
      XCTAssertEqual(inert.filter { !$0.value }.map(\.key), [], "failed checks: \(inert)")
    }
    // Play starts and time advances; a chapter click seeks; the transcript follows.
    XCTAssertTrue(
      Waited(results[6]).ok, "playback never started: \(Waited(results[6]).value ?? "")")
    XCTAssertTrue(Waited(results[8]).ok, "time did not advance past \(results[7])")
    XCTAssertTrue(Waited(results[10]).ok, "the chapter click did not seek to 40 s: \(results[11])")
    let state = try XCTUnwrap(results[11] as? [String: Any])
    XCTAssertEqual(state["chapter"] as? String, "0:40 Closing", "the current chapter is marked")
    XCTAssertEqual(state["cue"] as? String, "Closing words at forty seconds.")
    XCTAssertEqual(state["listed"] as? String, "0:39 Closing words at forty seconds.")
    XCTAssertEqual(state["current"] as? String, "Chapters and captions")
    XCTAssertTrue(
      Waited(results[12]).ok, "the WebVTT <track> did not load: \(state["track"] ?? "")")
    // Accessibility and a phone's width.
    assertNoSeriousViolations(results[14], page: "the podcast page")
    assertNoSeriousViolations(results[25], page: "the index")
    XCTAssertEqual(results[16] as? Bool, true, "the podcast page scrolls sideways at 375 px")
    XCTAssertEqual(results[18] as? Bool, true, "with notes and transcripts open, at 375 px")
    XCTAssertEqual(results[27] as? Bool, true, "the index scrolls sideways at 375 px")
    // The index: every folder with a page, and the filter.
    XCTAssertEqual(
      results[20] as? [String], ["Browser Show/index.html", "Other Show/index.html"])
    XCTAssertEqual(results[22] as? [String], ["Browser Show"])
    // No console error, and no request to any other origin: the tracker heard nothing.
    XCTAssertEqual(results[28] as? Bool, true, "dark mode")
    assertNoSeriousViolations(results[29], page: "the index, dark")
    assertNoSeriousViolations(results[31], page: "the podcast page, dark")
    XCTAssertNotNil(results[32] as? Int, "Tab never reached the first Play button")
    XCTAssertTrue(Waited(results[34]).ok, "Enter on Play did not play: \(results[34])")
    let log = BrowserLog(results[35])
    XCTAssertEqual(log.errors, [], "console errors")
    XCTAssertFalse(log.requests.isEmpty, "the network log recorded the page's own requests")
    // `data:` URLs reach no host (the audio controls' own icons are such).
    let foreign = log.requests.filter {
      !$0.hasPrefix(server.baseURL + "/") && !$0.hasPrefix("data:")
    }
    XCTAssertEqual(foreign, [], "requests to another origin")
    XCTAssertEqual(tracker.requests.map(\.target), [], "the tracker was reached")
    XCTAssertTrue(
      log.requests.contains {
        $0.hasSuffix("/Browser%20Show/2024-05-04%20Chapters%20and%20captions.mp3")
      },
      "the audio came from the folder: \(log.requests)")
    keepScreenshots(from: shots)
  }

  func testFromAFileURLThePagePlaysSeeksAndFollowsTheTranscript() throws {
    let browser = try Browser()
    try publishAndDownload()
    let page = URL(fileURLWithPath: show + "/index.html").absoluteString

    let results = try browser.session([
      ["open": page, "width": 1024, "height": 900],  // 0
      ["script": Self.listedFiles],  // 1
      ["click": "#e1 .play"],  // 2
      [
        "wait":
          "const a = document.getElementById('player'); return !a.paused && a.currentTime > 0.3 && a.currentTime"
      ],  // 3
      ["click": "#e1 details.chapters summary"],  // 4: the chapters, opened as a user does
      ["click": "#e1 ol.chapters button[data-t=\"20\"]"],
      [
        "wait":
          "const a = document.getElementById('player'); return a.currentTime >= 20 && a.currentTime < 30 && document.getElementById('cue').textContent !== ''"
      ],  // 6
      ["script": Self.playerState],  // 7
      ["click": "#e2 .play"],  // 8: another episode, with cues from SRT
      [
        "wait":
          "const a = document.getElementById('player'); return !a.paused && a.currentTime > 0.3 && document.getElementById('cue').textContent"
      ],  // 9
      ["script": Self.inert],  // 10
      ["open": URL(fileURLWithPath: binary.episodesDirectory + "/index.html").absoluteString],
      ["click": ".podcasts a"],  // 12: the index's links work from disk too
      ["script": "return document.title"],  // 13
      ["log": true],  // 14
    ])

    XCTAssertEqual(results[1] as? [String], filesOnDisk("Browser Show"))
    XCTAssertTrue(Waited(results[3]).ok, "playback never started from file://: \(results[3])")
    XCTAssertTrue(Waited(results[6]).ok, "the chapter click did not seek to 20 s: \(results[7])")
    let state = try XCTUnwrap(results[7] as? [String: Any])
    XCTAssertEqual(state["cue"] as? String, "Ana: The middle part starts here.")
    XCTAssertEqual(state["chapter"] as? String, "0:20 Middle")
    XCTAssertTrue(state["track"] is NSNull, "no <track> under file://, where it cannot load")
    XCTAssertEqual(
      Waited(results[9]).value as? String, "First half of the second episode.",
      "SRT cues follow playback")
    let inert = try XCTUnwrap(results[10] as? [String: Bool])
    XCTAssertEqual(inert.filter { !$0.value }.map(\.key), [], "failed checks: \(inert)")
    XCTAssertEqual(results[13] as? String, "Browser Show")
    let log = BrowserLog(results[14])
    XCTAssertEqual(log.errors, [], "console errors")
    XCTAssertEqual(
      log.requests.filter { !$0.hasPrefix("file://") && !$0.hasPrefix("data:") }, [],
      "requests off the disk")
    XCTAssertEqual(tracker.requests.map(\.target), [], "the tracker was reached")
  }

  /// A podcast with 2,000 episodes on disk: the page's size per episode (before show notes) is
  /// checked; how long it takes to DOMContentLoaded is printed (measured, not asserted).
  func testTwoThousandEpisodesMakeALightPage() throws {
    let browser = try Browser()
    let count = 2_000
    let audio = try tone(seconds: 1)
    let notes = String(
      repeating: "<p>Show notes with a <a href=\"https://example.com/more\">link</a>, "
        + "<em>emphasis</em> and a list of what was said.</p>", count: 4)
    var items: [String] = []
    for number in 1...count {
      let path = "/big/\(number).mp3"
      server.set(path, .data(audio, contentType: "audio/mpeg"))
      let date = Date(timeIntervalSince1970: 1_000_000_000 + Double(number) * 86_400)
      items.append(
        """
            <item><title>Episode \(number): a title of a usual length for a show</title>
              <guid isPermaLink="false">big-\(number)</guid>
              <pubDate>\(FeedFixture.rfc822(date))</pubDate>
              <description><![CDATA[\(notes)]]></description>
              <itunes:duration>\(40 + number % 20):\(10 + number % 50)</itunes:duration>
              <enclosure url="\(server.url(path))" length="\(audio.count)" type="audio/mpeg"/></item>
        """)
    }
    server.set(
      "/big/feed.xml",
      .text(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
        <title>Big Show</title><description>Two thousand episodes.</description>
        \(items.reversed().joined(separator: "\n"))
        </channel></rss>
        """, contentType: "application/rss+xml"))

    let result = try podcast(
      "download", server.url("/big/feed.xml"), "--all", "--write-page", "--no-tags",
      "--concurrency", "16", "--per-host", "16", timeout: 900)
    XCTAssertEqual(result.status, 0, result.stderr)
    let folder = binary.episodesDirectory + "/Big Show"
    let text = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
    // The page's bytes less the show notes, per episode.
    var rest = text
    var notesBytes = 0
    while let open = rest.range(of: "<details class=\"notes\">"),
      let close = rest.range(of: "</details>", range: open.upperBound..<rest.endIndex)
    {
      notesBytes += rest[open.lowerBound..<close.upperBound].utf8.count
      rest = String(rest[close.upperBound...])
    }
    let perEpisode = Double(text.utf8.count - notesBytes) / Double(count)
    XCTAssertLessThan(perEpisode, 1_500, "bytes per episode before show notes")
    server.setDirectory(binary.episodesDirectory, under: "/site")
    let page = server.url("/site/Big%20Show/index.html")
    // The index (one podcast) beside it: what a page costs this machine at the moment, for
    // the ratio (the machine is shared; its load moves every wall time).
    let index = server.url("/site/index.html")
    let loads = [
      ["open": page], ["open": index], ["open": page], ["open": index], ["open": page],
      ["open": index],
    ]
    let results = try browser.session(
      loads + [
        ["open": page],
        [
          "script":
            "return [document.querySelectorAll('.ep').length, document.querySelectorAll('audio').length, document.querySelectorAll('details.notes').length, document.querySelectorAll('details.notes[open]').length]"
        ],
        ["click": "#e2000 .play"],
        [
          "wait":
            "const a = document.getElementById('player'); return !a.paused && a.currentTime > 0.2"
        ],
        ["log": true],
      ])
    XCTAssertEqual(
      results[7] as? [Int], [count, 1, count, 0], "episodes, players, notes, open notes")
    XCTAssertTrue(Waited(results[9]).ok, "the oldest episode did not play: \(results[9])")
    XCTAssertEqual(BrowserLog(results[10]).errors, [])
    let loaded = results.prefix(6).map { ($0 as? [String: Any])?["domContentLoaded"] as? Double }
    let pageTimes = stride(from: 0, to: 6, by: 2).compactMap { loaded[$0] }.sorted()
    let indexTimes = stride(from: 1, to: 6, by: 2).compactMap { loaded[$0] }.sorted()
    XCTAssertEqual(pageTimes.count + indexTimes.count, 6, "DOMContentLoaded of each load")
    let ms = { (times: [Double]) in times.map { String(format: "%.0f", $0) }.joined(separator: ", ")
    }
    print(
      "page of \(count) episodes: \(text.utf8.count) bytes, \(String(format: "%.0f", perEpisode)) "
        + "per episode before show notes; DOMContentLoaded \(ms(pageTimes)) ms "
        + "(the one-podcast index beside it: \(ms(indexTimes)) ms)")
  }

  private func assertNoSeriousViolations(
    _ result: Any, page: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let violations = result as? [[String: Any]] else {
      XCTFail("axe gave \(result) on \(page)", file: file, line: line)
      return
    }
    let serious = violations.filter { ["serious", "critical"].contains($0["impact"] as? String) }
    XCTAssertEqual(
      serious.map { "\($0["id"] ?? ""): \($0["help"] ?? "") at \($0["targets"] ?? "")" }, [],
      "axe-core on \(page)", file: file, line: line)
  }

  /// With `PODCAST_PAGE_SCREENSHOTS=DIR` the screenshots are kept there (the README's come
  /// from here); otherwise they go with the test's temporary folder.
  private func keepScreenshots(from folder: String) {
    guard let target = ProcessInfo.processInfo.environment["PODCAST_PAGE_SCREENSHOTS"],
      !target.isEmpty
    else { return }
    for name in ["page.png", "index.png"] {
      let destination = target + "/archive-" + name
      try? FileManager.default.removeItem(atPath: destination)
      try? FileManager.default.copyItem(atPath: folder + "/" + name, toPath: destination)
    }
  }
}
