import Model
import Privacy
import Store

/// `podcast account remove`: unlinks the library. Its subscriptions, files and play states
/// stay; the changes and actions not yet sent are dropped, and nothing is asked of the server.
public struct RemoveAccount: Sendable {
  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  /// The server and user unlinked, secrets masked; throws `LibraryError.noAccount`.
  public func run() throws -> (server: String, user: String) {
    guard let store = try Library.existingStore(at: paths),
      let removed = try AccountState(store: store).unlink()
    else { throw LibraryError.noAccount }
    return (SecretMask.masked(removed.server), removed.user)
  }
}
