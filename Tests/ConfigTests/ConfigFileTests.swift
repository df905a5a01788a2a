import Config
import XCTest

/// config.toml read into the flags it gives defaults for: every documented key with every
/// documented form of its value, one rule for numbers, and each mistake as one line naming
/// the file, the line and the key.
final class ConfigFileTests: XCTestCase {
  private let commands: Set = [
    "search", "episodes", "download", "sync", "subscribe", "subscriptions", "set",
  ]

  private func file(_ text: String) throws -> ConfigFile {
    try ConfigFile(path: "/c.toml", text: text, commands: commands, home: "/home/ada")
  }

  private func error(_ text: String) -> String {
    do {
      _ = try file(text)
      return "(accepted)"
    } catch {
      return String(describing: error)
    }
  }

  /// Each value the README documents gives each command the key is for exactly the words its
  /// flag would take; a switch set to false gives none.
  func testEveryDocumentedKeyTakesEveryDocumentedFormOfItsValue() throws {
    let documented = try DocumentedKeys.load()
    XCTAssertEqual(
      Set(documented.rows.flatMap(\.keys)), Set(ConfigFile.keys),
      "README.md's table names every key a file may set, and no other")
    for row in documented.rows {
      XCTAssertFalse(row.values.isEmpty, "\(row.keys): no value documented")
      for key in row.keys {
        let takers = commands.filter { ConfigFile.keys(for: $0).contains(key) }
        if row.commands.hasPrefix("every command") {
          XCTAssertEqual(takers, [], "\(key) is read by the library, no command's flag")
        } else {
          XCTAssertEqual(
            takers,
            Set(
              row.commands.split(separator: "(")[0].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
              }), "\(key): the commands README.md names")
        }
        for value in row.values {
          let config = try file("\(key) = \(value)\n")
          let text = Self.text(of: value)
          if takers.isEmpty {
            let expected =
              key == "timeout"
              ? text
              : text.replacingOccurrences(
                of: "~", with: "/home/ada")
            XCTAssertEqual(config.libraryValue(key), expected, "\(key) = \(value)")
          }
          for command in takers where value.hasPrefix("[") {
            // A list is read by its command itself: it gives no words.
            XCTAssertEqual(config.arguments(for: command, given: []), [], "\(key) = \(value)")
            XCTAssertEqual(
              config.strings(of: key, for: command),
              value.dropFirst().dropLast().split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""])
              }, "\(key) = \(value)")
          }
          for command in takers where !value.hasPrefix("[") {
            let words = value == "false" ? [] : value == "true" ? ["--\(key)"] : ["--\(key)", text]
            XCTAssertEqual(
              config.arguments(for: command, given: []), words, "\(key) = \(value) for \(command)")
          }
        }
      }
    }
  }

  /// A TOML literal's text: a string's contents, a number's digits.
  private static func text(of value: String) -> String {
    value.hasPrefix("\"") ? String(value.dropFirst().dropLast()) : value
  }

  func testANumberIsANumberWhetherWrittenAsOneOrAsAString() throws {
    let config = try file(
      """
      timeout = "45"
      keep = "5"
      first = 2

      [episodes]
      limit = " 20 "
      """)
    XCTAssertEqual(config.libraryValue("timeout"), "45")
    XCTAssertEqual(config.number(of: "keep", for: "subscribe"), 5)
    XCTAssertEqual(config.text(of: "first", for: "subscribe"), "2")
    XCTAssertEqual(config.arguments(for: "episodes", given: []), ["--limit", "20"])
    XCTAssertEqual(config.arguments(for: "subscribe", given: []), ["--first", "2", "--keep", "5"])
  }

  func testASectionBeatsTheTopLevelAndAGivenFlagBeatsBoth() throws {
    let config = try file(
      """
      exclude = "trailer"
      limit-rate = "1M"
      write-feed = true

      [sync]
      limit-rate = "2M"
      """)
    XCTAssertEqual(
      config.arguments(for: "sync", given: []),
      ["--exclude", "trailer", "--limit-rate", "2M", "--write-feed"])
    XCTAssertEqual(
      config.arguments(for: "download", given: ["--limit-rate=5M", "--no-write-feed"]),
      ["--exclude", "trailer"])
    XCTAssertEqual(config.arguments(for: "episodes", given: ["--exclude", "x"]), [])
    XCTAssertEqual(config.arguments(for: "search", given: []), [], "no key is search's")
  }

  /// The wrong type or range says what the value must be, not something misleading.
  func testAValueOfTheWrongFormSaysWhatItMustBe() {
    let cases: [(String, String)] = [
      (
        "concurrency = 0",
        "/c.toml:1: concurrency: 0 is out of range; the value must be a whole number from 1 to 32"
      ),
      (
        "keep = \"five\"",
        "/c.toml:1: keep: \"five\" is not a number; the value must be a whole number of at least 1"
      ),
      (
        "limit = true",
        "/c.toml:1: limit: true is not a number; the value must be a whole number of at least 1"
      ),
      (
        "timeout = 0",
        "/c.toml:1: timeout: 0 is out of range; the value must be a whole number of seconds of at least 1"
      ),
      (
        "timeout = \"soon\"",
        "/c.toml:1: timeout: \"soon\" is not a number; the value must be a whole number of seconds of at least 1"
      ),
      ("quiet = \"yes\"", "/c.toml:1: quiet: the value must be true or false"),
      (
        "first = true",
        "/c.toml:1: first: the value must be a \"string\", not true, false or a list"
      ),
      ("library = 3", "/c.toml:1: library: the value must be a \"path\""),
    ]
    for (text, message) in cases {
      XCTAssertEqual(error(text), message, text)
    }
    XCTAssertTrue(
      error("first = \"some\"").hasPrefix("/c.toml:1: first: "), error("first = \"some\""))
    XCTAssertTrue(error("match = \"(\"").hasPrefix("/c.toml:1: match: "), error("match = \"(\""))
  }

  func testAMisplacedOrUnknownKeyNamesItsLine() {
    XCTAssertEqual(error("\n\ncolour = \"red\""), "/c.toml:3: colour: not a setting")
    XCTAssertEqual(
      error("[episodes]\nconcurrency = 2"),
      "/c.toml:2: concurrency: podcast episodes has no such option")
    XCTAssertEqual(
      error("[sync]\nlibrary = \"/x\""),
      "/c.toml:2: library: belongs at the top of the file, not in a section")
    XCTAssertEqual(
      error("[frobnicate]\nquiet = true"), "/c.toml:2: [frobnicate]: not a podcast command")
  }

  /// As in TOML, a table is opened once and a key set once in it.
  func testATableOpenedTwiceOrAKeySetTwiceIsAnError() {
    XCTAssertEqual(
      error("[sync]\nquiet = true\n\n[episodes]\nlimit = 2\n[sync]\nwait = true\n"),
      "/c.toml:6: [sync] is opened again (first on line 1); keep its keys under one")
    XCTAssertEqual(
      error("keep = 1\nkeep = 2"), "/c.toml:2: keep is set twice (first on line 1)")
    XCTAssertEqual(error("[sync]\nquiet = true\n[download]\n"), "(accepted)")
    XCTAssertEqual(error("quiet = true\n[sync]\nquiet = false\n"), "(accepted)")
  }

  func testTheReaderTakesCommentsQuotesEscapesAndDigitGroups() throws {
    let config = try file(
      #"""
      # a comment
      match = "a # not a comment"   # a comment
      exclude = 'C:\literal'
      name-template = "{title}\u00e9.{ext}"
      limit-rate = 1_048_576

      [ episodes ]
      limit = 2
      """#)
    XCTAssertEqual(
      config.arguments(for: "download", given: []),
      [
        "--exclude", #"C:\literal"#, "--limit-rate", "1048576", "--match", "a # not a comment",
        "--name-template", "{title}é.{ext}",
      ])
    XCTAssertEqual(
      config.arguments(for: "episodes", given: ["--match", "x"]).suffix(2), ["--limit", "2"])
    for broken in [
      "match = \"open", "= 1", "[sync", "[[sync]]", "limit = 1_", "x y = 1", "keep = 1.5",
    ] {
      XCTAssertTrue(error(broken).hasPrefix("/c.toml:1: "), "\(broken): \(error(broken))")
    }
  }

  func testTheFileIsFoundWhereXDGSaysElseInHome() {
    XCTAssertEqual(
      ConfigFile.location(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/home/ada"]),
      "/x/podcast/config.toml")
    XCTAssertEqual(
      ConfigFile.location(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/ada"]),
      "/home/ada/.config/podcast/config.toml",
      "a relative XDG_CONFIG_HOME is ignored, as the spec says")
    XCTAssertEqual(
      try ConfigFile.load(
        environment: ["XDG_CONFIG_HOME": "/nonexistent-\(UUID())"], commands: commands)?.path,
      nil, "no file, no defaults")
  }

  func testAFileThatIsNotTextIsOneLine() throws {
    let folder = NSTemporaryDirectory() + "config-" + UUID().uuidString
    try FileManager.default.createDirectory(
      atPath: folder + "/podcast", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data([0x6B, 0x3D, 0xFF, 0xFE]).write(
      to: URL(fileURLWithPath: folder + "/podcast/config.toml"))
    XCTAssertThrowsError(
      try ConfigFile.load(environment: ["XDG_CONFIG_HOME": folder], commands: commands)
    ) { error in
      XCTAssertEqual("\(error)", folder + "/podcast/config.toml: not UTF-8 text")
    }
  }
}
