import Foundation
import Glibc

/// A response read off the wire byte for byte: nothing is decoded, retried or followed, so tests
/// see exactly what the loopback server sent.
struct RawHTTPResponse {
  let status: Int
  /// Lowercased names.
  let headers: [String: String]
  let body: Data

  func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A minimal HTTP/1.1 client over a plain socket, for checking the loopback server itself
/// (libcurl would hide the faults we want to see). One request per connection.
enum RawHTTPClient {
  enum Failure: Error, CustomStringConvertible {
    case cannotConnect(port: UInt16)
    case noResponseHead(received: Int)

    var description: String {
      switch self {
      case .cannotConnect(let port): "could not connect to 127.0.0.1:\(port)"
      case .noResponseHead(let received): "no HTTP response head in \(received) bytes"
      }
    }
  }

  /// Sends one request with `Connection: close` and reads until the server closes (or
  /// `timeout` seconds pass without data).
  static func send(
    _ target: String, method: String = "GET", port: UInt16, headers: [String: String] = [:],
    timeout: Int = 5
  ) throws -> RawHTTPResponse {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var limit = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw Failure.cannotConnect(port: port) }

    var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    request += "\r\n"
    _ = request.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }

    var received = Data()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      received.append(contentsOf: chunk[0..<count])
    }
    return try parse(received)
  }

  private static func parse(_ received: Data) throws -> RawHTTPResponse {
    guard let blank = received.range(of: Data("\r\n\r\n".utf8)) else {
      throw Failure.noResponseHead(received: received.count)
    }
    let head = String(decoding: received[..<blank.lowerBound], as: UTF8.self)
    let lines = head.components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw Failure.noResponseHead(received: received.count)
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
        in: .whitespaces)
    }
    return RawHTTPResponse(
      status: status, headers: headers, body: Data(received[blank.upperBound...]))
  }
}
