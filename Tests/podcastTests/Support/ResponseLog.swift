import Foundation
import Synchronization

/// What the loopback server answered, one entry per response, to check for 304s.
final class ResponseLog: Sendable {
  struct Entry: Equatable {
    var method: String
    var path: String
    var status: Int
  }

  private let lines = Mutex<[String]>([])

  /// Hand this to `LoopbackServer(log:)`.
  var handler: @Sendable (String) -> Void {
    { [self] line in lines.withLock { $0.append(line) } }
  }

  /// Parsed from the server's "METHOD TARGET STATUS BYTES" lines.
  var entries: [Entry] {
    lines.withLock { $0 }.compactMap { line in
      let parts = line.split(separator: " ")
      guard parts.count >= 3, let status = Int(parts[2]) else { return nil }
      return Entry(
        method: String(parts[0]), path: String(parts[1].prefix { $0 != "?" }), status: status)
    }
  }

  var count: Int { lines.withLock { $0.count } }
}
