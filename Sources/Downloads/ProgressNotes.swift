import Basics
import Fetching
import Foundation
import Synchronization

/// Live progress for `podcast status` in other processes: once a second, each running
/// download's bytes (from the progress buffer) go to its row; and the checkpoint of a body
/// that arrives too slowly for its transfer thread to ask for one (see `Checkpoints`). One timer for a manager's
/// downloads rather than a sleeping task for each, whose timer, made and cancelled, costs a
/// small episode as much as its transfer. Once a second keeps the database out of the
/// transfers' way.
final class ProgressNotes: Sendable {
  private let progress: ProgressBuffer
  private let rows = Mutex<[String: Checkpoints.Subject]>([:])

  init(progress: ProgressBuffer) {
    self.progress = progress
  }

  /// Notes progress until cancelled.
  func run() async {
    // A cancelled sleep ends at once: the loop must not note once more after it.
    while (try? await Task.sleep(for: .seconds(1))) != nil {
      for (url, subject) in rows.withLock({ $0 }) {
        if let entry = progress.entry(for: url), entry.state == .downloading {
          subject.row.noteProgress(bytes: entry.bytes)
        }
        if Checkpoints.isDue(subject.file.synced) { Checkpoints.shared.request(subject) }
      }
    }
  }

  /// The download from `url` is running, its notes going to `checkpoints.row`.
  func add(_ url: String, checkpoints: Checkpoints.Subject) {
    rows.withLock { $0[url] = checkpoints }
  }

  /// Its transfer is over: no note of it is written once this returns.
  func remove(_ url: String, row: DownloadRow) {
    rows.withLock { $0[url] = nil }
    row.stopNotes()
  }
}
