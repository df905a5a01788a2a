import Basics
import Foundation

/// An episode that appeared in a subscription's feed at least once. Sync compares a fresh feed
/// against these to find what is new; `key` is the `EpisodeIdentity.key` of the episode.
public struct SeenEpisode: Codable, Sendable, Equatable {
  public var id: Int64?
  public var subscriptionId: Int64
  public var key: String
  public var guid: String?
  public var enclosureURL: String?
  public var title: String?
  public var published: Date?
  public var firstSeen: Date
  /// The finished file's path, once downloaded.
  public var downloadedFile: String?

  /// Builds a record whose `key` is computed from the other fields by `EpisodeIdentity`.
  public init(
    id: Int64? = nil, subscriptionId: Int64 = 0, guid: String?, enclosureURL: String?,
    title: String?, published: Date?, firstSeen: Date = Date(), downloadedFile: String? = nil
  ) {
    self.init(
      id: id, subscriptionId: subscriptionId,
      key: EpisodeIdentity.key(
        guid: guid, enclosureURL: enclosureURL, title: title, published: published),
      guid: guid, enclosureURL: enclosureURL, title: title, published: published,
      firstSeen: firstSeen, downloadedFile: downloadedFile)
  }

  public init(
    id: Int64? = nil, subscriptionId: Int64, key: String, guid: String?, enclosureURL: String?,
    title: String?, published: Date?, firstSeen: Date = Date(), downloadedFile: String? = nil
  ) {
    self.id = id
    self.subscriptionId = subscriptionId
    self.key = key
    self.guid = guid
    self.enclosureURL = enclosureURL
    self.title = title
    self.published = published
    self.firstSeen = firstSeen
    self.downloadedFile = downloadedFile
  }

  /// Every key this episode can be recognised by (see `EpisodeIdentity.identityKeys`).
  public var identityKeys: [String] {
    EpisodeIdentity.identityKeys(
      guid: guid, enclosureURL: enclosureURL, title: title, published: published)
  }
}
