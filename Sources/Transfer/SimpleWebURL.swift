import Basics

/// An http or https URL of the plain shape nearly every feed's has, read from its bytes:
/// `scheme://host[:port][/path][?query]` with an ASCII host name or IPv4 address, no user
/// name, no fragment, and nothing in the rest that RFC 3986 would want escaped.
///
/// A warm sync checks and sorts thousands of feed URLs, and a Foundation parse of each (by
/// `URLPolicy` and by `MultiplexingServers`) was a twentieth of its CPU. Only a shortcut:
/// whatever it does not take (`nil`) goes to Foundation as before, and whatever it takes,
/// Foundation takes too, with the same scheme, host and port.
struct SimpleWebURL {
  /// "http" or "https", lowercased.
  let scheme: String
  /// The host, lowercased.
  let host: String
  let port: Int?

  init?(_ url: String) {
    var url = url
    let read = url.withUTF8 { bytes -> (String, String, Int?)? in
      guard let parts = Self.parse(bytes) else { return nil }
      let host = String(unsafeUninitializedCapacity: parts.host.count) {
        Self.writeLowercased(bytes[parts.host], into: $0)
      }
      return (parts.isHTTPS ? "https" : "http", host, parts.port)
    }
    guard let read else { return nil }
    (scheme, host, port) = read
  }

  /// Whether `url` has the plain shape this reads: then it is an http or https URL with a host.
  static func isSimple(_ url: String) -> Bool {
    var url = url
    return url.withUTF8 { parse($0) != nil }
  }

  /// The host, lowercased, with ":" and the port when the URL names one: the key
  /// `MultiplexingServers` keeps a server under, made straight into one string. A sync asks it
  /// of every feed on the transfer thread, where making the host first and then the key (and
  /// the host through a lazy lowercasing view) was 3% of that thread's time.
  static func serverKey(of url: String) -> String? {
    var url = url
    return url.withUTF8 { bytes -> String? in
      guard let parts = parse(bytes) else { return nil }
      // ":" and at most five digits.
      return String(unsafeUninitializedCapacity: parts.host.count + 6) { buffer in
        var count = writeLowercased(bytes[parts.host], into: buffer)
        guard let port = parts.port else { return count }
        buffer[count] = UInt8(ascii: ":")
        count += 1
        let digits = port < 10 ? 1 : port < 100 ? 2 : port < 1000 ? 3 : port < 10000 ? 4 : 5
        var rest = port
        for offset in stride(from: count + digits - 1, through: count, by: -1) {
          buffer[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
        return count + digits
      }
    }
  }

  /// Where the parts of a URL this reads are, in its bytes.
  private struct Parts {
    var isHTTPS: Bool
    var host: Range<Int>
    var port: Int?
  }

  private static func writeLowercased(
    _ bytes: Slice<UnsafeBufferPointer<UInt8>>, into buffer: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    var count = 0
    for byte in bytes {
      buffer[count] = byte.asciiLowercased
      count += 1
    }
    return count
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Parts? {
    // The scheme, case-insensitive, and "://".
    var index = 0
    let isHTTPS: Bool
    if hasPrefix(bytes, "https://") {
      isHTTPS = true
      index = 8
    } else if hasPrefix(bytes, "http://") {
      isHTTPS = false
      index = 7
    } else {
      return nil
    }
    // The host: letters, digits, dots and hyphens, at least one.
    let hostStart = index
    while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
    guard index > hostStart else { return nil }
    let host = hostStart..<index
    // An optional port of 1 to 5 digits, 65535 at most.
    var port: Int?
    if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
      index += 1
      var value = 0
      let digitsStart = index
      while index < bytes.count, let digit = digitValue(bytes[index]) {
        value = value * 10 + digit
        index += 1
        guard index - digitsStart <= 5 else { return nil }
      }
      guard index > digitsStart, value <= 65535 else { return nil }
      port = value
    }
    // The rest must begin a path or a query, and hold only what needs no escaping.
    guard
      index == bytes.count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
    else { return nil }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2])
        else { return nil }
        index += 3
        continue
      }
      guard isPathOrQueryByte(byte) else { return nil }
      index += 1
    }
    return Parts(isHTTPS: isHTTPS, host: host, port: port)
  }

  private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString)
    -> Bool
  {
    guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
    for offset in 0..<prefix.utf8CodeUnitCount
    where bytes[offset].asciiLowercased != prefix.utf8Start[offset] {
      return false
    }
    return true
  }

  private static func digitValue(_ byte: UInt8) -> Int? {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    digitValue(byte) != nil
      || (byte.asciiLowercased >= UInt8(ascii: "a") && byte.asciiLowercased <= UInt8(ascii: "f"))
  }

  private static func isHostByte(_ byte: UInt8) -> Bool {
    byte.isASCIILetterOrDigit || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
  }

  /// RFC 3986's unreserved characters, sub-delimiters, ":", "@", "/" and "?": what a path and
  /// a query may hold as they are.
  private static func isPathOrQueryByte(_ byte: UInt8) -> Bool {
    if byte.isASCIILetterOrDigit { return true }
    switch byte {
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
      UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
      UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"),
      UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
      return true
    default:
      return false
    }
  }
}
