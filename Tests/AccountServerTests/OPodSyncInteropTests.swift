import AccountServer
import AccountServerTestSupport
import Basics
import Foundation
import Transfer
import XCTest

/// The client against the real oPodSync, in both API styles, with gPodder's own client library
/// (mygpoclient) as the phone on the other side. Each style gets a fresh server of its own.
final class OPodSyncInteropTests: XCTestCase {
  private struct Peers {
    let server: OPodSync
    let client: AccountServerClient
    let phone: AccountPhone
  }

  private var started: [OPodSync] = []

  override func tearDown() {
    for server in started { server.stop() }
    started = []
  }

  private func account(_ server: OPodSync, password: String = OPodSync.password) -> AccountLogin {
    AccountLogin(server: server.url, user: OPodSync.user, password: password, device: "podcast-box")
  }

  /// Runs `body` once per API style, each against a server just started.
  private func inEachStyle(_ body: (AccountAPI, Peers) async throws -> Void) async throws {
    for api in AccountAPI.allCases {
      let server = try OPodSync()
      started.append(server)
      let client = AccountServerClient(account: account(server), api: api, http: HTTPClient())
      let phone = try AccountPhone(
        server: server.url, user: OPodSync.user, password: OPodSync.password)
      do {
        try await body(api, Peers(server: server, client: client, phone: phone))
      } catch {
        XCTFail("\(api): \(error)\nserver log:\n\(server.log)")
      }
    }
  }

  // MARK: Login

  func testTheLoginIsCheckedAndTheAPIFound() async throws {
    try await inEachStyle { api, peers in
      try await peers.client.logIn()

      let wrong = AccountServerClient(
        account: account(peers.server, password: "not-wonderland"), api: api, http: HTTPClient())
      do throws(AccountServerError) {
        try await wrong.logIn()
        XCTFail("\(api): a wrong password was taken")
      } catch {
        XCTAssertEqual(
          error, .loginRefused(server: peers.server.url, user: OPodSync.user, status: 401), "\(api)"
        )
        XCTAssertFalse(error.description.contains("not-wonderland"))
      }
    }
    let server = try OPodSync()
    started.append(server)
    let detected = try await AccountServerClient.detectAPI(for: account(server), http: HTTPClient())
    XCTAssertEqual(detected, .gpodder, "oPodSync speaks both; gpodder.net's has devices")
  }

  // MARK: Devices

  func testThisDeviceIsRegisteredAndTheServerHasNoSyncGroups() async throws {
    let server = try OPodSync()
    started.append(server)
    let client = AccountServerClient(account: account(server), api: .gpodder, http: HTTPClient())

    try await client.registerDevice(caption: "podcast on box")
    let devices = try await client.devices()

    XCTAssertEqual(
      devices,
      [
        AccountDevice(
          id: "podcast-box", caption: "podcast on box", type: "server", subscriptions: 0)
      ])
    do throws(AccountServerError) {
      _ = try await client.follow("phone")
      XCTFail("oPodSync has sync groups now: --follow can be tested against it")
    } catch {
      XCTAssertEqual(
        error,
        .notSupported(
          server: server.url, call: "joining the sync group of device phone",
          detail: "an empty answer"))
    }
  }

  // MARK: Subscriptions

  func testThePhonesSubscriptionsArrive() async throws {
    let one = "https://feeds.example.org/one.xml"
    let two = "https://feeds.example.org/two.rss?format=mp3"
    try await inEachStyle { api, peers in
      try peers.phone.subscribe(one, two)

      let first = try await peers.client.subscriptionChanges(since: 0)
      XCTAssertEqual(Set(first.add), [one, two], "\(api)")
      XCTAssertEqual(first.remove, [], "\(api)")

      try peers.phone.unsubscribe(one)
      let next = try await peers.client.subscriptionChanges(since: first.timestamp)
      XCTAssertEqual(next.remove, [one], "\(api)")
      XCTAssertFalse(next.add.contains(one), "\(api)")
      XCTAssertGreaterThanOrEqual(next.timestamp, first.timestamp, "\(api)")
    }
  }

  func testSubscriptionsMadeHereReachThePhone() async throws {
    let feed = "https://feeds.example.org/here.xml"
    try await inEachStyle { api, peers in
      let added = try await peers.client.pushSubscriptionChanges(add: [feed], remove: [])
      XCTAssertNotNil(added.timestamp, "\(api)")
      XCTAssertEqual(added.updateURLs, [], "\(api): oPodSync rewrites no URL")
      let seen = try peers.phone.pullSubscriptions(since: 0)
      XCTAssertEqual(seen.add, [feed], "\(api)")

      _ = try await peers.client.pushSubscriptionChanges(add: [], remove: [feed])
      let after = try peers.phone.pullSubscriptions(since: seen.timestamp)
      XCTAssertEqual(after.remove, [feed], "\(api)")
      XCTAssertEqual(after.add, [], "\(api)")
    }
  }

  // MARK: Episode actions

  func testADownloadHereReachesThePhoneWithTheExactEnclosureURLAndGUID() async throws {
    let feed = "https://feeds.example.org/one.xml"
    let enclosure = "https://tracker.example.net/redirect/cdn.example.org/ep%201.mp3?x=1&y=%C3%A9"
    try await inEachStyle { api, peers in
      try peers.phone.subscribe(feed)
      let time = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 120).rounded(.down))

      let receipt = try await peers.client.uploadEpisodeActions([
        .download(podcast: feed, episode: enclosure, guid: "urn:uuid:ep-1", at: time)
      ])

      XCTAssertNotNil(receipt.timestamp, "\(api)")
      let actions = try peers.phone.downloadActions(since: 0)
      XCTAssertEqual(actions.count, 1, "\(api): \(actions)")
      let action = try XCTUnwrap(actions.first)
      XCTAssertEqual(action["action"] as? String, "download", "\(api)")
      XCTAssertEqual(action["podcast"] as? String, feed, "\(api)")
      XCTAssertEqual(action["episode"] as? String, enclosure, "\(api)")
      XCTAssertEqual(action["guid"] as? String, "urn:uuid:ep-1", "\(api): oPodSync keeps GUIDs")
      XCTAssertEqual(action["timestamp"] as? String, ISO8601.string(time), "\(api)")
    }
  }

  func testThePhonesPlaysArrive() async throws {
    let feed = "https://feeds.example.org/one.xml"
    try await inEachStyle { api, peers in
      try peers.phone.subscribe(feed)
      try peers.phone.play(
        feed: feed, episode: "https://cdn.example.org/done.mp3", position: 3_600, total: 3_600)
      try peers.phone.play(
        feed: feed, episode: "https://cdn.example.org/begun.mp3", position: 60, total: 3_600)

      let page = try await peers.client.episodeActions(since: 0)

      XCTAssertEqual(page.ignored, 0, "\(api)")
      let plays = Dictionary(
        uniqueKeysWithValues: page.actions.filter { $0.kind == .play }.map { ($0.episode, $0) })
      let done = try XCTUnwrap(plays["https://cdn.example.org/done.mp3"], "\(api): \(page.actions)")
      let begun = try XCTUnwrap(plays["https://cdn.example.org/begun.mp3"], "\(api)")
      XCTAssertEqual([done.position, done.total], [3_600, 3_600], "\(api)")
      XCTAssertEqual([begun.started, begun.position, begun.total], [0, 60, 3_600], "\(api)")
      XCTAssertEqual(begun.podcast, feed, "\(api)")
      XCTAssertEqual(begun.device, "phone", "\(api)")
      XCTAssertNil(begun.guid, "\(api): mygpoclient sends no GUID")
      let now = Date().timeIntervalSince1970
      XCTAssertEqual(
        try XCTUnwrap(begun.timestamp).timeIntervalSince1970, now, accuracy: 600, "\(api)")
    }
  }

  /// What the exchange's design rests on: `since` is inclusive and compared with each action's
  /// own time (so a late upload of an old play is not in a pull from after it), and this
  /// device's own pushes come back in its next pull.
  func testWhatSinceMeansOnThisServer() async throws {
    let feed = "https://feeds.example.org/one.xml"
    try await inEachStyle { api, peers in
      let push = try await peers.client.pushSubscriptionChanges(add: [feed], remove: [])
      let echo = try await peers.client.subscriptionChanges(since: try XCTUnwrap(push.timestamp))
      XCTAssertEqual(echo.add, [feed], "\(api): a pull from the push's time holds the push itself")

      let now = Date().timeIntervalSince1970.rounded(.down)
      _ = try await peers.client.uploadEpisodeActions([
        .play(
          podcast: feed, episode: "https://cdn.example.org/old.mp3", guid: nil, position: 10,
          total: 100, at: Date(timeIntervalSince1970: now - 3_600))
      ])
      let recent = try await peers.client.episodeActions(since: Int64(now) - 60)
      XCTAssertEqual(recent.actions, [], "\(api): an action stamped an hour ago, uploaded now")
      let all = try await peers.client.episodeActions(since: 0)
      XCTAssertEqual(all.actions.map(\.episode), ["https://cdn.example.org/old.mp3"], "\(api)")
    }
  }
}
