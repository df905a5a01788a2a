/// Keys of an object written member by member: the comma and indentation before each.
/// Shared by the writers of one object in pieces (an episode's members come from
/// `EpisodeJSON`, the listing's own around them from the `podcast` module).
public struct JSONMembers {
  /// The indentation of the object's braces; its members are two spaces further in.
  public let indent: Int
  @usableFromInline var first = true

  public init(indent: Int) {
    self.indent = indent
  }

  @inlinable
  public mutating func next(_ key: StaticString, _ writer: inout JSONWriter) {
    writer.element(first: first, indent: indent + 2)
    writer.key(key)
    first = false
  }
}
