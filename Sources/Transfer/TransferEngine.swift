import Basics
internal import CCurl
import Foundation
import Synchronization

/// Owns the libcurl multi handle and the one thread that drives it.
///
/// Work is handed over through a locked queue and `curl_multi_wakeup`, so callers on any
/// thread (or task) never touch curl state directly. The loop runs on its own `Thread`, not in a
/// Task, because `curl_multi_poll` blocks and would starve the cooperative pool.
package final class TransferEngine: @unchecked Sendable {
  package static let shared = TransferEngine()

  private struct Inbox {
    var toStart: [CurlTransfer] = []
    var toCancel: [CurlTransfer] = []
    /// Signalled once every running transfer was stopped (and its sink flushed).
    var cancelAll: [DispatchSemaphore] = []
    /// Whether the engine was woken for what waits here and has not taken it yet: only the
    /// first of a burst of requests wakes it (a wakeup is a write to a socket pair and a read
    /// on the engine thread: two of a warm sync's ten system calls per feed).
    var woken = false
    /// Whether the engine is handing finished transfers their answers: what their
    /// completions start (a sync's next feeds) is taken right after, with no wakeup.
    var completing = false
  }

  private let multi: UnsafeMutableRawPointer
  /// The TLS session and DNS caches every transfer shares (nil if libcurl refused the share:
  /// transfers then work, each with its own TLS session cache).
  let share: UnsafeMutableRawPointer?
  /// Whether transfers set no CA folder (`CURLOPT_CAPATH`), only libcurl's CA bundle file.
  /// libcurl keeps the certificate store it builds for a TLS connection and reuses it for the
  /// next ones (`CURLOPT_CA_CACHE_TIMEOUT`, a day by default), but only when it comes from a
  /// file alone; Debian's libcurl names both /etc/ssl/certs/ca-certificates.crt and the folder
  /// /etc/ssl/certs, so every new connection parsed the whole bundle again: over half the CPU
  /// of a warm sync against a dozen HTTPS servers. The bundle holds the folder's certificates
  /// (update-ca-certificates writes both). Only when libcurl names a bundle that exists: one
  /// built with a folder alone would otherwise trust nothing.
  let usesBundleOnly: Bool
  private let inbox = Mutex(Inbox())
  /// Easy handles of ended transfers, for the next ones: a new handle and its buffers made and
  /// freed for every feed, then every option set again, cost a warm sync a tenth of its CPU.
  /// At most `handlesKept`.
  private let idleHandles = Mutex(IdleHandles())
  static let handlesKept = 64

  /// Handles by the profile of the request that last used them (`HandleProfile`), nil for one
  /// that had more set.
  private struct IdleHandles: @unchecked Sendable {
    var handles: [TransferRequest.HandleProfile?: [UnsafeMutableRawPointer]] = [:]
    var count = 0

    mutating func take(_ profile: TransferRequest.HandleProfile?) -> UnsafeMutableRawPointer? {
      guard let handle = handles[profile]?.popLast() else { return nil }
      count -= 1
      return handle
    }

    mutating func takeAny() -> UnsafeMutableRawPointer? {
      guard let profile = handles.first(where: { !$0.value.isEmpty })?.key else { return nil }
      return take(profile)
    }
  }
  /// Touched only on the engine thread.
  private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

  private init() {
    podcast_global_init(Int(CURL_GLOBAL_ALL))
    guard let multi = podcast_multi_init() else {
      // Only fails when malloc fails; nothing sensible can continue.
      preconditionFailure("curl_multi_init failed: out of memory")
    }
    self.multi = multi
    Self.configure(multi)
    var reason = [CChar](repeating: 0, count: 256)
    share = podcast_share_make(&reason, reason.count - 1)
    usesBundleOnly = Self.defaultBundle().map { access($0, R_OK) == 0 } ?? false
    let thread = Thread { [unowned self] in self.loop() }
    thread.name = "podcast.transfer"
    thread.start()
  }

  /// Connections at most in the cache of open connections kept between transfers. libcurl's
  /// default is four times the transfers running, so between sync's phases (and as a batch
  /// drains) it closed the connections the next transfers to the same hosts wanted.
  static let connectionsKept = 64

  /// The multi handle's settings for an internet 100 ms away: HTTP/2 transfers to one host
  /// share one connection (each transfer also waits for it, `CURLOPT_PIPEWAIT`, rather than
  /// opening another), and connections stay open for the whole run. A libcurl that refuses
  /// one of them still transfers, only less well, so refusals are ignored.
  private static func configure(_ multi: UnsafeMutableRawPointer) {
    _ = podcast_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
    _ = podcast_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, connectionsKept)
  }

  /// The CA bundle file libcurl verifies against when told nothing (`CURLINFO_CAINFO`, libcurl
  /// 7.84 and later); nil when it names none or cannot say.
  private static func defaultBundle() -> String? {
    guard let handle = podcast_easy_init() else { return nil }
    defer { podcast_easy_cleanup(handle) }
    var path: UnsafeMutablePointer<CChar>?
    guard podcast_easy_getinfo_string(handle, CURLINFO_CAINFO, &path) == CURLE_OK, let path
    else { return nil }
    return String(cString: path)
  }

  /// An easy handle for `request`, and whether it is set up for it already: a new one for a
  /// request that sets its own buffer size (`TransferRequest.setsBufferSize`); else one a
  /// request with the same profile left, with every option but its URL, header lines
  /// and pointers as this one needs them; else another's, reset to libcurl's defaults so
  /// nothing of its transfer (a login, a range) reaches this one; else a new one. Taken and
  /// reset on the caller's thread, not the transfer thread a warm sync waits on.
  package func takeHandle(for request: TransferRequest)
    -> (handle: UnsafeMutableRawPointer, isSetUp: Bool)?
  {
    if request.setsBufferSize {
      guard let handle = podcast_easy_init() else { return nil }
      return (handle, false)
    }
    let profile = request.handleProfile
    let idle: (handle: UnsafeMutableRawPointer, isSetUp: Bool)? = idleHandles.withLock { idle in
      if profile != nil, let handle = idle.take(profile) { return (handle, true) }
      return (idle.take(nil) ?? idle.takeAny()).map { ($0, false) }
    }
    guard let idle else {
      guard let handle = podcast_easy_init() else { return nil }
      return (handle, false)
    }
    if !idle.isSetUp { podcast_easy_reset(idle.handle) }
    return idle
  }

  /// Takes back the handle of a transfer that is over (out of the multi handle, its object
  /// going), under the profile of its request. libcurl touches none of the pointers the old
  /// transfer gave it until the next one sets its own.
  package func recycle(_ handle: UnsafeMutableRawPointer, profile: TransferRequest.HandleProfile?) {
    let kept = idleHandles.withLock { idle in
      guard idle.count < Self.handlesKept else { return false }
      idle.handles[profile, default: []].append(handle)
      idle.count += 1
      return true
    }
    if !kept { podcast_easy_cleanup(handle) }
  }

  package func start(_ transfer: CurlTransfer) {
    post { $0.toStart.append(transfer) }
  }

  package func cancel(_ transfer: CurlTransfer) {
    post { $0.toCancel.append(transfer) }
  }

  /// Leaves work in the inbox, waking the engine unless a wakeup is on its way already.
  private func post(_ work: (inout Inbox) -> Void) {
    let wake = inbox.withLock { inbox -> Bool in
      work(&inbox)
      defer { inbox.woken = true }
      return !inbox.woken && !inbox.completing
    }
    if wake { podcast_multi_wakeup(multi) }
  }

  /// Stops every transfer and returns once their sinks hold everything received (the Ctrl-C
  /// path: the process exits right after), or after `timeout`.
  package func cancelAllAndWait(timeout: Duration) {
    let done = DispatchSemaphore(value: 0)
    post { $0.cancelAll.append(done) }
    // The whole duration: `components.seconds` alone turned half a second into no wait.
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    _ = done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
  }

  private func loop() {
    var stillRunning: Int32 = 0
    while true {
      takeInbox()
      resumeDue()
      let performed = podcast_multi_perform(multi, &stillRunning)
      if performed != CURLM_OK { failAll(performed, in: "curl_multi_perform") }
      inbox.withLock { $0.completing = true }
      collectFinished()
      // What the completions started (and anything posted meanwhile) goes in before the poll:
      // a new transfer makes libcurl's poll return at once.
      takeInbox()
      let polled = podcast_multi_poll(multi, pollTimeout())
      if polled != CURLM_OK {
        failAll(polled, in: "curl_multi_poll")
        // Never spin: whatever broke the poll gets a moment before the next one.
        usleep(100_000)
      }
    }
  }

  /// The multi handle itself failed: no running transfer can be trusted to finish.
  private func failAll(_ code: CURLMcode, in call: String) {
    let reason = "libcurl \(call) failed: \(String(cString: podcast_multi_strerror(code)))"
    for transfer in Array(running.values) {
      podcast_multi_remove_handle(multi, transfer.handle)
      running[transfer.handle] = nil
      transfer.fail(TransferError.network(url: transfer.request.url, reason: reason))
    }
  }

  /// Resumes transfers paused for the rate limit whose time has come.
  private func resumeDue() {
    let now = ContinuousClock.now
    for transfer in running.values {
      if let at = transfer.resumeAt, at <= now { transfer.resume() }
    }
  }

  /// Up to a second, or until the first paused transfer is due.
  private func pollTimeout() -> Int32 {
    let now = ContinuousClock.now
    var timeout = Duration.seconds(1)
    for transfer in running.values {
      if let at = transfer.resumeAt { timeout = min(timeout, max(.zero, at - now)) }
    }
    let (seconds, attoseconds) = timeout.components
    return Int32(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) + 1
  }

  private func takeInbox() {
    let work = inbox.withLock { inbox -> Inbox in
      defer { inbox = Inbox() }
      return inbox
    }
    for transfer in work.toStart {
      let added = podcast_multi_add_handle(multi, transfer.handle)
      guard added == CURLM_OK else {
        let reason = String(cString: podcast_multi_strerror(added))
        transfer.fail(
          TransferError.setup(url: transfer.request.url, reason: "libcurl refused it: \(reason)"))
        continue
      }
      running[transfer.handle] = transfer
    }
    for transfer in work.toCancel where running[transfer.handle] != nil {
      finish(transfer, code: CURLE_ABORTED_BY_CALLBACK, cancelled: true)
    }
    if !work.toStart.isEmpty { rebalance() }
    guard !work.cancelAll.isEmpty else { return }
    for transfer in Array(running.values) {
      transfer.cancelRequested.store(true, ordering: .relaxed)
      finish(transfer, code: CURLE_ABORTED_BY_CALLBACK, cancelled: true)
    }
    for waiting in work.cancelAll { waiting.signal() }
  }

  /// Divides each shared `RateLimit` equally among its running transfers (see `RateLimit`).
  /// libcurl reads the limit afresh as it paces each transfer, so a changed share applies to
  /// transfers already under way.
  private func rebalance() {
    var groups: [ObjectIdentifier: (limit: RateLimit, members: [CurlTransfer])] = [:]
    for transfer in running.values {
      guard let limit = transfer.request.options.rateLimit else { continue }
      groups[ObjectIdentifier(limit), default: (limit, [])].members.append(transfer)
    }
    for (limit, members) in groups.values {
      let share = max(1, limit.bytesPerSecond / Int64(members.count))
      for transfer in members { transfer.limitReceiveRate(to: share) }
    }
  }

  private func collectFinished() {
    var queued: Int32 = 0
    while let message = podcast_multi_info_read(multi, &queued) {
      guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
        let transfer = running[easy]
      else { continue }
      finish(transfer, code: message.pointee.data.result, cancelled: false)
    }
  }

  private func finish(_ transfer: CurlTransfer, code: CURLcode, cancelled: Bool) {
    podcast_multi_remove_handle(multi, transfer.handle)
    running[transfer.handle] = nil
    if transfer.request.options.rateLimit != nil { rebalance() }
    transfer.didComplete(code: code, cancelled: cancelled)
  }
}
