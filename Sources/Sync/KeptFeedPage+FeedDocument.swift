import Source
import Store

extension KeptFeed.Page {
  /// A fetched document, compressed for the library's copy of its feed.
  public init(_ fetched: FeedDocument) throws {
    try self.init(url: fetched.url, count: fetched.count, read: fetched.read)
  }
}
