import Fetching
import Foundation
import Synchronization

/// Partial files synced while their bodies arrive, each synced length then recorded in the
/// download's row (`durableBytes`, a durable write): after a power cut, a resume starts from
/// the last one instead of from byte 0, since nothing unsynced is trusted after a reboot (see
/// `DownloadRecord.trustedPartialLength`).
///
/// A checkpoint is due every `PartialFile.writebackStep` (8 MiB) of a body, when writeback of
/// that stretch was started anyway, and every `interval` while bytes arrive slower than that:
/// a cut costs at most 8 MiB or a few seconds of transfer more than the bytes since. The syncs
/// and the records happen here, on a thread of their own, never on the transfer thread, which
/// only asks (`request`): a checkpoint asked for while one of the same file waits is the same
/// one, taken later, so a disk slower than the network makes them rarer, not queued up.
///
/// 8 MiB, measured: the 1 GiB download over loopback (`make bench`'s section 2) ran at the
/// same speed with them as without, within the spread of rounds on a shared machine.
package final class Checkpoints: Sendable {
  package static let shared = Checkpoints()

  /// The longest a body arriving slowly goes without a checkpoint.
  package static let interval: Duration = .seconds(4)

  /// One download's partial file and row.
  package struct Subject: @unchecked Sendable {
    package let file: PartialFile
    package let row: DownloadRow

    package init(file: PartialFile, row: DownloadRow) {
      self.file = file
      self.row = row
    }
  }

  private struct State {
    var waiting: [ObjectIdentifier: Subject] = [:]
    var running = false
  }

  private let state = Mutex(State())

  /// Asks for a checkpoint of `subject`'s file; returns at once.
  package func request(_ subject: Subject) {
    let starts = state.withLock { state in
      state.waiting[ObjectIdentifier(subject.file)] = subject
      if state.running { return false }
      state.running = true
      return true
    }
    if starts { Thread.detachNewThread { self.run() } }
  }

  /// Checkpoints until nobody waits.
  private func run() {
    while true {
      let next = state.withLock { state -> Subject? in
        guard let (key, subject) = state.waiting.first else {
          state.running = false
          return nil
        }
        state.waiting[key] = nil
        return subject
      }
      guard let next else { return }
      Self.checkpoint(next)
    }
  }

  /// Syncs the file, then records the length measured before the sync. A failed sync or
  /// record leaves the row as it was: the download goes on, vouching for less.
  static func checkpoint(_ subject: Subject) {
    let synced = subject.file.synced
    let mark = synced.mark()
    guard mark.length > synced.claimed, subject.file.syncData() else { return }
    _ = try? synced.record(mark) { try subject.row.recordDurable($0) }
  }
}
