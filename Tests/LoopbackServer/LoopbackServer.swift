import Dispatch
import Foundation
import Glibc
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for tests, `make demo` and `make bench`: answers from
/// routes set per path and from directories, records every request, and misbehaves on demand
/// (see `Route`). One thread accepts; each connection gets its own thread.
///
/// Call `stop()` when done: it closes the listening socket and every open connection and waits
/// for the threads to finish.
public final class LoopbackServer: Sendable {
  public let port: UInt16
  private let listener: Int32
  private let state = Mutex(State())
  /// Told whenever the record changes (a request, body bytes sent, a response ended), for
  /// `wait(until:)`.
  private let changes = ChangeSignal()
  private let workers = DispatchGroup()
  private let log: (@Sendable (String) -> Void)?

  private struct State {
    var routes: [String: Route] = [:]
    /// Longest prefix first, so "/audio" wins over "/".
    var mounts: [DirectoryMount] = []
    var hits: [String: Int] = [:]
    var requests: [RecordedRequest] = []
    /// Body bytes sent per path, counted as they go out.
    var sent: [String: Int] = [:]
    /// Bumped by `releaseStalls()`: a stall without an end ends when this changes.
    var stallRelease = 0
    var connections: Set<Int32> = []
    /// Connections accepted so far: the number of the last one.
    var accepted = 0
    var stopped = false
  }

  /// Binds 127.0.0.1 only (0: any free port) and starts accepting.
  /// `log` gets one line per response: "METHOD TARGET STATUS BODY-BYTES-SENT".
  public init(port: UInt16 = 0, log: (@Sendable (String) -> Void)? = nil) throws {
    // sendfile(2) has no MSG_NOSIGNAL: a client hanging up must not kill the process.
    signal(SIGPIPE, SIG_IGN)
    let (listener, boundPort) = try Self.listen(on: port)
    self.listener = listener
    self.port = boundPort
    self.log = log
    workers.enter()
    Thread { [self] in
      acceptConnections()
      workers.leave()
    }.start()
  }

  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// The absolute URL of `path` ("/feed.xml" or "feed.xml") on this server.
  public func url(_ path: String) -> String {
    baseURL + (path.hasPrefix("/") ? path : "/" + path)
  }

  /// Answers requests for `path` (matched without the query string) with `route`, from now on.
  /// A `path` with a query string ("/a.mp3?sig=1") answers only that exact target, before the
  /// route of its path: an expired signed link beside a fresh one.
  /// Replacing a route restarts its request count (sequences, `times:` of faults).
  public func set(_ path: String, _ route: Route) {
    state.withLock {
      $0.routes[path] = route
      $0.hits[path] = 0
    }
  }

  /// Serves the files under `directory` at `prefix` ("/" or e.g. "/audio"), with ETag and
  /// Last-Modified from each file's metadata, `{{base}}` replaced in `*.xml`/`*.rss`, and
  /// `faults` applied to every file. Routes set with `set` win over directories.
  public func setDirectory(
    _ directory: String, under prefix: String = "/", faults: Faults = Faults()
  ) {
    let mount = DirectoryMount(directory: directory, prefix: prefix, faults: faults)
    state.withLock {
      $0.mounts.removeAll { $0.prefix == mount.prefix }
      $0.mounts.append(mount)
      $0.mounts.sort { $0.prefix.count > $1.prefix.count }
    }
  }

  /// Every request received so far, oldest first.
  public var requests: [RecordedRequest] {
    state.withLock { $0.requests }
  }

  /// The requests received for `path` (without query string), oldest first.
  public func requests(for path: String) -> [RecordedRequest] {
    requests.filter { $0.path == path }
  }

  /// Body bytes sent so far for `path` (without query string), over every response to it,
  /// counted as they go out: a stalled or trickling response shows how far it got.
  public func bodyBytesSent(for path: String) -> Int {
    state.withLock { $0.sent[path, default: 0] }
  }

  /// Body bytes sent so far on every path.
  public var bodyBytesSent: Int {
    state.withLock { $0.sent.values.reduce(0, +) }
  }

  /// Blocks until `condition` holds, checking it again each time the server records a request,
  /// sends body bytes or ends a response (so it should look at the server's record); false when
  /// `timeout` seconds pass first. The timeout only turns a hang into a failure: assert the
  /// result, and give it room, since a busy machine is slow.
  public func wait(timeout: Double = 30, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let seen = changes.count
      if condition() { return true }
      guard changes.wait(after: seen, until: deadline) else { return condition() }
    }
  }

  /// Lets every response under way that stalls without an end (`stalling(after:seconds: nil)`)
  /// go on with its body, now or when it reaches its stall. Responses that start later stall
  /// as their route says (`times:` limits them).
  public func releaseStalls() {
    state.withLock { $0.stallRelease += 1 }
  }

  /// Closes the listening socket and all open connections, and waits (up to 5 s) for the
  /// server's threads to end. Stalled responses end too. Safe to call more than once.
  public func stop() {
    let alreadyStopped = state.withLock { state -> Bool in
      if state.stopped { return true }
      state.stopped = true
      // Shut down under the lock: a connection thread only closes its descriptor after
      // unregistering it, so these numbers cannot have been reused by someone else.
      shutdown(listener, Int32(SHUT_RDWR))
      for descriptor in state.connections { shutdown(descriptor, Int32(SHUT_RDWR)) }
      return false
    }
    if !alreadyStopped { _ = workers.wait(timeout: .now() + 5) }
  }

  // MARK: - For connections

  /// Records `request` and picks the route that answers it, with the request's number on its path.
  func answer(to request: RecordedRequest) -> (route: Route, hit: Int) {
    let path = request.path
    let (route, mount, hit) = state.withLock { state -> (Route?, DirectoryMount?, Int) in
      state.requests.append(request)
      let matched = state.routes[request.target] == nil ? path : request.target
      let hit = state.hits[matched, default: 0]
      state.hits[matched] = hit + 1
      return (state.routes[matched], state.mounts.first { $0.covers(path) }, hit)
    }
    changes.announce()
    if let route {
      let step = route.step(forHit: hit)
      // What a responder makes may be a sequence too, stepped by the same count.
      return (step.responder.map { $0(request).step(forHit: hit) } ?? step, hit)
    }
    if let found = mount?.route(for: path) { return (found, hit) }
    return (.status(404, body: "Nothing at \(path)\n"), hit)
  }

  /// How many times `releaseStalls()` was called: a response notes it before its body.
  var stallReleases: Int {
    state.withLock { $0.stallRelease }
  }

  /// Sleeps `seconds` (nil: until stopped, or until `releaseStalls()` makes `stallReleases`
  /// differ from `release`), waking early when the server stops; returns false if it stopped.
  func pause(_ seconds: Double?, release: Int) -> Bool {
    let deadline = seconds.map { Date().addingTimeInterval($0) }
    while !isStopped {
      if deadline == nil && state.withLock({ $0.stallRelease }) != release { return true }
      let left = deadline.map { $0.timeIntervalSinceNow } ?? 0.02
      if left <= 0 { return true }
      usleep(useconds_t(min(left, 0.02) * 1_000_000))
    }
    return false
  }

  /// Counts body bytes of a response to `path` as they go out.
  func recordSent(_ bytes: Int, for path: String) {
    state.withLock { $0.sent[path, default: 0] += bytes }
    changes.announce()
  }

  func logResponse(_ request: RecordedRequest, status: Int, bytes: Int) {
    log?("\(request.method) \(request.target) \(status) \(bytes)")
    changes.announce()
  }

  private var isStopped: Bool {
    state.withLock { $0.stopped }
  }

  // MARK: - Sockets

  private func acceptConnections() {
    defer { close(listener) }
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if isStopped { return }
        if errno == EINTR || errno == ECONNABORTED { continue }
        usleep(10_000)  // out of descriptors: let connections finish
        continue
      }
      let number = state.withLock { state -> Int? in
        guard !state.stopped else { return nil }
        state.connections.insert(client)
        state.accepted += 1
        return state.accepted
      }
      guard let number else {
        close(client)
        return
      }
      // Child processes (a test running curl) must not keep our side of a connection open.
      _ = fcntl(client, F_SETFD, FD_CLOEXEC)
      var on: Int32 = 1
      setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
      workers.enter()
      Thread { [self] in
        Connection(descriptor: client, number: number, server: self).serve()
        state.withLock { _ = $0.connections.remove(client) }
        close(client)
        workers.leave()
      }.start()
    }
  }

  private static func listen(on port: UInt16) throws -> (descriptor: Int32, port: UInt16) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw LoopbackServerError.socketCouldNotBeCreated(errno: errno) }
    var on: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))

    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let code = errno
      close(descriptor)
      throw LoopbackServerError.portCouldNotBeBound(port: port, errno: code)
    }
    guard Glibc.listen(descriptor, 128) == 0 else {
      let code = errno
      close(descriptor)
      throw LoopbackServerError.socketCouldNotListen(errno: code)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
  }
}

/// A counter of changes that threads can wait on.
private final class ChangeSignal: @unchecked Sendable {
  private let condition = NSCondition()
  /// Guarded by `condition`.
  private var changes = 0

  var count: Int {
    condition.lock()
    defer { condition.unlock() }
    return changes
  }

  func announce() {
    condition.lock()
    changes += 1
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until the count is past `seen`; false when `deadline` comes first.
  func wait(after seen: Int, until deadline: Date) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while changes == seen {
      if !condition.wait(until: deadline) { return changes != seen }
    }
    return true
  }
}
