import Basics
import Foundation
import XCTest

/// The path arithmetic done on bytes gives what `URL` and `NSString` give, for the paths the
/// library makes and for the odd ones it hands back to them.
final class StandardPathTests: XCTestCase {
  private let paths = [
    "/a/b/c.mp3", "/a/b/.hidden", "/a/b/a.", "/a/b/a.b.c", "/a", "/", "/a/b/c", "/a/b/c..mp3",
    "/a/b.d/c", "rel/x.y", "x.y", "/a/b/ c.mp3", "/a//b/c.mp3", "/a/b/", "/a/./b", "/a/../b",
    "/a/b/..", "", "/Episodes/Ça va/2024-05-01 Épisode.m4a", "/a/.../b", "/a/..b/c",
  ]

  func testTheStandardFormIsURLs() {
    for path in paths where !path.isEmpty {
      XCTAssertEqual(
        StandardPath.of(path), URL(fileURLWithPath: path).standardizedFileURL.path, path)
    }
  }

  func testThePartsAreNSStrings() {
    for path in paths {
      let text = path as NSString
      XCTAssertEqual(StandardPath.directory(of: path), text.deletingLastPathComponent, path)
      XCTAssertEqual(StandardPath.lastComponent(of: path), text.lastPathComponent, path)
      XCTAssertEqual(StandardPath.pathExtension(of: path), text.pathExtension, path)
      XCTAssertEqual(StandardPath.withoutExtension(of: path), text.deletingPathExtension, path)
    }
  }
}
