import Foundation

/// One request as the server received it: what tests check to see what a client really sent.
public struct RecordedRequest: Sendable, Equatable {
  public let method: String
  /// The request target exactly as sent: path plus query string.
  public let target: String
  /// Header fields keyed by lowercased name; repeated fields are joined with ", ".
  public let headers: [String: String]
  public let body: Data
  /// When the server read it: how far apart two requests came, e.g. whether a client waited
  /// for the `Retry-After` it was given.
  public let received: ContinuousClock.Instant
  /// The TCP connection it came on, numbered from 1 in the order the server accepted them
  /// (0 when not known): whether a client kept its connection for the next request.
  public let connection: Int

  public init(
    method: String, target: String, headers: [String: String], body: Data = Data(),
    received: ContinuousClock.Instant = .now, connection: Int = 0
  ) {
    self.method = method
    self.target = target
    self.headers = headers
    self.body = body
    self.received = received
    self.connection = connection
  }

  /// The target without its query string: what routes are matched on.
  public var path: String {
    String(target.prefix { $0 != "?" })
  }

  /// The query string after "?", if any.
  public var query: String? {
    guard let mark = target.firstIndex(of: "?") else { return nil }
    return String(target[target.index(after: mark)...])
  }

  /// The value of a header field, by case-insensitive name.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }
}
