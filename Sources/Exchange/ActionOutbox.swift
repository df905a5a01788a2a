import AccountServer
import Basics
import Foundation
import Model
import Transfer

/// The rules of sending the outbox (`PendingAction`s) as episode actions, on values: which
/// go, under which URLs, in which batches, and which of those sent before the server has.
///
/// What is sent again: an action whose upload was begun (`sent`) but not known to have
/// arrived (the answer was lost: a kill, a dropped connection, a 500 after the server stored
/// it) is looked for on the server first, and sent again only when it is not there. It is
/// looked for the way a phone tells two actions apart: the same feed, kind and second, and the
/// same GUID when both have one, else the same episode URL once percent-decoding is undone (a
/// server may store `%2F` as `%252F` or `+` as `%2B`).
public struct ActionOutbox: Sendable {
  /// Actions per upload.
  public static let uploadSize = 500

  /// An action owed, as the server takes it.
  public struct Entry: Sendable, Equatable {
    public var pending: PendingAction
    public var action: EpisodeAction
  }

  /// What goes to the server, oldest first.
  public private(set) var send: [Entry] = []
  /// What never will: actions of feeds not followed here or not shared (an action of a feed
  /// the server does not know subscribes the user to it), or of an episode URL no feed may
  /// have.
  public private(set) var drop: [Int64] = []

  /// Each pending action of a subscription that may be shared, under the URL the server knows
  /// the subscription by (`serverURLs`, else its feed URL), from `device`.
  public init(
    pending: [PendingAction], subscriptions: [Subscription],
    settings: [Int64: SubscriptionSettings], serverURLs: [Int64: String], device: String
  ) {
    guard !pending.isEmpty else { return }
    var podcasts: [String: String] = [:]
    for subscription in subscriptions
    where SubscriptionReconciliation.shared(subscription.feedURL, settings[subscription.id]) {
      podcasts[subscription.feedURL] = serverURLs[subscription.id] ?? subscription.feedURL
    }
    for entry in pending {
      guard let feedURL = entry.feedURL, let podcast = podcasts[feedURL],
        URLPolicy.isAllowed(entry.episodeURL)
      else {
        drop.append(entry.id)
        continue
      }
      send.append(
        Entry(pending: entry, action: Self.action(entry, podcast: podcast, device: device)))
    }
  }

  /// The action that tells the server of `entry`, in whole seconds (what servers keep, so a
  /// resent action is recognised).
  public static func action(_ entry: PendingAction, podcast: String, device: String)
    -> EpisodeAction
  {
    let time = Date(timeIntervalSince1970: entry.at.timeIntervalSince1970.rounded(.down))
    var action: EpisodeAction
    switch entry.kind {
    case .download:
      action = .download(podcast: podcast, episode: entry.episodeURL, guid: entry.guid, at: time)
    case .play:
      action = .play(
        podcast: podcast, episode: entry.episodeURL, guid: entry.guid,
        position: entry.position ?? entry.total ?? 0, total: entry.total, at: time)
    case .new:
      action = EpisodeAction(
        podcast: podcast, episode: entry.episodeURL, guid: entry.guid, kind: .new, timestamp: time)
    case .delete:
      action = EpisodeAction(
        podcast: podcast, episode: entry.episodeURL, guid: entry.guid, kind: .delete,
        timestamp: time)
    }
    action.device = device
    return action
  }

  /// Where to look on the server for the actions sent before: from a second before the
  /// earliest (a server may answer `since` strictly, with one-second stamps); nil when none
  /// was sent before.
  public var recheckSince: Int64? {
    send.filter(\.pending.sent).compactMap(\.action.timestamp).min().map {
      max(0, Int64($0.timeIntervalSince1970) - 1)
    }
  }

  /// The outbox ids of the actions sent before that are among `there`, the server's.
  public func delivered(among there: [EpisodeAction]) -> [Int64] {
    let resent = send.filter(\.pending.sent)
    guard !resent.isEmpty else { return [] }
    var byGUID: Set<String> = []
    // Each action's place (feed, kind, second, episode URL) to the GUIDs it came with ("" none).
    var byURL: [String: Set<String>] = [:]
    for action in there {
      if let guid = action.guid { byGUID.insert(Self.place(action) + "\n" + guid) }
      byURL[Self.place(action) + "\n" + Self.decoded(action.episode), default: []].insert(
        action.guid ?? "")
    }
    return resent.filter { entry in
      let action = entry.action
      if let guid = action.guid, byGUID.contains(Self.place(action) + "\n" + guid) {
        return true
      }
      guard let guids = byURL[Self.place(action) + "\n" + Self.decoded(action.episode)] else {
        return false
      }
      // Another GUID at the same URL is another episode.
      return action.guid == nil || guids.contains("") || guids.contains(action.guid ?? "")
    }.map(\.pending.id)
  }

  /// The upload batches of what is to be sent, leaving out `delivered`.
  public func batches(leavingOut delivered: [Int64] = []) -> [[Entry]] {
    let skipped = Set(delivered)
    let sending = send.filter { !skipped.contains($0.pending.id) }
    return stride(from: 0, to: sending.count, by: Self.uploadSize).map {
      Array(sending[$0..<min(sending.count, $0 + Self.uploadSize)])
    }
  }

  /// The feed, kind and second of an action: what must be equal for two to be one.
  private static func place(_ action: EpisodeAction) -> String {
    [
      decoded(action.podcast), action.kind.rawValue,
      action.timestamp.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) } ?? "",
    ].joined(separator: "\n")
  }

  /// `url` with its percent-encoding undone, as many times as it was applied (at most a
  /// few): `%252F`, `%2F` and `/` are one.
  static func decoded(_ url: String) -> String {
    var text = url
    for _ in 0..<4 {
      guard text.contains("%"), let next = text.removingPercentEncoding, next != text else {
        break
      }
      text = next
    }
    return text
  }
}
