import Fetching
import Foundation

/// Partial files synced while their bodies arrive, each synced length then recorded in the
/// download's row (`durableBytes`, a durable write): after a power cut, a resume starts from
/// the last one instead of from byte 0, since nothing unsynced is trusted after a reboot (see
/// `DownloadRecord.trustedPartialLength`).
///
/// A checkpoint is due (`isDue`) once `PartialFile.writebackStep` (8 MiB) of a body came in
/// since the last one, but no sooner than `spacing` after it, and once `interval` passed with
/// anything new: a cut costs a resume at most 8 MiB or a second of transfer (4 s on a line
/// slower than 2 MiB/s) more than what came after it. The transfer thread asks at each
/// 8 MiB, as the writeback of that stretch is started anyway, and the download's task every
/// second; the syncs and the records happen here, on a thread of their own: a checkpoint
/// asked for while one of the same file waits is the same one, and one not due is dropped.
/// The spacing is what keeps a fast download fast: without it, every 8 MiB of a body arriving
/// at loopback speed would cost a sync of the file and a durable commit.
package final class Checkpoints: Sendable {
  package static let shared = Checkpoints()

  /// The longest a body arriving slowly goes without a checkpoint.
  package static let interval: Duration = .seconds(4)
  /// The shortest time between two checkpoints of a file: at loopback speed, 8 MiB arrive
  /// every few milliseconds.
  package static let spacing: Duration = .seconds(1)

  /// Whether a checkpoint of the file `synced` measures would be worth its sync now.
  package static func isDue(_ synced: DurableLength) -> Bool {
    let (unclaimed, elapsed, first) = synced.sinceCheckpoint
    guard unclaimed > 0 else { return false }
    return unclaimed >= PartialFile.writebackStep && (first || elapsed >= spacing)
      || elapsed >= interval
  }

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
    /// The file being checkpointed now.
    var current: ObjectIdentifier?
  }

  /// Guards `state`; signalled whenever a checkpoint ends (`withdraw` waits for one).
  private let condition = NSCondition()
  private nonisolated(unsafe) var state = State()

  /// Asks for a checkpoint of `subject`'s file; returns at once.
  package func request(_ subject: Subject) {
    condition.lock()
    state.waiting[ObjectIdentifier(subject.file)] = subject
    let starts = !state.running
    state.running = true
    condition.unlock()
    if starts { Thread.detachNewThread { self.run() } }
  }

  /// Forgets the checkpoint `file` waits for, and waits for one being made now: once this
  /// returns, nothing here holds the file, nor its lock. A download calls it as its transfer
  /// ends, so that the next attempt at the episode in this process can lock the file again.
  package func withdraw(_ file: PartialFile) {
    let id = ObjectIdentifier(file)
    condition.lock()
    state.waiting[id] = nil
    while state.current == id { condition.wait() }
    condition.unlock()
  }

  /// Checkpoints until nobody waits.
  private func run() {
    while checkpointNext() {
      condition.lock()
      state.current = nil
      condition.broadcast()
      condition.unlock()
    }
  }

  /// One checkpoint of a file that waits for one; false when none waits. The file is let go
  /// of before `withdraw` hears that it ended.
  private func checkpointNext() -> Bool {
    condition.lock()
    guard let (id, subject) = state.waiting.first else {
      state.running = false
      condition.unlock()
      return false
    }
    state.waiting[id] = nil
    state.current = id
    condition.unlock()
    Self.checkpoint(subject)
    return true
  }

  /// Syncs the file, then records the length measured before the sync, when one is due. A
  /// failed sync or record leaves the row as it was: the download goes on, vouching for less.
  static func checkpoint(_ subject: Subject) {
    let synced = subject.file.synced
    guard isDue(synced) else { return }
    let mark = synced.mark()
    guard mark.length > synced.claimed, subject.file.flushData() else { return }
    _ = try? synced.record(mark) { try subject.row.recordDurable($0) }
  }
}
