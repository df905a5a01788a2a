import Basics
import Foundation
import Model
import Privacy
import Store
import SyncServer
import Transfer

/// `podcast account add`: links the library to an account on a sync server. The login is
/// checked there and then (a refusal stores nothing), the API is found out when not given,
/// this library is registered as a device where the API has devices, and only then is the
/// account stored, with every subscription the library has journaled for the server.
public struct AddAccount: Sendable {
  public struct Outcome: Sendable {
    /// The server, secrets masked.
    public var server: String
    public var user: String
    public var device: String
    public var api: SyncAPI
    /// Whether the API was found out by asking the server (`--api auto`).
    public var detected: Bool
    /// The account's other devices, to choose one to `--follow` (servers with devices only).
    public var devices: [SyncDevice] = []
    /// The device `--follow` put this one in a sync group with; nil when not asked, or when
    /// the server keeps one list per user and has no groups (`followNeedless`).
    public var followed: String?
    public var followNeedless = false
    /// The subscriptions the first exchange will send.
    public var subscriptionsToSend: Int
    /// The library was linked to this account already: only its login was replaced (a new
    /// password), and what waits for the server still does.
    public var relinked = false
  }

  private let paths: LibraryPaths
  private let network: Network

  public init(paths: LibraryPaths, network: Network) {
    self.paths = paths
    self.network = network
  }

  /// `device` nil: `podcast-<this host's name>` (or the device linked already); `api` nil:
  /// found out. Adding the account the library is linked to already (same server, user and
  /// device) replaces its password, keeping what waits for the server; another is refused.
  public func run(
    server: String, user: String, password: String, device: String? = nil, api: SyncAPI? = nil,
    follow: String? = nil
  ) async throws -> Outcome {
    let existing = try Library.existingStore(at: paths)?.account()
    let device =
      device ?? existing?.device
      ?? SyncAccount.defaultDevice(hostname: ProcessInfo.processInfo.hostName)
    let account = SyncAccount(server: server, user: user, password: password, device: device)
    // Another account is refused before the server is asked anything.
    if let existing,
      existing.server != account.server || existing.user != user || existing.device != device
    {
      throw LibraryError.accountExists(
        user: existing.user, server: SecretMask.masked(existing.server))
    }
    try Self.check(account)
    let http = network.http
    let chosen: SyncAPI
    if let api {
      chosen = api
      try await SyncServerClient(account: account, api: api, http: http).logIn()
    } else {
      chosen = try await SyncServerClient.detectAPI(for: account, http: http)
    }
    let client = SyncServerClient(account: account, api: chosen, http: http)
    var devices: [SyncDevice] = []
    var followed: String?
    var followNeedless = false
    if chosen.hasDevices {
      try await client.registerDevice(caption: "podcast on \(ProcessInfo.processInfo.hostName)")
      if let follow {
        if try await Self.follow(follow, with: client) {
          followed = follow
        } else {
          followNeedless = true
        }
      } else {
        devices = try await client.devices().filter { $0.id != device }
      }
    } else if follow != nil {
      followNeedless = true
    }
    let store = try LibraryStore(paths: paths)
    if existing != nil {
      try store.replaceAccountLogin(password: password, api: chosen.rawValue)
    } else {
      try store.addAccount(
        AccountRecord(
          server: account.server, user: user, password: password, device: device,
          api: chosen.rawValue))
    }
    return Outcome(
      server: account.serverName, user: user, device: device, api: chosen, detected: api == nil,
      devices: devices, followed: followed, followNeedless: followNeedless,
      subscriptionsToSend: try Subscriptions(store: store).all().filter {
        AccountExchange.shared(
          $0.feedURL, try SavedSettings(store: store).of(subscriptionId: $0.id))
      }.count, relinked: existing != nil)
  }

  /// Puts this device in `device`'s sync group; false when the server has no groups: oPodSync
  /// and its kind keep one list per user, which both devices see already.
  private static func follow(_ device: String, with client: SyncServerClient) async throws -> Bool {
    let error: SyncServerError
    do {
      _ = try await client.follow(device)
      return true
    } catch let failure {
      error = failure
    }
    if case .notSupported = error { return false }
    throw error
  }

  private static func check(_ account: SyncAccount) throws {
    guard URLPolicy.isAllowed(account.server) else {
      throw AccountError.notAServerURL(account.serverName)
    }
    guard SyncAccount.isValidDevice(account.device) else {
      throw AccountError.badDevice(account.device)
    }
  }
}

/// Why an account command could not do what was asked, before any server was asked.
public enum AccountError: SentenceError, Equatable {
  case notAServerURL(String)
  case badDevice(String)

  public var description: String {
    switch self {
    case .notAServerURL(let url):
      return "\(url) is not a sync server's address: give its http:// or https:// URL"
    case .badDevice(let device):
      return "\(device) cannot be a device ID: use letters, digits, '.', '_' and '-' "
        + "(at most 64)"
    }
  }
}
