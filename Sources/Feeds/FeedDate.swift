import Basics
import Foundation

/// Reads the dates feeds actually contain: every RFC 822 variant, the common malformed ones
/// (missing or wrong weekday, 2-digit years, full month names, lowercase, extra spaces, named
/// zones, no zone) and ISO 8601 / RFC 3339. A hand-written scanner rather than DateFormatter:
/// one date per item on 20,000-item feeds must stay cheap, and a single format string cannot
/// cover the variants anyway.
public enum FeedDate {
  /// The instant the string names, or nil when it does not name one. A missing zone means UTC.
  public static func parse(_ text: String) -> Date? {
    var bytes = Array(text.utf8)
    bytes = trimmed(bytes)
    guard !bytes.isEmpty, bytes.count < 128 else { return nil }
    if let date = parseISO(bytes) { return date }
    if let date = parseNumeric(bytes) { return date }
    if let date = parseEpochSeconds(bytes) { return date }
    return parseWords(bytes)
  }

  // MARK: - ISO 8601 / RFC 3339: 2024-05-01T10:00:00.5+02:00, 2024-05-01 10:00Z, 2024-05-01

  private static func parseISO(_ b: [UInt8]) -> Date? {
    var scanner = ByteScanner(b)
    guard let year = scanner.number(maxDigits: 4), scanner.consumedDigits == 4,
      scanner.skip(oneOf: [0x2D, 0x2F]),  // - or /
      let month = scanner.number(maxDigits: 2), scanner.skip(oneOf: [0x2D, 0x2F]),
      let day = scanner.number(maxDigits: 2)
    else { return nil }
    var time = ClockTime()
    var offset = 0
    if scanner.skip(oneOf: [0x54, 0x74, 0x20]) {  // T, t or space
      scanner.skipSpaces()
      guard let parsed = scanner.clockTime() else { return nil }
      time = parsed
      offset = zoneOffset(after: &scanner)
    }
    return makeDate(year: year, month: month, day: day, time: time, offset: offset)
  }

  /// 01/15/2017 (US order), 15.01.2016 and 26-08-2015 (day first), 20160819T16:32:18+0000;
  /// a first field above 12 is always the day.
  private static func parseNumeric(_ b: [UInt8]) -> Date? {
    var scanner = ByteScanner(b)
    guard let first = scanner.number(maxDigits: 8) else { return nil }
    var year: Int
    var month: Int
    var day: Int
    if scanner.consumedDigits == 8 {
      (year, month, day) = (first / 10_000, first / 100 % 100, first % 100)
    } else {
      guard scanner.consumedDigits <= 2, !scanner.atEnd else { return nil }
      let separator = scanner.peek
      guard [0x2F, 0x2E, 0x2D].contains(separator) else { return nil }
      scanner.position += 1
      guard let second = scanner.number(maxDigits: 2), scanner.skip(oneOf: [separator]),
        let third = scanner.number(maxDigits: 4)
      else { return nil }
      let dayFirst = separator != 0x2F || first > 12
      (day, month) = dayFirst ? (first, second) : (second, first)
      year = third < 100 ? third + (third < 50 ? 2000 : 1900) : third
    }
    var time = ClockTime()
    var offset = 0
    if scanner.skip(oneOf: [0x54, 0x74, 0x20]) {
      scanner.skipSpaces()
      if let parsed = scanner.clockTime() { time = parsed }
      offset = zoneOffset(after: &scanner)
    }
    return makeDate(year: year, month: month, day: day, time: time, offset: offset)
  }

  /// `+0100`, `-05:00`, `Z` or a zone name after a time; 0 (UTC) when there is none.
  private static func zoneOffset(after scanner: inout ByteScanner) -> Int {
    scanner.skipSpaces()
    if let zone = scanner.zoneOffset() { return zone }
    if let name = scanner.word() { return namedZoneOffset(name) ?? 0 }
    return 0
  }

  /// A bare 9- or 10-digit number: some generators write Unix time.
  private static func parseEpochSeconds(_ b: [UInt8]) -> Date? {
    guard (9...10).contains(b.count), b.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let seconds = Int(String(decoding: b, as: UTF8.self))
    else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  // MARK: - RFC 822 and friends: token by token, whatever the order of day, month and year

  private static func parseWords(_ b: [UInt8]) -> Date? {
    var scanner = ByteScanner(b)
    var day: Int?
    var month: Int?
    var year: Int?
    var time: ClockTime?
    var offset: Int?
    var pm: Bool?
    var offsetIsGMT = false
    while !scanner.atEnd {
      let byte = scanner.peek
      if isDigit(byte) {
        let start = scanner.position
        guard let value = scanner.number(maxDigits: 4) else { return nil }
        let digits = scanner.consumedDigits
        if scanner.peekIs(0x3A), time == nil {  // ':' -> this was the hour
          scanner.position = start
          time = scanner.clockTime()
          if time == nil { return nil }
        } else if digits == 4 && year == nil && time != nil && offset == nil && day != nil
          && month != nil
        {
          year = value  // "Mon Jan 5 10:00:00 2015" (asctime) puts the year last
        } else if day != nil && month != nil && year != nil {
          // a stray number after a complete date ("GMT-0500", "(2)"): not ours to read
        } else if digits >= 3 || value > 31 {
          if year == nil { year = value } else { return nil }
        } else if day == nil {
          day = value
        } else if year == nil {
          year = value
        } else if month == nil, (1...12).contains(value) {
          month = value
        }
        skipDigitsLeft(&scanner)
      } else if byte == 0x2B || byte == 0x2D, time != nil, offset == nil || offsetIsGMT,
        let zone = scanner.zoneOffset()
      {
        offset = zone  // "GMT-0500": the number is the real offset
        offsetIsGMT = false
      } else if isLetter(byte) {
        let word = scanner.wordRange()
        if let m = monthNumber(b[word]), month == nil {
          month = m
        } else if let meridiem = Self.meridiem(b[word]) {
          pm = meridiem
        } else if time != nil, offset == nil,
          let zone = namedZoneOffset(String(decoding: b[word], as: UTF8.self).lowercased())
        {
          offset = zone
          offsetIsGMT = zone == 0
        }  // weekday names (right, wrong or invented) and noise are ignored
      } else {
        scanner.position += 1
      }
    }
    guard let day, let month, var year else { return nil }
    if year < 100 { year += year < 50 ? 2000 : 1900 }
    var clock = time ?? ClockTime()
    if let pm {
      if pm && clock.hour < 12 {
        clock.hour += 12
      } else if !pm && clock.hour == 12 {
        clock.hour = 0
      }
    }
    return makeDate(year: year, month: month, day: day, time: clock, offset: offset ?? 0)
  }

  private static func skipDigitsLeft(_ scanner: inout ByteScanner) {
    while !scanner.atEnd && isDigit(scanner.peek) { scanner.position += 1 }
  }

  // MARK: - Calendar arithmetic (proleptic Gregorian, no Calendar object needed)

  private static func makeDate(year: Int, month: Int, day: Int, time: ClockTime, offset: Int)
    -> Date?
  {
    guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
      (1000...9999).contains(year), (0...24).contains(time.hour), (0...59).contains(time.minute),
      (0...60).contains(time.second)
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second - offset
    return Date(timeIntervalSince1970: TimeInterval(seconds) + time.fraction)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Howard Hinnant's days_from_civil: days since 1970-01-01.
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  // MARK: - Names

  /// `monthNumber` of a run of letters, read on the bytes when they are ASCII (every date
  /// of a large feed): making a lowercased `String` of every weekday and month name was most
  /// of the cost of reading a date.
  private static func monthNumber(_ word: ArraySlice<UInt8>) -> Int? {
    guard word.allSatisfy({ $0 < 0x80 }) else {
      return monthNumber(String(decoding: word, as: UTF8.self).lowercased())
    }
    guard word.count >= 3 else { return nil }
    // Letters only, so setting 0x20 lowercases each byte.
    let start = word.startIndex
    let first3 =
      UInt32(word[start] | 0x20) << 16 | UInt32(word[start + 1] | 0x20) << 8
      | UInt32(word[start + 2] | 0x20)
    if word.count >= 4 && first3 == Self.juiPrefix {
      switch word[start + 3] | 0x20 {
      case UInt8(ascii: "n"): return 6
      case UInt8(ascii: "l"): return 7
      default: break
      }
    }
    return asciiMonths.first { $0.prefix == first3 }?.month
  }

  /// English month names and abbreviations, plus the few other languages real feeds use, by
  /// their first three letters (French "juin" and "juillet" need a fourth).
  private static let monthPrefixes: [(prefix: String, month: Int)] = [
    ("jan", 1), ("ene", 1), ("gen", 1), ("feb", 2), ("fev", 2), ("fév", 2), ("mar", 3),
    ("mrz", 3), ("mär", 3), ("apr", 4), ("abr", 4), ("avr", 4), ("may", 5), ("mai", 5),
    ("mag", 5), ("jun", 6), ("giu", 6), ("jul", 7), ("lug", 7), ("aug", 8), ("ago", 8),
    ("aoû", 8), ("aou", 8), ("sep", 9), ("set", 9), ("oct", 10), ("okt", 10), ("out", 10),
    ("ott", 10), ("nov", 11), ("dec", 12), ("dez", 12), ("dic", 12), ("déc", 12),
  ]

  /// The ASCII ones of `monthPrefixes`, their three letters packed into one number.
  private static let asciiMonths: [(prefix: UInt32, month: Int)] = monthPrefixes.compactMap {
    let bytes = Array($0.prefix.utf8)
    return bytes.count == 3 ? (packed(bytes), $0.month) : nil
  }

  private static let juiPrefix = packed("jui".utf8)

  private static func packed(_ bytes: some Sequence<UInt8>) -> UInt32 {
    bytes.prefix(3).reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// true for `pm`, false for `am` (any case), nil for any other word.
  private static func meridiem(_ word: ArraySlice<UInt8>) -> Bool? {
    guard word.count == 2, word[word.startIndex + 1] | 0x20 == UInt8(ascii: "m") else {
      return nil
    }
    switch word[word.startIndex] | 0x20 {
    case UInt8(ascii: "a"): return false
    case UInt8(ascii: "p"): return true
    default: return nil
    }
  }

  /// `monthNumber` of a lowercased word.
  private static func monthNumber(_ word: String) -> Int? {
    if word.hasPrefix("juin") { return 6 }
    if word.hasPrefix("juil") { return 7 }
    let first3 = String(word.prefix(3))
    return monthPrefixes.first { $0.prefix == first3 }?.month
  }

  /// Seconds east of UTC for the zone names feeds use (RFC 822 names and common others).
  private static func namedZoneOffset(_ word: String) -> Int? {
    let hours: Double
    switch word {
    case "z", "ut", "utc", "gmt", "wet": hours = 0
    case "est": hours = -5
    case "edt": hours = -4
    case "cst": hours = -6
    case "cdt": hours = -5
    case "mst": hours = -7
    case "mdt": hours = -6
    case "pst": hours = -8
    case "pdt": hours = -7
    case "akst": hours = -9
    case "akdt": hours = -8
    case "hst": hours = -10
    case "ast": hours = -4
    case "adt": hours = -3
    case "nst": hours = -3.5
    case "ndt": hours = -2.5
    case "bst", "cet", "met", "west", "wat": hours = 1
    case "cest", "mest", "eet", "sast", "cat": hours = 2
    case "eest", "msk", "eat": hours = 3
    case "ist": hours = 5.5
    case "ict", "wib": hours = 7
    case "awst", "hkt", "sgt", "pht": hours = 8
    case "jst", "kst": hours = 9
    case "acst": hours = 9.5
    case "aest": hours = 10
    case "acdt": hours = 10.5
    case "aedt": hours = 11
    case "nzst": hours = 12
    case "nzdt": hours = 13
    default: return nil
    }
    return Int(hours * 3600)
  }

  private static func trimmed(_ b: [UInt8]) -> [UInt8] {
    var start = 0
    var end = b.count
    while start < end && isSpace(b[start]) { start += 1 }
    while end > start && isSpace(b[end - 1]) { end -= 1 }
    return Array(b[start..<end])
  }
}

private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
private func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || b >= 0x80 }
private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

/// Hours, minutes, seconds and a fraction of a second.
private struct ClockTime {
  var hour = 0
  var minute = 0
  var second = 0
  var fraction: Double = 0
}

/// A cursor over the bytes of a date string.
private struct ByteScanner {
  let bytes: [UInt8]
  var position = 0
  package private(set) var consumedDigits = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { position >= bytes.count }
  var peek: UInt8 { bytes[position] }
  func peekIs(_ b: UInt8) -> Bool { position < bytes.count && bytes[position] == b }

  mutating func skipSpaces() { while !atEnd && isSpace(peek) { position += 1 } }

  mutating func skip(oneOf set: [UInt8]) -> Bool {
    guard !atEnd, set.contains(peek) else { return false }
    position += 1
    return true
  }

  mutating func number(maxDigits: Int) -> Int? {
    var value = 0
    consumedDigits = 0
    while !atEnd, isDigit(peek), consumedDigits < maxDigits {
      value = value * 10 + Int(peek - 0x30)
      position += 1
      consumedDigits += 1
    }
    return consumedDigits > 0 ? value : nil
  }

  /// H:M[:S[.fff]] with 1- or 2-digit fields ("9:4:38" is real).
  mutating func clockTime() -> ClockTime? {
    guard let hour = number(maxDigits: 2), skip(oneOf: [0x3A]), let minute = number(maxDigits: 2)
    else { return nil }
    var time = ClockTime(hour: hour, minute: minute)
    if skip(oneOf: [0x3A]), let second = number(maxDigits: 2) {
      time.second = second
      if skip(oneOf: [0x2E, 0x2C]) {
        var scale = 0.1
        while !atEnd, isDigit(peek) {
          time.fraction += Double(peek - 0x30) * scale
          scale /= 10
          position += 1
        }
      }
    }
    return time
  }

  /// Z, +hhmm, -hh:mm, +hh. Returns seconds east of UTC.
  mutating func zoneOffset() -> Int? {
    guard !atEnd else { return nil }
    if peek == 0x5A || peek == 0x7A {  // Z
      position += 1
      return 0
    }
    guard peek == 0x2B || peek == 0x2D else { return nil }
    let start = position
    let sign = peek == 0x2D ? -1 : 1
    position += 1
    guard let first = number(maxDigits: 4) else {
      position = start
      return nil
    }
    var hours = first
    var minutes = 0
    if consumedDigits >= 3 {
      hours = first / 100
      minutes = first % 100
    } else if skip(oneOf: [0x3A]), let m = number(maxDigits: 2) {
      minutes = m
    }
    // No zone is more than 14 hours from UTC, but an impossible offset (`+3000`, a typo for
    // `+0300`) is applied as written, as feedparser and podcastparser do: other apps then
    // show the same instant, and the date keeps its place among the feed's others, which
    // treating it as unknown would lose.
    guard minutes < 60 else { return nil }
    return sign * (hours * 3600 + minutes * 60)
  }

  /// A run of letters (none when not at a letter).
  mutating func wordRange() -> Range<Int> {
    let start = position
    while !atEnd, isLetter(peek) { position += 1 }
    return start..<position
  }

  /// A run of letters, lowercased.
  mutating func word() -> String? {
    let range = wordRange()
    guard !range.isEmpty else { return nil }
    return String(decoding: bytes[range], as: UTF8.self).lowercased()
  }
}
