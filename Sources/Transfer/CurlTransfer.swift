import Basics
internal import CCurl
import Foundation
import Synchronization

/// One easy handle and the Swift state behind it.
///
/// libcurl calls back through C function pointers; each callback only finds this object
/// through its userdata pointer and calls a named method. All mutable state is touched on the
/// transfer thread only, except `cancelRequested`.
package final class CurlTransfer: @unchecked Sendable {
  package let handle: UnsafeMutableRawPointer
  package let request: TransferRequest
  package let cancelRequested = Atomic<Bool>(false)
  /// What of the handle's setup a later request may keep (`TransferRequest.handleProfile`).
  private let profile: TransferRequest.HandleProfile?

  /// Nil once the transfer has reported (`report`): what the caller gets back must not still
  /// be held here (a download's sink holds its partial file and that file's lock).
  private var sink: TransferSink?
  private var headerList: UnsafeMutablePointer<curl_slist>?
  private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
  private var headers: [String: String] = [:]
  private var lastStatus = 0
  private var redirects: [(status: Int, url: String)] = []
  private var head: ResponseHead?
  private var sinkError: Error?
  private var completion: (@Sendable (Result<ResponseHead, Error>) -> Void)?
  /// When the server last sent anything (`CoarseClock`); the stall watchdog measures from here.
  private var lastActivity = CoarseClock.milliseconds()
  /// When libcurl last called the progress callback. It calls it about once a second for a
  /// transfer it is working on; a longer gap means libcurl had parked the transfer (waiting
  /// for a connection to its host, `CURLOPT_PIPEWAIT`), which is not the server stalling.
  private var lastProgressCall = CoarseClock.milliseconds()
  private var stalled = false
  /// Body bytes handed to the sink since its last flush.
  private var unflushed = false
  /// Set while paused for the rate limit: when the engine should resume it (engine thread).
  package var resumeAt: ContinuousClock.Instant?

  package init(request: TransferRequest, sink: TransferSink) throws {
    profile = request.handleProfile
    guard let (handle, isSetUp) = TransferEngine.shared.takeHandle(for: request) else {
      throw TransferError.network(url: request.url, reason: "libcurl could not start a transfer")
    }
    self.handle = handle
    self.request = request
    self.sink = sink
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    try configure(isSetUp: isSetUp)
  }

  deinit {
    // A handle with a buffer of its own size (see `setsBufferSize`; one paced by a rate limit
    // may also have been paused mid-body) goes, not to another request.
    if !request.setsBufferSize {
      TransferEngine.shared.recycle(handle, profile: profile)
    } else {
      podcast_easy_cleanup(handle)
    }
    podcast_slist_free_all(headerList)
    errorBuffer.deallocate()
  }

  package func onComplete(_ completion: @escaping @Sendable (Result<ResponseHead, Error>) -> Void) {
    self.completion = completion
  }

  // MARK: Setup

  /// Every option is checked: one libcurl refuses (an old libcurl without
  /// `CURLOPT_PROTOCOLS_STR`, say) would otherwise silently drop a rule such as http/https only.
  /// `isSetUp`: the handle comes from a request with the same profile, and has every other
  /// option as this one needs it.
  private func configure(isSetUp: Bool) throws {
    let me = Unmanaged.passUnretained(self).toOpaque()
    try setString(CURLOPT_URL, request.url)
    try check(
      podcast_easy_setopt_pointer(handle, CURLOPT_XFERINFODATA, me), "CURLOPT_XFERINFODATA")
    try check(
      podcast_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
    try check(podcast_easy_setopt_pointer(handle, CURLOPT_PRIVATE, me), "CURLOPT_PRIVATE")
    try check(podcast_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me), "CURLOPT_WRITEDATA")
    try check(podcast_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, me), "CURLOPT_HEADERDATA")
    // Set even when there are none: the last transfer's list is freed.
    try addHeaders()
    if !isSetUp { try configureProfile() }
  }

  /// The options `TransferRequest.HandleProfile` stands for, and those every transfer sets alike.
  private func configureProfile() throws {
    let options = request.options
    try setMethodAndBody()
    try setString(CURLOPT_PROTOCOLS_STR, request.protocols)
    try setString(CURLOPT_REDIR_PROTOCOLS_STR, request.protocols)
    try setLong(CURLOPT_FOLLOWLOCATION, 1)
    try setLong(CURLOPT_MAXREDIRS, options.maxRedirects)
    // ~/.netrc for private feeds, as curl reads it; credentials in the URL win. Credentials
    // never follow a redirect to another host: CURLOPT_UNRESTRICTED_AUTH stays off. Only when
    // there is one: libcurl otherwise tries to open it for every transfer (a warm sync's
    // 10,000 feeds, 10,000 failed opens and 2.5% of its CPU).
    if let netrc = Self.netrc {
      try setString(CURLOPT_NETRC_FILE, netrc)
      try setLong(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
    }
    if let credentials = request.credentials {
      try setString(CURLOPT_USERNAME, credentials.user)
      try setString(CURLOPT_PASSWORD, credentials.password)
    }
    try setLong(CURLOPT_CONNECTTIMEOUT, options.connectTimeout)
    // libcurl's low-speed check averages over its last ~5 s, so after a burst it fires only
    // 5-6 s late; the progress callback below enforces "no data for stallTimeout seconds"
    // exactly. The low-speed check stays as a backstop.
    try setLong(CURLOPT_LOW_SPEED_LIMIT, 1)
    // At most 68 years: libcurl counts it in milliseconds, and a longer one (any number of
    // seconds is a valid `--stall-timeout`) overflowed there into a stall at once.
    try setLong(CURLOPT_LOW_SPEED_TIME, min(options.stallTimeout, Int(Int32.max)))
    try setLong(CURLOPT_NOPROGRESS, 0)
    try check(
      podcast_easy_setopt_xferinfo_function(handle, progressCallback), "CURLOPT_XFERINFOFUNCTION")
    try setLong(CURLOPT_NOSIGNAL, 1)
    // With HTTP/2, a second transfer to a host whose connection is still being set up waits
    // for it and becomes a stream on it, instead of opening a connection of its own. Only
    // over TLS, where ALPN can offer HTTP/2: libcurl (7.88) parks the transfers waiting on a
    // plain-HTTP connection and lets them go one at a time as others finish, so transfers to
    // an HTTP/1.1 server would run about one at a time.
    if request.waitsForPipe { try setLong(CURLOPT_PIPEWAIT, 1) }
    // TLS sessions and DNS answers outlive the transfer (its easy handle is new each time):
    // a second connection to a host resumes the first one's TLS session.
    if let share = TransferEngine.shared.share {
      try check(podcast_easy_setopt_share(handle, share), "CURLOPT_SHARE")
    }
    if TransferEngine.shared.usesBundleOnly {
      try check(podcast_easy_setopt_string(handle, CURLOPT_CAPATH, nil), "CURLOPT_CAPATH")
    }
    try setLong(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
    try setString(CURLOPT_USERAGENT, Release.userAgent)
    if request.acceptsCompression { try setString(CURLOPT_ACCEPT_ENCODING, "") }
    if request.bulk { try setLong(CURLOPT_BUFFERSIZE, 512 * 1024) }
    if let limit = options.rateLimit { try setLong(CURLOPT_BUFFERSIZE, limit.bufferSize) }
    if let start = request.rangeStart, start > 0 { try setString(CURLOPT_RANGE, "\(start)-") }
    try check(
      podcast_easy_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, writeCallback),
      "CURLOPT_WRITEFUNCTION")
    try check(
      podcast_easy_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, headerCallback),
      "CURLOPT_HEADERFUNCTION")
  }

  /// POST and PUT send `request.body` (empty when there is none), copied by libcurl, with its
  /// length set first so that a body holding a zero byte is sent whole.
  private func setMethodAndBody() throws {
    guard request.method != .get else { return }
    if request.method == .put { try setString(CURLOPT_CUSTOMREQUEST, "PUT") }
    // A POST stays a POST, body and all, after a 301 or 302 (an http:// server address that
    // moved to https://); libcurl would turn it into a GET without its body. A 303 still
    // means GET.
    try setLong(CURLOPT_POSTREDIR, Int(CURL_REDIR_POST_301 | CURL_REDIR_POST_302))
    let body = request.body ?? Data()
    try check(
      podcast_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
      "CURLOPT_POSTFIELDSIZE_LARGE")
    guard !body.isEmpty else {
      try setString(CURLOPT_COPYPOSTFIELDS, "")
      return
    }
    let code = body.withUnsafeBytes { bytes in
      podcast_easy_setopt_pointer(
        handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
    }
    try check(code, "CURLOPT_COPYPOSTFIELDS")
  }

  private func addHeaders() throws {
    // utf8.contains: String.contains(String) goes through Foundation's search, a twentieth of
    // a warm sync's CPU for four lines per feed.
    func add(_ line: String) {
      guard !line.utf8.contains(where: { $0 == 13 || $0 == 10 }) else { return }
      headerList = podcast_slist_append(headerList, line)
    }
    // A body goes at once: libcurl would otherwise ask `Expect: 100-continue` for one over
    // 1 MiB and wait a second for an answer that servers such as PHP's never send.
    if request.body != nil { add("Expect:") }
    for header in request.headers { add(header.name + ": " + header.value) }
    // Media must arrive as the bytes of the file: offsets for resuming are offsets into it.
    if !request.acceptsCompression { add("Accept-Encoding: identity") }
    if let etag = request.validators?.etag { add("If-None-Match: " + etag) }
    if let date = request.validators?.lastModified { add("If-Modified-Since: " + date) }
    if let ifRange = request.ifRange, request.rangeStart ?? 0 > 0 { add("If-Range: " + ifRange) }
    try check(
      podcast_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")
  }

  /// Bytes per second this transfer may receive; the engine sets it from its `RateLimit` share.
  /// A refusal leaves the token bucket alone to hold the rate.
  package func limitReceiveRate(to bytesPerSecond: Int64) {
    _ = podcast_easy_setopt_off(handle, CURLOPT_MAX_RECV_SPEED_LARGE, curl_off_t(bytesPerSecond))
  }

  /// The netrc file libcurl would read (`$HOME/.netrc`, else the user's home directory's), if
  /// it exists as this process starts its first transfer; nil otherwise.
  static let netrc: String? = {
    var home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
    if home == nil, let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
      home = String(cString: directory)
    }
    guard let home else { return nil }
    let path = home + "/.netrc"
    return access(path, F_OK) == 0 ? path : nil
  }()

  private func setString(_ option: CURLoption, _ value: String) throws {
    // libcurl copies strings.
    try check(podcast_easy_setopt_string(handle, option, value), "option \(option.rawValue)")
  }

  private func setLong(_ option: CURLoption, _ value: Int) throws {
    try check(podcast_easy_setopt_long(handle, option, value), "option \(option.rawValue)")
  }

  /// `what` is made only for a refusal: a transfer sets some twenty options.
  private func check(_ code: CURLcode, _ what: @autoclosure () -> String) throws {
    guard code == CURLE_OK else {
      throw TransferError.setup(
        url: request.url,
        reason: "libcurl refused \(what()): \(String(cString: podcast_easy_strerror(code)))")
    }
  }

  // MARK: Callbacks (transfer thread)

  fileprivate func didReceiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
    lastActivity = CoarseClock.milliseconds()
    switch HeaderLine(bytes) {
    case .status(let code):
      // Room for a usual head's fields at once, not grown field by field.
      headers = Dictionary(minimumCapacity: 16)
      lastStatus = code
      if HeaderLine.isMultiplexedStatus(bytes) {
        // The redirects taken so far say which server this head comes from.
        MultiplexingServers.shared.note(
          MultiplexingServers.host(of: redirects.last?.url ?? request.url))
      }
    case .field(let name, let value):
      headers[name] = value
    case .end:
      didEndHeaderBlock()
    case .other:
      break
    }
  }

  private func didEndHeaderBlock() {
    guard (300..<400).contains(lastStatus), lastStatus != 304, let location = headers["location"]
    else {
      return
    }
    let base = URL(string: redirects.last?.url ?? request.url)
    let target = URL(string: location, relativeTo: base)?.absoluteString ?? location
    redirects.append((lastStatus, target))
  }

  /// True when the rate limit's budget is spent: curl keeps the bytes and the engine resumes
  /// the transfer at `resumeAt`.
  fileprivate func mustPauseForRate() -> Bool {
    guard let until = request.options.rateLimit?.spentUntil() else { return false }
    resumeAt = until
    return true
  }

  /// Called by the engine when the budget allows bytes again.
  package func resume() {
    resumeAt = nil
    lastActivity = CoarseClock.milliseconds()  // a pause for the rate limit is not a stall
    podcast_easy_unpause(handle)
  }

  fileprivate func didReceiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
    lastActivity = CoarseClock.milliseconds()
    do {
      try deliverHeadIfNeeded()
      try sink?.receive(bytes)
      request.options.rateLimit?.charge(bytes.count)
      unflushed = true
      return true
    } catch {
      sinkError = error
      return false
    }
  }

  /// Called by libcurl after each burst of data and about once a second while none comes: the
  /// sink writes out the burst, and the stall watchdog runs. False aborts the transfer.
  fileprivate func didReportProgress() -> Bool {
    guard flushSink() else { return false }
    let now = CoarseClock.milliseconds()
    if now - lastProgressCall > 5_000 { lastActivity = now }
    lastProgressCall = now
    // Any number of seconds a user may give: one past what milliseconds can count never ends.
    let (limit, overflow) = Int64(clamping: request.options.stallTimeout)
      .multipliedReportingOverflow(by: 1000)
    guard overflow || now - lastActivity < limit else {
      stalled = true
      return false
    }
    return true
  }

  /// Writes out what the sink holds; false, with the first error kept, when that failed.
  @discardableResult
  private func flushSink() -> Bool {
    guard unflushed else { return true }
    unflushed = false
    do {
      try sink?.flush()
      return true
    } catch {
      sinkError = sinkError ?? error
      return false
    }
  }

  private func deliverHeadIfNeeded() throws {
    guard head == nil else { return }
    var status = 0
    podcast_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    var urlPointer: UnsafeMutablePointer<CChar>?
    podcast_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &urlPointer)
    let url = urlPointer.map { String(cString: $0) } ?? request.url
    let head = ResponseHead(status: status, url: url, headers: headers, redirects: redirects)
    self.head = head
    try sink?.receive(head: head)
  }

  /// Ends the transfer with `error` without libcurl having run it to the end.
  package func fail(_ error: Error) {
    flushSink()
    report(.failure(error))
  }

  /// Hands `result` to the caller, the sink let go of first: the caller's task may run on
  /// at once, while the transfer thread still holds this transfer for a moment.
  private func report(_ result: Result<ResponseHead, Error>) {
    sink = nil
    completion?(result)
    completion = nil
  }

  func didComplete(code: CURLcode, cancelled: Bool) {
    // The last burst may have had no progress call after it; a failed or cancelled transfer
    // keeps its bytes too, for the next attempt to resume from.
    flushSink()
    let result: Result<ResponseHead, Error>
    if cancelled || cancelRequested.load(ordering: .relaxed) {
      result = .failure(TransferError.cancelled(url: request.url))
    } else if let sinkError {
      result = .failure(sinkError)
    } else if code == CURLE_OK {
      result = Result {
        try deliverHeadIfNeeded()
        return head ?? ResponseHead(status: 0, url: request.url, headers: [:], redirects: [])
      }
    } else {
      result = .failure(error(for: code))
    }
    report(result)
  }

  private func error(for code: CURLcode) -> TransferError {
    let url = request.url
    let detail = String(cString: errorBuffer)
    let reason = detail.isEmpty ? String(cString: podcast_easy_strerror(code)) : detail
    if stalled { return .timedOut(url: url, seconds: request.options.stallTimeout) }
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      return .timedOut(url: url, seconds: request.options.stallTimeout)
    case CURLE_UNSUPPORTED_PROTOCOL:
      if let target = headers["location"], (300..<400).contains(lastStatus) {
        return .redirectRefused(url: url, location: target)
      }
      return .unsupportedScheme(url: url)
    case CURLE_TOO_MANY_REDIRECTS:
      return .tooManyRedirects(url: url, limit: request.options.maxRedirects)
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
      CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CERTPROBLEM:
      // Not transient: the same certificate will be there on the next try.
      return .tls(url: url, reason: reason)
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
      return .unknownHost(url: url, reason: reason)
    case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR:
      return .network(url: url, reason: "connection lost: \(reason)")
    default:
      return .network(url: url, reason: reason)
    }
  }
}

private let writeCallback: curl_write_callback = { data, size, count, userdata in
  guard let userdata else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
  let total = size * count
  guard total > 0, let data else { return total }
  if transfer.mustPauseForRate() { return podcast_write_pause() }
  return transfer.didReceiveBody(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

private let progressCallback: curl_xferinfo_callback = { userdata, _, _, _, _ in
  guard let userdata else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
  return transfer.didReportProgress() ? 0 : 1
}

private let headerCallback: curl_write_callback = { data, size, count, userdata in
  guard let userdata, let data else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
  let total = size * count
  transfer.didReceiveHeaderLine(UnsafeRawBufferPointer(start: data, count: total))
  return total
}
