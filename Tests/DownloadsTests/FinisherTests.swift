import Downloads
import XCTest

/// Where a finished episode goes: under the Episodes directory and nowhere else, with the
/// folders its finish syncs, and a number when its name is taken.
final class FinisherTests: XCTestCase {
  func testFinisherRefusesPathsOutsideTheEpisodesDirectory() {
    XCTAssertThrowsError(
      try Finisher.safeTarget(episodesDirectory: "/tmp/E", relativePath: "../x.mp3"))
    XCTAssertThrowsError(
      try Finisher.safeTarget(episodesDirectory: "/tmp/E", relativePath: "a/../../x.mp3"))
    XCTAssertEqual(
      try Finisher.safeTarget(episodesDirectory: "/tmp/E", relativePath: "a/x.mp3"),
      "/tmp/E/a/x.mp3")
    XCTAssertThrowsError(try Finisher.safeTarget(episodesDirectory: "/tmp/E", relativePath: "./"))
  }

  /// The target is the standardized root and the name's parts, nothing in them rewritten.
  func testTheTargetJoinsTheStandardizedRootAndTheParts() throws {
    let cases: [(root: String, relative: String, target: String)] = [
      ("/tmp/E/", "Show/./a//b.mp3", "/tmp/E/Show/a/b.mp3"),
      ("/tmp/x/../E/.", "Show/a.mp3", "/tmp/E/Show/a.mp3"),
      ("/tmp/E", "Show/100%20 ~me: a..b.mp3", "/tmp/E/Show/100%20 ~me: a..b.mp3"),
      ("/", "Show/a.mp3", "/Show/a.mp3"),
    ]
    for (root, relative, target) in cases {
      XCTAssertEqual(
        try Finisher.safeTarget(episodesDirectory: root, relativePath: relative), target)
    }
  }

  /// The folders a finish syncs for a new name: the episode's folder and every one above it
  /// up to the Episodes directory, so a podcast folder made for it survives a power cut too.
  func testADestinationNamesEveryFolderUpToTheEpisodesDirectory() throws {
    let cases: [(root: String, relative: String, folders: [String])] = [
      ("/tmp/E", "Show/a.mp3", ["/tmp/E/Show", "/tmp/E"]),
      ("/tmp/E/", "Show/Season 1/a.mp3", ["/tmp/E/Show/Season 1", "/tmp/E/Show", "/tmp/E"]),
      ("/tmp/E", "a.mp3", ["/tmp/E"]),
      ("/", "Show/a.mp3", ["/Show", "/"]),
    ]
    for (root, relative, folders) in cases {
      let destination = try Finisher.Destination(episodesDirectory: root, relativePath: relative)
      XCTAssertEqual(destination.folders, folders, relative)
      XCTAssertEqual(destination.folders.first, destination.directory, relative)
    }
  }

  func testDuplicateNamesGetANumber() {
    XCTAssertEqual(
      Array(Finisher.candidates(for: "/E/a.mp3").prefix(3)),
      ["/E/a.mp3", "/E/a (2).mp3", "/E/a (3).mp3"])
  }
}
