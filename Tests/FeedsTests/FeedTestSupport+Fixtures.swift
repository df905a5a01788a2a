import FeedsTestSupport
import Foundation
import XCTest

extension FeedTestSupport {
  /// A feed saved from a real host, in this target's Fixtures/Feeds.
  static func fixtureURL(_ name: String) throws -> URL {
    try XCTUnwrap(
      Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/Feeds"),
      "missing fixture \(name)")
  }
}
