import Foundation
import Model
import Store

/// `podcast set`: change what a subscription's syncs take and how they file it.
public struct ChangeSettings: Sendable {
  public struct Outcome: Sendable {
    /// As saved: its `keep` is the retention now in force.
    public var subscription: Subscription
    /// Every setting now in force, not only the ones changed.
    public var settings: SubscriptionSettings
  }

  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  /// - Parameters:
  ///   - name: the subscription's name, an unambiguous prefix of it, or its number.
  ///   - keep: the new retention; nil leaves it as it is.
  ///   - settings: the settings given; each nil field leaves the stored one as it is.
  ///   - unset: settings to remove, by option name without dashes (`match`, `keep`), so their
  ///     defaults apply again; applied after `keep` and `settings`.
  public func run(
    name: String, keep: Int? = nil, settings given: SubscriptionSettings = SubscriptionSettings(),
    unset: [String] = []
  ) throws -> Outcome {
    try given.check()
    // Changing settings never creates a library: with none, there is no such subscription.
    guard FileManager.default.fileExists(atPath: paths.database) else {
      throw LibraryError.noSubscription(name, count: 0)
    }
    let store = try LibraryStore(paths: paths)
    var subscription = try Subscriptions(store: store).matching(name)
    let id = subscription.id
    let before = try SavedSettings(store: store).of(subscriptionId: id)
    var settings = before.overridden(by: given)
    if let keep { subscription.keep = keep }
    for option in unset {
      try settings.unset(option)
      // Retention is the subscription's own column, not one of its settings.
      if option == "keep" { subscription.keep = nil }
    }
    try Subscriptions(store: store).update(subscription)
    // Before its first sync, a subscription's choice is still open: what `subscribe` chose
    // with the old filters, `--first` or pages read gives way to what the first sync decides
    // with these.
    try SavedSettings(store: store).save(
      settings, subscriptionId: id,
      forgettingFirstRefresh: subscription.lastChecked == nil
        && (settings.filter != before.filter || settings.first != before.first
          || settings.pages != before.pages),
      sharingWithAccount: settings.shareWithAccount == true && before.shareWithAccount != true
    )
    return Outcome(subscription: subscription, settings: settings)
  }
}
