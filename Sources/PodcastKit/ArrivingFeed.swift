import Exchange
import Foundation
import Model
import Store

/// A feed added on the account's server, subscribed here as `subscribe` would (with the
/// config's defaults and first-sync policy), or as `import` does when it cannot be read now,
/// to be read by its first sync.
struct ArrivingFeed: Sendable {
  let store: LibraryStore
  let network: Network
  let options: AccountExchangeOptions

  /// The library's exchange with its account, subscribing what arrives this way; nil without
  /// an account.
  static func exchange(
    store: LibraryStore, network: Network, options: AccountExchangeOptions,
    problem: @escaping @Sendable (any Error) -> Void
  ) throws -> AccountExchange? {
    let arriving = ArrivingFeed(store: store, network: network, options: options)
    return try AccountExchange(
      store: store, http: network.http, subscribe: arriving.subscribe, problem: problem)
  }

  /// The name of the subscription made for `url`, nil when `url` leads to a feed followed here
  /// already (a redirect), which is then linked to it.
  @Sendable func subscribe(_ url: String) async throws -> String? {
    let subscribing = SubscribeToFeed(paths: store.paths, network: network)
    for _ in 0..<3 {
      do {
        return try await subscribing.run(
          feed: url, keep: options.keep, settings: options.settings,
          firstSyncNameTemplate: options.nameTemplate, serverURL: url
        ).subscription.name
      } catch LibraryError.duplicateFeed(_, let name) {
        try Subscriptions(store: store).link(named: name, serverURL: url)
        return nil
      } catch LibraryError.duplicateName {
        continue  // Another feed arriving at once took the name: choose again.
      } catch let error as LibraryError {
        throw error
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        return try subscribeUnread(url)
      }
    }
    return try subscribeUnread(url)
  }

  /// `url` subscribed without reading it, as `import` subscribes.
  private func subscribeUnread(_ url: String) throws -> String {
    let name = try Subscriptions(store: store).availableName(
      basedOn: SubscriptionName.guess(fromFeed: url))
    return try Subscriptions(store: store).add(
      name: name, feedURL: url, title: nil, keep: options.keep, settings: options.settings,
      serverURL: url
    ).name
  }
}
