import Foundation

/// A Podcasting 2.0 chapters file (`{"version": "1.2.0", "chapters": [{"startTime": 0,
/// "title": "Intro", "endTime": 95}]}`) as passages: each chapter's title at its start (and
/// its end where the file gives one), in time order. Times are numbers or strings holding
/// them; a chapter without a start, or an entry that is no object, is left out.
public enum ChaptersReader {
  /// More than any real episode has.
  public static let maxChapters = 5_000

  /// Every chapter with a title, hidden ones (`"toc": false`) too: their titles are still the
  /// episode's words, for the index to find.
  public static func passages(in data: Data) -> [Passage] {
    chapters(in: data).filter { !$0.passage.text.isEmpty }.map(\.passage)
  }

  /// The chapters a player lists: hidden ones (`"toc": false`, there for artwork changes) left
  /// out, untitled ones kept with an empty text (a place to seek to all the same).
  public static func tableOfContents(in data: Data) -> [Passage] {
    chapters(in: data).filter(\.listed).map(\.passage)
  }

  private static func chapters(in data: Data) -> [(passage: Passage, listed: Bool)] {
    let text = TranscriptReader.decode(data)
    guard let body = text.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
      let chapters = object["chapters"] as? [Any]
    else { return [] }
    let found = chapters.prefix(maxChapters).compactMap {
      value -> (passage: Passage, listed: Bool)? in
      guard let chapter = value as? [String: Any],
        let start = SegmentReader.seconds(chapter["startTime"])
      else { return nil }
      let title = (chapter["title"] as? String).map {
        IndexedText.clean(MarkupText.text($0, limit: 4096), keepingLines: false)
      }
      let end = SegmentReader.seconds(chapter["endTime"]).map { max($0, start) }
      return (
        Passage(start: start, end: end, text: title ?? ""), (chapter["toc"] as? Bool) != false
      )
    }
    return found.enumerated().sorted {
      ($0.element.passage.start ?? 0, $0.offset) < ($1.element.passage.start ?? 0, $1.offset)
    }.map(\.element)
  }
}
