import Basics
import Downloads
import SideFiles

/// `sync --playlist FILE`: the episodes one run downloaded, newest first, leaving out those
/// the same run pruned again.
package struct FetchedPlaylist {
  package let entries: [Playlist.Entry]

  package init(_ results: [DownloadResult], pruned: [String]) {
    let gone = Set(pruned)
    let fetched = results.compactMap { result -> (DownloadResult.Summary, String)? in
      guard case .downloaded(let file, _, _) = result.outcome, !gone.contains(file) else {
        return nil
      }
      return (result.job, file)
    }.sorted { first, second in
      // Same day: by path, so the order never depends on which download finished first.
      let (a, b) = (first.0.published ?? .distantPast, second.0.published ?? .distantPast)
      return a != b ? a > b : first.1 < second.1
    }
    entries = fetched.map { job, file in
      Playlist.Entry(
        file: file, title: [job.podcastTitle, job.title].compactMap { $0 }.joined(separator: " - "))
    }
  }

  package func write(to path: String) throws {
    try Playlist(entries: entries).write(to: path)
  }
}
