import Foundation
import XCTest

/// What `--help` and `man podcast` tell a newcomer: the same exit codes, environment variables
/// and config keys as the README, paragraphs that read as sentences, where `--library` may
/// stand, and the command meant when one is mistyped.
final class HelpAndManualTests: XCTestCase {
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardizedFileURL.path

  private func file(_ path: String) throws -> String {
    try String(contentsOfFile: root + "/" + path, encoding: .utf8)
  }

  /// README.md's section `heading`, up to the next heading.
  private func section(_ heading: String, of text: String) throws -> Substring {
    let start = try XCTUnwrap(text.range(of: heading + "\n"), heading).upperBound
    let rest = text[start...]
    let end = rest.range(of: "\n#")?.lowerBound ?? rest.endIndex
    return rest[..<end]
  }

  /// The man page's section `name` (its `.Sh` line), up to the next one.
  private func manSection(_ name: String, of page: String) throws -> [Substring] {
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try XCTUnwrap(lines.firstIndex { $0 == ".Sh \(name)" }, name)
    let rest = lines[(start + 1)...]
    return Array(rest.prefix { !$0.hasPrefix(".Sh ") })
  }

  /// The names a man page's `.It` lines give with `macro` (`.It Ev A , Ev B`: A and B).
  private func items(_ lines: [Substring], _ macro: String) -> Set<String> {
    Set(
      lines.filter { $0.hasPrefix(".It ") }.flatMap { line in
        line.split(separator: " ").indices.compactMap { index -> String? in
          let words = line.split(separator: " ")
          return words[index] == macro && index + 1 < words.count ? String(words[index + 1]) : nil
        }
      })
  }

  private func codeSpans(_ text: Substring) -> [String] {
    text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }

  func testTheManPageAndTheReadmeAgreeOnExitCodesEnvironmentAndTheConfigFile() throws {
    let readme = try file("README.md")
    let page = try file("Packaging/podcast.1.sections")

    let readmeCodes = Set(
      codeSpans(try section("### Exit codes", of: readme)).filter { Int($0) != nil })
    XCTAssertEqual(readmeCodes, ["0", "1", "64", "75", "130"])
    let manCodes = Set(
      try manSection("\"EXIT STATUS\"", of: page).filter { $0.hasPrefix(".It ") }.map {
        String($0.dropFirst(4))
      })
    XCTAssertEqual(manCodes, readmeCodes, "EXIT STATUS lists the README's codes")

    let environment = try section("### Environment", of: readme).split(separator: "\n")
      .filter { $0.hasPrefix("| `") }
      .flatMap { codeSpans($0.split(separator: "|")[0]) }
    XCTAssertTrue(environment.contains("PODCAST_LIBRARY"), "\(environment)")
    XCTAssertEqual(items(try manSection("ENVIRONMENT", of: page), "Ev"), Set(environment))

    let keyTable = try section("### Defaults in a file", of: readme).split(separator: "\n")
      .filter { $0.hasPrefix("| `") }
      .flatMap { codeSpans($0.split(separator: "|")[0]) }
    XCTAssertTrue(keyTable.contains("first"), "\(keyTable)")
    XCTAssertEqual(items(try manSection("CONFIGURATION", of: page), "Li"), Set(keyTable))
    let files = try manSection("FILES", of: page).joined(separator: "\n")
    XCTAssertTrue(files.contains("$XDG_CONFIG_HOME/podcast/config.toml"), files)
    XCTAssertTrue(files.contains("~/.config/podcast/config.toml"), files)
    XCTAssertTrue(
      readme.contains(
        "`$XDG_CONFIG_HOME/podcast/config.toml` (else `~/.config/podcast/config.toml`)"))
  }

  /// `make build` completes the generated page with Packaging/podcast.1.sections: the
  /// generated "0 on success, >0 on error" goes, what follows it stays, and the page renders
  /// without a warning.
  func testTheManPageGetsItsSectionsInPlaceOfTheGeneratedExitStatus() throws {
    let plan = try ExternalTool.run("make", ["-n", "build"], in: root)
    XCTAssertTrue(
      plan.contains("bash Scripts/manpage.sh .build-manual/podcast.1 Packaging/podcast.1.sections"),
      plan)

    let work = NSTemporaryDirectory() + "manpage-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    // The shape generate-manual writes (swift-argument-parser 1.x).
    let generated = """
      .Dd November 28, 2026
      .Dt PODCAST 1
      .Os
      .Sh NAME
      .Nm podcast
      .Nd "Find, list and download podcasts from the command line."
      .Sh DESCRIPTION
      Examples:
      .Sh "EXIT STATUS"
      .Ex -std
      .Sh AUTHORS
      Someone.

      """
    try generated.write(toFile: work + "/podcast.1", atomically: true, encoding: .utf8)
    _ = try ExternalTool.run(
      "bash", ["Scripts/manpage.sh", work + "/podcast.1", "Packaging/podcast.1.sections"],
      in: root)
    let page = try String(contentsOfFile: work + "/podcast.1", encoding: .utf8)
    let headings = page.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }
    XCTAssertEqual(
      headings,
      [
        ".Sh NAME", ".Sh DESCRIPTION", ".Sh ENVIRONMENT", ".Sh FILES", ".Sh CONFIGURATION",
        ".Sh \"EXIT STATUS\"", ".Sh AUTHORS",
      ])
    XCTAssertFalse(page.contains(".Ex -std"), page)
    XCTAssertFalse(page.contains(".\\\""), "the sections file's own comments stay out")
    XCTAssertTrue(page.contains("Someone."))

    if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
      let warnings = try ExternalTool.run(
        "sh", ["-c", "groff -mandoc -Tutf8 -ww -z \"$0\" 2>&1", work + "/podcast.1"], in: root)
      XCTAssertEqual(warnings, "", "groff reads the page without a warning")
    }
  }

  /// Each paragraph of every command's help is one line of text: argument-parser wraps it to
  /// the terminal; a line break inside a sentence shows as a ragged break.
  func testNoHelpParagraphIsBrokenMidSentence() throws {
    let dump = try PodcastBinary.run(["--experimental-dump-help"])
    let root = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])?[
        "command"] as? [String: Any])
    var broken: [String] = []
    func check(_ text: Any?, _ place: String) {
      guard let text = text as? String else { return }
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      for (line, next) in zip(lines, lines.dropFirst())
      where !line.isEmpty && !next.isEmpty && !line.hasPrefix("  ") && !next.hasPrefix("  ")
        && !(line.last.map { ".:!?)".contains($0) } ?? true)
      {
        broken.append("\(place): \"…\(line.suffix(30))\" / \"\(next.prefix(30))…\"")
      }
      for line in lines where !line.hasPrefix("  ") && line.contains("   ") {
        broken.append("\(place): a run of spaces in \"\(line)\"")
      }
    }
    func walk(_ command: [String: Any], _ path: String) {
      check(command["abstract"], path)
      check(command["discussion"], path)
      for case let argument as [String: Any] in command["arguments"] as? [Any] ?? [] {
        check(argument["abstract"], path + " " + (argument["valueName"] as? String ?? ""))
        check(argument["discussion"], path + " " + (argument["valueName"] as? String ?? ""))
      }
      for case let sub as [String: Any] in command["subcommands"] as? [Any] ?? [] {
        walk(sub, path + " " + (sub["commandName"] as? String ?? ""))
      }
    }
    walk(root, "podcast")
    XCTAssertEqual(broken, [], broken.joined(separator: "\n"))
  }

  func testTheTopLevelHelpSaysWhereTheLibraryOptionsMayStand() throws {
    let help = try PodcastBinary.run(["--help"])
    XCTAssertEqual(help.status, 0)
    XCTAssertTrue(help.stdout.contains("podcast --library ~/Pods sync"), help.stdout)
    XCTAssertTrue(
      help.stdout.replacingOccurrences(of: "\n", with: " ").contains(
        "--library DIR and --episodes-dir DIR go before or after the command name"), help.stdout)
    XCTAssertTrue(help.stdout.contains("man podcast"), help.stdout)
  }

  /// A word one or two keystrokes from a command is a usage error naming the command meant,
  /// at the top and under `account`; a word near none is argument-parser's to refuse.
  func testAMistypedCommandSaysWhichOneWasMeant() throws {
    for (arguments, typo, meant, usage) in [
      (["sycn"], "sycn", "sync", "See 'podcast --help'"),
      (["subscriptoins", "--json"], "subscriptoins", "subscriptions", "See 'podcast --help'"),
      (
        ["--library", "/tmp/nowhere", "epsiodes", "x"], "epsiodes", "episodes",
        "See 'podcast --help'"
      ),
      (["account", "ad", "https://x"], "ad", "add", "See 'podcast account --help'"),
    ] {
      let run = try PodcastBinary.run(arguments)
      XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
      XCTAssertTrue(
        run.stderr.contains("Unknown command '\(typo)'. Did you mean '\(meant)'?"),
        "\(arguments): \(run.stderr)")
      XCTAssertTrue(run.stderr.contains(usage), run.stderr)
      XCTAssertEqual(run.stdout, "")
    }
    let far = try PodcastBinary.run(["frobnicate"])
    XCTAssertEqual(far.status, 64)
    XCTAssertFalse(far.stderr.contains("Did you mean"), far.stderr)
    XCTAssertTrue(far.stderr.contains("'frobnicate'"), far.stderr)
  }
}
