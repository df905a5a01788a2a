import Basics
import Foundation

/// Fetches URLs over libcurl: the only way PodcastKit talks to the network.
public final class HTTPClient: Sendable {
  public static let shared = HTTPClient()

  public let options: TransferOptions
  /// Largest body `fetch` keeps in memory (feeds run to tens of MB; nothing legitimate is bigger).
  public let maxBodyBytes: Int64

  public init(options: TransferOptions = TransferOptions(), maxBodyBytes: Int64 = 256 << 20) {
    self.options = options
    self.maxBodyBytes = maxBodyBytes
  }

  /// Gets the network ready on another thread (see `CurlLibrary.openInBackground`), for a
  /// command that is about to fetch and has its own start-up to do first.
  public static func prepareInBackground() {
    CurlLibrary.openInBackground()
  }

  /// A client with the same options plus one bandwidth budget shared by every transfer made
  /// through it; itself when `bytesPerSecond` is nil.
  public func limited(to bytesPerSecond: Int64?) -> HTTPClient {
    guard let bytesPerSecond else { return self }
    var options = options
    options.rateLimit = RateLimit(bytesPerSecond: bytesPerSecond)
    return HTTPClient(options: options, maxBodyBytes: maxBodyBytes)
  }

  /// GETs `url` into memory. Sends `validators` for a conditional GET (a 304 comes back as a
  /// response, not an error). Any other status >= 400 throws `TransferError.httpStatus`.
  /// A body larger than `spoolAbove` bytes waits in a temporary file (`HTTPResponse.spooled`).
  public func fetch(_ url: String, validators: Validators? = nil, spoolAbove: Int? = nil)
    async throws -> HTTPResponse
  {
    let sink = MemorySink(url: url, limit: maxBodyBytes, spoolAbove: spoolAbove)
    var request = TransferRequest(url: url, options: options)
    request.validators = validators
    return try await response(to: request, into: sink)
  }

  /// `fetch` without a task to wait in: starts the GET and returns at once; `completion` hears
  /// the answer (or the error `fetch` would throw) on the transfer thread, and must return
  /// quickly. For a caller that asks thousands of servers a small question each (a sync's
  /// conditional GETs), where a task suspended and resumed per request cost more than the
  /// request. Nothing cancels it but `stopAllTransfers`.
  package func start(
    fetching url: String, validators: Validators? = nil, spoolAbove: Int? = nil,
    completion: @escaping @Sendable (Result<HTTPResponse, Error>) -> Void
  ) {
    let sink = MemorySink(url: url, limit: maxBodyBytes, spoolAbove: spoolAbove)
    var request = TransferRequest(url: url, options: options)
    request.validators = validators
    do {
      let transfer = try transfer(for: request, into: sink)
      transfer.onComplete { result in
        completion(result.map { Self.response(head: $0, sink: sink) })
      }
      TransferEngine.shared.start(transfer)
    } catch {
      completion(.failure(error))
    }
  }

  /// Sends `request` (an API call: its method, body, headers and credentials) and returns the
  /// answer whatever its status, for callers that read the body of a refusal too. The body is
  /// kept in memory, up to `maxBodyBytes`; the request's own options are used as given.
  package func send(_ request: TransferRequest) async throws -> HTTPResponse {
    let sink = MemorySink(url: request.url, limit: maxBodyBytes, acceptsErrorStatus: true)
    return try await response(to: request, into: sink)
  }

  private func response(to request: TransferRequest, into sink: MemorySink) async throws
    -> HTTPResponse
  {
    Self.response(head: try await perform(request, into: sink), sink: sink)
  }

  private static func response(head: ResponseHead, sink: MemorySink) -> HTTPResponse {
    var response = HTTPResponse(
      status: head.status, url: head.url, headers: head.headers, body: sink.body,
      redirects: head.redirects)
    response.spooled = sink.takeSpooled()
    return response
  }

  /// Stops every transfer in this process, returning once what each had received is written
  /// to its sink (or after `timeout`): for Ctrl-C, so the next run resumes from every byte.
  public static func stopAllTransfers(timeout: Duration = .seconds(2)) {
    guard CurlLibrary.isOpen else { return }
    TransferEngine.shared.cancelAllAndWait(timeout: timeout)
  }

  /// Runs one transfer to completion on the transfer thread. Cancelling the task aborts it.
  package func perform(_ request: TransferRequest, into sink: TransferSink) async throws
    -> ResponseHead
  {
    let transfer = try transfer(for: request, into: sink)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        transfer.onComplete { continuation.resume(with: $0) }
        TransferEngine.shared.start(transfer)
      }
    } onCancel: {
      transfer.cancelRequested.store(true, ordering: .relaxed)
      TransferEngine.shared.cancel(transfer)
    }
  }

  /// A transfer of `request`, checked against the URL policy, not yet started.
  private func transfer(for request: TransferRequest, into sink: TransferSink) throws
    -> CurlTransfer
  {
    try URLPolicy.check(request.url)
    try CurlLibrary.prepare(for: request.url)
    return try CurlTransfer(request: request, sink: sink)
  }
}
