import Basics
import Foundation
import Model
import Privacy
import Store
import SyncServer
import Transfer

/// One exchange with the library's sync-server account, in the order `sync` runs it around
/// its feeds (see DESIGN.md): `subscriptions` before the feeds are read (pull the server's
/// changes and apply them, then push the journal of this library's), `actions` after the
/// downloads and before pruning (send the outbox, then pull the plays, which retention needs).
///
/// Each step moves its timestamp or deletes its journal or outbox rows only once what they
/// cover is applied and committed (in the same transaction where one suffices), so a kill or a
/// failure repeats a step and never skips one, and applying a step twice changes nothing: an add of a feed followed already links it, a removal of one not followed
/// is nothing, a play no newer than the state it would change is dropped, and actions an
/// upload that was cut off may have delivered are checked against the server before they go
/// again. The first error stops the exchange (told through `problem`, kept in the account as
/// its last error); the feeds are never stopped by it.
package struct AccountExchange: Sendable {
  /// Plays are pulled again from this long before the last pull: servers compare `since` with
  /// the time each action says it happened, so a phone that uploads an old play late would
  /// otherwise never be heard.
  static let replayWindow: Int64 = 14 * 86_400
  /// Feeds added on the server that are read at once, each as `subscribe` reads it.
  static let subscribingAtOnce = 8
  /// Actions per upload.
  static let uploadSize = 500

  private let store: LibraryStore
  private let client: SyncServerClient
  private let record: AccountRecord
  private let network: Network
  private let options: AccountSync
  private let problem: @Sendable (any Error) -> Void

  /// nil when the library has no account.
  package init?(
    store: LibraryStore, network: Network, options: AccountSync = AccountSync(),
    problem: @escaping @Sendable (any Error) -> Void
  ) throws {
    guard let record = try store.account() else { return nil }
    self.store = store
    self.record = record
    self.network = network
    self.options = options
    self.problem = problem
    client = SyncServerClient(
      account: Self.account(record), api: SyncAPI(rawValue: record.api) ?? .gpodder,
      http: network.http)
  }

  static func account(_ record: AccountRecord) -> SyncAccount {
    SyncAccount(
      server: record.server, user: record.user, password: record.password, device: record.device)
  }

  package var emptyReport: AccountExchangeReport {
    AccountExchangeReport(server: SecretMask.masked(record.server))
  }

  // MARK: The two halves

  /// Pulls the server's subscription changes and applies them, then pushes this library's.
  package func subscriptions() async -> AccountExchangeReport {
    var report = emptyReport
    await step(&report) { report in try await pullSubscriptions(&report) }
    await step(&report) { report in try await pushJournal(&report) }
    return report
  }

  /// Sends the episode actions owed, then records the plays of other devices; nothing when
  /// `report`, what `subscriptions` did, says it failed.
  package func actions(continuing report: AccountExchangeReport?) async -> AccountExchangeReport {
    var report = report ?? emptyReport
    await step(&report) { report in try await uploadActions(&report) }
    await step(&report) { report in try await pullPlays(&report) }
    return report
  }

  /// What `subscriptions` and `actions` would do, asking the server but changing nothing
  /// there or here.
  package func preview() async -> AccountExchangeReport {
    var report = emptyReport
    await step(&report) { report in
      let changes = try await client.subscriptionChanges(since: record.subscriptionsSince ?? 0)
      let arriving = try arrivals(changes)
      report.subscribed = arriving.subscribe
      report.unsubscribed = arriving.unsubscribe.map(\.subscription.name)
      let sends = try journalSends()
      report.sentAdded = sends.adds.map(\.url)
      report.sentRemoved = sends.removes
      report.actionsSent = try outbox().send.count
      let actions = try await client.episodeActions(since: actionsSince)
      report.playsRecorded = try store.wouldRecordPlays(Self.reports(actions)).count
    }
    return report
  }

  /// Runs one step unless an earlier one failed; its error is told, kept, and stops the rest.
  private func step(
    _ report: inout AccountExchangeReport,
    _ body: (inout AccountExchangeReport) async throws -> Void
  ) async {
    guard !report.failed else { return }
    do {
      try await body(&report)
    } catch {
      report.failed = true
      problem(error)
      try? store.recordAccountFailure(SecretMask.masked(String(describing: error)))
    }
  }

  // MARK: Subscriptions

  /// The server's changes since the last pull: removals unsubscribe here (files stay), additions
  /// subscribe here as `subscribe` would, with the config's defaults and first-sync policy. A
  /// feed with a change of this library's still to send is left as it is here: that change
  /// is newer than what the server says (the server's echo of an earlier push of ours).
  private func pullSubscriptions(_ report: inout AccountExchangeReport) async throws {
    let changes = try await client.subscriptionChanges(since: record.subscriptionsSince ?? 0)
    let arriving = try arrivals(changes)
    for url in arriving.unsubscribe.map(\.url) {
      // Its kept copy goes with it (the copies' rows cascade).
      guard let removed = try store.unsubscribeFromServer(url) else { continue }
      report.unsubscribed.append(removed.name)
    }
    for url in arriving.link { try Subscriptions(store: store).link(serverURL: url) }
    report.subscribed += try await subscribe(arriving.subscribe)
    try store.recordSubscriptionsPulled(timestamp: changes.timestamp)
  }

  /// What `changes` asks of this library: feeds to subscribe to (the server's URLs), feeds
  /// followed here already that the server now knows by its URL, and subscriptions to remove.
  /// A removal in the first pull is history from before this library was linked, and is left
  /// alone.
  private func arrivals(_ changes: SubscriptionChanges) throws
    -> (
      subscribe: [String], link: [String], unsubscribe: [(url: String, subscription: Subscription)]
    )
  {
    let pending = Set(
      try store.accountJournal().flatMap { [$0.feedURL] + [$0.serverURL].compactMap { $0 } }
        .map(FeedIdentity.key))
    let waiting = { (url: String) in pending.contains(FeedIdentity.key(url)) }
    var unsubscribe: [(url: String, subscription: Subscription)] = []
    if record.subscriptionsSince != nil {
      let settings = try SavedSettings(store: store).all()
      for url in changes.remove where !waiting(url) {
        // A private feed the server was never given is none of its business.
        if let found = try store.subscription(serverURL: url),
          Self.shared(found.feedURL, settings[found.id])
        {
          unsubscribe.append((url, found))
        }
      }
    }
    var subscribe: [String] = []
    var link: [String] = []
    for url in changes.add where !waiting(url) && !subscribe.contains(url) {
      // Only what any feed may be: a server's list is not a path to read on this machine.
      guard URLPolicy.isAllowed(url) else { continue }
      if try store.subscription(serverURL: url) == nil {
        subscribe.append(url)
      } else {
        link.append(url)
      }
    }
    return (subscribe, link, unsubscribe)
  }

  /// Subscribes to each feed as `subscribe` does, a few at once; a feed that cannot be read
  /// now is subscribed as `import` does, to be read by its first sync. Returns the names.
  private func subscribe(_ urls: [String]) async throws -> [String] {
    var names: [String] = []
    var next = urls.makeIterator()
    try await withThrowingTaskGroup(of: String?.self) { group in
      for _ in 0..<Self.subscribingAtOnce {
        guard let url = next.next() else { break }
        group.addTask { try await subscribe(url) }
      }
      while let name = try await group.next() {
        if let name { names.append(name) }
        if let url = next.next() { group.addTask { try await subscribe(url) } }
      }
    }
    return names
  }

  private func subscribe(_ url: String) async throws -> String? {
    let subscribing = SubscribeToFeed(paths: store.paths, network: network)
    for _ in 0..<3 {
      do {
        return try await subscribing.run(
          feed: url, keep: options.keep, settings: options.settings,
          firstSyncNameTemplate: options.nameTemplate, serverURL: url
        ).subscription.name
      } catch LibraryError.duplicateFeed(_, let name) {
        // It leads to a feed followed here already (a redirect): the same subscription.
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

  /// Sends the journal's changes, the last one of each feed only (gpodder.net refuses a URL
  /// added and removed at once); private feeds only when shared (`set --share-with-account`).
  private func pushJournal(_ report: inout AccountExchangeReport) async throws {
    let sends = try journalSends()
    guard let lastId = sends.lastId else { return }
    var rewrites: [URLRewrite] = []
    if !sends.adds.isEmpty || !sends.removes.isEmpty {
      let receipt = try await client.pushSubscriptionChanges(
        add: sends.adds.map(\.url), remove: sends.removes)
      rewrites = receipt.updateURLs
    }
    let dropped = try store.recordJournalPushed(
      upTo: lastId, added: sends.adds, rewrites: rewrites.map { ($0.old, $0.new) })
    report.unsubscribed += dropped.map(\.name)
    report.sentAdded += sends.adds.map(\.url)
    report.sentRemoved += sends.removes
  }

  /// What the journal sends: each feed's last change, adds of subscriptions still here that
  /// may be shared, removals of what the server may know.
  private func journalSends() throws
    -> (adds: [(subscriptionId: Int64, url: String)], removes: [String], lastId: Int64?)
  {
    let journal = try store.accountJournal()
    guard let lastId = journal.last?.id else { return ([], [], nil) }
    let existing = Set(try Subscriptions(store: store).all().map(\.id))
    let settings = try SavedSettings(store: store).all()
    var last: [String: AccountChange] = [:]
    var order: [String] = []
    for change in journal {
      let url: String
      switch change.kind {
      case .add:
        guard let id = change.subscriptionId, existing.contains(id),
          Self.shared(change.feedURL, settings[id])
        else { continue }
        url = change.feedURL
      case .remove:
        url = change.serverURL ?? change.feedURL
        guard change.serverURL != nil || Self.shared(url, nil) else { continue }
      }
      if last[url] == nil { order.append(url) }
      last[url] = change
    }
    var adds: [(subscriptionId: Int64, url: String)] = []
    var removes: [String] = []
    for url in order {
      guard let change = last[url] else { continue }
      switch change.kind {
      case .add: adds.append((change.subscriptionId ?? 0, url))
      case .remove: removes.append(url)
      }
    }
    return (adds, removes, lastId)
  }

  /// Whether a feed may go to the server: an http(s) URL with no secret in it (as `export`
  /// keeps private feeds out), or one its owner shared.
  static func shared(_ feedURL: String, _ settings: SubscriptionSettings?) -> Bool {
    URLPolicy.isAllowed(feedURL)
      && (!SecretMask.hasSecret(feedURL) || settings?.shareWithAccount == true)
  }

  // MARK: Episode actions

  /// Sends the outbox. Actions of an upload that was cut off are first looked for on the
  /// server, so a kill between an upload and its commit sends nothing twice.
  private func uploadActions(_ report: inout AccountExchangeReport) async throws {
    let outbox = try outbox()
    try store.forgetActions(outbox.drop)
    var sending = outbox.send
    let resent = sending.filter(\.pending.sent)
    if let earliest = resent.map(\.action.timestamp).compactMap({ $0 }).min() {
      let there = try await client.episodeActions(since: Int64(earliest.timeIntervalSince1970))
      let delivered = Set(there.actions.map(Self.identity))
      let arrived = sending.filter {
        $0.pending.sent && delivered.contains(Self.identity($0.action))
      }
      try store.forgetActions(arrived.map(\.pending.id))
      sending.removeAll { $0.pending.sent && delivered.contains(Self.identity($0.action)) }
    }
    for start in stride(from: 0, to: sending.count, by: Self.uploadSize) {
      let batch = Array(sending[start..<min(sending.count, start + Self.uploadSize)])
      try store.markActionsSent(batch.map(\.pending.id))
      _ = try await client.uploadEpisodeActions(batch.map(\.action))
      try store.forgetActions(batch.map(\.pending.id))
      report.actionsSent += batch.count
    }
  }

  /// The outbox as actions for the server: each of a subscription that may be shared, under
  /// the URL the server knows it by; the rest (feeds not followed, private ones) to drop, as
  /// an action for a feed the server does not know subscribes the user to it.
  private func outbox() throws
    -> (send: [(pending: PendingAction, action: EpisodeAction)], drop: [Int64])
  {
    let pending = try store.pendingActions()
    guard !pending.isEmpty else { return ([], []) }
    let settings = try SavedSettings(store: store).all()
    let feeds = try store.accountFeeds()
    var podcasts: [String: String] = [:]
    for subscription in try Subscriptions(store: store).all() {
      guard Self.shared(subscription.feedURL, settings[subscription.id]) else { continue }
      podcasts[subscription.feedURL] = feeds[subscription.id] ?? subscription.feedURL
    }
    var send: [(pending: PendingAction, action: EpisodeAction)] = []
    var drop: [Int64] = []
    for entry in pending {
      guard let feedURL = entry.feedURL, let podcast = podcasts[feedURL],
        URLPolicy.isAllowed(entry.episodeURL)
      else {
        drop.append(entry.id)
        continue
      }
      send.append((entry, action(entry, podcast: podcast)))
    }
    return (send, drop)
  }

  private func action(_ entry: PendingAction, podcast: String) -> EpisodeAction {
    // Whole seconds: what the server keeps, so a resent action is recognised.
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
    }
    action.device = record.device
    return action
  }

  private static func identity(_ action: EpisodeAction) -> String {
    [
      action.podcast, action.episode, action.kind.rawValue,
      action.timestamp.map { String(Int64($0.timeIntervalSince1970)) } ?? "",
    ].joined(separator: "\n")
  }

  /// Records what other devices played, from a window before the last pull (see
  /// `replayWindow`).
  private func pullPlays(_ report: inout AccountExchangeReport) async throws {
    let actions = try await client.episodeActions(since: actionsSince)
    let changed = try store.recordPlays(
      Self.reports(actions), actionsSince: actions.timestamp, at: Date())
    report.playsRecorded += changed.count
  }

  private var actionsSince: Int64 {
    record.actionsSince.map { max(0, $0 - Self.replayWindow) } ?? 0
  }

  /// The plays and marks-as-new among `actions`, as the library records them.
  private static func reports(_ actions: EpisodeActions) -> [PlayReport] {
    actions.actions.compactMap { action in
      guard let time = action.timestamp else { return nil }
      let kind: PlayReport.Kind
      switch action.kind {
      case .play:
        guard let position = action.position, position >= 0 else { return nil }
        kind = .play(position: position, total: action.total.flatMap { $0 > 0 ? $0 : nil })
      case .new:
        kind = .markedNew
      case .download, .delete:
        return nil
      }
      return PlayReport(
        podcast: action.podcast, episode: action.episode, guid: action.guid, kind: kind, at: time)
    }
  }
}
