import Foundation
import XCTest

/// Every table shows a moment one way: local time (TZ) with its offset; JSON says UTC with Z.
final class TimeDisplayTests: LibraryTestCase {
  private func run(_ arguments: [String], timeZone: String) throws -> PodcastBinary.Result {
    var binary = self.binary!
    binary.environment["TZ"] = timeZone
    let result = try binary.run(arguments)
    XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
    return result
  }

  func testTablesShowLocalTimeWithItsOffsetAndJSONShowsUTC() throws {
    let show = Show("times", episodes: 1, on: server)
    try subscribe(show)
    _ = try run(["sync"], timeZone: "UTC")

    let pattern = #"\d{4}-\d\d-\d\d \d\d:\d\d \+05:30"#
    let status = try run(["status"], timeZone: "Asia/Kolkata").stdout
    XCTAssertNotNil(status.range(of: pattern, options: .regularExpression), status)
    let subscriptions = try run(["subscriptions"], timeZone: "Asia/Kolkata").stdout
    XCTAssertNotNil(subscriptions.range(of: pattern, options: .regularExpression), subscriptions)
    let utc = try run(["status"], timeZone: "UTC").stdout
    XCTAssertNotNil(utc.range(of: #"\d\d:\d\d \+00:00"#, options: .regularExpression), utc)

    let json = try run(["status", "--json"], timeZone: "Asia/Kolkata").stdout
    XCTAssertNotNil(
      json.range(of: #""updated": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ""#, options: .regularExpression),
      json)
  }

  func testTheEpisodeDateIsTheLocalDay() throws {
    // Published 2024-05-10 10:00 UTC: already 11 May at UTC+14.
    let url = FeedFixture.serve(FeedFixture.episodes(1, size: 10), on: server)
    let utc = try run(["episodes", url], timeZone: "UTC").stdout
    XCTAssertTrue(utc.contains("2024-05-10"), utc)
    let kiribati = try run(["episodes", url], timeZone: "Pacific/Kiritimati").stdout
    XCTAssertTrue(kiribati.contains("2024-05-11"), kiribati)
  }
}
