import Basics
import Foundation

/// The JSON bodies sync servers answer with, read the way servers really send them: numbers
/// as strings, `-1` for "not known", action names in capitals (Nextcloud's README), times with
/// or without a zone or as Unix seconds. A field that must be there and is not makes the whole
/// answer unreadable; one odd action is left out and counted.
enum ServerAnswer {
  /// Reasons are short phrases; the caller adds the server and the call.
  enum Unreadable: Error, Equatable {
    case empty
    case htmlPage
    case notJSON
    case missing(String)

    var phrase: String {
      switch self {
      case .empty: return "an empty body"
      case .htmlPage: return "an HTML page instead of JSON"
      case .notJSON: return "not JSON, or JSON cut short"
      case .missing(let field): return "no \(field) in the JSON"
      }
    }
  }

  static func subscriptionChanges(_ body: Data) throws(Unreadable) -> SubscriptionChanges {
    let answer = try decode(ChangesBody.self, body)
    return SubscriptionChanges(
      add: answer.add, remove: answer.remove, updateURLs: answer.updateURLs ?? [],
      timestamp: answer.timestamp)
  }

  /// The answer to a push. An empty body is a receipt without a timestamp (older Nextcloud
  /// gpoddersync answers a subscription push with nothing).
  static func receipt(_ body: Data) throws(Unreadable) -> ServerReceipt {
    if trimmed(body).isEmpty { return ServerReceipt(timestamp: nil) }
    let answer = try decode(ReceiptBody.self, body)
    return ServerReceipt(timestamp: answer.timestamp, updateURLs: answer.updateURLs ?? [])
  }

  static func episodeActions(_ body: Data) throws(Unreadable) -> EpisodeActions {
    let answer = try decode(ActionsBody.self, body)
    let actions = answer.actions.compactMap(\.action)
    return EpisodeActions(
      actions: actions, timestamp: answer.timestamp,
      ignored: answer.actions.count - actions.count)
  }

  static func devices(_ body: Data) throws(Unreadable) -> [AccountDevice] {
    try decode([DeviceEntry].self, body).compactMap(\.device)
  }

  static func deviceGroups(_ body: Data) throws(Unreadable) -> DeviceGroups {
    let answer = try decode(GroupsBody.self, body)
    return DeviceGroups(
      synchronized: answer.synchronized, notSynchronized: answer.notSynchronized ?? [])
  }

  /// What a refusal says, for the error line: the words of a JSON error body, wherever the
  /// server put them (oPodSync's `{"code": 401, "message": "..."}`, FastAPI's `{"detail":
  /// "..."}` or its list of `{"msg": "..."}`, `{"error": "..."}` or `{"error": {"message":
  /// ...}}`), else the body's first line; nil for HTML or nothing. The caller bounds it.
  static func message(_ body: Data) -> String? {
    let text = trimmed(body)
    guard let first = text.first, first != UInt8(ascii: "<") else { return nil }
    if first == UInt8(ascii: "{"),
      let words = (try? JSONDecoder().decode(MessageBody.self, from: Data(text)))?.words
    {
      return words
    }
    let line = text.prefix { $0 != 10 && $0 != 13 }
    return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
  }

  /// The instant in an action's `timestamp`: ISO 8601 with or without a zone (none means UTC),
  /// with or without fractions of a second, or Unix seconds.
  static func instant(_ text: String) -> Date? {
    let text = text.trimmingCharacters(in: .whitespaces)
    if let seconds = Int64(text) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
    guard let t = text.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }) else {
      return nil
    }
    var zoned = text.replacingCharacters(in: t...t, with: "T")
    let clock = zoned[zoned.index(after: t)...]
    if !clock.contains(where: { $0 == "Z" || $0 == "z" || $0 == "+" || $0 == "-" }) {
      zoned += "Z"
    }
    if let date = try? Date(zoned, strategy: .iso8601) { return date }
    return try? Date(zoned, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }

  private static func decode<T: Decodable>(_ type: T.Type, _ body: Data) throws(Unreadable) -> T {
    let text = trimmed(body)
    guard let first = text.first else { throw .empty }
    if first == UInt8(ascii: "<") { throw .htmlPage }
    do {
      return try JSONDecoder().decode(T.self, from: Data(text))
    } catch DecodingError.keyNotFound(let key, _) {
      throw .missing(key.stringValue)
    } catch DecodingError.valueNotFound(_, let context), DecodingError.typeMismatch(_, let context)
    {
      throw .missing(context.codingPath.last?.stringValue ?? "list")
    } catch {
      throw .notJSON
    }
  }

  private static func trimmed(_ body: Data) -> Data.SubSequence {
    let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    let start = body.firstIndex { !blank($0) } ?? body.endIndex
    let end = body.lastIndex { !blank($0) }.map { body.index(after: $0) } ?? start
    return body[start..<max(start, end)]
  }
}

// MARK: - The bodies

private enum Key: String, CodingKey {
  case add, remove, timestamp, actions, message, detail, error, caption, type, subscriptions, id
  case podcast, episode, guid, action, started, position, total, device
  case synchronized
  case updateURLs = "update_urls"
  case notSynchronized = "not-synchronized"
}

private struct ChangesBody: Decodable {
  var add: [String]
  var remove: [String]
  var updateURLs: [URLRewrite]?
  var timestamp: Int64

  init(from decoder: Decoder) throws {
    let fields = try decoder.container(keyedBy: Key.self)
    add = try fields.decode([String].self, forKey: .add)
    remove = try fields.decode([String].self, forKey: .remove)
    updateURLs = rewrites(fields)
    timestamp = try requiredNumber(fields, .timestamp)
  }
}

private struct ReceiptBody: Decodable {
  var timestamp: Int64?
  var updateURLs: [URLRewrite]?

  init(from decoder: Decoder) throws {
    let fields = try decoder.container(keyedBy: Key.self)
    timestamp = number(fields, .timestamp)
    updateURLs = rewrites(fields)
  }
}

private struct ActionsBody: Decodable {
  var actions: [ActionEntry]
  var timestamp: Int64

  init(from decoder: Decoder) throws {
    let fields = try decoder.container(keyedBy: Key.self)
    actions = try fields.decode([ActionEntry].self, forKey: .actions)
    timestamp = try requiredNumber(fields, .timestamp)
  }
}

/// One element of `actions`. Decoding never fails: an element without a feed, an episode or
/// a known action yields nil.
private struct ActionEntry: Decodable {
  var action: EpisodeAction?

  init(from decoder: Decoder) {
    guard let fields = try? decoder.container(keyedBy: Key.self),
      let podcast = text(fields, .podcast), let episode = text(fields, .episode),
      let name = text(fields, .action), let kind = EpisodeAction.Kind(rawValue: name.lowercased())
    else { return }
    let time =
      text(fields, .timestamp).flatMap(ServerAnswer.instant)
      ?? number(fields, .timestamp).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    action = EpisodeAction(
      podcast: podcast, episode: episode, guid: text(fields, .guid), kind: kind, timestamp: time,
      started: seconds(fields, .started), position: seconds(fields, .position),
      total: seconds(fields, .total), device: text(fields, .device))
  }
}

private struct DeviceEntry: Decodable {
  var device: AccountDevice?

  init(from decoder: Decoder) {
    guard let fields = try? decoder.container(keyedBy: Key.self), let id = text(fields, .id)
    else { return }
    device = AccountDevice(
      id: id, caption: text(fields, .caption) ?? "", type: text(fields, .type) ?? "other",
      subscriptions: number(fields, .subscriptions).map { Int($0) } ?? 0)
  }
}

private struct GroupsBody: Decodable {
  var synchronized: [[String]]
  var notSynchronized: [String]?

  init(from decoder: Decoder) throws {
    let fields = try decoder.container(keyedBy: Key.self)
    synchronized = try fields.decode([[String]].self, forKey: .synchronized)
    notSynchronized = try? fields.decodeIfPresent([String].self, forKey: .notSynchronized)
  }
}

/// An error body's words: `message`, else `detail` (a string, or FastAPI's list of problems,
/// each with its `msg`), else `error` (a string, or an object with its own `message`).
private struct MessageBody: Decodable {
  var words: String?

  init(from decoder: Decoder) {
    guard let fields = try? decoder.container(keyedBy: Key.self) else { return }
    if let message = text(fields, .message) {
      words = message
    } else if let detail = text(fields, .detail) {
      words = detail
    } else if let problems = try? fields.decode([Problem].self, forKey: .detail),
      !problems.compactMap(\.msg).isEmpty
    {
      words = problems.compactMap(\.msg).joined(separator: "; ")
    } else if let error = text(fields, .error) {
      words = error
    } else if let error = try? fields.decode(MessageBody.self, forKey: .error) {
      words = error.words
    }
  }

  private struct Problem: Decodable {
    var msg: String?
  }
}

// MARK: - Lenient fields

/// A non-empty string, or nil for anything else.
private func text(_ fields: KeyedDecodingContainer<Key>, _ key: Key) -> String? {
  guard let value = try? fields.decodeIfPresent(String.self, forKey: key) else { return nil }
  return value.isEmpty ? nil : value
}

/// A whole number sent as a number or as a string of digits.
private func number(_ fields: KeyedDecodingContainer<Key>, _ key: Key) -> Int64? {
  if let value = try? fields.decodeIfPresent(Int64.self, forKey: key) { return value }
  if let value = try? fields.decodeIfPresent(Double.self, forKey: key), value.isFinite,
    abs(value) < 1e15
  {
    return Int64(value.rounded(.down))
  }
  return text(fields, key).flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
}

private func requiredNumber(_ fields: KeyedDecodingContainer<Key>, _ key: Key) throws -> Int64 {
  guard let value = number(fields, key) else {
    throw DecodingError.keyNotFound(
      key, .init(codingPath: fields.codingPath, debugDescription: "no number"))
  }
  return value
}

/// Seconds into an episode; negative (Nextcloud's `-1` on a download) means not known.
private func seconds(_ fields: KeyedDecodingContainer<Key>, _ key: Key) -> Int? {
  guard let value = number(fields, key), value >= 0, value < Int64(Int32.max) else { return nil }
  return Int(value)
}

/// `update_urls`: pairs `[old, new]`, an empty new URL meaning the server refused the feed.
/// Anything else in the list is left out.
private func rewrites(_ fields: KeyedDecodingContainer<Key>) -> [URLRewrite]? {
  guard let pairs = try? fields.decodeIfPresent([[String]].self, forKey: .updateURLs) else {
    return nil
  }
  return pairs.compactMap { pair in
    guard pair.count == 2, !pair[0].isEmpty else { return nil }
    return URLRewrite(old: pair[0], new: pair[1].isEmpty ? nil : pair[1])
  }
}
