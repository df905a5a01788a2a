import Config
import XCTest

/// ~/.netrc as curl reads it: the first entry for the host (else `default`) whose login is
/// the user's, or that names none.
final class NetrcTests: XCTestCase {
  func testTheHostsEntryForTheUserElseTheDefault() {
    let text = """
      machine feeds.example.com login bob password bobs
      machine feeds.example.com login ada password adas
      default login ada password fallback
      """
    XCTAssertEqual(Netrc.password(in: text, host: "feeds.example.com", user: "ada"), "adas")
    XCTAssertEqual(Netrc.password(in: text, host: "FEEDS.example.COM", user: "bob"), "bobs")
    XCTAssertEqual(Netrc.password(in: text, host: "other.example.com", user: "ada"), "fallback")
    XCTAssertNil(Netrc.password(in: text, host: "other.example.com", user: "eve"))
  }

  func testTokensMaySpanLinesInAnyOrderAndAnEntryWithoutLoginFitsAnyone() {
    let text = "machine a.example\n\tpassword p1\n  login  ada\nmachine b.example password p2\n"
    XCTAssertEqual(Netrc.password(in: text, host: "a.example", user: "ada"), "p1")
    XCTAssertNil(Netrc.password(in: text, host: "a.example", user: "bob"))
    XCTAssertEqual(Netrc.password(in: text, host: "b.example", user: "anyone"), "p2")
  }

  /// A macro's body runs to the next empty line; words in it are not entries.
  func testAMacroBodyIsSkipped() {
    let text = """
      macdef init
      machine evil.example login ada password fromMacro

      machine evil.example login ada password real
      """
    XCTAssertEqual(Netrc.password(in: text, host: "evil.example", user: "ada"), "real")
  }

  func testTheFileIsReadFromHome() throws {
    let home = NSTemporaryDirectory() + "netrc-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    XCTAssertNil(Netrc.password(host: "h.example", user: "ada", home: home), "no file")
    try "machine h.example login ada password s3cret\n".write(
      toFile: home + "/.netrc", atomically: true, encoding: .utf8)
    XCTAssertEqual(Netrc.password(host: "h.example", user: "ada", home: home), "s3cret")
  }
}
