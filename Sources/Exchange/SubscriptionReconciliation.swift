import AccountServer
import Basics
import Model
import Privacy
import Transfer

/// The rules of the subscription half of the exchange, on values: what the server's changes
/// ask of this library (`arrivals`), and what this library's journal tells the server
/// (`sends`).
///
/// Which change wins: a feed with a change of this library's still to send is left as it is
/// here, whatever the server says (the server's word is an echo of an earlier push of ours,
/// or older than the change waiting to go); of several changes journaled for one feed, the
/// last is sent, alone (gpodder.net refuses a URL added and removed at once).
public struct SubscriptionReconciliation: Sendable {
  /// What the server's changes ask of this library.
  public struct Arrivals: Sendable, Equatable {
    /// Feeds to subscribe to, by the server's URLs.
    public var subscribe: [String] = []
    /// Feeds followed here already that the server now knows by these URLs.
    public var link: [String] = []
    /// Subscriptions to remove, by the server's URLs (their files stay).
    public var unsubscribe: [String] = []
    /// The names of `unsubscribe`'s subscriptions here, for a preview.
    public var unsubscribing: [String] = []
    /// What cannot be applied, in a phrase each: a URL that is not a feed's.
    public var notApplied: [String] = []

    public init() {}
  }

  /// What the journal sends.
  public struct Sends: Sendable, Equatable {
    public var adds: [Add] = []
    public var removes: [String] = []
    /// The last journal row these cover, or nil when the journal is empty.
    public var lastId: Int64?

    public init(lastId: Int64? = nil) {
      self.lastId = lastId
    }

    public var isEmpty: Bool { adds.isEmpty && removes.isEmpty }
  }

  /// A subscription sent as added, under the URL sent.
  public struct Add: Sendable, Equatable {
    public var subscriptionId: Int64
    public var url: String

    public init(subscriptionId: Int64, url: String) {
      self.subscriptionId = subscriptionId
      self.url = url
    }
  }

  /// The journal, oldest first.
  public var journal: [AccountChange]
  /// The subscriptions here now, and their settings (absent: the defaults).
  public var subscriptions: [Subscription]
  public var settings: [Int64: SubscriptionSettings]
  /// Whether a pull was applied before: the removals in a first pull are history from before
  /// this library was linked, and are left alone.
  public var pulledBefore: Bool

  public init(
    journal: [AccountChange], subscriptions: [Subscription],
    settings: [Int64: SubscriptionSettings], pulledBefore: Bool
  ) {
    self.journal = journal
    self.subscriptions = subscriptions
    self.settings = settings
    self.pulledBefore = pulledBefore
  }

  /// What `changes` asks of this library. `find` is the subscription the server means by a
  /// URL (`AccountJournal.subscription(serverURL:)`).
  public func arrivals(
    _ changes: SubscriptionChanges, find: (String) throws -> Subscription?
  ) rethrows -> Arrivals {
    let pending = Set(
      journal.flatMap { [$0.feedURL] + [$0.serverURL].compactMap { $0 } }.map(FeedIdentity.key))
    let waiting = { (url: String) in pending.contains(FeedIdentity.key(url)) }
    var arrivals = Arrivals()
    if pulledBefore {
      for url in changes.remove where !waiting(url) {
        // A private feed the server was never given is none of its business.
        if let found = try find(url), Self.shared(found.feedURL, settings[found.id]) {
          arrivals.unsubscribe.append(url)
          arrivals.unsubscribing.append(found.name)
        }
      }
    }
    for url in changes.add where !waiting(url) && !arrivals.subscribe.contains(url) {
      // Only what any feed may be: a server's list is not a path to read on this machine.
      guard URLPolicy.isAllowed(url) else {
        arrivals.notApplied.append(
          "the subscription to \(SecretMask.masked(url)), not an http or https feed")
        continue
      }
      if try find(url) == nil {
        arrivals.subscribe.append(url)
      } else {
        arrivals.link.append(url)
      }
    }
    return arrivals
  }

  /// What the journal sends: each feed's last change, adds of subscriptions still here that
  /// may be shared, removals of what the server may know.
  public func sends() -> Sends {
    guard let lastId = journal.last?.id else { return Sends() }
    let existing = Set(subscriptions.map(\.id))
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
    var sends = Sends(lastId: lastId)
    for url in order {
      guard let change = last[url] else { continue }
      switch change.kind {
      case .add: sends.adds.append(Add(subscriptionId: change.subscriptionId ?? 0, url: url))
      case .remove: sends.removes.append(url)
      }
    }
    return sends
  }

  /// Whether a feed may go to the server: an http(s) URL with no secret in it (as `export`
  /// keeps private feeds out), or one its owner shared (`set --share-with-account`).
  public static func shared(_ feedURL: String, _ settings: SubscriptionSettings?) -> Bool {
    URLPolicy.isAllowed(feedURL)
      && (!SecretMask.hasSecret(feedURL) || settings?.shareWithAccount == true)
  }
}
