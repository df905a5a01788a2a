import DirectoryTestSupport
import Foundation
import LoopbackServer
import XCTest

/// `podcast search` across directories, end to end: the built binary against Apple, Podcast
/// Index, fyyd and gpodder.net on loopback, answering in their real shapes and with their
/// habits (see `DirectoryAnswers`).
final class DirectorySearchCommandTests: XCTestCase {
  private var directories: LoopbackDirectories!

  override func setUpWithError() throws {
    directories = try LoopbackDirectories()
    answerAll()
  }

  override func tearDown() {
    directories?.server.stop()
    directories = nil
  }

  private func answerAll(delay: Double? = nil) {
    directories.answerSearch(.apple, json: DirectoryAnswers.apple, delay: delay)
    directories.answerSearch(.podcastindex, json: DirectoryAnswers.podcastIndex, delay: delay)
    directories.answerSearch(.fyyd, json: DirectoryAnswers.fyyd, delay: delay)
    directories.answerSearch(.gpodder, json: DirectoryAnswers.gpodder, delay: delay)
  }

  private func search(
    _ arguments: [String], withKey: Bool = true, environment: [String: String] = [:]
  ) throws -> PodcastBinary.Result {
    var binary = try PodcastBinary()
    binary.environment.merge(directories.environment(withKey: withKey)) { _, new in new }
    binary.environment.merge(environment) { _, new in new }
    binary.environment["TZ"] = "UTC"
    binary.environment["COLUMNS"] = "120"
    return try binary.run(["search"] + arguments)
  }

  private func rows(_ output: String) -> [String] {
    output.split(separator: "\n").map(String.init)
  }

  // MARK: - One merged answer

  func testAllFourDirectoriesMergeIntoOneTable() throws {
    let run = try search(["freak", "show", "--directory", "all"])

    XCTAssertEqual(run.exitCode, 0, run.stderr)
    XCTAssertEqual(run.stderr, "")
    let lines = rows(run.stdout)
    XCTAssertEqual(lines.count, 13, run.stdout)
    for column in ["TITLE", "AUTHOR", "EPISODES", "NEWEST", "LISTED BY"] {
      XCTAssertTrue(lines[0].contains(column), lines[0])
    }
    // Listed by all four: by URL (scheme, host case, port, slash) and by podcast:guid.
    XCTAssertTrue(lines[1].hasPrefix("1  Freak Show  "), lines[1])
    XCTAssertTrue(lines[1].contains(" 301  2024-11-21  apple,podcastindex,fyyd,gpodder"), lines[1])
    XCTAssertEqual(lines[2], "   https://feeds.metaebene.me/freakshow/m4a")
    // By URL in fyyd and gpodder.net; gpodder.net's title is the URL, fyyd's wins.
    XCTAssertTrue(lines[3].hasPrefix("2  Timmy Trumpet – Freak Show"), lines[3])
    XCTAssertTrue(lines[3].contains("52  2016-06-26  fyyd,gpodder"), lines[3])
    // By iTunes id, the feed having moved since Apple saw it: Apple's URL is shown.
    XCTAssertTrue(lines[5].hasPrefix("3  The Freak Show Podcast"), lines[5])
    XCTAssertTrue(
      lines[5].contains("91  2024-05-18  apple,podcastindex"), "the newest: \(lines[5])")
    XCTAssertEqual(lines[6], "   https://anchor.fm/s/4a8b2c/podcast/rss")
    // Then those one directory listed, by rank, then directory.
    XCTAssertTrue(lines[7].hasPrefix("4  Freak Show Stories"), lines[7])
    XCTAssertEqual(lines[8], "   (no public feed URL: cannot be downloaded)")
    XCTAssertTrue(lines[9].hasPrefix("5  The Freak Show Hour"), lines[9])
    XCTAssertTrue(lines[11].hasPrefix("6  Freakshow Radio"), lines[11])
    XCTAssertTrue(lines[11].contains("Freakshow Radio Co"), "ownerName for author: \(lines[11])")
    XCTAssertFalse(run.stdout.contains("(gone)"), "a dead feed is left out")
  }

  func testJSONCarriesEveryDirectorysIDs() throws {
    let run = try search(["freak show", "--directory", "all", "--json"])

    XCTAssertEqual(run.exitCode, 0, run.stderr)
    let array = try XCTUnwrap(try run.json() as? [[String: Any]])
    XCTAssertEqual(array.count, 6)
    XCTAssertEqual(
      Set(array[0].keys),
      [
        "index", "id", "title", "author", "feedURL", "episodeCount", "genre", "artworkURL",
        "storeURL", "releaseDate", "directories", "itunesId", "podcastIndexId", "fyydId",
        "podcastGuid", "lastPublished",
      ])
    let first = array[0]
    XCTAssertEqual(first["id"] as? Int, 281_006_136)
    XCTAssertEqual(first["itunesId"] as? Int, 281_006_136)
    XCTAssertEqual(first["podcastIndexId"] as? Int, 575_694)
    XCTAssertEqual(first["fyydId"] as? Int, 85)
    XCTAssertEqual(first["podcastGuid"] as? String, "2a5a4f2e-8d84-5c3d-9a2e-5f5b0c1d7e11")
    XCTAssertEqual(first["directories"] as? [String], ["apple", "podcastindex", "fyyd", "gpodder"])
    XCTAssertEqual(first["episodeCount"] as? Int, 301, "the largest count")
    XCTAssertEqual(first["releaseDate"] as? String, "2024-11-20T19:00:00Z", "Apple's date")
    XCTAssertEqual(first["lastPublished"] as? String, "2024-11-21T22:30:00Z", "the newest")
    XCTAssertEqual(
      first["artworkURL"] as? String,
      "https://is1-ssl.mzstatic.com/image/thumb/Podcasts/freakshow/600x600bb.jpg",
      "Apple's artwork")
    XCTAssertEqual(first["genre"] as? String, "Technology")
    let timmy = array[1]
    XCTAssertTrue(timmy["id"] is NSNull, "no iTunes id is null")
    XCTAssertTrue(timmy["itunesId"] is NSNull)
    XCTAssertTrue(timmy["podcastIndexId"] is NSNull)
    XCTAssertEqual(timmy["fyydId"] as? Int, 36645)
    XCTAssertEqual(timmy["directories"] as? [String], ["fyyd", "gpodder"])
    XCTAssertEqual(array.map { $0["index"] as? Int }, [1, 2, 3, 4, 5, 6])
  }

  /// Four directories that each take 0.6 s to answer: every request has arrived before any
  /// answer is complete, so they were asked at once (one after the other, the second request
  /// would come only after the first answer).
  func testDirectoryAllAsksTheFourAtOnce() throws {
    answerAll(delay: 0.6)

    let run = try search(["freak", "show", "--directory", "all"])

    XCTAssertEqual(run.exitCode, 0, run.stderr)
    let events = directories.events
    XCTAssertEqual(events.count, 8, "\(events)")
    XCTAssertEqual(
      Set(events.prefix(4)),
      [.arrived(.apple), .arrived(.podcastindex), .arrived(.fyyd), .arrived(.gpodder)],
      "all four asked before any answered: \(events)")
  }

  func testTheLimitCutsTheMergedList() throws {
    let run = try search(["freak show", "--directory", "all", "--limit", "2", "--json"])

    let array = try XCTUnwrap(try run.json() as? [[String: Any]])
    XCTAssertEqual(
      array.map { $0["title"] as? String }, ["Freak Show", "Timmy Trumpet – Freak Show"])
    XCTAssertEqual(
      directories.requests(to: .podcastindex).first?.target,
      "/api/1.0/search/byterm?q=freak+show&max=2")
    XCTAssertEqual(
      directories.requests(to: .fyyd).first?.target, "/0.2/search/podcast?term=freak+show&count=2")
    XCTAssertEqual(directories.requests(to: .gpodder).first?.target, "/search.json?q=freak+show")
  }

  // MARK: - Which directories

  func testByDefaultAppleAloneWithoutAKeyAndWithPodcastIndexWithOne() throws {
    let withoutKey = try search(["freak show", "--json"], withKey: false)
    XCTAssertEqual(withoutKey.exitCode, 0, withoutKey.stderr)
    XCTAssertEqual(directories.requests(to: .apple).count, 1)
    XCTAssertEqual(directories.requests(to: .podcastindex).count, 0)

    let withKey = try search(["freak show", "--json"])
    XCTAssertEqual(withKey.exitCode, 0, withKey.stderr)
    XCTAssertEqual(directories.requests(to: .apple).count, 2)
    XCTAssertEqual(directories.requests(to: .podcastindex).count, 1)
    XCTAssertEqual(
      directories.requests(to: .fyyd).count + directories.requests(to: .gpodder).count, 0)
    let first = try XCTUnwrap((try withKey.json() as? [[String: Any]])?.first)
    XCTAssertEqual(first["directories"] as? [String], ["apple", "podcastindex"])
  }

  func testTheConfigFileChoosesDirectoriesAndHoldsTheKeyAndTheFlagBeatsIt() throws {
    var binary = try PodcastBinary()
    binary.environment.merge(directories.environment(withKey: false)) { _, new in new }
    let config = binary.library + "/.config/podcast/config.toml"
    try FileManager.default.createDirectory(
      atPath: (config as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try """
    podcastindex-key = "\(LoopbackDirectories.key)"
    podcastindex-secret = '\(LoopbackDirectories.secret)'

    [search]
    directories = ['podcastindex', "fyyd",]  # the open ones
    """.write(toFile: config, atomically: true, encoding: .utf8)

    let fromFile = try binary.run(["search", "freak show", "--json"])
    XCTAssertEqual(fromFile.exitCode, 0, fromFile.stderr)
    XCTAssertEqual(directories.requests(to: .podcastindex).count, 1, "signed with the file's key")
    XCTAssertEqual(directories.requests(to: .fyyd).count, 1)
    XCTAssertEqual(directories.requests(to: .apple).count, 0)

    let fromFlag = try binary.run(["search", "freak show", "--directory", "gpodder", "--json"])
    XCTAssertEqual(fromFlag.exitCode, 0, fromFlag.stderr)
    XCTAssertEqual(directories.requests(to: .gpodder).count, 1)
    XCTAssertEqual(directories.requests(to: .podcastindex).count, 1, "the flag beats the file")
  }

  func testAnUnknownDirectoryInTheConfigFileNamesFileLineAndKey() throws {
    var binary = try PodcastBinary()
    let config = binary.library + "/.config/podcast/config.toml"
    try FileManager.default.createDirectory(
      atPath: (config as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    for (text, reason) in [
      (#"directories = ["apple", "itunes"]"#, "'itunes' is not a directory"),
      (#"directories = "apple""#, "the value must be a list"),
      ("directories = [\n  \"apple\",\n]", "an array is strings on one line"),
      (#"podcastindex-secret = 42"#, "podcastindex-secret: the value must be a \"string\""),
    ] {
      try ("# search\n" + text + "\n").write(toFile: config, atomically: true, encoding: .utf8)
      binary.environment["PODCAST_ITUNES_URL"] = directories.server.baseURL
      let run = try binary.run(["search", "freak show"])
      XCTAssertEqual(run.exitCode, 64, text)
      XCTAssertTrue(run.stderr.contains("config.toml:2"), run.stderr)
      XCTAssertTrue(run.stderr.contains(reason), run.stderr)
    }
    XCTAssertEqual(directories.server.requests.count, 0)
  }

  func testNamingPodcastIndexWithoutAKeySaysWhereToGetOne() throws {
    for flag in ["podcastindex", "all", "apple,podcastindex"] {
      let run = try search(["freak show", "--directory", flag], withKey: false)

      XCTAssertEqual(run.exitCode, 64, flag)
      XCTAssertTrue(run.stderr.contains("https://api.podcastindex.org"), run.stderr)
      XCTAssertTrue(run.stderr.contains("PODCAST_INDEX_KEY and PODCAST_INDEX_SECRET"), run.stderr)
    }
    XCTAssertEqual(directories.server.requests.count, 0, "nothing asked")
  }

  func testAnUnknownDirectoryIsAUsageError() throws {
    let run = try search(["freak show", "--directory", "apple,itunes"])

    XCTAssertEqual(run.exitCode, 64)
    XCTAssertTrue(
      run.stderr.contains(
        "--directory 'itunes' is not a directory: choose from apple, podcastindex, fyyd, gpodder, or all"
      ), run.stderr)
    XCTAssertEqual(directories.server.requests.count, 0)
  }

  // MARK: - Failures

  func testASlowDirectoryIsGivenUpAndTheOthersStillPrint() throws {
    directories.answer(
      "/0.2/search/podcast", .fyyd,
      with: LoopbackDirectories.json(DirectoryAnswers.fyyd).stalling(after: 0, seconds: nil))

    let run = try search(["freak show", "--directory", "all", "--timeout", "1"])

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertEqual(
      run.stderr, "podcast: fyyd did not answer within 1 s (give it longer with --timeout)\n")
    let lines = rows(run.stdout)
    XCTAssertTrue(lines[1].contains("apple,podcastindex,gpodder"), lines[1])
    XCTAssertFalse(run.stdout.contains("fyyd"), run.stdout)
  }

  func testAFailingDirectoryIsNamedWithWhyAndTheOthersStillPrint() throws {
    directories.answerSearch(.gpodder, json: "<h1>Server Error (500)</h1>", status: 500)

    let run = try search(["freak show", "--directory", "all"])

    XCTAssertEqual(run.exitCode, 1)
    let errors = rows(run.stderr)
    XCTAssertEqual(errors.count, 1, run.stderr)
    XCTAssertTrue(errors[0].hasPrefix("podcast: gpodder.net did not answer: "), errors[0])
    XCTAssertTrue(errors[0].hasSuffix("HTTP 500 Internal Server Error"), errors[0])
    XCTAssertTrue(rows(run.stdout)[1].hasSuffix("  apple,podcastindex,fyyd"), run.stdout)
  }

  func testEveryDirectoryFailingPrintsEachAndNoResults() throws {
    for kind in LoopbackDirectories.Kind.allCases {
      directories.answerSearch(kind, json: "", status: 503)
    }

    let run = try search(["freak show", "--directory", "all", "--json"])

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertEqual(run.stdout, "", "no answer, not an empty one")
    XCTAssertEqual(rows(run.stderr).count, 4, run.stderr)
    for name in ["the iTunes API", "Podcast Index", "fyyd", "gpodder.net"] {
      XCTAssertTrue(run.stderr.contains("podcast: \(name) did not answer"), run.stderr)
    }
  }

  func testA429IsAskedAgainOnceAfterItsRetryAfter() throws {
    directories.answer(
      LoopbackDirectories.Kind.podcastindex.searchPath, .podcastindex,
      with: .sequence([
        .tooManyRequests(retryAfter: 1), LoopbackDirectories.json(DirectoryAnswers.podcastIndex),
      ]))

    let run = try search(["freak show", "--directory", "podcastindex", "--json"])

    XCTAssertEqual(run.exitCode, 0, run.stderr)
    // Four feeds (one dead) of three shows: the m4a and mp3 feeds share a podcast:guid.
    XCTAssertEqual((try run.json() as? [[String: Any]])?.count, 3)
    let asked = directories.requests(to: .podcastindex)
    XCTAssertEqual(asked.count, 2)
    guard asked.count == 2 else { return }
    XCTAssertGreaterThanOrEqual(
      asked[1].received - asked[0].received, .seconds(1), "it waited as it was told")
  }

  func testA429TwiceIsNamedAndTheOthersStillPrint() throws {
    directories.answer(
      LoopbackDirectories.Kind.podcastindex.searchPath, .podcastindex,
      with: .tooManyRequests(retryAfter: 1))

    let run = try search(["freak show", "--directory", "apple,podcastindex"])

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertEqual(directories.requests(to: .podcastindex).count, 2, "asked again once only")
    XCTAssertTrue(
      run.stderr.hasPrefix("podcast: Podcast Index is rate-limiting requests (HTTP 429 from "),
      run.stderr)
    XCTAssertTrue(run.stderr.hasSuffix("try again in 1 s\n"), run.stderr)
    XCTAssertTrue(rows(run.stdout)[1].hasPrefix("1  Freak Show"), run.stdout)
  }

  func testARetryAfterLongerThanTenSecondsIsNotWaitedFor() throws {
    directories.answer(
      LoopbackDirectories.Kind.podcastindex.searchPath, .podcastindex,
      with: .tooManyRequests(retryAfter: 120))

    let run = try search(["freak show", "--directory", "podcastindex"])

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertEqual(directories.requests(to: .podcastindex).count, 1)
    XCTAssertTrue(run.stderr.contains("try again in 120 s"), run.stderr)
  }

  /// The fake checks the signature as the service does: right with the right secret (every
  /// other test), its 401 with a wrong one.
  func testAWrongSecretGetsTheServicesRefusalAndTheOthersStillPrint() throws {
    let run = try search(
      ["freak show", "--directory", "apple,podcastindex"],
      environment: ["PODCAST_INDEX_SECRET": "not-the-secret-7d1e"])

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertTrue(run.stderr.contains("Podcast Index refused the API key (HTTP 401"), run.stderr)
    XCTAssertTrue(run.stderr.contains("PODCAST_INDEX_KEY and PODCAST_INDEX_SECRET"), run.stderr)
    XCTAssertTrue(rows(run.stdout)[1].hasPrefix("1  Freak Show"), run.stdout)
    XCTAssertFalse(run.stdout.contains("podcastindex"), run.stdout)
  }

  func testPodcastIndexRequestsAreSignedAndNamePodcastAndItsVersion() throws {
    let run = try search(["freak show", "--directory", "podcastindex"])

    XCTAssertEqual(run.exitCode, 0, run.stderr)
    let request = try XCTUnwrap(directories.requests(to: .podcastindex).first)
    XCTAssertEqual(request.header("X-Auth-Key"), LoopbackDirectories.key)
    let version = try PodcastBinary.run(["--version"]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(request.header("User-Agent"), "podcast/\(version)")
    XCTAssertEqual(
      request.header("Authorization"),
      LoopbackDirectories.sha1sum(
        LoopbackDirectories.key + LoopbackDirectories.secret + (request.header("X-Auth-Date") ?? "")
      ))
  }

  /// Whatever happens (a refusal, a rate limit, a failure, a timeout, JSON), neither the
  /// secret nor an `Authorization` value sent appears in anything podcast prints.
  func testTheSecretAndTheSignatureNeverAppearInAnyOutput() throws {
    let wrongSecret = "wrong-secret-5b8e0c2a"
    var outputs: [String] = []
    func run(_ arguments: [String], _ environment: [String: String] = [:]) throws {
      let result = try search(arguments, environment: environment)
      outputs.append(result.stdout + result.stderr)
    }
    try run(["freak show", "--directory", "all", "--json"])
    try run(["freak show", "--directory", "all"], ["PODCAST_INDEX_SECRET": wrongSecret])
    directories.answer(
      LoopbackDirectories.Kind.podcastindex.searchPath, .podcastindex,
      with: .tooManyRequests(retryAfter: 0))
    try run(["freak show", "--directory", "podcastindex"])
    directories.answerSearch(.podcastindex, json: "<html>down</html>", status: 502)
    try run(["freak show", "--directory", "podcastindex", "--json"])
    directories.answer(
      LoopbackDirectories.Kind.podcastindex.searchPath, .podcastindex,
      with: LoopbackDirectories.json(DirectoryAnswers.podcastIndex).stalling(
        after: 0, seconds: nil))
    try run(["freak show", "--directory", "podcastindex", "--timeout", "0.5"])
    directories.answerSearch(
      .podcastindex,
      json: #"{"status":"false","description":"echo: \#(LoopbackDirectories.secret)"}"#,
      status: 400)
    try run(["freak show", "--directory", "podcastindex"])

    let signatures = directories.requests(to: .podcastindex).compactMap {
      $0.header("Authorization")
    }
    XCTAssertGreaterThanOrEqual(signatures.count, 6)
    for output in outputs {
      XCTAssertFalse(output.contains(LoopbackDirectories.secret), output)
      XCTAssertFalse(output.contains(wrongSecret), output)
      for signature in signatures {
        XCTAssertFalse(output.contains(signature), output)
      }
    }
    XCTAssertTrue(outputs.last?.contains("echo: ****") == true, outputs.last ?? "")
  }
}
