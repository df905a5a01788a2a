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
    let parsed = url.withUTF8 { Self.parse($0) }
    guard let parsed else { return nil }
    (scheme, host, port) = parsed
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, String, Int?)? {
    // The scheme, case-insensitive, and "://".
    var index = 0
    let scheme: String
    if hasPrefix(bytes, "https://") {
      scheme = "https"
      index = 8
    } else if hasPrefix(bytes, "http://") {
      scheme = "http"
      index = 7
    } else {
      return nil
    }
    // The host: letters, digits, dots and hyphens, at least one.
    let hostStart = index
    while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
    guard index > hostStart else { return nil }
    let host = String(decoding: bytes[hostStart..<index].lazy.map(lowercased), as: UTF8.self)
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
    return (scheme, host, port)
  }

  private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString)
    -> Bool
  {
    guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
    for offset in 0..<prefix.utf8CodeUnitCount
    where lowercased(bytes[offset]) != prefix.utf8Start[offset] {
      return false
    }
    return true
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  private static func digitValue(_ byte: UInt8) -> Int? {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    digitValue(byte) != nil
      || (lowercased(byte) >= UInt8(ascii: "a") && lowercased(byte) <= UInt8(ascii: "f"))
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    digitValue(byte) != nil
      || (lowercased(byte) >= UInt8(ascii: "a") && lowercased(byte) <= UInt8(ascii: "z"))
  }

  private static func isHostByte(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
  }

  /// RFC 3986's unreserved characters, sub-delimiters, ":", "@", "/" and "?": what a path and
  /// a query may hold as they are.
  private static func isPathOrQueryByte(_ byte: UInt8) -> Bool {
    if isAlphanumeric(byte) { return true }
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
