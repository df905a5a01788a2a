import Model

/// How a run treats the library's account (`podcast account add`): whether `sync` exchanges
/// with it, and what a feed added on its server is subscribed with here.
public struct AccountExchangeOptions: Sendable {
  /// False: this run leaves the account alone (`sync --no-account`); what it downloads is
  /// still owed to the server and goes at the next exchange.
  public var exchanges = true
  /// What a feed added on the server is subscribed with here: the defaults `subscribe` takes
  /// from the config file (`keep`, `first`, `delete-played`...).
  public var keep: Int?
  public var settings = SubscriptionSettings()
  /// The file name template the run's downloads use when a subscription has none (nil: the
  /// default), so a feed that arrives is filed where its first sync would file it.
  public var nameTemplate: String?

  public init() {}
}
