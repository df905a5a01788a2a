import Basics
import Foundation
import Privacy
import Synchronization
import Transfer

/// Talks to one account's sync server in one API: checks the login, manages devices, and
/// moves subscription changes and episode actions both ways. Values in, values out: it keeps
/// nothing but the session cookie of its login, and never prints.
///
/// Every request carries the login as Basic auth (both APIs take it on every call, and it
/// outlives a session that expires mid-exchange); after `logIn` on the gpodder.net API the
/// session cookie goes along too, as gPodder's own client sends it.
public final class AccountServerClient: Sendable {
  public let account: AccountLogin
  public let api: AccountAPI
  private let http: HTTPClient
  private let endpoints: ServerEndpoints
  /// `sessionid=...` from the login's `Set-Cookie`.
  private let session = Mutex<String?>(nil)

  /// `http` sets the timeouts (its options' stall timeout is the server's time to answer).
  public init(account: AccountLogin, api: AccountAPI, http: HTTPClient = .shared) {
    self.account = account
    self.api = api
    self.http = http
    self.endpoints = ServerEndpoints(api: api, account: account)
  }

  /// Which API the server at `account.server` speaks, found by asking it: the gpodder.net
  /// API's login and device list first, then Nextcloud's subscription list. A server that
  /// speaks both (oPodSync) is taken as gpodder.net, the one with devices. A refused login is
  /// `loginRefused`, whichever API refused it.
  public static func detectAPI(for account: AccountLogin, http: HTTPClient = .shared)
    async throws(AccountServerError) -> AccountAPI
  {
    do {
      let gpodder = AccountServerClient(account: account, api: .gpodder, http: http)
      try await gpodder.logIn()
      _ = try await gpodder.devices()
      return .gpodder
    } catch .notSupported, .malformedAnswer {
      // Not this API: try the other.
    }
    do {
      try await AccountServerClient(account: account, api: .nextcloud, http: http).logIn()
      return .nextcloud
    } catch .notSupported, .malformedAnswer {
      throw .notAnAccountServer(server: account.serverName)
    }
  }

  // MARK: Login and devices

  /// Checks the login: gpodder.net's login call (which starts a session), or for Nextcloud,
  /// which has none, a subscription pull from now on that must come back readable.
  public func logIn() async throws(AccountServerError) {
    switch api {
    case .gpodder:
      let response = try await call(.post, endpoints.login, "the login")
      if let cookie = response.headers["set-cookie"]?.prefix(while: { $0 != ";" }),
        cookie.contains("=")
      {
        session.withLock { $0 = String(cookie) }
      }
    case .nextcloud:
      let now = Int64(Date().timeIntervalSince1970)
      _ = try await subscriptionChanges(since: now)
    }
  }

  /// The account's devices (gpodder.net API only).
  public func devices() async throws(AccountServerError) -> [AccountDevice] {
    let call = "the device list"
    try requireDevices(call)
    let response = try await self.call(.get, endpoints.devices, call)
    return try read(response, call, ServerAnswer.devices)
  }

  /// Registers this library's device, or updates its caption and type (gpodder.net API only).
  public func registerDevice(caption: String, type: String = "server")
    async throws(AccountServerError)
  {
    let call = "the registration of device \(account.device)"
    try requireDevices(call)
    let body = JSONValue.object([("caption", .string(caption)), ("type", .string(type))])
    _ = try await self.call(.post, endpoints.thisDevice, call, body: body)
  }

  /// Which devices share a subscription list (gpodder.net API only). oPodSync answers with an
  /// empty body: it keeps one list per user, so there are no groups to be in.
  public func deviceGroups() async throws(AccountServerError) -> DeviceGroups {
    let call = "device sync groups"
    try requireDevices(call)
    let response = try await self.call(.get, endpoints.deviceGroups, call)
    return try readGroups(response, call)
  }

  /// Puts this library's device in one sync group with `device` (a phone), so that both see
  /// one list of subscriptions where the server keeps a list per device. Returns the groups
  /// after the change. A server that answers 404 (or 405, 501) either has no sync groups
  /// (`notSupported`) or no such device (`unknownDevice`): its device list tells which.
  public func follow(_ device: String) async throws(AccountServerError) -> DeviceGroups {
    let call = "joining the sync group of device \(device)"
    try requireDevices(call)
    let body = JSONValue.object([
      ("synchronize", .array([.array([.string(account.device), .string(device)])])),
      ("stop-synchronize", .array([])),
    ])
    let response: HTTPResponse
    do {
      response = try await self.call(.post, endpoints.deviceGroups, call, body: body)
    } catch .notSupported(let server, let call, let detail) {
      // Printable only: the names come from the server and go into a message.
      let others = try await devices().map(\.id).filter { $0 != account.device }.map(
        Self.printable)
      guard others.contains(device) else {
        throw .unknownDevice(server: server, device: device, known: others)
      }
      throw .notSupported(server: server, call: call, detail: detail)
    }
    return try readGroups(response, call)
  }

  // MARK: Subscriptions

  /// The subscription changes since `since` (the timestamp of an earlier answer; 0 for all).
  public func subscriptionChanges(since: Int64) async throws(AccountServerError)
    -> SubscriptionChanges
  {
    let call = "the subscription changes"
    let response = try await self.call(.get, endpoints.subscriptionChanges(since: since), call)
    return try read(response, call, ServerAnswer.subscriptionChanges)
  }

  /// Sends feeds subscribed (`add`) and unsubscribed (`remove`) here. A URL in both lists is
  /// refused by gpodder.net: the caller sends the last change of each feed only.
  public func pushSubscriptionChanges(add: [String], remove: [String])
    async throws(AccountServerError) -> ServerReceipt
  {
    let call = "the subscription changes sent"
    let body = JSONValue.object([
      ("add", .array(add.map { .string($0) })), ("remove", .array(remove.map { .string($0) })),
    ])
    let response = try await self.call(.post, endpoints.subscriptionPush, call, body: body)
    return try read(response, call, ServerAnswer.receipt)
  }

  // MARK: Episode actions

  /// Sends episode actions (this library's downloads, plays marked here).
  public func uploadEpisodeActions(_ actions: [EpisodeAction]) async throws(AccountServerError)
    -> ServerReceipt
  {
    let call = "the episode actions sent"
    let body = JSONValue.array(actions.map(\.json))
    let response = try await self.call(.post, endpoints.episodeActionUpload, call, body: body)
    return try read(response, call, ServerAnswer.receipt)
  }

  /// The episode actions since `since` (the timestamp of an earlier answer; 0 for all), from
  /// every device, this one's included.
  public func episodeActions(since: Int64) async throws(AccountServerError) -> EpisodeActions {
    let call = "the episode actions"
    let response = try await self.call(.get, endpoints.episodeActions(since: since), call)
    return try read(response, call, ServerAnswer.episodeActions)
  }

  // MARK: Requests

  private var serverName: String { account.serverName }

  private func requireDevices(_ call: String) throws(AccountServerError) {
    guard api.hasDevices else {
      throw .notSupported(server: serverName, call: call, detail: "\(api.name) has no devices")
    }
  }

  /// One request, its answer returned when the status is 2xx and turned into the error that
  /// says why otherwise.
  private func call(_ method: HTTPMethod, _ url: String, _ call: String, body: JSONValue? = nil)
    async throws(AccountServerError) -> HTTPResponse
  {
    var request = TransferRequest(url: url, options: http.options)
    request.method = method
    request.credentials = FeedCredentials(user: account.user, password: account.password)
    request.headers = [("Accept", "application/json")]
    if let body {
      request.body = Data(body.rendered().utf8)
      request.headers.append(("Content-Type", "application/json"))
    }
    if let cookie = session.withLock({ $0 }) { request.headers.append(("Cookie", cookie)) }
    let response: HTTPResponse
    do {
      response = try await http.send(request)
    } catch let error as TransferError {
      throw failure(error, call)
    } catch is CancellationError {
      throw .cancelled(server: serverName)
    } catch {
      throw .unreachable(server: serverName, reason: scrubbed(String(describing: error)))
    }
    switch response.status {
    case 200..<300:
      return response
    case 401, 403:
      throw .loginRefused(server: serverName, user: account.user, status: response.status)
    case 404, 405, 501:
      throw .notSupported(
        server: serverName, call: call, detail: "HTTP \(response.status) from \(masked(url))")
    case 500...:
      throw .serverFailed(
        server: serverName, call: call, status: response.status, message: message(response))
    default:
      throw .refused(
        server: serverName, call: call, status: response.status, message: message(response))
    }
  }

  private func failure(_ error: TransferError, _ call: String) -> AccountServerError {
    switch error {
    case .timedOut(_, let seconds):
      return .timedOut(server: serverName, call: call, seconds: seconds)
    case .cancelled:
      return .cancelled(server: serverName)
    case .tooLarge(_, let limit):
      return .malformedAnswer(
        server: serverName, call: call, reason: "an answer larger than \(limit) bytes")
    case .httpStatus(_, let status, _) where status == 401 || status == 403:
      return .loginRefused(server: serverName, user: account.user, status: status)
    default:
      return .unreachable(server: serverName, reason: scrubbed(error.description))
    }
  }

  private func read<T>(
    _ response: HTTPResponse, _ call: String,
    _ decode: (Data) throws(ServerAnswer.Unreadable) -> T
  ) throws(AccountServerError) -> T {
    do {
      return try decode(response.body)
    } catch {
      throw .malformedAnswer(server: serverName, call: call, reason: error.phrase)
    }
  }

  /// An empty answer where groups were asked for: the server has no sync groups (oPodSync
  /// routes the call and returns nothing).
  private func readGroups(_ response: HTTPResponse, _ call: String) throws(AccountServerError)
    -> DeviceGroups
  {
    guard response.body.contains(where: { $0 > 0x20 }) else {
      throw .notSupported(server: serverName, call: call, detail: "an empty answer")
    }
    return try read(response, call, ServerAnswer.deviceGroups)
  }

  /// The server's own words for a refusal or failure, one line, without the password.
  private func message(_ response: HTTPResponse) -> String? {
    guard let text = ServerAnswer.message(response.body) else { return nil }
    // Masked before it is cut short, so no part of a secret is left at the cut.
    let line = scrubbed(Self.printable(text))
    let short = line.count > 200 ? String(line.prefix(200)) + "…" : line
    return short.isEmpty ? nil : short
  }

  /// The server's text without control characters, to go into a one-line message.
  private static func printable(_ text: String) -> String {
    String(
      String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
  }

  private func masked(_ url: String) -> String { SecretMask.masked(url) }

  /// `text` with secrets in URLs masked and the password cut out wherever it appears (a
  /// server or a library that echoes what it was sent).
  private func scrubbed(_ text: String) -> String {
    let masked = SecretMask.masked(text)
    guard !account.password.isEmpty else { return masked }
    return masked.replacingOccurrences(of: account.password, with: SecretMask.mark)
  }
}
