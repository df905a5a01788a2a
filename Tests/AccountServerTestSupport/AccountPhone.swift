import Foundation

/// The phone in the interoperability tests: gPodder's client library, mygpoclient, run through
/// `Scripts/account-phone.py` in the venv `make account-phone` makes (its python is what
/// `PODCAST_ACCOUNT_PHONE` names). It speaks the gpodder.net API, as the phone apps do.
public struct AccountPhone {
  public let server: String
  public let user: String
  public let password: String
  public var device = "phone"

  static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Scripts").standardizedFileURL.path

  public init(server: String, user: String, password: String) throws {
    self.server = server
    self.user = user
    self.password = password
    python = try Self.python()
  }

  /// The venv's python, or a skip (a failure in CI).
  static func python() throws -> String {
    try TestTool.path("PODCAST_ACCOUNT_PHONE", for: "the phone (mygpoclient)")
  }

  private let python: String

  public func subscribe(_ feeds: String...) throws { _ = try run("subscribe", feeds) }
  public func unsubscribe(_ feeds: String...) throws { _ = try run("unsubscribe", feeds) }

  /// The phone's `pull_subscriptions`: (add, remove, timestamp).
  public func pullSubscriptions(since: Int64) throws
    -> (add: [String], remove: [String], timestamp: Int64)
  {
    let answer = try run("pull-subscriptions", [String(since)])
    return (
      answer["add"] as? [String] ?? [], answer["remove"] as? [String] ?? [],
      (answer["timestamp"] as? NSNumber)?.int64Value ?? -1
    )
  }

  public func play(feed: String, episode: String, position: Int, total: Int) throws {
    _ = try run("play", [feed, episode, String(position), String(total)])
  }

  /// The phone's `download_episode_actions`: the actions since `since` as mygpoclient reads
  /// them (it keeps no GUID).
  public func episodeActions(since: Int64) throws -> [[String: Any]] {
    try run("episode-actions", [String(since)])["actions"] as? [[String: Any]] ?? []
  }

  /// Every action the server has since `since`, each with all the fields it sent.
  public func downloadActions(since: Int64) throws -> [[String: Any]] {
    try run("download-actions", [String(since)])["actions"] as? [[String: Any]] ?? []
  }

  private func run(_ command: String, _ arguments: [String]) throws -> [String: Any] {
    let output = try TestTool.run(
      python, [Self.scripts + "/account-phone.py", server, user, device, command] + arguments,
      environment: ["ACCOUNT_PHONE_PASSWORD": password])
    guard let answer = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    else { throw TestToolError(description: "the phone's \(command) printed \(output)") }
    return answer
  }
}
