import Foundation
import XCTest

/// Real audio made and read back by ffmpeg/ffprobe, so the binary's tags are checked by an
/// independent reader, as a player or media server would see them. `make test` installs
/// ffmpeg; without it these tests fail and say so, they never skip.
enum AudioTool {
  /// Two seconds of a tone encoded with `codec`; `ext` picks the container.
  static func tone(codec: String, ext: String) throws -> Data {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-tone-\(UUID().uuidString).\(ext)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try ExternalTool.run(
      "ffmpeg",
      ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", codec, path])
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  /// A 16×16 PNG.
  static func png() throws -> Data { try picture(ext: "png") }

  /// A 16×16 JPEG.
  static func jpeg() throws -> Data { try picture(ext: "jpg") }

  private static func picture(ext: String) throws -> Data {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-cover-\(UUID().uuidString).\(ext)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try ExternalTool.run(
      "ffmpeg",
      ["-v", "error", "-f", "lavfi", "-i", "color=c=blue:s=16x16", "-frames:v", "1", path])
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  /// The container's tags as ffprobe reads them, keys lowercased.
  static func tags(_ path: String) throws -> [String: String] {
    let probe = try self.probe(path)
    let format = probe["format"] as? [String: Any]
    let tags = format?["tags"] as? [String: String] ?? [:]
    return Dictionary(tags.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
  }

  /// The chapter titles ffprobe reads (ID3 CHAP frames for MP3), in order.
  static func chapterTitles(_ path: String) throws -> [String] {
    let json = try ExternalTool.run(
      "ffprobe", ["-v", "error", "-show_chapters", "-of", "json", path])
    let probe = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let chapters = probe?["chapters"] as? [[String: Any]] ?? []
    return chapters.compactMap { ($0["tags"] as? [String: String])?["title"] }
  }

  /// Whether the file carries an embedded picture (a stream ffprobe marks as attached_pic).
  static func hasCover(_ path: String) throws -> Bool {
    let streams = try probe(path)["streams"] as? [[String: Any]] ?? []
    return streams.contains { stream in
      (stream["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1
    }
  }

  /// MD5 of the audio packets as demuxed (no decoding): equal when the audio is untouched.
  static func audioMD5(_ path: String) throws -> String {
    try ExternalTool.run(
      "ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"]
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  static func audioMD5(of data: Data, ext: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-served-\(UUID().uuidString).\(ext)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try data.write(to: URL(fileURLWithPath: path))
    return try audioMD5(path)
  }

  private static func probe(_ path: String) throws -> [String: Any] {
    let json = try ExternalTool.run(
      "ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json", path])
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
  }
}
