import Foundation
import Glibc

/// One accepted client connection, served on its own thread: reads requests one after the
/// other (keep-alive) and answers each from the server's routes until either side closes.
final class Connection {
  private static let maximumHeadSize = 64 * 1024

  private let socket: Socket
  private let server: LoopbackServer
  /// Which connection this is, in the order the server accepted them (from 1).
  private let number: Int
  /// Bytes received but not consumed yet.
  private var pending: [UInt8] = []
  private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

  init(descriptor: Int32, number: Int, server: LoopbackServer) {
    self.socket = Socket(fd: descriptor)
    self.number = number
    self.server = server
  }

  func serve() {
    while let request = readRequest() {
      guard respond(to: request.head, body: request.body) else { return }
    }
  }

  // MARK: Reading

  /// The next request head and body, or nil when the client closed or sent something that is
  /// not HTTP (which gets a 400 first).
  private func readRequest() -> (head: RequestHead, body: Data)? {
    var headEnd = findBlankLine()
    while headEnd == nil {
      guard pending.count <= Self.maximumHeadSize, fill() else { return nil }
      headEnd = findBlankLine()
    }
    guard let end = headEnd, let head = RequestHead.parse(pending[..<end]) else {
      _ = socket.send("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
      return nil
    }
    pending.removeFirst(end + 4)
    while pending.count < head.contentLength {
      guard fill() else { return nil }
    }
    let body = Data(pending.prefix(head.contentLength))
    pending.removeFirst(body.count)
    return (head, body)
  }

  private func fill() -> Bool {
    let count = socket.receive(into: &scratch)
    guard count > 0 else { return false }
    pending += scratch[0..<count]
    return true
  }

  private func findBlankLine() -> Int? {
    guard pending.count >= 4 else { return nil }
    for index in 0...(pending.count - 4)
    where pending[index] == 13 && pending[index + 1] == 10 && pending[index + 2] == 13
      && pending[index + 3] == 10
    {
      return index
    }
    return nil
  }

  // MARK: Answering

  /// Answers one request; returns whether the connection may carry another.
  private func respond(to head: RequestHead, body requestBody: Data) -> Bool {
    let request = RecordedRequest(
      method: head.method, target: head.target, headers: head.headers, body: requestBody,
      connection: number)
    var (route, hit) = server.answer(to: request)
    let body: LoadedBody
    do {
      body = try LoadedBody(route: route, baseURL: server.baseURL)
    } catch {
      route = .status(404, body: "\(error)\n")
      body = LoadedBody(data: Data("\(error)\n".utf8), contentType: "text/plain; charset=utf-8")
    }
    defer { body.close() }

    let plan = ResponsePlan(
      request: head, route: route, contentType: body.contentType, bodySize: body.source.size)
    var sent = 0
    if socket.send(plan.head) {
      let release = server.stallReleases
      var writer = BodyWriter(socket: socket, source: body.source, faults: route.faults, hit: hit) {
        [server] seconds in server.pause(seconds, release: release)
      }
      writer.didSend = { [server] count in server.recordSent(count, for: request.path) }
      sent = writer.write(plan.bodyRange)
    }
    server.logResponse(request, status: plan.status, bytes: sent)
    return !plan.closesConnection && sent == plan.bodyRange.count
  }
}
