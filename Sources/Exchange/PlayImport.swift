import AccountServer
import Basics
import Foundation
import Model
import Privacy
import Store

/// The rules of taking in what other devices did with episodes, on values: which of the
/// server's actions are plays (or marks as new), which episode each is of, and which change
/// wins.
///
/// Matching an action to an episode: to a subscription by the URL the server knows it by,
/// else by its feed (`AccountJournal.subscription(serverURL:)`); to an episode by GUID, else by
/// the identity the library computes from the enclosure URL (tracking prefixes and query
/// strings aside). Actions of feeds this library does not follow are none of its business.
/// Which change wins: the later action (`PlayState.after`), so an action seen again, or one
/// older than a mark made here, changes nothing.
public enum PlayImport {
  /// Plays are pulled again from this long before the last pull: servers compare `since` with
  /// the time each action says it happened, so a phone that uploads an old play late would
  /// otherwise never be heard.
  public static let replayWindow: Int64 = 14 * 86_400

  /// `since` for the next pull of actions, after the last pull's clock `actionsSince`.
  public static func since(_ actionsSince: Int64?) -> Int64 {
    actionsSince.map { max(0, $0 - replayWindow) } ?? 0
  }

  /// What the server's actions report, as the library records them; `download` and `delete`
  /// actions tell the library nothing. An action without a time (the API makes it optional) is
  /// taken as done at `untimed`; what cannot be taken in at all is named in `notApplied`.
  public static func reports(_ actions: EpisodeActions, untimed: Date)
    -> (reports: [PlayReport], notApplied: [String])
  {
    var notApplied: [String] = []
    if actions.ignored > 0 {
      notApplied.append(
        "\(actions.ignored) episode action\(actions.ignored == 1 ? "" : "s") the server sent"
          + " unreadable (no feed, no episode or an unknown kind)")
    }
    let reports = actions.actions.compactMap { action -> PlayReport? in
      let kind: PlayReport.Kind
      switch action.kind {
      case .play:
        guard let position = action.position, position >= 0 else {
          notApplied.append("a play of \(SecretMask.masked(action.episode)) without a position")
          return nil
        }
        kind = .play(position: position, total: action.total.flatMap { $0 > 0 ? $0 : nil })
      case .new:
        kind = .markedNew
      case .download, .delete:
        return nil
      }
      return PlayReport(
        podcast: action.podcast, episode: action.episode, guid: action.guid, kind: kind,
        at: action.timestamp ?? untimed)
    }
    return (reports, notApplied)
  }

  /// The time an action without one is taken to have happened: the server's clock at the last
  /// pull, when there was one (the action came after what that pull saw, and a mark made here
  /// since must win over it, at this pull and at each later one that sees it again), else now.
  public static func untimed(actionsSince: Int64?, now: Date) -> Date {
    actionsSince.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? now
  }

  /// The states `reports` change, over `states`, in the order the reports happened.
  /// `subscription` finds what the server means by a feed URL, `episodeKeys` maps each
  /// identity key of a subscription's episodes to the key the episode is stored under.
  public static func changes(
    _ reports: [PlayReport], over states: [String: PlayState],
    subscription: (String) throws -> Subscription?,
    episodeKeys: (Int64) throws -> [String: String]
  ) rethrows -> [PlayState] {
    var states = states
    var changed: [String: PlayState] = [:]
    var followed: [String: Subscription?] = [:]
    var keysOf: [Int64: [String: String]] = [:]
    for report in reports.sorted(by: { $0.at < $1.at }) {
      let found = try followed[report.podcast] ?? subscription(report.podcast)
      followed[report.podcast] = found
      guard let found else { continue }
      let id = found.id
      if keysOf[id] == nil { keysOf[id] = try episodeKeys(id) }
      let keys = EpisodeIdentity.identityKeys(
        guid: report.guid, enclosureURL: report.episode, title: nil, published: nil)
      guard let first = keys.first else { continue }
      let key = keys.lazy.compactMap { keysOf[id]?[$0] }.first ?? first
      let next: PlayState?
      switch report.kind {
      case .play(let position, let total):
        next = PlayState.after(
          play: position, total: total, at: report.at, key: key, feedURL: found.feedURL,
          over: states[key])
      case .markedNew:
        next = PlayState.after(
          markedNewAt: report.at, key: key, feedURL: found.feedURL, over: states[key])
      }
      guard let next else { continue }
      states[key] = next
      changed[key] = next
    }
    return changed.values.sorted { $0.key < $1.key }
  }

  /// `changes` read from the library, inside the transaction that records them.
  public static func changes(_ reports: [PlayReport], in lookup: PlayLookup) throws
    -> [PlayState]
  {
    try changes(
      reports, over: try lookup.states(), subscription: lookup.subscription(serverURL:),
      episodeKeys: lookup.episodeKeys(subscriptionId:))
  }
}
