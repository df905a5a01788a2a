import Foundation
import FullText

/// A Podcasting 2.0 chapters file (`<episode>.chapters.json`) as the marks an archive page
/// can seek to. The file is read by the full-text index's `ChaptersReader`; the page lists
/// what a player lists (`"toc": false` chapters are for artwork changes) and names an
/// untitled chapter "Chapter".
package enum PageChapters {
  package struct Mark: Sendable, Equatable {
    package var start: Double
    package var title: String

    package init(start: Double, title: String) {
      self.start = start
      self.title = title
    }
  }

  /// The listed chapters in `data`, in time order; empty when it holds none.
  package static func marks(_ data: Data) -> [Mark] {
    ChaptersReader.tableOfContents(in: data).compactMap { chapter in
      chapter.start.map { Mark(start: $0, title: chapter.text.isEmpty ? "Chapter" : chapter.text) }
    }
  }
}
