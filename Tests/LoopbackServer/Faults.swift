/// The ways a route misbehaves on purpose. Empty by default: a well-behaved server.
public struct Faults: Sendable, Equatable {
  public struct Cut: Sendable, Equatable {
    public var afterBytes: Int
    public var times: Int

    public init(afterBytes: Int, times: Int = .max) {
      self.afterBytes = afterBytes
      self.times = times
    }
  }

  public struct Stall: Sendable, Equatable {
    public var afterBytes: Int
    /// nil: until the server stops.
    public var seconds: Double?
    public var times: Int

    public init(afterBytes: Int, seconds: Double?, times: Int = .max) {
      self.afterBytes = afterBytes
      self.seconds = seconds
      self.times = times
    }
  }

  public enum Encoding: Sendable, Equatable {
    case identity
    case gzip
    /// gzip bytes without a Content-Encoding header.
    case gzipUndeclared
  }

  public var ignoresRange = false
  /// Honours Range but not If-Range: a changed file's tail comes back as a 206.
  public var ignoresIfRange = false
  public var drop: Cut?
  public var stall: Stall?
  public var bytesPerSecond: Int?
  /// Announced Content-Length minus the bytes really sent.
  public var lengthLie = 0
  public var encoding = Encoding.identity

  public init() {}

  /// Whether a response with these faults leaves the connection unfit for another request.
  var spoilsConnection: Bool {
    drop != nil || stall != nil || lengthLie != 0
  }
}
