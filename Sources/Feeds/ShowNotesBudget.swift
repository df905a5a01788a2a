import Basics

/// The show notes a feed read as several documents (a paged feed's pages) keeps in memory.
/// One document's parser moves what is past `FeedBuilder.inlineNotesLimit` to a spool file,
/// but each page is a document of its own, well under the limit: across pages the notes are
/// counted here, and those past the limit go to one spool for the whole feed, so a
/// 20,000-episode feed costs about the same memory on 200 pages as in one document.
package struct ShowNotesBudget {
  private var inlineBytes = 0
  private var spool: ShowNotesSpool?
  private var spoolFailed = false

  package init() {}

  /// Counts `episode`'s notes kept in memory; past the limit, moves them to the spool (when
  /// one can be made: else they stay in memory, as a single document's do).
  package mutating func account(_ episode: inout Episode) {
    guard let notes = episode.showNotes, let count = notes.inlineCount else { return }
    if inlineBytes + count > FeedBuilder.inlineNotesLimit && !spoolFailed {
      if spool == nil { spool = ShowNotesSpool() }
      if let spool, let moved = notes.spooled(into: spool) {
        episode.showNotes = moved
        return
      }
      spoolFailed = true
    }
    inlineBytes += count
  }
}
