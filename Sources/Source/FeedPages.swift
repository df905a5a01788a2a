import Basics
import Feeds
import Transfer

/// A paged feed (RFC 5005) as far as it was read: every page's address and validators, the
/// episodes of all of them as one feed, and why reading stopped before the last page, if it did.
/// A value, so what was read can be kept or compared later (the kept copy of a feed).
public struct FeedPages: Sendable {
  /// One page as fetched.
  public struct Page: Sendable, Equatable {
    /// Where the page came from, after redirects.
    public var url: String
    public var validators: Validators
    /// Episodes the page listed (before duplicates of earlier pages were dropped).
    public var episodeCount: Int
  }

  /// Page one's show, every page's episodes newest first (one of each identity), and page one's
  /// paging links.
  public var feed: Feed
  /// In the order read; page one first.
  public var pages: [Page]
  /// Why the chain was not followed to its end; nil when it was (or as far as it was asked to).
  public var stop: FeedPageError?
  /// Whether the last page read links no page after it (a loop counts as the end): false when
  /// reading stopped early, as asked or on a failure.
  public var readToEnd = true
  /// Pages two and on as served, in order, when the loader was asked to keep them.
  public var laterDocuments: [FeedDocument] = []

  /// Whether episodes the feed lists may be missing because a page could not be read.
  public var isIncomplete: Bool { stop?.isFailure == true }
}
