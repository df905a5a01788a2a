import Basics
import Fetching
import Foundation
import Synchronization

/// Live progress for `podcast status` in other processes: once a second, each running
/// download's bytes (from the progress buffer) go to its row. One timer for a manager's
/// downloads rather than a sleeping task for each, whose timer, made and cancelled, costs a
/// small episode as much as its transfer. Once a second keeps the database out of the
/// transfers' way.
final class ProgressNotes: Sendable {
  private let progress: ProgressBuffer
  private let rows = Mutex<[String: DownloadRow]>([:])

  init(progress: ProgressBuffer) {
    self.progress = progress
  }

  /// Notes progress until cancelled.
  func run() async {
    // A cancelled sleep ends at once: the loop must not note once more after it.
    while (try? await Task.sleep(for: .seconds(1))) != nil {
      for (url, row) in rows.withLock({ $0 }) {
        if let entry = progress.entry(for: url), entry.state == .downloading {
          row.noteProgress(bytes: entry.bytes)
        }
      }
    }
  }

  /// The download from `url` is running, its notes going to `row`.
  func add(_ url: String, row: DownloadRow) {
    rows.withLock { $0[url] = row }
  }

  /// Its transfer is over: no note of it is written once this returns.
  func remove(_ url: String, row: DownloadRow) {
    rows.withLock { $0[url] = nil }
    row.stopNotes()
  }
}
