import Basics
import Foundation

/// A bandwidth limit that is not a rate. Reads like the other settings' errors: the setting's
/// name as stored (`limit-rate`), then the value and what is wrong with it.
public struct TransferRateError: SentenceError, Equatable {
  /// The setting the value was given for: `limit-rate`.
  public var setting: String
  public var text: String

  public init(setting: String, text: String) {
    self.setting = setting
    self.text = text
  }

  /// The value and what is wrong with it.
  public var problem: String { "\(text): not a rate; give bytes per second such as 500k or 2M" }

  public var description: String { "\(setting) \(problem)" }
}
