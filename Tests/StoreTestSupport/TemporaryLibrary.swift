import Basics
import Foundation
import GRDB
import Model
import Store

/// A library in a fresh temporary directory, removed when the test ends.
package final class TemporaryLibrary {
  package let directory: URL
  package let paths: LibraryPaths

  package init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-store-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    paths = LibraryPaths(root: directory.path)
  }

  package func store() throws -> LibraryStore { try LibraryStore(paths: paths) }

  /// Runs `sql` on the library's database on a connection of its own, as something outside
  /// podcast would: to change the library under a store, or damage it.
  package func execute(_ sql: String) throws {
    try DatabaseQueue(path: paths.database).write { try $0.execute(sql: sql) }
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }
}

extension LibraryStore {
  /// Puts `record` in the library the way a download gets there: through its transitions
  /// (queue; then begin and progress; then pause, fail or finish, as its state says). A
  /// running one's owner is its `owner` (this process when nil). Only the clock is set
  /// directly, when `updatedAt` is given: a test cannot wait for days to pass, and no move
  /// sets it, so it is written through a connection of the test's own, opened by path (the
  /// `TemporaryLibrary`, which deletes the folder when it goes, must still be held).
  @discardableResult
  package func seed(_ record: DownloadRecord, updatedAt: Date? = nil) throws -> DownloadRecord {
    let wanted = QueuedDownload(
      url: record.url, podcastTitle: record.podcastTitle, episodeTitle: record.episodeTitle,
      feedURL: record.feedURL, identityKeys: record.episodeKey.map { [$0] } ?? [],
      published: record.published, details: record.details, archive: record.archive,
      owner: record.state == .queued ? record.owner : nil)
    let rows = DownloadRows(store: self)
    let key = try rows.queue([wanted])[0]
    if record.state != .queued {
      let validators =
        record.etag == nil && record.lastModified == nil
        ? nil : Validators(etag: record.etag, lastModified: record.lastModified)
      let progress = DownloadProgress(
        bytes: record.bytes,
        head: DownloadProgress.Head(validators: validators, total: record.total))
      if record.state == .done {
        try rows.recordFinished(
          key, file: record.file ?? "", bytes: record.bytes, progress: progress, episode: nil)
      } else {
        try rows.transition(
          key,
          .begin(wanted, owner: record.owner ?? .current, bytesOnDisk: 0))
        try rows.transition(key, .progress(progress))
        if record.state == .paused {
          try rows.transition(key, .pause(reason: record.error ?? "", nil))
        } else if record.state == .failed {
          try rows.transition(key, .fail(reason: record.error ?? "", nil))
        }
      }
    }
    if let updatedAt {
      try DatabaseQueue(path: paths.database).write { db in
        try db.execute(
          sql: "UPDATE downloads SET updatedAt = ? WHERE key = ?", arguments: [updatedAt, key.text])
      }
    }
    guard let stored = try rows.find(key: key) else { throw LibraryError.busy }
    return stored
  }
}
