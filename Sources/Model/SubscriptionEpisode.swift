import Basics

/// An episode as one subscription knows it (the `episodes` row), so a download can record its
/// file there the moment it lands.
public struct SubscriptionEpisode: Sendable, Hashable {
  public var subscriptionId: Int64
  /// The `EpisodeIdentity` key of the row.
  public var key: String

  public init(subscriptionId: Int64, key: String) {
    self.subscriptionId = subscriptionId
    self.key = key
  }
}
