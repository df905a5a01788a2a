import XCTest

/// `podcast search` rejects bad arguments as usage errors (exit 64) before any request: the
/// base URL points at a port nothing listens on, so a request would fail with exit 1 instead.
final class SearchValidationTests: XCTestCase {
  private let nowhere = ["PODCAST_ITUNES_URL": "http://127.0.0.1:9"]

  func testEmptyTermIsAUsageError() throws {
    let run = try PodcastBinary.run(["search", "  "], environment: nowhere)

    XCTAssertEqual(run.exitCode, 64)
    XCTAssertTrue(run.stderr.contains("search term is empty"), run.stderr)
    XCTAssertEqual(run.stdout, "")
  }

  func testMissingTermIsAUsageError() throws {
    let run = try PodcastBinary.run(["search"], environment: nowhere)

    XCTAssertEqual(run.exitCode, 64)
    XCTAssertTrue(run.stderr.contains("<term>"), run.stderr)
  }

  func testLimitOutOfRangeIsAUsageError() throws {
    for limit in ["0", "500", "-3"] {
      let run = try PodcastBinary.run(["search", "cars", "--limit=\(limit)"], environment: nowhere)

      XCTAssertEqual(run.exitCode, 64, limit)
      XCTAssertTrue(run.stderr.contains("--limit \(limit) is out of range"), run.stderr)
    }
  }

  func testLimitThatIsNotANumberIsAUsageError() throws {
    let run = try PodcastBinary.run(["search", "cars", "--limit", "ten"], environment: nowhere)

    XCTAssertEqual(run.exitCode, 64)
    XCTAssertTrue(run.stderr.contains("ten"), run.stderr)
  }

  func testCountryThatIsNotTwoLettersIsAUsageError() throws {
    for country in ["usa", "U", "1A"] {
      let run = try PodcastBinary.run(
        ["search", "cars", "--country", country], environment: nowhere)

      XCTAssertEqual(run.exitCode, 64, country)
      XCTAssertTrue(run.stderr.contains("--country '\(country)'"), run.stderr)
    }
  }

  func testBaseURLThatIsNotHTTPIsNamed() throws {
    let run = try PodcastBinary.run(
      ["search", "cars"], environment: ["PODCAST_ITUNES_URL": "ftp://x"])

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertEqual(
      run.stderr,
      "podcast: PODCAST_ITUNES_URL: the iTunes API base URL 'ftp://x' is not an http or https URL\n"
    )
  }
}
