import Foundation

extension String {
  /// `trimmingCharacters(in: .whitespacesAndNewlines)`, skipping Foundation when neither end
  /// can be blank (`FeedText.isSurelyTrimmed`, nearly always): on Linux that call bridges to
  /// NSString, and per episode it was a visible part of a sync's CPU.
  var trimmingWhitespace: String {
    FeedText.isSurelyTrimmed(self) ? self : trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
