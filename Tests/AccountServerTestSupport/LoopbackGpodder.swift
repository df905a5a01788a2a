import Foundation
import LoopbackServer
import Synchronization

/// The tests' own gpodder.net-API server, on a `LoopbackServer`: login, devices and sync
/// groups, one list of subscriptions per user (as oPodSync keeps it) and episode actions, with
/// state, so a test can play the phone against it and see what the library sent. It does what
/// the API leaves room for the way a test asks (`Habits`): servers differ there, and oPodSync
/// (the real server in the other tests) takes one way only.
///
/// Its clock is the real one in whole seconds unless a test stops it (`clock`), so "the same
/// second" can be had on purpose.
public final class LoopbackGpodder: Sendable {
  public static let user = "alice"
  public static let password = "s3cret-wonderland"

  /// Where the API leaves room, and how this server takes it.
  public struct Habits: Sendable {
    /// Stores an action's episode URL in another form: `%2F` as `%252F`, `+` as `%2B` (a
    /// server that encodes what it is sent once more).
    public var normalisesURLs = false
    /// Keeps no GUID of an action (as servers built for mygpoclient, which sends none).
    public var dropsGUIDs = false
    /// `since` answered strictly (`changed > since`), where oPodSync takes `>=`: a change in
    /// the same second as a pull's answer is in no later pull from that answer's timestamp.
    public var strictSince = false
    /// Actions answered with `"timestamp": null`.
    public var nullTimestamps = false
    /// Errors said as FastAPI says them, `{"detail": "..."}`, instead of `{"message": "..."}`.
    public var errorsAsDetail = false
    /// The next this many uploads of actions are stored, then answered with a 500 (or, with
    /// `dropsAfterStoring`, a connection cut off mid-answer): the client never hears.
    public var storesThenFails = 0
    public var dropsAfterStoring = false
    /// Sync groups kept (gpodder.net) or none (oPodSync answers the call with nothing).
    public var hasSyncGroups = true
    /// Feed URLs stored under another (gpodder.net's `update_urls`): old to new, or to "" for
    /// one refused.
    public var rewrites: [String: String] = [:]

    public init() {}
  }

  /// One episode action as the server keeps it.
  public struct Action: Sendable, Equatable {
    public var podcast: String
    public var episode: String
    public var guid: String?
    public var action: String
    /// The time the device gave (the server's clock when it gave none).
    public var timestamp: Int64
    public var position: Int?
    public var total: Int?
    public var device: String?
  }

  private struct State {
    var habits = Habits()
    var stopped: Int64?
    var devices: [String: String] = [:]
    var groups: [[String]] = []
    /// url: (removed, changed)
    var subscriptions: [String: (removed: Bool, changed: Int64)] = [:]
    var actions: [Action] = []
    /// Calls answered otherwise: path prefix -> (answer, times left).
    var instead: [String: (route: Route, times: Int)] = [:]
  }

  public let server: LoopbackServer
  private let state = Mutex(State())

  /// Answers for the devices named (their own paths: the loopback server routes by path).
  public init(devices: [String] = ["podcast-box", "phone"]) throws {
    server = try LoopbackServer()
    let user = Self.user
    for path in [
      "auth/\(user)/login.json", "devices/\(user).json", "sync-devices/\(user).json",
      "episodes/\(user).json",
    ] {
      answer(at: path)
    }
    for device in devices {
      answer(at: "devices/\(user)/\(device).json")
      answer(at: "subscriptions/\(user)/\(device).json")
    }
  }

  private func answer(at path: String) {
    server.set(
      "/api/2/" + path, .responding { [weak self] request in self?.answer(request) ?? .status(503) }
    )
  }

  public func stop() { server.stop() }

  public var url: String { server.baseURL }

  public var habits: Habits {
    get { state.withLock { $0.habits } }
    set { state.withLock { $0.habits = newValue } }
  }

  /// The server's clock, in seconds since 1970: stopped where a test set it, else the time.
  public var clock: Int64 {
    get { state.withLock { $0.stopped } ?? Int64(Date().timeIntervalSince1970) }
    set { state.withLock { $0.stopped = newValue } }
  }

  // MARK: What a phone does, and what the server holds

  public func registerDevice(_ id: String, caption: String = "phone") {
    state.withLock { $0.devices[id] = caption }
  }

  /// Subscriptions made and removed on another device, at the server's clock.
  public func phoneChanges(add: [String] = [], remove: [String] = []) {
    let now = clock
    state.withLock { state in
      for url in add { state.subscriptions[url] = (false, now) }
      for url in remove { state.subscriptions[url] = (true, now) }
    }
  }

  /// A play another device uploaded.
  public func phonePlays(
    podcast: String, episode: String, guid: String? = nil, position: Int?, total: Int,
    at time: Int64? = nil
  ) {
    let action = Action(
      podcast: podcast, episode: episode, guid: guid, action: "play", timestamp: time ?? clock,
      position: position, total: total, device: "phone")
    state.withLock { $0.actions.append(action) }
  }

  /// The subscriptions the server holds (not removed).
  public var subscriptions: Set<String> {
    state.withLock { Set($0.subscriptions.filter { !$0.value.removed }.keys) }
  }

  public var actions: [Action] { state.withLock { $0.actions } }

  /// The next `times` requests whose path starts with `/api/2/` + `call` (`episodes`,
  /// `subscriptions`...) are answered with `status` and the server's `message`, as this
  /// server says errors (`Habits.errorsAsDetail`).
  public func fail(_ call: String, status: Int, message: String, times: Int = 1) {
    answer(call, with: error(status, message), times: times)
  }

  /// The next `times` requests to `call` are answered with `route` (an HTML page, say).
  public func answer(_ call: String, with route: Route, times: Int = 1) {
    state.withLock { $0.instead["/api/2/" + call] = (route, times) }
  }

  // MARK: Answering

  private func answer(_ request: RecordedRequest) -> Route {
    let expected = "Basic " + Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
    guard request.header("Authorization") == expected else {
      return error(401, "Invalid username/password")
    }
    if let instead = takeInstead(request.path) { return instead }
    let parts = request.path.split(separator: "/").map(String.init)
    guard parts.count >= 4, parts[0] == "api", parts[1] == "2" else {
      return error(404, "no such call")
    }
    switch (parts[2], request.method) {
    case ("auth", "POST"):
      return json(["code": 200]).withHeader("Set-Cookie", "sessionid=imitation; path=/")
    case ("devices", "GET"):
      let devices = state.withLock { $0.devices }
      return json(
        devices.sorted { $0.key < $1.key }.map {
          ["id": $0.key, "caption": $0.value, "type": "mobile", "subscriptions": 0]
        })
    case ("devices", "POST"):
      guard parts.count >= 5 else { return error(404, "no device") }
      let body = object(request.body) as? [String: Any]
      state.withLock {
        $0.devices[String(parts[4].dropLast(5))] = body?["caption"] as? String ?? ""
      }
      return json([:])
    case ("sync-devices", "GET"):
      return groups()
    case ("sync-devices", "POST"):
      return follow(object(request.body) as? [String: Any] ?? [:])
    case ("subscriptions", "GET"):
      return subscriptionChanges(since: since(request))
    case ("subscriptions", "POST"):
      return pushSubscriptions(object(request.body) as? [String: Any] ?? [:])
    case ("episodes", "GET"):
      return episodeActions(since: since(request))
    case ("episodes", "POST"):
      return uploadActions(object(request.body) as? [[String: Any]] ?? [])
    default:
      return error(404, "no such call")
    }
  }

  private func takeInstead(_ path: String) -> Route? {
    state.withLock { state in
      guard let prefix = state.instead.keys.first(where: { path.hasPrefix($0) }),
        let instead = state.instead[prefix]
      else { return nil }
      state.instead[prefix] = instead.times > 1 ? (instead.route, instead.times - 1) : nil
      return instead.route
    }
  }

  private func since(_ request: RecordedRequest) -> Int64 {
    let pairs = (request.query ?? "").split(separator: "&")
    let value = pairs.first { $0.hasPrefix("since=") }?.dropFirst(6)
    return value.flatMap { Int64($0) } ?? 0
  }

  /// Whether a change at `changed` is in a pull `since`.
  private func after(_ changed: Int64, _ since: Int64, strict: Bool) -> Bool {
    strict ? changed > since : changed >= since
  }

  private func groups() -> Route {
    let (habits, devices, groups) = state.withLock { ($0.habits, $0.devices, $0.groups) }
    guard habits.hasSyncGroups else { return Route.text("", contentType: "application/json") }
    let grouped = Set(groups.flatMap { $0 })
    return json([
      "synchronized": groups,
      "not-synchronized": devices.keys.filter { !grouped.contains($0) }.sorted(),
    ])
  }

  private func follow(_ body: [String: Any]) -> Route {
    let (habits, devices) = state.withLock { ($0.habits, $0.devices) }
    guard habits.hasSyncGroups else { return Route.text("", contentType: "application/json") }
    let pairs = body["synchronize"] as? [[String]] ?? []
    for device in pairs.flatMap({ $0 }) where devices[device] == nil {
      return error(404, "Device \(device) not found")
    }
    state.withLock { $0.groups += pairs }
    return groups()
  }

  private func subscriptionChanges(since: Int64) -> Route {
    let now = clock
    let (habits, subscriptions) = state.withLock { ($0.habits, $0.subscriptions) }
    let changed = subscriptions.filter {
      after($0.value.changed, since, strict: habits.strictSince)
    }
    return json([
      "add": changed.filter { !$0.value.removed }.keys.sorted(),
      "remove": changed.filter { $0.value.removed }.keys.sorted(),
      "timestamp": now, "update_urls": [String](),
    ])
  }

  private func pushSubscriptions(_ body: [String: Any]) -> Route {
    let now = clock
    let rewritten = state.withLock { state -> [[String]] in
      var rewritten: [[String]] = []
      for url in body["add"] as? [String] ?? [] {
        if let new = state.habits.rewrites[url] {
          rewritten.append([url, new])
          if new.isEmpty { continue }
          state.subscriptions[new] = (false, now)
        } else {
          state.subscriptions[url] = (false, now)
        }
      }
      for url in body["remove"] as? [String] ?? [] { state.subscriptions[url] = (true, now) }
      return rewritten
    }
    return json(["timestamp": now, "update_urls": rewritten])
  }

  private func episodeActions(since: Int64) -> Route {
    let now = clock
    let (habits, actions) = state.withLock { ($0.habits, $0.actions) }
    let listed = actions.filter { after($0.timestamp, since, strict: habits.strictSince) }.map {
      action -> [String: Any] in
      var fields: [String: Any] = [
        "podcast": action.podcast, "episode": action.episode, "action": action.action,
        "timestamp": habits.nullTimestamps ? NSNull() : Self.time(action.timestamp) as Any,
      ]
      if let guid = action.guid { fields["guid"] = guid }
      if let position = action.position { fields["position"] = position }
      if let total = action.total { fields["total"] = total }
      if let device = action.device { fields["device"] = device }
      return fields
    }
    return json(["actions": listed, "timestamp": now])
  }

  private func uploadActions(_ body: [[String: Any]]) -> Route {
    let now = clock
    let habits = state.withLock { $0.habits }
    let stored = body.compactMap { fields -> Action? in
      guard let podcast = fields["podcast"] as? String, let episode = fields["episode"] as? String,
        let kind = fields["action"] as? String
      else { return nil }
      return Action(
        podcast: podcast, episode: habits.normalisesURLs ? Self.normalised(episode) : episode,
        guid: habits.dropsGUIDs ? nil : fields["guid"] as? String, action: kind.lowercased(),
        timestamp: (fields["timestamp"] as? String).flatMap(Self.seconds) ?? now,
        position: fields["position"] as? Int, total: fields["total"] as? Int,
        device: fields["device"] as? String)
    }
    let failing = state.withLock { state -> Bool in
      state.actions += stored
      guard state.habits.storesThenFails > 0 else { return false }
      state.habits.storesThenFails -= 1
      return true
    }
    let answer = json(["timestamp": now, "update_urls": [String]()])
    guard failing else { return answer }
    return habits.dropsAfterStoring
      ? json(["timestamp": now, "padding": String(repeating: "x", count: 4_000)])
        .dropping(after: 100)
      : error(500, "the database went away after storing")
  }

  // MARK: Bodies

  private func error(_ status: Int, _ message: String) -> Route {
    json([habits.errorsAsDetail ? "detail" : "message": message]).withStatus(status)
  }

  private func json(_ value: Any) -> Route {
    let data =
      (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data()
    return Route.data(data, contentType: "application/json")
  }

  private func object(_ body: Data) -> Any? {
    try? JSONSerialization.jsonObject(with: body)
  }

  /// `%2F` as `%252F`, `+` as `%2B`.
  static func normalised(_ url: String) -> String {
    url.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "+", with: "%2B")
  }

  static func time(_ seconds: Int64) -> String {
    let formatter = ISO8601DateFormatter()
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }

  static func seconds(_ text: String) -> Int64? {
    let formatter = ISO8601DateFormatter()
    let zoned = text.hasSuffix("Z") || text.contains("+") ? text : text + "Z"
    return formatter.date(from: zoned).map { Int64($0.timeIntervalSince1970) }
  }
}
