import XCTest

/// A printed seed is only worth something if it repeats the run.
final class SeededGeneratorTests: XCTestCase {
  func testTheSameSeedGivesTheSameKillMoments() {
    var first = SeededGenerator(seed: 42)
    var second = SeededGenerator(seed: 42)
    var other = SeededGenerator(seed: 43)
    let a = (0..<20).map { _ in UInt32.random(in: 50_000...700_000, using: &first) }
    let b = (0..<20).map { _ in UInt32.random(in: 50_000...700_000, using: &second) }
    let c = (0..<20).map { _ in UInt32.random(in: 50_000...700_000, using: &other) }
    XCTAssertEqual(a, b)
    XCTAssertNotEqual(a, c)
  }
}
