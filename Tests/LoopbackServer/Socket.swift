import Foundation
import Glibc

/// A connected TCP socket: thin wrappers over the POSIX calls so the HTTP code reads as HTTP.
/// Every send uses MSG_NOSIGNAL, and the server ignores SIGPIPE for sendfile(2), so a client
/// hanging up is an ordinary failed send.
struct Socket {
  let fd: Int32

  /// Sends every byte, or returns false when the peer is gone.
  func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
      guard let base = bytes.baseAddress else { return true }
      let sent = Glibc.send(fd, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      if sent < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += sent
    }
    return true
  }

  func send(_ data: Data) -> Bool {
    data.withUnsafeBytes { send($0) }
  }

  func send(_ text: String) -> Bool {
    send(Data(text.utf8))
  }

  /// Sends `count` bytes of an open file from `offset` without copying them through user space.
  func sendFile(_ file: Int32, offset: Int, count: Int) -> Bool {
    var position = off_t(offset)
    var remaining = count
    while remaining > 0 {
      let sent = sendfile(fd, file, &position, min(remaining, 0x4000_0000))
      if sent < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return false
      }
      if sent == 0 { return false }  // the file got shorter under us
      remaining -= sent
    }
    return true
  }

  /// Reads what is available into `buffer`; 0 means the peer closed, negative an error.
  func receive(into buffer: inout [UInt8]) -> Int {
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0 && errno == EINTR { continue }
      return count
    }
  }
}
