/// Why one of a folder's views (its playlist, feed or page; `FolderView`) could not be written
/// or removed. Each case reads as a sentence.
public enum FolderViewError: Error, Equatable, CustomStringConvertible {
  case cannotWrite(path: String, reason: String)
  case cannotRemove(path: String, reason: String)
  /// A folder's `feed.xml` or the Episodes directory's `feeds.opml` (`FolderFeed`).
  case cannotWriteFeed(path: String, reason: String)
  case cannotRemoveFeed(path: String, reason: String)
  /// A folder's `index.html`, the Episodes directory's, or the files they share (`FolderPage`).
  case cannotWritePage(path: String, reason: String)
  case cannotRemovePage(path: String, reason: String)

  public var description: String {
    switch self {
    case .cannotWriteFeed(let path, let reason): return "cannot write the feed \(path): \(reason)"
    case .cannotRemoveFeed(let path, let reason):
      return "cannot remove the feed \(path): \(reason)"
    case .cannotWritePage(let path, let reason): return "cannot write the page \(path): \(reason)"
    case .cannotRemovePage(let path, let reason):
      return "cannot remove the page \(path): \(reason)"
    case .cannotWrite(let path, let reason): return "cannot write the playlist \(path): \(reason)"
    case .cannotRemove(let path, let reason):
      return "cannot remove the playlist \(path): \(reason)"
    }
  }
}
