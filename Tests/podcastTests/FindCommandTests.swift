import Foundation
import LoopbackServer
import XCTest

/// `podcast find`, end to end: a library synced from feeds with show notes, transcripts in
/// every format feeds publish and chapters, searched as a person would.
final class FindCommandTests: LibraryTestCase {
  private var space: FindableShow!

  override func setUpWithError() throws {
    try super.setUpWithError()
    space = FindableShow(
      "space",
      items: [
        .init(
          "The Voyager probes", day: 5,
          notes: "<p>The <b>golden record</b> and Caf&eacute; culture.</p>",
          transcript: (
            "vtt",
            "WEBVTT\n\n00:00.000 --> 00:04.000\nWelcome back.\n\n"
              + "41:12.000 --> 41:15.500\n<v Ada>The Voyager probes carry the golden record.\n"
          ),
          chapters: [(0, "Intro"), (723.5, "Pluto and the Kuiper belt")]),
        .init(
          "Copper mining", day: 4, notes: "Copper and tin, no festivals.",
          transcript: (
            "srt",
            "1\n00:00:01,000 --> 00:00:03,000\nHello.\n\n"
              + "2\n00:12:03,500 --> 00:12:06,000\ndeep in the mines of Cornwall\n"
          )),
        .init(
          "Brass festival", day: 3, notes: "A copper festival with brass bands.",
          transcript: (
            "json",
            #"{"version":"1.0.0","segments":[{"speaker":"Ben","startTime":95.25,"endTime":96,"body":"The"},"#
              + #"{"speaker":"Ben","startTime":96,"endTime":97,"body":"tuba"},{"speaker":"Ben","startTime":97,"endTime":98,"body":"played."}]}"#
          )),
        .init(
          "Listener mail", day: 2, notes: "Letters.",
          transcript: (
            "html", "<html><body><p>A listener asks about Pluto&#8217;s moons.</p></body></html>"
          )),
        .init(
          "Naïve questions", day: 1, notes: "Straight answers.",
          transcript: ("txt", "Is Pluto a planet?\n\nWe think so.\n")),
      ], on: server)
  }

  /// Subscribes to `show` taking every episode, and syncs.
  private func syncAll(_ show: FindableShow, first: String = "all", keep: Int? = nil) throws {
    var arguments = ["subscribe", show.feedURL, "--name", show.name, "--first", first]
    if let keep { arguments += ["--keep", String(keep)] }
    let subscribed = try binary.run(arguments)
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    let synced = try podcast("sync")
    XCTAssertEqual(synced.status, 0, synced.stderr)
  }

  /// `find ARGUMENTS --json`, which must succeed.
  private func find(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line)
    throws -> [[String: Any]]
  {
    let result = try binary.run(["find"] + arguments + ["--json"])
    XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
    return try XCTUnwrap(try result.json() as? [[String: Any]], file: file, line: line)
  }

  private func titles(_ found: [[String: Any]]) -> [String] {
    found.compactMap { $0["title"] as? String }
  }

  private func moments(_ found: [String: Any]?) -> [[String: Any]] {
    found?["moments"] as? [[String: Any]] ?? []
  }

  /// The time of the first moment in `field` of the one episode found.
  private func time(_ field: String, for query: String...) throws -> Any? {
    let found = try binary.run(["find"] + query + ["--json"])
    let list = try XCTUnwrap(try found.json() as? [[String: Any]])
    XCTAssertEqual(list.count, 1, "\(query): \(titles(list))")
    let moment = moments(list.first).first { $0["field"] as? String == field }
    XCTAssertNotNil(moment, "\(query): no \(field) moment in \(moments(list.first))")
    return moment?["time"] ?? nil
  }

  func testEachTranscriptFormatAndTheChaptersGiveTheirMomentsTime() throws {
    try syncAll(space)

    XCTAssertEqual(try time("transcripts", for: "carry") as? Int, 2472, "WebVTT")
    XCTAssertEqual(try time("transcripts", for: "cornwall") as? Int, 723, "SRT")
    XCTAssertEqual(try time("transcripts", for: "tuba") as? Int, 95, "Podcasting 2.0 JSON")
    XCTAssertTrue(try time("transcripts", for: "moons") is NSNull, "HTML has no times")
    XCTAssertTrue(try time("transcripts", for: "think") is NSNull, "text has no times")
    XCTAssertEqual(try time("chapters", for: "kuiper") as? Int, 723, "chapters")

    let found = try find("tuba")
    XCTAssertEqual(found.first?["title"] as? String, "Brass festival")
    XCTAssertEqual(moments(found.first).first?["snippet"] as? String, "The tuba played.")
    XCTAssertEqual(found.first?["state"] as? String, "downloaded")
    XCTAssertEqual(found.first?["index"] as? Int, 3)
    XCTAssertEqual(found.first?["podcast"] as? String, "space")
    XCTAssertEqual(found.first?["feedURL"] as? String, space.feedURL)
    XCTAssertEqual(found.first?["guid"] as? String, "space-ep3")
    XCTAssertEqual(found.first?["published"] as? String, "2024-05-03T10:00:00Z")
    XCTAssertEqual(found.first?["url"] as? String, server.url("/space/ep3.mp3"))
    let file = try XCTUnwrap(found.first?["file"] as? String)
    XCTAssertTrue(FileManager.default.fileExists(atPath: file), file)
    XCTAssertGreaterThan(found.first?["score"] as? Double ?? 0, 0)
  }

  /// The text output: the episode's line, then a line per moment with its time, as
  /// `episodes` numbers the episode so `download` follows.
  func testTheTextOutputShowsEachMomentUnderItsEpisode() throws {
    try syncAll(space)
    let result = try podcast("find", "voyager", "golden")
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "space  2024-05-05  1  The Voyager probes  (done)")
    XCTAssertTrue(
      lines.contains("       41:12  transcript  The Voyager probes carry the golden record."),
      result.stdout)
    XCTAssertTrue(
      lines.contains { $0.hasSuffix("notes       The golden record and Café culture.") },
      result.stdout)
    XCTAssertFalse(result.stdout.contains("\u{1B}"), "no bold outside a terminal")
  }

  func testAccentsAndCaseAreIgnored() throws {
    try syncAll(space)
    XCTAssertEqual(titles(try find("cafe")), ["The Voyager probes"])
    XCTAssertEqual(titles(try find("CAFÉ")), ["The Voyager probes"])
    XCTAssertEqual(titles(try find("naive")), ["Naïve questions"])
    XCTAssertEqual(titles(try find("NAÏVE", "QUESTIONS")), ["Naïve questions"])
  }

  func testPhrasesPrefixesAndExclusions() throws {
    try syncAll(space)
    XCTAssertEqual(titles(try find(#""golden record""#)), ["The Voyager probes"])
    XCTAssertEqual(titles(try find(#""record golden""#)), [])
    XCTAssertEqual(titles(try find("cornw*")), ["Copper mining"])
    XCTAssertEqual(Set(titles(try find("copper"))), ["Copper mining", "Brass festival"])
    XCTAssertEqual(titles(try find("copper -festival")), ["Copper mining"])
    let afterDashes = try binary.run(["find", "--json", "--", "copper", "-festival"])
    XCTAssertEqual(afterDashes.status, 0, afterDashes.stderr)
    XCTAssertEqual(
      titles(try XCTUnwrap(try afterDashes.json() as? [[String: Any]])), ["Copper mining"])
    XCTAssertEqual(titles(try find(#"copper -"brass bands""#)), ["Copper mining"])
    XCTAssertEqual(titles(try find("pluto", "moons")), ["Listener mail"], "every word must match")
  }

  func testFiltersNarrowTheSearch() throws {
    try syncAll(space)
    let other = FindableShow(
      "other",
      items: [
        .init("Old copper coins", day: 1, notes: "Copper."),
        .init("New copper kettles", day: 2, notes: "Copper too."),
      ], on: server)
    try syncAll(other, first: "1")

    XCTAssertEqual(titles(try find("copper", "--in", "transcripts")), [])
    XCTAssertEqual(
      Set(titles(try find("copper", "--in", "notes"))),
      ["Copper mining", "Brass festival", "Old copper coins", "New copper kettles"])
    XCTAssertEqual(
      titles(try find("copper", "--in", "title,chapters")).sorted(),
      ["Copper mining", "New copper kettles", "Old copper coins"])
    XCTAssertEqual(titles(try find("kuiper", "--in", "chapters")), ["The Voyager probes"])
    XCTAssertEqual(
      Set(titles(try find("copper", "--podcast", "other"))),
      ["Old copper coins", "New copper kettles"])
    XCTAssertEqual(
      Set(titles(try find("copper", "--since", "2024-05-02", "--podcast", "oth"))),
      ["New copper kettles"])
    XCTAssertEqual(
      titles(try find("copper", "--until", "2024-05-03", "--podcast", "space")), ["Brass festival"])
    XCTAssertEqual(
      Set(titles(try find("copper", "--downloaded", "--podcast", "other"))), ["New copper kettles"],
      "the older one was never downloaded")
    let notDownloaded = try find("coins")
    XCTAssertEqual(notDownloaded.first?["state"] as? String, "new")
    XCTAssertEqual(notDownloaded.first?["index"] as? Int, 2)
    XCTAssertTrue(notDownloaded.first?["file"] is NSNull)
    XCTAssertEqual(try find("copper", "--limit", "1").count, 1)

    let unknown = try podcast("find", "copper", "--in", "lyrics")
    XCTAssertEqual(unknown.status, 64)
    XCTAssertTrue(unknown.stderr.contains("lyrics"), unknown.stderr)
    XCTAssertEqual(try podcast("find", "copper", "--podcast", "nosuch").status, 1)
  }

  func testATitleHitRanksAboveATranscriptOnlyHit() throws {
    let speech = (1...300).map { "we talk about jupiter and its moons, number \($0)." }
    let cues = speech.enumerated().map { offset, line in
      String(
        format: "%02d:%02d.000 --> %02d:%02d.500\n%@\n", offset / 60, offset % 60, offset / 60,
        offset % 60, line)
    }
    let ranked = FindableShow(
      "ranked",
      items: [
        .init(
          "An hour on the gas giants", day: 2, notes: "A long talk.",
          transcript: ("vtt", "WEBVTT\n\n" + cues.joined(separator: "\n"))),
        .init("Jupiter", day: 1, notes: "Short."),
      ], on: server)
    try syncAll(ranked)
    XCTAssertEqual(titles(try find("jupiter")), ["Jupiter", "An hour on the gas giants"])
  }

  /// Nothing a person types reaches FTS5 as syntax: no SQLite error, ever.
  func testHostileQueriesAreWordsNeverAnError() throws {
    try syncAll(space)
    let tenKB = (1...1500).map { "w\($0)" }.joined(separator: " ")
    for query in [
      #""unbalanced"#, "NEAR(", "NEAR(voyager golden, 2)", "col:val", "title:voyager",
      "voyager AND", "voyager OR", "NOT golden", "^golden", "{title}", "a*b", "golden*)",
      #"voy"ager"#, tenKB, #""golden"#,
    ] {
      let result = try podcast("find", query)
      XCTAssertEqual(result.status, 0, "\(query.prefix(40)): \(result.stderr)")
      for word in ["fts5", "syntax", "SQL", "sqlite", "malformed"] {
        XCTAssertFalse(result.stderr.contains(word), "\(query.prefix(40)): \(result.stderr)")
      }
    }
    XCTAssertEqual(titles(try find(#""golden"#)), ["The Voyager probes"], "an open quote is words")
    XCTAssertEqual(
      titles(try find("title:voyager")), [], "no column filter: the phrase title voyager")
    for query in ["*", "-", "-copper", "!!!", ")(", "'", "\"\""] {
      let result = try podcast("find", "--", query)
      XCTAssertEqual(result.status, 64, "\(query): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("no word to find"), result.stderr)
    }
  }

  /// Sync indexes what a feed adds and changes, in the transaction that records it; a pruned
  /// episode stays findable as `deleted`, transcript and all; `--rebuild` gives the same
  /// answers; an unsubscribed show is gone.
  func testKeptInStepAcrossSyncPruneAndRebuild() throws {
    let daily = FindableShow(
      "daily",
      items: [
        .init("Monday", day: 1, notes: "alpha notes"),
        .init(
          "Tuesday", day: 2, notes: "beta notes",
          transcript: ("vtt", "WEBVTT\n\n10:00.000 --> 10:02.000\nthe marmot whistles\n")),
      ], on: server)
    try syncAll(daily, first: "1", keep: 1)
    XCTAssertEqual(try find("marmot").first?["state"] as? String, "downloaded")
    XCTAssertEqual(titles(try find("alpha")), ["Monday"])

    daily.items[0].notes = "omega notes"
    daily.items.append(
      .init(
        "Wednesday", day: 3, notes: "gamma notes",
        transcript: ("srt", "1\n00:05:00,000 --> 00:05:02,000\nthe zeppelin lands\n")))
    daily.serve()
    let synced = try podcast("sync")
    XCTAssertEqual(synced.status, 0, synced.stderr)

    XCTAssertEqual(try find("zeppelin").first?["state"] as? String, "downloaded")
    XCTAssertEqual(titles(try find("omega")), ["Monday"], "changed notes are indexed")
    XCTAssertEqual(titles(try find("alpha")), [], "and the old ones are gone")
    let pruned = try find("marmot")
    XCTAssertEqual(titles(pruned), ["Tuesday"], "a pruned episode stays findable")
    XCTAssertEqual(pruned.first?["state"] as? String, "deleted")
    XCTAssertEqual(moments(pruned.first).first?["time"] as? Int, 600, "transcript and all")
    XCTAssertEqual(pruned.first?["index"] as? Int, 2)

    let queries = [["marmot"], ["zeppelin"], ["omega"], ["notes"], ["daily"]]
    let before = try queries.map { try binary.run(["find"] + $0 + ["--json"]).stdout }
    let rebuilt = try podcast("find", "--rebuild")
    XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
    XCTAssertTrue(
      rebuilt.stdout.hasPrefix("Indexed 3 episodes of 1 podcast: "), rebuilt.stdout)
    XCTAssertTrue(rebuilt.stdout.contains("in an index of"), rebuilt.stdout)
    let after = try queries.map { try binary.run(["find"] + $0 + ["--json"]).stdout }
    XCTAssertEqual(after, before, "--rebuild finds what the index kept in step found")

    XCTAssertEqual(try podcast("unsubscribe", "daily").status, 0)
    XCTAssertEqual(titles(try find("zeppelin")), [])
    XCTAssertEqual(titles(try find("marmot")), [])
  }

  /// A transcript a sync could not fetch is indexed by the sync that fetches it.
  func testATranscriptThatArrivesLaterIsIndexedWhenItArrives() throws {
    let late = FindableShow(
      "late",
      items: [
        .init(
          "Only episode", day: 1, notes: "nothing here",
          transcript: ("vtt", "WEBVTT\n\n00:30.000 --> 00:31.000\nthe narwhal surfaces\n"))
      ], on: server)
    server.set("/late/ep1.vtt", .status(404))
    try syncAll(late)
    XCTAssertEqual(titles(try find("narwhal")), [])

    late.items[0].notes = "nothing here yet"
    late.serve()
    let synced = try podcast("sync")
    XCTAssertEqual(synced.status, 0, synced.stderr)
    let found = try find("narwhal")
    XCTAssertEqual(titles(found), ["Only episode"])
    XCTAssertEqual(moments(found.first).first?["time"] as? Int, 30)
  }

  /// `download NAME N` of a subscription's episode indexes its transcript as sync's downloads do.
  func testADownloadOfASubscribedEpisodeIndexesItsTranscript() throws {
    try syncAll(space, first: "none")
    XCTAssertEqual(titles(try find("carry")), [])
    XCTAssertEqual(try find("voyager").first?["state"] as? String, "new")
    let downloaded = try podcast("download", "space", "1")
    XCTAssertEqual(downloaded.status, 0, downloaded.stderr)
    XCTAssertEqual(try time("transcripts", for: "carry") as? Int, 2472)
    XCTAssertEqual(try find("carry").first?["state"] as? String, "downloaded")
    XCTAssertEqual(titles(try find("episode", "--downloaded")), [])
    XCTAssertEqual(titles(try find("voyager", "--downloaded")), ["The Voyager probes"])
  }

  /// A library from before the index gets it at its first `find`, with progress on a terminal.
  func testALibraryFromBeforeTheIndexIsIndexedAtItsFirstFind() throws {
    try syncAll(space)
    try ExternalTool.run(
      "sqlite3",
      [
        binary.library + "/.podcast/library.sqlite",
        """
        DROP TRIGGER findForgetEpisode; DROP TRIGGER findForgetSubscription;
        DROP TABLE findText; DROP TABLE findSources; DROP TABLE findState; DROP TABLE findFeeds;
        DELETE FROM grdb_migrations WHERE identifier = 'v14-find-index';
        """,
      ])
    // Under a terminal (script(1) gives it one), as a person runs it.
    let environment = binary.environment.map { "\($0.key)=\(shellQuoted($0.value))" }
    let command =
      "env -i \(environment.joined(separator: " ")) \(shellQuoted(PodcastBinary.url.path)) find carry"
    let output = try ExternalTool.run("script", ["-qec", command, "/dev/null"])
    XCTAssertTrue(
      output.contains("Indexing the library for find: 1 of 1 podcasts"), output)
    XCTAssertTrue(output.contains("41:12  transcript"), output)
    XCTAssertEqual(try time("transcripts", for: "carry") as? Int, 2472)
  }

  private func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  func testAFolderWithoutALibraryHasNothingToFind() throws {
    XCTAssertEqual(try find("anything").count, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: binary.library + "/.podcast"))
  }
}
