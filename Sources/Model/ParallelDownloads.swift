import Selection

/// How many downloads run at once, in all and from any one server: the one place their bounds
/// and defaults are written; every way a value comes in (a flag, the config file, a
/// subscription's setting) is checked against them.
public enum ParallelDownloads {
  /// What either setting may be.
  public static let range = 1...32
  /// Downloads at once unless told otherwise. Over a real network a download's time is mostly
  /// round trips (TLS, redirects, TCP's slow start), so more in flight finish sooner; the
  /// per-server share still keeps each server to its part.
  public static let defaultConcurrency = 16
  /// Downloads at once from one server, so none is hammered: connections, since over HTTP/1.1
  /// each is one.
  public static let defaultPerHost = 2

  /// Throws `FilterError.outOfRange` naming `setting` (`concurrency`, `per-host`) when `value`
  /// is outside `range`.
  public static func check(_ value: Int, setting: String) throws(FilterError) {
    guard range.contains(value) else {
      throw .outOfRange(setting: setting, value: value, range: range)
    }
  }
}
