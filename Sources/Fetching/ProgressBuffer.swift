import Basics
import Foundation
import Model
import Synchronization

/// Live progress of the downloads in this process, keyed by the episode's remote URL, and
/// counts of those that ended.
///
/// Writers are the transfer callbacks (many times a second); readers are the progress bars and
/// the persister that copies it to the store. A mutex-protected dictionary is all it needs.
public final class ProgressBuffer: Sendable {
  public struct Entry: Sendable, Equatable {
    public var state: DownloadState
    public var bytes: Int64
    /// Unknown until the server says (or never, for servers that do not send a length).
    public var total: Int64?
    public var title: String?
    public var podcast: String?
    public var error: String?
    public var updated: Date
    /// Bytes already on disk when this run started (resumed), so speed counts only new bytes.
    public var startBytes: Int64 = 0
    public var started: Date?

    /// 0 when starting, 1 when done; nil when the total is unknown.
    public var fraction: Double? {
      if state == .done { return 1 }
      guard let total, total > 0 else { return nil }
      return min(1, Double(bytes) / Double(total))
    }
  }

  /// What the buffer says at one moment: the downloads queued or running, and how many
  /// ended (their entries go as they end, so a long run's buffer stays small).
  public struct Snapshot: Sendable {
    /// Queued or running, by remote URL.
    public var live: [String: Entry] = [:]
    /// Downloads that ended done.
    public var done = 0
    /// Every download the buffer had, live or ended.
    public var count = 0
    /// Bytes the ended downloads fetched in this run.
    public var endedBytes: Int64 = 0
  }

  private struct State {
    var snapshot = Snapshot()
    /// Every URL the buffer had: one is never downloaded twice.
    var known: Set<String> = []
  }

  private let state = Mutex(State())

  public init() {}

  public func snapshot() -> Snapshot {
    state.withLock { $0.snapshot }
  }

  public func entry(for url: String) -> Entry? {
    state.withLock { $0.snapshot.live[url] }
  }

  /// Adds `url` as queued; false when the buffer had it already (never download twice).
  @discardableResult
  public func enqueue(_ url: String, title: String?, podcast: String?) -> Bool {
    state.withLock { state in
      guard state.known.insert(url).inserted else { return false }
      state.snapshot.live[url] = Entry(
        state: .queued, bytes: 0, title: title, podcast: podcast, updated: Date())
      state.snapshot.count += 1
      return true
    }
  }

  public func start(_ url: String, resumingAt bytes: Int64, total: Int64?) {
    update(url) {
      $0.state = .downloading
      $0.bytes = bytes
      $0.startBytes = bytes
      $0.total = total
      $0.started = Date()
      $0.error = nil
    }
  }

  public func progress(_ url: String, bytes: Int64) {
    update(url) { $0.bytes = bytes }
  }

  public func finish(_ url: String, bytes: Int64) {
    end(url) {
      $0.state = .done
      $0.bytes = bytes
      $0.total = bytes
    }
  }

  public func fail(_ url: String, state: DownloadState, error: String) {
    end(url) {
      $0.state = state
      $0.error = error
    }
  }

  private func update(_ url: String, _ change: (inout Entry) -> Void) {
    state.withLock { state in
      guard var entry = state.snapshot.live[url] else { return }
      change(&entry)
      entry.updated = Date()
      state.snapshot.live[url] = entry
    }
  }

  /// The download ended: it leaves the live entries for the counts.
  private func end(_ url: String, _ change: (inout Entry) -> Void) {
    state.withLock { state in
      guard var entry = state.snapshot.live.removeValue(forKey: url) else { return }
      change(&entry)
      if entry.state == .done { state.snapshot.done += 1 }
      state.snapshot.endedBytes += max(0, entry.bytes - entry.startBytes)
    }
  }
}
