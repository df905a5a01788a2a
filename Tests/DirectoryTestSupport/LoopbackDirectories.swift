import Foundation
import LoopbackServer
import Synchronization

/// Apple's iTunes API, Podcast Index, fyyd and gpodder.net on one loopback server, each on its
/// real paths, for `podcast search` and the directory sources. Podcast Index checks every
/// request the way the service does: the key, a date within 5 minutes of its own clock, and
/// `Authorization` = SHA-1 of key + secret + date, computed here by coreutils' `sha1sum` (not
/// by the code under test); anything else gets its 401.
///
/// It keeps a log of events in the order they happened: each request as it arrives and each
/// answer once sent, so a test can tell whether requests were made at once or one after the
/// other without timing anything.
public final class LoopbackDirectories: Sendable {
  public enum Kind: String, CaseIterable, Sendable {
    case apple, podcastindex, fyyd, gpodder

    /// The path of the directory's search endpoint.
    public var searchPath: String {
      switch self {
      case .apple: return "/search"
      case .podcastindex: return "/api/1.0/search/byterm"
      case .fyyd: return "/0.2/search/podcast"
      case .gpodder: return "/search.json"
      }
    }

    /// Every path the directory answers on.
    var paths: [String] {
      switch self {
      case .apple: return ["/search", "/lookup"]
      case .podcastindex:
        return [
          "/api/1.0/search/byterm", "/api/1.0/podcasts/byfeedid", "/api/1.0/podcasts/byguid",
          "/api/1.0/podcasts/byitunesid",
        ]
      case .fyyd: return ["/0.2/search/podcast", "/0.2/podcast"]
      case .gpodder: return ["/search.json"]
      }
    }
  }

  public enum Event: Hashable, Sendable {
    case arrived(Kind)
    case answered(Kind)
  }

  /// The credentials the fake Podcast Index accepts. Made up, and distinctive, so a test can
  /// look for them in what podcast prints.
  public static let key = "LOOPBACKKEYQ7ZP2M"
  public static let secret = "loopback-secret-do-not-print-3f9a7c"

  public let server: LoopbackServer
  private let log: EventLog

  public init() throws {
    let log = EventLog()
    self.log = log
    server = try LoopbackServer { line in
      // "METHOD TARGET STATUS BYTES", once the answer is sent.
      let parts = line.split(separator: " ")
      guard parts.count >= 2, let kind = Self.kind(ofTarget: String(parts[1])) else { return }
      log.events.withLock { $0.append(.answered(kind)) }
    }
    for kind in Kind.allCases {
      for path in kind.paths {
        answer(path, kind, with: .status(404, body: "Nothing at \(path)\n"))
      }
    }
  }

  deinit { server.stop() }

  /// What `podcast` needs to ask these directories instead of the real ones; with
  /// `withKey`, the Podcast Index key and secret too.
  public func environment(withKey: Bool = true) -> [String: String] {
    var environment = [
      "PODCAST_ITUNES_URL": server.baseURL,
      "PODCAST_PODCASTINDEX_URL": server.baseURL,
      "PODCAST_FYYD_URL": server.baseURL,
      "PODCAST_GPODDER_URL": server.baseURL,
    ]
    if withKey {
      environment["PODCAST_INDEX_KEY"] = Self.key
      environment["PODCAST_INDEX_SECRET"] = Self.secret
    }
    return environment
  }

  /// Answers `kind`'s search with `body` (JSON in the service's shape) and `status`, after
  /// `delay` seconds when given (the head goes out at once, the body after the delay).
  public func answerSearch(
    _ kind: Kind, json body: String, status: Int = 200, delay: Double? = nil
  ) {
    answer(kind.searchPath, kind, with: Self.json(body, status: status, delay: delay))
  }

  /// Answers `path` of `kind` with `route`, whatever the request (for Podcast Index, once its
  /// signature holds).
  public func answer(_ path: String, _ kind: Kind, with route: Route) {
    let log = self.log
    server.set(
      path,
      .responding { request in
        log.events.withLock { $0.append(.arrived(kind)) }
        if kind == .podcastindex, let refusal = Self.podcastIndexRefusal(of: request) {
          return refusal
        }
        return route.responder?(request) ?? route
      })
  }

  /// A JSON answer, as the services send it.
  public static func json(_ body: String, status: Int = 200, delay: Double? = nil) -> Route {
    var route = Route.text(body, contentType: "application/json; charset=utf-8").withStatus(status)
    if let delay, !body.isEmpty { route = route.stalling(after: 0, seconds: delay) }
    return route
  }

  /// Every event so far, in order.
  public var events: [Event] { log.events.withLock { $0 } }

  /// The requests `kind` received, oldest first.
  public func requests(to kind: Kind) -> [RecordedRequest] {
    server.requests.filter { Self.kind(ofTarget: $0.target) == kind }
  }

  private static func kind(ofTarget target: String) -> Kind? {
    let path = String(target.prefix { $0 != "?" })
    return Kind.allCases.first { $0.paths.contains(path) }
  }

  private final class EventLog: Sendable {
    let events = Mutex<[Event]>([])
  }

  // MARK: - Podcast Index's check

  /// Nil when the request is signed as Podcast Index requires; else the 401 it answers.
  static func podcastIndexRefusal(of request: RecordedRequest) -> Route? {
    func refuse(_ why: String) -> Route {
      Route.text(
        #"{"status":"false","description":"\#(why)"}"#,
        contentType: "application/json; charset=utf-8"
      ).withStatus(401)
    }
    guard let agent = request.header("User-Agent"), !agent.isEmpty,
      !["curl/", "python-requests", "Go-http-client", "Java/", "okhttp"].contains(where: {
        agent.hasPrefix($0)
      })
    else { return refuse("A User-Agent naming your product is required.") }
    guard let key = request.header("X-Auth-Key"), key == Self.key else {
      return refuse("Authorization failed: unknown X-Auth-Key.")
    }
    guard let dateText = request.header("X-Auth-Date"), let date = Int(dateText),
      abs(Int(Date().timeIntervalSince1970) - date) <= 300
    else {
      return refuse("Authorization failed: X-Auth-Date is missing or off by more than 5 minutes.")
    }
    guard let signature = request.header("Authorization"),
      signature == sha1sum(Self.key + Self.secret + dateText)
    else { return refuse("Authorization header doesn't match.") }
    return nil
  }

  /// coreutils' SHA-1 of `text`, lowercase hex; "" when it cannot be run.
  public static func sha1sum(_ text: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha1sum")
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    guard (try? process.run()) != nil else { return "" }
    input.fileHandleForWriting.write(Data(text.utf8))
    try? input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
  }
}
