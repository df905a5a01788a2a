import Foundation

/// What the index holds of an episode's side files: its chapters and one transcript, read
/// from the files beside its audio. Of several transcripts (`--all-transcripts`) the one with
/// times is taken (WebVTT, then SRT, then JSON, then HTML, then text; the first of a kind).
public struct SideFileText: Sendable, Equatable {
  public var chapters: PassageText?
  public var transcript: PassageText?

  public init(chapters: PassageText? = nil, transcript: PassageText? = nil) {
    self.chapters = chapters
    self.transcript = transcript
  }

  /// The largest side file read; larger ones (16 MB is the most a download keeps) are left.
  public static let maxBytes = 16 << 20

  /// Reads `paths`, an episode's side files (`<name>.chapters.json`, `<name>.vtt`,
  /// `<name>.en.srt`...; an info file is left alone). One that cannot be read counts as none.
  public static func read(sideFiles paths: [String]) -> SideFileText {
    var text = SideFileText()
    let chapters = paths.first { $0.hasSuffix(".chapters.json") }
    if let chapters, let data = contents(chapters) {
      text.chapters = nonEmpty(PassageText(ChaptersReader.passages(in: data)))
    }
    let order: [String] = ["vtt", "srt", "json", "html", "htm", "txt"]
    let transcripts = paths.filter { path in
      !path.hasSuffix(".chapters.json") && !path.hasSuffix(".info.json")
        && order.contains((path as NSString).pathExtension.lowercased())
    }
    let ranked = transcripts.enumerated().sorted { a, b in
      let rankA = order.firstIndex(of: (a.element as NSString).pathExtension.lowercased()) ?? 9
      let rankB = order.firstIndex(of: (b.element as NSString).pathExtension.lowercased()) ?? 9
      return (rankA, a.offset) < (rankB, b.offset)
    }
    for (_, path) in ranked {
      guard let data = contents(path) else { continue }
      let passages = TranscriptReader.passages(
        in: data, fileExtension: (path as NSString).pathExtension)
      if let found = nonEmpty(PassageText(passages)) {
        text.transcript = found
        break
      }
    }
    return text
  }

  /// What tells whether `paths` changed since they were read: a hash of each one's name, size
  /// and modification time (nil when none of them is there).
  public static func signature(of paths: [String]) -> Int64? {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var any = false
    func add(_ text: String) {
      for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
      hash ^= 0xFF
      hash = hash &* 0x100_0000_01b3
    }
    for path in paths.sorted() {
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
        continue
      }
      any = true
      add(path)
      add(String(describing: attributes[.size] ?? 0))
      let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
      add(String(modified))
    }
    return any ? Int64(bitPattern: hash) : nil
  }

  private static func contents(_ path: String) -> Data? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let size = attributes[.size] as? Int, size <= maxBytes
    else { return nil }
    return FileManager.default.contents(atPath: path)
  }

  private static func nonEmpty(_ text: PassageText) -> PassageText? {
    text.isEmpty ? nil : text
  }
}
