import Feeds
import FeedsTestSupport
import Foundation
import XCTest

/// Documents built to attack XML parsers do nothing: no expansion, no file read, no network.
final class FeedHostileInputTests: XCTestCase {
  typealias S = FeedTestSupport

  /// Parses `xml` and returns every string the feed exposes, for "does X appear" checks.
  private func allText(_ xml: String) -> String {
    guard let feed = try? S.parse(xml) else { return "" }
    return "\(feed)"
  }

  /// Parses `xml` and says how far the process's peak resident memory rose above where it
  /// stood before (the peak is reset first): the work an expansion does is the text it makes,
  /// so a bomb that went off would show gigabytes here, however fast or slow the machine.
  private func parseMeasuringPeakGrowth(_ xml: String) throws -> (feed: Feed, growthKB: Int) {
    let reset =
      FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")
      && (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8))
        != nil
    let before = Self.statusKB(reset ? "VmRSS:" : "VmHWM:")
    let feed = try S.parse(xml)
    return (feed, Self.statusKB("VmHWM:") - before)
  }

  private static func statusKB(_ field: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field) }
    return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
  }

  /// Far above what parsing these small documents takes, far below any expansion of them.
  private let growthLimitKB = 64 << 10

  func testBillionLaughsDoesNotExpand() throws {
    var entities = "<!ENTITY lol0 \"lol\">"
    for level in 1...9 {
      let previous = String(repeating: "&lol\(level - 1);", count: 10)
      entities += "\n<!ENTITY lol\(level) \"\(previous)\">"
    }
    let xml = """
      <?xml version="1.0"?><!DOCTYPE rss [\(entities)]>
      <rss version="2.0"><channel><title>&lol9;</title>\(S.item("Laugh &lol9;"))</channel></rss>
      """
    let (feed, growth) = try parseMeasuringPeakGrowth(xml)
    XCTAssertLessThan(growth, growthLimitKB, "peak memory rose by \(growth) kB")
    XCTAssertFalse("\(feed)".contains("lol"))
    XCTAssertEqual(feed.episodes.map(\.title), ["Laugh"], "the reference expands to nothing")
  }

  func testQuadraticBlowupDoesNotExpand() throws {
    let big = String(repeating: "A", count: 50_000)
    let refs = String(repeating: "&a;", count: 50_000)
    let xml = """
      <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "\(big)">]>
      <rss version="2.0"><channel><title>T</title>\(S.item("X", extra: "<description>\(refs)</description>"))</channel></rss>
      """
    let (feed, growth) = try parseMeasuringPeakGrowth(xml)
    XCTAssertLessThan(growth, growthLimitKB, "peak memory rose by \(growth) kB")
    XCTAssertFalse("\(feed)".contains("AAAA"))
    XCTAssertEqual(feed.episodes.map(\.title), ["X"])
  }

  func testExternalEntityDoesNotReadLocalFile() throws {
    let secret = "TOP-SECRET-\(UUID().uuidString)"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "feed-secret-\(UUID().uuidString).txt")
    try secret.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let xml = """
      <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "\(file.absoluteString)">
      <!ENTITY % pe SYSTEM "\(file.absoluteString)"> %pe;]>
      <rss version="2.0"><channel><title>&xxe;</title>\(S.item("Leak &xxe;"))</channel></rss>
      """
    XCTAssertFalse(allText(xml).contains("TOP-SECRET"))
    XCTAssertFalse(allText(xml).isEmpty, "the feed itself is still read")
  }

  func testExternalEntityAndDTDOnLoopbackMakeNoConnection() throws {
    let listener = try LoopbackListener()
    let url = "http://127.0.0.1:\(listener.port)/evil"
    let xml = """
      <?xml version="1.0"?><!DOCTYPE rss SYSTEM "\(url)/dtd" [<!ENTITY net SYSTEM "\(url)/entity">
      <!ENTITY % remote SYSTEM "\(url)/pe"> %remote;]>
      <rss version="2.0"><channel><title>&net;</title>\(S.item("Net &net;"))</channel></rss>
      """
    let feed = try S.parse(xml)
    XCTAssertEqual(feed.episodes.count, 1)
    XCTAssertFalse(listener.hadConnection(), "the parser must not touch the network")
  }

  func testDeepNestingCostsNothingAndLosesNothingBeforeIt() throws {
    let depth = 10_000
    let xml =
      "<rss version=\"2.0\"><channel><title>Deep</title>" + S.item("Early")
      + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
      + "</channel></rss>"
    let (feed, growth) = try parseMeasuringPeakGrowth(xml)
    XCTAssertLessThan(growth, growthLimitKB, "peak memory rose by \(growth) kB")
    XCTAssertEqual(feed.episodes.map(\.title), ["Early"])
  }

  func testInvalidUTF8DeclaredAsUTF8DoesNotCrash() throws {
    var data = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>".utf8)
    data.append(Data(S.rss(S.item("Broken X bytes")).utf8))
    let x = try XCTUnwrap(data.range(of: Data("X".utf8)))
    data.replaceSubrange(x, with: [0xC3, 0x28, 0xFF, 0xFE])
    let feed = try FeedParser.parse(data, baseURL: nil)
    XCTAssertEqual(feed.episodes.count, 1)
    XCTAssertTrue(feed.episodes[0].title?.hasPrefix("Broken") ?? false)
  }
}

/// A listening TCP socket on 127.0.0.1 that records whether anyone connected.
private final class LoopbackListener {
  private let socketFD: Int32
  let port: UInt16

  init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    socketFD = fd
    port = UInt16(bigEndian: address.sin_port)
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }

  deinit { close(socketFD) }

  func hadConnection() -> Bool {
    let client = accept(socketFD, nil, nil)
    if client >= 0 { close(client) }
    return client >= 0
  }
}
