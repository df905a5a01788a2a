import Basics
import Foundation

/// A completed fetch into memory.
public struct HTTPResponse: Sendable {
  /// The final status after redirects (304 when the validators matched).
  public var status: Int
  /// The final URL after redirects.
  public var url: String
  /// Header names lower-cased; the last value wins for repeated names.
  public var headers: [String: String]
  public var body: Data
  /// A large body asked to be spooled (`HTTPClient.fetch(_:validators:spoolAbove:)`); `body`
  /// is then empty.
  public var spooled: SpooledBody?
  /// The redirects taken, as (status, target URL), so callers can follow permanent moves.
  public var redirects: [(status: Int, url: String)]

  public var notModified: Bool { status == 304 }
  public var validators: Validators {
    Validators(etag: headers["etag"], lastModified: headers["last-modified"])
  }

  public init(
    status: Int, url: String, headers: [String: String], body: Data,
    redirects: [(status: Int, url: String)] = []
  ) {
    self.status = status
    self.url = url
    self.headers = headers
    self.body = body
    self.redirects = redirects
  }
}
