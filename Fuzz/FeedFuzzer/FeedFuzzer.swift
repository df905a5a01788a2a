import Feeds
import Foundation

/// One fuzz input through every parser that reads feed bytes a stranger controls: the whole
/// feed, and the date, duration and size fields on their own (so short inputs reach their
/// corners without first having to grow into a valid feed around them).
///
/// A crash, hang or sanitizer report is a finding; so is a broken promise the rest of the
/// program relies on, which `require` turns into a trap libFuzzer records as a crash.
enum FeedFuzzer {
  /// The feed URL relative links are resolved against, as when subscribing over https.
  static let baseURL = "https://example.com/shows/feed.xml"

  /// The field parsers only look at short values, so a longer input is not worth a string.
  static let fieldLimit = 256

  static func run(_ data: Data) {
    runFeed(data)
    let field = String(decoding: data.prefix(fieldLimit), as: UTF8.self)
    runFields(field)
  }

  private static func runFeed(_ data: Data) {
    // Errors are expected for most inputs; only crashes and broken promises are findings.
    guard let feed = try? FeedParser.parse(data, baseURL: baseURL) else { return }
    for episode in feed.episodes {
      require(isWebURL(episode.enclosure.url), "enclosure is not http(s): \(episode.enclosure.url)")
      if let length = episode.enclosure.length {
        require(length >= 1, "enclosure length \(length)")
      }
      if let duration = episode.duration { require(duration >= 0, "duration \(duration)") }
    }
  }

  private static func runFields(_ text: String) {
    _ = FeedDate.parse(text)
    if let seconds = EpisodeDuration.seconds(text) {
      require(
        seconds >= 0 && seconds < 864_000, "duration \(seconds) from \(text.debugDescription)")
    }
    if let bytes = EnclosureLength.bytes(text) {
      require(bytes >= 1, "length \(bytes) from \(text.debugDescription)")
    }
  }

  /// The program downloads only http and https; the parser promises nothing else gets through.
  /// Compared as bytes: `String.hasPrefix` works on characters, so "https://" followed by a
  /// combining mark (a fuzzer favourite) would not count as starting with "https://".
  private static func isWebURL(_ url: String) -> Bool {
    let head = url.utf8.prefix(8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    return head.starts(with: "http://".utf8) || head.starts(with: "https://".utf8)
  }

  private static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("FeedFuzzer: broken promise: \(message())\n".utf8))
    abort()
  }
}
