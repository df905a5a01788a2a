import Foundation

extension String {
  /// `trimmingCharacters(in: .whitespacesAndNewlines)`, skipping Foundation when neither end
  /// can be blank (nearly always): on Linux that call bridges to NSString, and per episode
  /// it was a visible part of a sync's CPU. An end that is not printable ASCII takes the
  /// Foundation path, so the result is the same in every case.
  var trimmingWhitespace: String {
    guard let first = utf8.first, let last = utf8.last else { return self }
    let printable = UInt8(ascii: "!")...UInt8(ascii: "~")
    if printable.contains(first), printable.contains(last) { return self }
    return trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
