import Basics

#if canImport(Glibc)
  import Glibc
#endif

/// Hides the secret parts of URLs in text meant for people: a private feed's URL is its
/// password (`https://www.patreon.com/rss/show?auth=3f9c…`), and so are Basic-auth userinfo and
/// the signature of an expiring link. They are masked in tables, messages and logs, and in
/// JSON unless the user asks for them.
public enum SecretMask {
  /// Query parameters whose value is a secret (compared without regard to case).
  public static let secretParameters: Set<String> = [
    "auth", "token", "key", "secret", "sig", "signature", "token-hash", "password",
    "access_token", "api_key", "apikey", "x-amz-signature", "x-amz-credential",
  ]
  public static let mark = "…"

  /// `text` with every URL's password (or whole userinfo when it has none) and every secret
  /// query value replaced by `…`; the rest, including parameter names, stays readable.
  public static func masked(_ text: String) -> String {
    // Most text has no secret: find out without copying (a 20,000-episode listing asks this
    // of every URL it prints).
    guard mayHoldSecret(text) else { return text }
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      if let end = userinfoEnd(bytes, at: index) {
        appendMaskedUserinfo(bytes[index..<end], to: &output)
        index = end
      } else if let (nameEnd, valueEnd) = secretParameter(bytes, at: index) {
        output.append(contentsOf: bytes[index..<nameEnd])
        output.append(contentsOf: mark.utf8)
        index = valueEnd
      } else {
        output.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// False only when `text` surely has nothing to mask: no `@` after a `://`, no secret
  /// parameter name followed by `=`.
  /// On the bytes: walking `String.UTF8View` and lowercasing the whole text was most of
  /// what printing a URL cost.
  private static func mayHoldSecret(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      // `memchr` for the two bytes that matter: most URLs have neither.
      guard let base = bytes.baseAddress else { return false }
      if memchr(base, Int32(UInt8(ascii: "@")), bytes.count) != nil, hasUserinfo(bytes) {
        return true
      }
      guard memchr(base, Int32(UInt8(ascii: "=")), bytes.count) != nil else { return false }
      // Lowercasing can turn a non-ASCII letter into an ASCII one (the Kelvin sign into `k`).
      guard bytes.allSatisfy({ $0 < 0x80 }) else {
        let lowered = String(decoding: bytes, as: UTF8.self).lowercased()
        return secretParameters.contains { lowered.contains($0 + "=") }
      }
      return bytes.indices.contains { index in
        bytes[index] == UInt8(ascii: "=") && endsWithSecretName(bytes[..<index])
      }
    }
  }

  /// Whether `://` occurs in the bytes.
  private static func hasSchemeSeparator(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    guard bytes.count >= 3 else { return false }
    return (bytes.startIndex...bytes.endIndex - 3).contains { index in
      bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/")
        && bytes[index + 2] == UInt8(ascii: "/")
    }
  }

  /// Whether some `@` comes after a `://` (then the last one does).
  private static func hasUserinfo(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return false }
    return hasSchemeSeparator(bytes[..<at])
  }

  /// Whether the ASCII bytes end with a secret parameter's name, in any case.
  private static func endsWithSecretName(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    secretNames.contains { name in
      guard bytes.count >= name.count else { return false }
      return zip(bytes.suffix(name.count), name).allSatisfy { $0.asciiLowercased == $1 }
    }
  }

  /// Whether the ASCII bytes are a secret parameter's name, in any case.
  private static func isSecretName(_ bytes: ArraySlice<UInt8>) -> Bool {
    secretNames.contains { name in
      bytes.count == name.count && zip(bytes, name).allSatisfy { $0.asciiLowercased == $1 }
    }
  }

  private static let secretNames: [[UInt8]] = secretParameters.map { Array($0.utf8) }

  /// Whether `url` carries a secret (userinfo or a secret parameter).
  public static func hasSecret(_ url: String) -> Bool {
    masked(url) != url
  }

  // MARK: - Userinfo

  /// At `://`, the end of a following `user[:password]@` (the index of `@`), if any.
  private static func userinfoEnd(_ bytes: [UInt8], at index: Int) -> Int? {
    guard index + 3 <= bytes.count, bytes[index] == UInt8(ascii: ":"),
      bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
    else { return nil }
    var at: Int?
    var cursor = index + 3
    while cursor < bytes.count, !endsAuthority(bytes[cursor]) {
      if bytes[cursor] == UInt8(ascii: "@") { at = cursor }
      cursor += 1
    }
    return at
  }

  /// `://user:password` → `://user:…`; `://token` → `://…`.
  private static func appendMaskedUserinfo(_ part: ArraySlice<UInt8>, to output: inout [UInt8]) {
    let userinfo = part.dropFirst(3)
    output.append(contentsOf: part.prefix(3))
    if let colon = userinfo.firstIndex(of: UInt8(ascii: ":")) {
      output.append(contentsOf: userinfo[..<colon])
      output.append(UInt8(ascii: ":"))
    }
    output.append(contentsOf: mark.utf8)
  }

  private static func endsAuthority(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
      || endsValue(byte)
  }

  // MARK: - Query parameters

  /// At `?` or `&`, where a secret parameter's value starts and ends, if it is one.
  private static func secretParameter(_ bytes: [UInt8], at index: Int) -> (Int, Int)? {
    guard bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "&") else {
      return nil
    }
    var cursor = index + 1
    while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "="), !endsName(bytes[cursor]) {
      cursor += 1
    }
    guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "="), cursor > index + 1 else {
      return nil
    }
    let nameBytes = bytes[index + 1..<cursor]
    if nameBytes.allSatisfy({ $0 < 0x80 }) {
      guard isSecretName(nameBytes) else { return nil }
    } else {
      let name = String(decoding: nameBytes, as: UTF8.self).lowercased()
      guard secretParameters.contains(name) else { return nil }
    }
    let valueStart = cursor + 1
    var valueEnd = valueStart
    while valueEnd < bytes.count, !endsValue(bytes[valueEnd]), bytes[valueEnd] != UInt8(ascii: "&"),
      bytes[valueEnd] != UInt8(ascii: "#")
    {
      valueEnd += 1
    }
    return (valueStart, valueEnd)
  }

  private static func endsName(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "&") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
      || endsValue(byte)
  }

  /// White space, quotes and brackets end a URL written inside a sentence or a document.
  private static func endsValue(_ byte: UInt8) -> Bool {
    byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
      || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: ")")
  }
}
