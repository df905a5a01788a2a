import Basics
import Foundation

/// `--limit-rate` values: bytes per second, with curl's suffixes (`k` = 1024, `M` = 1024²,
/// `G` = 1024³), so `500k` here means what it means to `curl --limit-rate`.
public enum TransferRate {
  public static func bytesPerSecond(_ text: String, setting: String = "limit-rate") throws
    -> Int64
  {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    var number = Substring(trimmed)
    var scale: Double = 1
    switch number.last {
    case "k", "K": scale = 1_024
    case "m", "M": scale = 1_048_576
    case "g", "G": scale = 1_073_741_824
    default: break
    }
    if scale > 1 { number = number.dropLast() }
    guard let value = Double(number), value.isFinite, value > 0,
      number.allSatisfy({ $0.isNumber || $0 == "." })
    else { throw TransferRateError(setting: setting, text: text) }
    let bytes = (value * scale).rounded()
    guard bytes >= 1, bytes < 1e15 else { throw TransferRateError(setting: setting, text: text) }
    return Int64(bytes)
  }

  /// `512000` -> `500k`: the shortest exact form, for listings.
  public static func text(_ bytesPerSecond: Int64) -> String {
    for (suffix, scale) in [("G", Int64(1_073_741_824)), ("M", 1_048_576), ("k", 1_024)]
    where bytesPerSecond % scale == 0 {
      return "\(bytesPerSecond / scale)\(suffix)"
    }
    return String(bytesPerSecond)
  }
}
