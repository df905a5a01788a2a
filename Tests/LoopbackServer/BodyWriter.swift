import Foundation

/// Where a response body comes from: bytes in memory, or an open file sent with sendfile(2).
enum BodySource {
  case bytes(Data)
  case file(descriptor: Int32, size: Int)

  var size: Int {
    switch self {
    case .bytes(let data): data.count
    case .file(_, let size): size
    }
  }

  func send(_ range: Range<Int>, to socket: Socket) -> Bool {
    switch self {
    case .bytes(let data):
      data.withUnsafeBytes { socket.send(UnsafeRawBufferPointer(rebasing: $0[range])) }
    case .file(let descriptor, _):
      socket.sendFile(descriptor, offset: range.lowerBound, count: range.count)
    }
  }
}

/// Sends one slice of a body, applying the byte-level faults: drop, stall and trickle.
struct BodyWriter {
  let socket: Socket
  let source: BodySource
  let faults: Faults
  /// Which request to the path this is (0 for the first): drops and stalls count these.
  let hit: Int
  /// Sleeps for the given seconds (nil: until the server stops); false if the server stopped.
  let pause: (Double?) -> Bool
  /// Told of each slice of the body as it goes out.
  var didSend: (Int) -> Void = { _ in }

  /// Sends the slice and returns how many body bytes went out.
  func write(_ range: Range<Int>) -> Int {
    var limit = range.count
    if let drop = faults.drop, hit < drop.times { limit = min(limit, drop.afterBytes) }
    var stall = faults.stall.flatMap { hit < $0.times ? $0 : nil }
    let started = Date()
    var sent = 0
    while sent < limit {
      if let pending = stall, sent >= pending.afterBytes {
        stall = nil
        guard pause(pending.seconds) else { return sent }
        continue
      }
      var chunk = min(limit - sent, 4 << 20)
      if let pending = stall { chunk = min(chunk, pending.afterBytes - sent) }
      if let rate = faults.bytesPerSecond {
        chunk = min(chunk, max(1, rate / 10))
        let due = Double(sent) / Double(rate) - Date().timeIntervalSince(started)
        if due > 0 { guard pause(due) else { return sent } }
      }
      let start = range.lowerBound + sent
      guard source.send(start..<(start + chunk), to: socket) else { return sent }
      sent += chunk
      didSend(chunk)
    }
    return sent
  }
}
