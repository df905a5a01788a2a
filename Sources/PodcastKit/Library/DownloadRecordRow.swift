import Foundation
internal import GRDB

/// A `DownloadRecord` as a row of the `downloads` table (see `SubscriptionRow` for why apart).
struct DownloadRecordRow: FetchableRecord, PersistableRecord {
  static let databaseTableName = "downloads"

  var record: DownloadRecord

  init(_ record: DownloadRecord) {
    self.record = record
  }

  init(row: Row) throws {
    record = DownloadRecord(
      url: try row.decode(forColumn: "url"),
      podcastTitle: try row.decode(forColumn: "podcastTitle"),
      episodeTitle: try row.decode(forColumn: "episodeTitle"),
      state: try row.decodeRawValue(DownloadState.self, forColumn: "state"),
      bytes: try row.decode(forColumn: "bytes"),
      total: try row.decode(forColumn: "total"),
      partialPath: try row.decode(forColumn: "partialPath"),
      file: try row.decode(forColumn: "file"),
      etag: try row.decode(forColumn: "etag"),
      lastModified: try row.decode(forColumn: "lastModified"),
      error: try row.decode(forColumn: "error"),
      updatedAt: try row.decode(forColumn: "updatedAt"),
      episodeKey: try row.decode(forColumn: "episodeKey"),
      pid: try row.decode(forColumn: "pid"),
      feedURL: try row.decode(forColumn: "feedURL"),
      published: try row.decode(forColumn: "published"),
      details: try row.decode(forColumn: "details"))
  }

  func encode(to container: inout PersistenceContainer) {
    container["url"] = record.url
    container["podcastTitle"] = record.podcastTitle
    container["episodeTitle"] = record.episodeTitle
    container["state"] = record.state.rawValue
    container["bytes"] = record.bytes
    container["total"] = record.total
    container["partialPath"] = record.partialPath
    container["file"] = record.file
    container["etag"] = record.etag
    container["lastModified"] = record.lastModified
    container["error"] = record.error
    container["updatedAt"] = record.updatedAt
    container["episodeKey"] = record.episodeKey
    container["pid"] = record.pid
    container["feedURL"] = record.feedURL
    container["published"] = record.published
    container["details"] = record.details
  }
}
