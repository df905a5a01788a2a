import Basics
import Exchange
import Model
import Selection
import Store
import Sync
import Transfer

/// `podcast sync`. `run` takes the library's sync lock and, around the run of the feeds and
/// downloads (`SyncRun`, in the Sync layer), exchanges with the library's account; `preview`
/// (`--dry-run`) takes the lock, plans and says what `run` would do. Problems are told to the
/// reporter as they happen; what the run did comes back as a `SyncOutcome`.
public struct SyncSubscriptions: Sendable {
  private let store: LibraryStore
  private let http: HTTPClient
  private let network: Network
  public let settings: DownloadSettings
  /// Where this run puts every episode, over each subscription's own folder (see `SyncBatch`);
  /// nil: each subscription's folder, else the library's Episodes directory.
  public var episodesDirectory: String?
  /// The run's own filter (`sync --match ...`), on top of each subscription's.
  public var filter: EpisodePredicate?
  /// A playlist of what this run downloaded, written to this path.
  public var playlist: String?
  /// False: paged feeds are read on their first page only.
  public var readsPages = true
  /// Whether to wait for another sync of this library to end, instead of throwing
  /// `LibraryError.busy` at once.
  public var waitsForLock = false
  /// How the run treats the library's account, if it has one (see `AccountExchange`).
  public var account = AccountExchangeOptions()

  /// Throws when `settings` are out of their bounds (`DownloadSettings.check`).
  public init(library: Library, network: Network, settings: DownloadSettings) throws {
    try settings.check()
    self.store = library.store
    self.http = network.http
    self.network = network
    self.settings = settings
  }

  /// The subscriptions `names` pick (name, name prefix or number), each once, in the order
  /// named; all of them when `names` is empty.
  public func subscriptions(named names: [String]) throws -> [Subscription] {
    if names.isEmpty { return try Subscriptions(store: store).all() }
    var chosen: [Subscription] = []
    for name in names {
      let subscription = try Subscriptions(store: store).matching(name)
      if !chosen.contains(where: { $0.id == subscription.id }) { chosen.append(subscription) }
    }
    return chosen
  }

  /// What `run` would download, where, and what it would prune, for the subscriptions `names`
  /// pick; nothing changes. Each feed that failed is told as it fails.
  public func preview(_ names: [String], reporter: some RunReporter) async throws -> SyncPreview {
    let lock = try LibraryLock.acquire(paths: store.paths, wait: waitsForLock)
    defer { lock.release() }
    var preview = try await syncRun.preview(try subscriptions(named: names), reporter: reporter)
    preview.account = try await accountExchange(reporter: reporter)?.preview()
    return preview
  }

  /// The sync of the subscriptions `names` pick (all when empty), holding the library's sync
  /// lock from before it reads them until it is done: the account's subscription changes are
  /// exchanged first (a feed the phone subscribed to is synced now), then every feed is
  /// refreshed and its episodes downloaded (`SyncRun`), then the account's episode actions
  /// (before pruning: the plays it records are what `--delete-played` prunes by), then the
  /// run's pruning, side files and folder views.
  public func run(_ names: [String], reporter: some RunReporter) async throws -> SyncOutcome {
    let lock = try LibraryLock.acquire(paths: store.paths, wait: waitsForLock)
    defer { lock.release() }
    let account = try accountExchange(reporter: reporter)
    let exchanged = await account?.subscriptions()
    let subscriptions = try subscriptions(named: names)
    guard !subscriptions.isEmpty else {
      var outcome = SyncOutcome()
      outcome.account = await account?.actions(continuing: exchanged)
      return outcome
    }
    // While what the run needs of the library is read, before its first request.
    HTTPClient.prepareInBackground()
    let run = syncRun
    let downloaded = try await run.download(subscriptions, reporter: reporter)
    let accountReport = await account?.actions(continuing: exchanged)
    var outcome = await run.finish(
      downloaded, playsChanged: (accountReport?.playsRecorded ?? 0) > 0, reporter: reporter)
    outcome.account = accountReport
    outcome.subscriptions = subscriptions.count
    return outcome
  }

  /// The run of the feeds and downloads, with this sync's settings.
  private var syncRun: SyncRun {
    SyncRun(
      store: store, http: http, settings: settings, episodesDirectory: episodesDirectory,
      filter: filter, playlist: playlist, readsPages: readsPages)
  }

  /// The library's account exchange for this run; nil without an account or with
  /// `sync --no-account`.
  private func accountExchange(reporter: some RunReporter) throws -> AccountExchange? {
    guard account.exchanges else { return nil }
    return try ArrivingFeed.exchange(store: store, network: network, options: account) {
      reporter.problem($0, subject: nil)
    }
  }
}
