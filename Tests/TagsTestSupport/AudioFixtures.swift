import Foundation
import XCTest

/// Real audio files made by ffmpeg at test time, in a directory removed with the fixture.
/// `make test` installs ffmpeg; without it these tests fail and say so, they never skip.
package final class AudioFixtures {
  package let directory: URL

  package init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-tag-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  package func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Two seconds of a 440 Hz tone encoded with `codec` into `name` (its extension picks the
  /// container); `extra` goes before the output name (e.g. `-metadata title=…`).
  @discardableResult
  package func tone(_ name: String, codec: String, extra: [String] = []) throws -> String {
    let output = path(name)
    try Self.run(
      "ffmpeg",
      ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", codec]
        + extra + [output])
    return output
  }

  /// A 16×16 picture; `name`'s extension picks JPEG or PNG.
  package func picture(_ name: String, color: String = "red") throws -> Data {
    let output = path(name)
    try Self.run(
      "ffmpeg",
      ["-v", "error", "-f", "lavfi", "-i", "color=c=\(color):s=16x16", "-frames:v", "1", output])
    return try Data(contentsOf: URL(fileURLWithPath: output))
  }

  /// The MD5 of the audio packets as ffmpeg demuxes them (no decoding): equal when the audio
  /// is untouched and the container still finds it.
  package static func audioPacketsMD5(_ path: String) throws -> String {
    let md5 = try run(
      "ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"]
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    guard md5.hasPrefix("MD5=") else { throw FixtureError("ffmpeg gave no MD5 for \(path)") }
    return md5
  }

  package static func isMPEGFrameStart(_ frames: Data) -> Bool {
    frames.count > 2 && frames[frames.startIndex] == 0xFF
      && frames[frames.startIndex + 1] & 0xE0 == 0xE0
  }

  /// ffprobe's view of the file: an independent reader, as a media server would see it.
  package static func probe(_ path: String) throws -> [String: Any] {
    let json = try run(
      "ffprobe", ["-v", "error", "-show_format", "-show_chapters", "-of", "json", path])
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
  }

  /// The bytes after a leading ID3v2 tag: the MP3's frames.
  package static func mp3Frames(_ path: String) throws -> Data {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    guard bytes.starts(with: Array("ID3".utf8)) else { return bytes }
    let size = bytes[bytes.startIndex + 6..<bytes.startIndex + 10].reduce(0) { $0 << 7 | Int($1) }
    let footer = bytes[bytes.startIndex + 5] & 0x10 != 0 ? 10 : 0
    return bytes.dropFirst(10 + size + footer)
  }

  /// The payload of the top-level `mdat` atom: an MP4's audio.
  package static func mp4MediaData(_ path: String) throws -> Data {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var offset = 0
    while offset + 8 <= bytes.count {
      var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      var header = 8
      if size == 1, offset + 16 <= bytes.count {
        size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
        header = 16
      } else if size == 0 {
        size = bytes.count - offset
      }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      guard size >= header, offset + size <= bytes.count else { break }
      if type == "mdat" { return Data(bytes[offset + header..<offset + size]) }
      offset += size
    }
    XCTFail("no mdat atom in \(path)")
    return Data()
  }

  /// Runs a tool from PATH and returns its stdout; a missing tool or a failure is an error.
  @discardableResult
  static func run(_ tool: String, _ arguments: [String]) throws -> String {
    guard let executable = find(tool) else {
      throw FixtureError(
        "\(tool) is not installed: the tag tests make real MP3/M4A/Opus files with it "
          + "(`make test` installs it, or `apt-get install ffmpeg`)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw FixtureError(
        "\(tool) \(arguments.joined(separator: " ")) failed: "
          + String(decoding: errors, as: UTF8.self))
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func find(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(tool)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

struct FixtureError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
