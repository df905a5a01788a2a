import Foundation

/// A Podcasting 2.0 chapters file (`{"version": "1.2.0", "chapters": [{"startTime": 0,
/// "title": "Intro"}]}`) as passages: each chapter's title at its start, in time order.
/// Chapters without a title are left out; hidden ones (`"toc": false`) are kept, as their
/// titles are still the episode's words.
public enum ChaptersReader {
  /// More than any real episode has.
  public static let maxChapters = 5_000

  public static func passages(in data: Data) -> [Passage] {
    let text = TranscriptReader.decode(data)
    guard let body = text.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
      let chapters = object["chapters"] as? [Any]
    else { return [] }
    let passages = chapters.prefix(maxChapters).compactMap { value -> Passage? in
      guard let chapter = value as? [String: Any],
        let title = chapter["title"] as? String,
        let start = SegmentReader.seconds(chapter["startTime"])
      else { return nil }
      let cleaned = IndexedText.clean(MarkupText.text(title, limit: 4096), keepingLines: false)
      return cleaned.isEmpty ? nil : Passage(start: start, text: cleaned)
    }
    return passages.enumerated().sorted {
      ($0.element.start ?? 0, $0.offset) < ($1.element.start ?? 0, $1.offset)
    }.map(\.element)
  }
}
