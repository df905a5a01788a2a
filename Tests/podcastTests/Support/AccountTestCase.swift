import AccountServerTestSupport
import Foundation
import LoopbackServer
import XCTest

/// The base of the sync-account tests: feeds on the loopback server, and per API style a
/// fresh oPodSync, the phone (mygpoclient) and a library linked to the server. Every command's
/// output is kept, so each test ends by checking that the password shows in none of it, nor in
/// any file of the library but its database.
class AccountTestCase: LibraryTestCase {
  static let device = "podcast-box"
  private var started: [OPodSync] = []
  private var libraries: [String] = []
  private var outputs: [(arguments: [String], result: PodcastBinary.Result)] = []

  override func setUpWithError() throws {
    try super.setUpWithError()
    binary.environment["PODCAST_SYNC_PASSWORD"] = OPodSync.password
  }

  override func tearDownWithError() throws {
    for server in started { server.stop() }
    started = []
    for library in libraries { try? FileManager.default.removeItem(atPath: library) }
    try super.tearDownWithError()
  }

  /// Runs `body` once per API style, each with a server just started, its phone, and a fresh
  /// library linked to it; then checks that the password leaked nowhere.
  func inEachStyle(
    file: StaticString = #filePath, line: UInt = #line,
    _ body: (_ api: String, _ server: OPodSync, _ phone: AccountPhone) throws -> Void
  ) throws {
    for api in ["gpodder", "nextcloud"] {
      let server = try startServer()
      let phone = try AccountPhone(
        server: server.url, user: OPodSync.user, password: OPodSync.password)
      try freshLibrary()
      run(
        "account", "add", server.url, "--user", OPodSync.user, "--device", Self.device,
        "--api", api, file: file, line: line)
      do {
        try body(api, server, phone)
      } catch {
        XCTFail("\(api): \(error)\nserver log:\n\(server.log)", file: file, line: line)
      }
      assertPasswordNowhere(file: file, line: line)
    }
  }

  func startServer() throws -> OPodSync {
    let server = try OPodSync()
    started.append(server)
    return server
  }

  /// A new, empty library for the commands that follow.
  func freshLibrary() throws {
    libraries.append(binary.library)
    let environment = binary.environment
    binary = try PodcastBinary()
    binary.environment = environment.merging(
      ["PODCAST_LIBRARY": binary.library, "HOME": binary.library]) { $1 }
  }

  /// Runs podcast, keeps its output for the password check, and checks its exit status.
  @discardableResult
  func run(
    _ arguments: String..., status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line
  ) -> PodcastBinary.Result {
    run(arguments, status: status, file: file, line: line)
  }

  @discardableResult
  func run(
    _ arguments: [String], status: Int32 = 0, environment: [String: String] = [:],
    file: StaticString = #filePath, line: UInt = #line
  ) -> PodcastBinary.Result {
    var binary = binary!
    binary.environment.merge(environment) { $1 }
    do {
      let result = try binary.run(arguments, timeout: 120)
      record(arguments, result)
      XCTAssertEqual(
        result.status, status, "\(arguments): \(result.stderr)\n\(result.stdout)", file: file,
        line: line)
      return result
    } catch {
      XCTFail("\(arguments): \(error)", file: file, line: line)
      return PodcastBinary.Result(status: -1, stdout: "", stderr: "\(error)")
    }
  }

  func record(_ arguments: [String], _ result: PodcastBinary.Result) {
    outputs.append((arguments, result))
  }

  /// The library's subscriptions' feed URLs.
  func subscribedFeeds(file: StaticString = #filePath, line: UInt = #line) -> Set<String> {
    let listed = run("subscriptions", "--json", file: file, line: line)
    let entries = (try? listed.json() as? [[String: Any]]) ?? []
    return Set(entries.compactMap { $0["feedURL"] as? String })
  }

  /// `episodes NAME --json`'s episodes, by title.
  func listedEpisodes(_ name: String, file: StaticString = #filePath, line: UInt = #line)
    -> [String: [String: Any]]
  {
    let listed = run("episodes", name, "--json", file: file, line: line)
    let episodes = (try? listed.listedEpisodes(file: file, line: line)) ?? []
    return Dictionary(
      episodes.compactMap { episode in (episode["title"] as? String).map { ($0, episode) } },
      uniquingKeysWith: { first, _ in first })
  }

  /// The password in no command's output, and in no file of the libraries used but their
  /// databases (its one home).
  func assertPasswordNowhere(file: StaticString = #filePath, line: UInt = #line) {
    let password = OPodSync.password
    for (arguments, result) in outputs {
      XCTAssertFalse(
        result.stdout.contains(password), "the password in the output of \(arguments)",
        file: file, line: line)
      XCTAssertFalse(
        result.stderr.contains(password), "the password in the errors of \(arguments)",
        file: file, line: line)
    }
    for library in libraries + [binary.library] {
      let enumerator = FileManager.default.enumerator(atPath: library)
      while let path = enumerator?.nextObject() as? String {
        let name = (path as NSString).lastPathComponent
        if name.hasPrefix("library.sqlite") { continue }
        guard let data = FileManager.default.contents(atPath: library + "/" + path) else {
          continue
        }
        XCTAssertNil(
          data.range(of: Data(password.utf8)), "the password in \(library)/\(path)", file: file,
          line: line)
      }
    }
  }
}
