import Basics

/// RFC 5005 paging links of a feed document (`atom:link rel="first|next|prev|last"` in the
/// channel or Atom feed): publishers such as Podlove Publisher list only the newest episodes on
/// a feed's first page and link the rest page by page. Resolved against the document's base.
public struct FeedPageLinks: Sendable, Equatable {
  public var first: String?
  public var next: String?
  public var previous: String?
  public var last: String?

  public init(
    first: String? = nil, next: String? = nil, previous: String? = nil, last: String? = nil
  ) {
    self.first = first
    self.next = next
    self.previous = previous
    self.last = last
  }
}
