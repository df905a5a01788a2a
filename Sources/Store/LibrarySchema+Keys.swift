import Foundation
internal import GRDB
import Model

extension LibrarySchema {
  /// "v6-download-keys": a download row per episode, not per URL. The table is rebuilt with
  /// `key` (a `DownloadKey`: the feed and the episode's identity key, else the URL) as its
  /// primary key and `url` an indexed attribute that may change.
  ///
  /// Rows an older version wrote for one episode under two links (its link changed between
  /// two runs: one `done`, one `paused`) become one: the finished one, else the most recently
  /// updated. `partialPath` names the file under its new name; the bytes an older version
  /// left under the URL's name are taken over by the next run (`PartialSweep`), and a partial
  /// whose row did not survive is removed by it.
  static func keyDownloadsByEpisode(_ db: Database) throws {
    try db.create(table: "downloadsByEpisode") { table in
      table.primaryKey("key", .text)
      table.column("url", .text).notNull()
      table.column("podcastTitle", .text).notNull()
      table.column("episodeTitle", .text).notNull()
      table.column("state", .text).notNull()
      table.column("bytes", .integer).notNull().defaults(to: 0)
      table.column("total", .integer)
      table.column("partialPath", .text).notNull()
      table.column("file", .text)
      table.column("etag", .text)
      table.column("lastModified", .text)
      table.column("error", .text)
      table.column("updatedAt", .datetime).notNull()
      table.column("episodeKey", .text)
      table.column("pid", .integer)
      table.column("feedURL", .text)
      table.column("published", .datetime)
      table.column("details", .text)
    }
    let copied = [
      "url", "podcastTitle", "episodeTitle", "state", "bytes", "total", "file", "etag",
      "lastModified", "error", "updatedAt", "episodeKey", "pid", "feedURL", "published",
      "details",
    ].joined(separator: ", ")
    let copy = try db.makeStatement(
      sql: """
        INSERT OR IGNORE INTO downloadsByEpisode (key, partialPath, \(copied))
        SELECT ?, ?, \(copied) FROM downloads WHERE rowid = ?
        """)
    // First one in wins: finished rows, then the newest.
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT rowid, url, feedURL, episodeKey, partialPath FROM downloads
        ORDER BY state = 'done' DESC, updatedAt DESC, url
        """)
    while let row = try rows.next() {
      let rowid: Int64 = row[0]
      let key = DownloadKey(feedURL: row[2], episodeKey: row[3], url: row[1])
      let oldPath: String = row[4]
      let directory = (oldPath as NSString).deletingLastPathComponent
      let partialPath = directory + "/" + LibraryPaths.hashName(key.text) + ".part"
      try copy.execute(arguments: [key.text, partialPath, rowid])
    }
    try db.drop(table: "downloads")
    try db.rename(table: "downloadsByEpisode", to: "downloads")
    try db.create(index: "downloads_by_update", on: "downloads", columns: ["updatedAt"])
    try db.create(index: "downloads_by_episode", on: "downloads", columns: ["episodeKey"])
    try db.create(index: "downloads_by_feed", on: "downloads", columns: ["feedURL"])
    try db.create(index: "downloads_by_file", on: "downloads", columns: ["file"])
    try db.create(index: "downloads_by_url", on: "downloads", columns: ["url"])
  }
}
