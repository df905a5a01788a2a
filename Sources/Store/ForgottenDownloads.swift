internal import GRDB

/// Which download rows a mark, an unsubscribe or a prune looks at, by what they belong to;
/// whether each may go is `DownloadTransition`'s to decide (`DownloadRows.forget`).
enum ForgottenDownloads {
  /// Every row of the feed at this URL.
  case feed(String)
  /// The rows of one episode of a feed: by its enclosure URL, or by its identity key there.
  case episode(url: String, feedURL: String?, key: String)
  /// The rows whose finished file is one of these.
  case files([String])

  var condition: (sql: String, arguments: StatementArguments) {
    switch self {
    case .feed(let url):
      return ("feedURL = ?", [url])
    case .episode(let url, let feedURL, let key):
      return ("url = ? OR (feedURL = ? AND episodeKey = ?)", [url, feedURL, key])
    case .files(let files):
      let marks = Array(repeating: "?", count: files.count).joined(separator: ", ")
      return ("file IN (\(marks))", StatementArguments(files))
    }
  }
}
