import Foundation

/// Fetches URLs over libcurl. Placeholder signature; the engine lands with the Transfer layer.
public final class HTTPClient: Sendable {
  public static let shared = HTTPClient()

  public init() {}

  /// GETs `url` into memory. Sends `validators` for a conditional GET (a 304 comes back as a
  /// response, not an error). Any other status >= 400 throws `TransferError.httpStatus`.
  public func fetch(_ url: String, validators: Validators? = nil) async throws -> HTTPResponse {
    throw TransferError.network(url: url, reason: "not implemented")
  }
}
