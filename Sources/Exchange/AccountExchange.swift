import AccountServer
import Basics
import Foundation
import Model
import Privacy
import Store
import Transfer

/// One exchange with the library's account, in the order `sync` runs it around its feeds (see
/// docs in the README, "Sync with your phone"): `subscriptions` before the feeds are read (pull
/// the server's changes and apply them, then push the journal of this library's), `actions`
/// after the downloads and before pruning (send the outbox, then pull the plays, which
/// retention needs). The rules of each half are `SubscriptionReconciliation`, `ActionOutbox`
/// and `PlayImport`; this type runs them against the server and the library.
///
/// Each step moves its timestamp or deletes its journal or outbox rows only once what they
/// cover is applied and committed (in the same transaction where one suffices), so a kill or
/// a failure repeats a step and never skips one, and applying a step twice changes nothing.
/// The first error stops the exchange (told through `problem`, kept in the account as its
/// last error); the feeds are never stopped by it.
public struct AccountExchange: Sendable {
  /// Feeds added on the server that are subscribed to at once.
  static let subscribingAtOnce = 8

  private let store: LibraryStore
  private let client: AccountServerClient
  private let record: AccountRecord
  private let subscribe: @Sendable (String) async throws -> String?
  private let problem: @Sendable (any Error) -> Void

  /// nil when the library has no account. `subscribe` subscribes to a feed added on the
  /// server (its URL there) as `subscribe` would, and returns its name, or nil when it turned
  /// out to be a feed followed here already.
  public init?(
    store: LibraryStore, http: HTTPClient,
    subscribe: @escaping @Sendable (String) async throws -> String?,
    problem: @escaping @Sendable (any Error) -> Void
  ) throws {
    guard let record = try AccountState(store: store).record() else { return nil }
    self.store = store
    self.record = record
    self.subscribe = subscribe
    self.problem = problem
    client = AccountServerClient(
      account: Self.login(record), api: AccountAPI(rawValue: record.api) ?? .gpodder, http: http)
  }

  static func login(_ record: AccountRecord) -> AccountLogin {
    AccountLogin(
      server: record.server, user: record.user, password: record.password, device: record.device)
  }

  public var emptyReport: AccountExchangeReport {
    AccountExchangeReport(server: SecretMask.masked(record.server))
  }

  // MARK: The two halves

  /// Pulls the server's subscription changes and applies them, then pushes this library's.
  public func subscriptions() async -> AccountExchangeReport {
    var report = emptyReport
    await step(&report) { report in try await pullSubscriptions(&report) }
    await step(&report) { report in try await pushJournal(&report) }
    return report
  }

  /// Sends the episode actions owed, then records the plays of other devices; nothing when
  /// `report`, what `subscriptions` did, says it failed.
  public func actions(continuing report: AccountExchangeReport?) async -> AccountExchangeReport {
    var report = report ?? emptyReport
    await step(&report) { report in try await uploadActions(&report) }
    await step(&report) { report in try await pullPlays(&report) }
    return report
  }

  /// What `subscriptions` and `actions` would do, asking the server but changing nothing
  /// there or here.
  public func preview() async -> AccountExchangeReport {
    var report = emptyReport
    await step(&report) { report in
      let changes = try await client.subscriptionChanges(since: subscriptionsSince)
      let rules = try reconciliation()
      let arriving = try rules.arrivals(changes, find: journal.subscription(serverURL:))
      report.subscribed = arriving.subscribe
      report.unsubscribed = arriving.unsubscribing
      report.notApplied += arriving.notApplied
      let sends = rules.sends()
      report.sentAdded = sends.adds.map(\.url)
      report.sentRemoved = sends.removes
      report.actionsSent = try outbox().send.count
      let actions = try await client.episodeActions(since: PlayImport.since(record.actionsSince))
      let taken = PlayImport.reports(actions, untimed: untimed)
      report.notApplied += taken.notApplied
      report.playsRecorded = try PlayStates(store: store).preview { lookup in
        try PlayImport.changes(taken.reports, in: lookup)
      }.count
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
      try? AccountState(store: store).recordFailure(SecretMask.masked(String(describing: error)))
    }
  }

  private var journal: AccountJournal { AccountJournal(store: store) }

  // MARK: Subscriptions

  /// `since` for the subscription pull: a second before the server's clock at the last one,
  /// as a server may answer `since` strictly with one-second stamps, and lose for good a change
  /// made in the same second as that pull; a change seen twice is applied once (an add of a
  /// feed followed already links it, a removal of one not followed is nothing).
  private var subscriptionsSince: Int64 {
    record.subscriptionsSince.map { max(0, $0 - 1) } ?? 0
  }

  private func reconciliation() throws -> SubscriptionReconciliation {
    SubscriptionReconciliation(
      journal: try journal.changes(), subscriptions: try Subscriptions(store: store).all(),
      settings: try SavedSettings(store: store).all(),
      pulledBefore: record.subscriptionsSince != nil)
  }

  /// The server's changes since the last pull: removals unsubscribe here (files stay),
  /// additions subscribe here as `subscribe` would.
  private func pullSubscriptions(_ report: inout AccountExchangeReport) async throws {
    let changes = try await client.subscriptionChanges(since: subscriptionsSince)
    let arriving = try reconciliation().arrivals(
      changes, find: journal.subscription(serverURL:))
    for url in arriving.unsubscribe {
      // Its kept copy goes with it (the copies' rows cascade).
      guard let removed = try journal.unsubscribeFromServer(url) else { continue }
      report.unsubscribed.append(removed.name)
    }
    for url in arriving.link { try Subscriptions(store: store).link(serverURL: url) }
    report.subscribed += try await subscribeAll(arriving.subscribe)
    report.notApplied += arriving.notApplied
    try AccountState(store: store).recordSubscriptionsPulled(timestamp: changes.timestamp)
  }

  /// Subscribes to each feed, a few at once. Returns the names.
  private func subscribeAll(_ urls: [String]) async throws -> [String] {
    var names: [String] = []
    var next = urls.makeIterator()
    let subscribe = self.subscribe
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

  /// Sends the journal's changes (see `SubscriptionReconciliation.sends`).
  private func pushJournal(_ report: inout AccountExchangeReport) async throws {
    let sends = try reconciliation().sends()
    guard let lastId = sends.lastId else { return }
    var rewrites: [URLRewrite] = []
    if !sends.isEmpty {
      let receipt = try await client.pushSubscriptionChanges(
        add: sends.adds.map(\.url), remove: sends.removes)
      rewrites = receipt.updateURLs
    }
    let dropped = try journal.recordPushed(
      upTo: lastId, added: sends.adds.map { ($0.subscriptionId, $0.url) },
      rewrites: rewrites.map { ($0.old, $0.new) })
    report.unsubscribed += dropped.map(\.name)
    report.sentAdded += sends.adds.map(\.url)
    report.sentRemoved += sends.removes
  }

  // MARK: Episode actions

  private func outbox() throws -> ActionOutbox {
    ActionOutbox(
      pending: try AccountOutbox(store: store).pending(),
      subscriptions: try Subscriptions(store: store).all(),
      settings: try SavedSettings(store: store).all(),
      serverURLs: try AccountState(store: store).serverURLs(),
      device: record.device)
  }

  /// Sends the outbox. Actions of an upload that was cut off are first looked for on the
  /// server, so a lost answer sends nothing twice.
  private func uploadActions(_ report: inout AccountExchangeReport) async throws {
    let outbox = try outbox()
    let stored = AccountOutbox(store: store)
    try stored.forget(outbox.drop)
    var delivered: [Int64] = []
    if let since = outbox.recheckSince {
      let there = try await client.episodeActions(since: since)
      delivered = outbox.delivered(among: there.actions)
      try stored.forget(delivered)
    }
    for batch in outbox.batches(leavingOut: delivered) {
      let ids = batch.map(\.pending.id)
      try stored.markSent(ids)
      _ = try await client.uploadEpisodeActions(batch.map(\.action))
      try stored.forget(ids)
      report.actionsSent += batch.count
    }
  }

  /// The time a play the server gives without one is taken at (`PlayImport.untimed`).
  private var untimed: Date {
    PlayImport.untimed(actionsSince: record.actionsSince, now: Date())
  }

  /// Records what other devices played, from a window before the last pull (see
  /// `PlayImport.replayWindow`).
  private func pullPlays(_ report: inout AccountExchangeReport) async throws {
    let actions = try await client.episodeActions(since: PlayImport.since(record.actionsSince))
    let taken = PlayImport.reports(actions, untimed: untimed)
    let changed = try PlayStates(store: store).record(
      actionsSince: actions.timestamp, at: Date()
    ) { lookup in try PlayImport.changes(taken.reports, in: lookup) }
    report.playsRecorded += changed.count
    report.notApplied += taken.notApplied
  }
}
