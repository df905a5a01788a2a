import Basics
import Foundation
import Model
import Synchronization

/// Live progress of every download in this process, keyed by the episode's remote URL.
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

  private let entries = Mutex<[String: Entry]>([:])

  public init() {}

  public func snapshot() -> [String: Entry] {
    entries.withLock { $0 }
  }

  public func entry(for url: String) -> Entry? {
    entries.withLock { $0[url] }
  }

  /// Adds `url` as queued; false when it is already in the buffer (never download twice).
  @discardableResult
  public func enqueue(_ url: String, title: String?, podcast: String?) -> Bool {
    entries.withLock { entries in
      guard entries[url] == nil else { return false }
      entries[url] = Entry(
        state: .queued, bytes: 0, title: title, podcast: podcast, updated: Date())
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
    update(url) {
      $0.state = .done
      $0.bytes = bytes
      $0.total = bytes
    }
  }

  public func fail(_ url: String, state: DownloadState, error: String) {
    update(url) {
      $0.state = state
      $0.error = error
    }
  }

  private func update(_ url: String, _ change: (inout Entry) -> Void) {
    entries.withLock { entries in
      guard var entry = entries[url] else { return }
      change(&entry)
      entry.updated = Date()
      entries[url] = entry
    }
  }
}
