import Foundation
import FullText

/// One chapter of an episode, as written into the file's tag.
public struct ChapterMark: Sendable, Hashable {
  /// Milliseconds from the start of the audio.
  public var start: UInt32
  /// Milliseconds; nil for "until the end of the audio".
  public var end: UInt32?
  public var title: String

  public init(start: UInt32, end: UInt32? = nil, title: String) {
    self.start = start
    self.end = end
    self.title = title
  }

  /// More than any real episode has; bounds the tag a hostile chapters file can make.
  package static let limit = 1000

  /// The chapters of a Podcasting 2.0 chapters file (`{"version": …, "chapters": [{"startTime":
  /// 0, "title": "Intro", "endTime": …}]}`) as the full-text index and the archive pages read
  /// it too (`ChaptersReader`), in time order. Chapters marked `"toc": false` are hidden by the
  /// spec and left out; a chapter without `endTime` lasts until the next one starts, the last
  /// one until `duration` (seconds) or, when nil, the end of the audio as the tagger measures
  /// it (better than a feed's rounded or stale `itunes:duration`). A file that holds no
  /// chapters gives none: the side-file step has said what is wrong with it.
  public static func marks(inChapters json: Data, duration: Int? = nil) -> [ChapterMark] {
    let listed = ChaptersReader.tableOfContents(in: json).prefix(limit)
    var marks = listed.compactMap { chapter -> ChapterMark? in
      guard let start = chapter.start.flatMap(milliseconds) else { return nil }
      let end = chapter.end.flatMap(milliseconds).flatMap { $0 > start ? $0 : nil }
      return ChapterMark(start: start, end: end, title: chapter.text)
    }
    let lastEnd = duration.flatMap { milliseconds(Double($0)) }
    for index in marks.indices where marks[index].end == nil {
      let next = index + 1 < marks.count ? marks[index + 1].start : lastEnd
      marks[index].end = next.flatMap { $0 > marks[index].start ? $0 : nil }
    }
    return marks
  }

  /// Seconds to milliseconds, nil when negative, not finite, or past what ID3 can hold.
  private static func milliseconds(_ seconds: Double) -> UInt32? {
    let value = (seconds * 1000).rounded()
    guard value.isFinite, value >= 0, value < Double(UInt32.max) else { return nil }
    return UInt32(value)
  }
}
