import Foundation

/// The store is where the download manager remembers downloads between runs.
extension LibraryStore: DownloadLedger {
  public func entry(for url: String) throws -> LedgerEntry? {
    guard let record = try download(url: url) else { return nil }
    return LedgerEntry(
      url: record.url, state: record.state, bytes: record.bytes, total: record.total,
      etag: record.etag, lastModified: record.lastModified, file: record.file, error: record.error,
      podcastTitle: record.podcastTitle, episodeTitle: record.episodeTitle)
  }

  public func save(_ entry: LedgerEntry) throws {
    var record = try download(url: entry.url) ?? newRecord(for: entry)
    record.apply(entry)
    try save(record)
  }

  public func saveProgress(_ entries: [LedgerEntry]) throws {
    try write { db in
      for entry in entries {
        var record = try DownloadRecord.fetchOne(db, key: entry.url) ?? newRecord(for: entry)
        record.state = entry.state
        record.bytes = entry.bytes
        record.total = entry.total ?? record.total
        record.pid = ProcessInfo.processInfo.processIdentifier
        record.updatedAt = Date()
        try record.save(db)
      }
    }
  }
}

extension LibraryStore {
  /// A first row for `entry`'s URL, with the partial file path the downloader uses.
  func newRecord(for entry: LedgerEntry) -> DownloadRecord {
    var record = DownloadRecord(
      url: entry.url, podcastTitle: entry.podcastTitle ?? "",
      episodeTitle: entry.episodeTitle ?? "",
      partialPath: paths.partials + "/" + PartialName.forURL(entry.url))
    record.apply(entry)
    return record
  }
}

extension DownloadRecord {
  mutating func apply(_ entry: LedgerEntry) {
    state = entry.state
    bytes = entry.bytes
    total = entry.total
    etag = entry.etag
    lastModified = entry.lastModified
    file = entry.file
    error = entry.error
    if let title = entry.podcastTitle, !title.isEmpty { podcastTitle = title }
    if let title = entry.episodeTitle, !title.isEmpty { episodeTitle = title }
    // Who is working on it, so another process can tell a live download from an abandoned one.
    pid = entry.state == .downloading ? ProcessInfo.processInfo.processIdentifier : nil
    updatedAt = Date()
  }
}
