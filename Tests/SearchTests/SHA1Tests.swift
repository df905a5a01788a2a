import Foundation
import Search
import XCTest

/// The SHA-1 that signs Podcast Index requests, against FIPS 180's examples and coreutils.
final class SHA1Tests: XCTestCase {
  func testTheStandardsExamples() {
    XCTAssertEqual(SHA1.hex(Array("".utf8)), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    XCTAssertEqual(SHA1.hex(Array("abc".utf8)), "a9993e364706816aba3e25717850c26c9cd0d89d")
    XCTAssertEqual(
      SHA1.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    XCTAssertEqual(
      SHA1.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
      "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  /// Every length around the 64-byte blocks and the 56-byte padding boundary, as coreutils'
  /// `sha1sum` hashes the same bytes.
  func testAgreesWithSha1sumAcrossBlockBoundaries() throws {
    let sha1sum = "/usr/bin/sha1sum"
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: sha1sum), "needs sha1sum")
    var generator = SystemRandomNumberGenerator()
    for length in [1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      XCTAssertEqual(SHA1.hex(bytes), try Self.sha1sum(bytes, tool: sha1sum), "\(length) bytes")
    }
  }

  private static func sha1sum(_ bytes: [UInt8], tool: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(bytes))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
  }
}
