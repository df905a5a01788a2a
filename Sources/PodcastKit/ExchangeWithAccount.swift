import Exchange
import Model
import Store

/// `podcast account sync`: the account exchange alone, without reading any feed: the server's
/// subscription changes applied here and this library's sent, the episode actions owed sent
/// and other devices' plays recorded. Holds the library's sync lock, as `sync` does.
public struct ExchangeWithAccount: Sendable {
  private let store: LibraryStore
  private let network: Network
  /// What a feed added on the server is subscribed with here.
  public var options = AccountExchangeOptions()
  /// Wait for a running sync instead of throwing `LibraryError.busy`.
  public var waitsForLock = false

  public init(library: Library, network: Network) {
    store = library.store
    self.network = network
  }

  /// Each problem is told through `problem` as it happens (and stops the exchange); throws
  /// `LibraryError.noAccount` without an account.
  public func run(problem: @escaping @Sendable (any Error) -> Void) async throws
    -> AccountExchangeReport
  {
    let lock = try LibraryLock.acquire(paths: store.paths, wait: waitsForLock)
    defer { lock.release() }
    guard
      let exchange = try ArrivingFeed.exchange(
        store: store, network: network, options: options, problem: problem)
    else { throw LibraryError.noAccount }
    return await exchange.actions(continuing: await exchange.subscriptions())
  }
}
