import Foundation
import Tags
import XCTest

/// The file's bytes decide the format: partial files have no useful name and feeds mislabel.
final class TagContentSnifferTests: XCTestCase {
  private let mpegFrame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0x55, count: 60)
  private let adtsFrame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80] + [UInt8](repeating: 0x55, count: 60)

  private func id3(padding: Int = 0) -> [UInt8] {
    // An empty ID3v2.4 tag declaring 16 bytes of (zero) padding.
    Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 16] + [UInt8](repeating: 0, count: 16 + padding)
  }

  private func kind(_ bytes: [UInt8]) throws -> ContentSniffer.Kind {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-sniff-\(UUID().uuidString).part")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data(bytes).write(to: url)
    return try ContentSniffer.kind(ofFileAt: url.path)
  }

  func testMP3FramesWithOrWithoutAnID3TagAreMP3() throws {
    XCTAssertEqual(try kind(mpegFrame), .audio(.mp3))
    XCTAssertEqual(try kind(id3() + mpegFrame), .audio(.mp3))
    XCTAssertEqual(try kind(id3(padding: 300) + mpegFrame), .audio(.mp3))
    XCTAssertEqual(try kind(id3() + id3(padding: 5) + mpegFrame), .audio(.mp3))
    XCTAssertEqual(try kind(Array(repeating: id3(), count: 5).joined() + mpegFrame), .other(nil))
  }

  func testAnID3TagInFrontOfAnotherFormatDoesNotMakeItMP3() throws {
    // AAC payload bytes that look like an MPEG header must not be searched for.
    let aac = adtsFrame + [0x12, 0xFF, 0xFB, 0x90, 0x64] + adtsFrame
    XCTAssertEqual(try kind(id3() + aac), .other("AAC (ADTS)"))
    XCTAssertEqual(try kind(id3() + Array("fLaC".utf8) + [0, 0, 0, 34]), .other("FLAC"))
    XCTAssertEqual(try kind(id3() + [0x12, 0xFF, 0xFB, 0x90, 0x64]), .other(nil))
  }

  func testOtherFormatsAreNamed() throws {
    XCTAssertEqual(try kind(adtsFrame), .other("AAC (ADTS)"))
    XCTAssertEqual(try kind(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)), .other("WAV"))
    XCTAssertEqual(try kind(Array("<!DOCTYPE html>".utf8)), .other(nil))
    XCTAssertEqual(try kind([]), .other(nil))
    // An Ogg stream of a codec other than Opus and Vorbis (here Speex).
    let ogg =
      Array("OggS".utf8) + [UInt8](repeating: 0, count: 22) + [1, 80] + Array("Speex   ".utf8)
    XCTAssertEqual(try kind(ogg), .other("Ogg"))
  }
}
