/// What a run asks of a podcast folder's views beyond those every folder has (its playlist):
/// its own feed (`--write-feed`, or the subscription's setting), with its base URL, and its
/// page (`--write-page`).
public struct FolderRequest: Sendable, Hashable {
  /// Nil: a feed already there is kept up to date; none is made.
  public var feed: FeedRequest?
  /// False: a page already there is kept up to date; none is made.
  public var page: Bool

  public init(feed: FeedRequest? = nil, page: Bool = false) {
    self.feed = feed
    self.page = page
  }

  /// What two files of one folder asked for, together: the first request of each view.
  func merged(with other: FolderRequest) -> FolderRequest {
    FolderRequest(feed: feed ?? other.feed, page: page || other.page)
  }
}
