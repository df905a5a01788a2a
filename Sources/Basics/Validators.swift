/// What a server said about a resource, sent back to it to ask "has this changed?".
public struct Validators: Sendable, Equatable, Codable {
  public var etag: String?
  public var lastModified: String?

  public init(etag: String? = nil, lastModified: String? = nil) {
    self.etag = etag
    self.lastModified = lastModified
  }

  public var isEmpty: Bool { etag == nil && lastModified == nil }
}
