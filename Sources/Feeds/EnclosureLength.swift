import Basics
import Foundation

/// Reads an enclosure's `length` attribute. Feeds write "", "0", "12216320", "12,216,320",
/// "12216320 bytes", "12 MB": the empty and zero ones mean "unknown", the rest are best effort.
public enum EnclosureLength {
  /// Bytes, or nil when the feed gives no usable size.
  public static func bytes(_ text: String) -> Int64? {
    if let plain = plainDigits(text) { return plain }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    guard !trimmed.isEmpty, trimmed.utf8.count <= 40 else { return nil }
    let numberPart = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == "," || $0 == ".") }
    let unit = trimmed.dropFirst(numberPart.count).trimmingCharacters(in: .whitespaces)
    guard let scale = unitScale(unit), let value = number(String(numberPart), scale: scale)
    else { return nil }
    let bytes = value * scale
    guard bytes >= 1, bytes < 1e15 else { return nil }
    return Int64(bytes)
  }

  /// The common case, "12216320", read without Foundation: lowercasing, trimming and
  /// `replacingOccurrences` cost more than the rest of the item on 20,000-item feeds.
  /// nil when the text is anything else (the general path decides then).
  private static func plainDigits(_ text: String) -> Int64? {
    let utf8 = text.utf8
    guard !utf8.isEmpty, utf8.count <= 15 else { return nil }
    var value: Int64 = 0
    for byte in utf8 {
      guard byte >= 0x30 && byte <= 0x39 else { return nil }
      value = value * 10 + Int64(byte - 0x30)
    }
    return value >= 1 ? value : nil
  }

  /// Commas are thousands separators in "12,216,320"; a single comma before 1-2 digits in a
  /// scaled value ("1,5 MB") is a decimal comma.
  private static func number(_ text: String, scale: Double) -> Double? {
    guard !text.isEmpty else { return nil }
    if scale > 1, text.filter({ $0 == "," }).count == 1, !text.contains("."),
      let comma = text.firstIndex(of: ","), text.distance(from: comma, to: text.endIndex) <= 3
    {
      return Double(text.replacingOccurrences(of: ",", with: "."))
    }
    return Double(text.replacingOccurrences(of: ",", with: ""))
  }

  private static func unitScale(_ unit: String) -> Double? {
    switch unit {
    case "", "b", "byte", "bytes", "octets": return 1
    case "k", "kb", "kib", "kbytes": return 1024
    case "m", "mb", "mib", "mbytes": return 1024 * 1024
    case "g", "gb", "gib": return 1024 * 1024 * 1024
    default: return nil
    }
  }
}
