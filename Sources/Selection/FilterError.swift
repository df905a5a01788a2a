import Basics
import Foundation

/// Why a filter, setting or mark could not be understood. Each case reads as a sentence that
/// starts with the setting's name as stored (`since`, `type`); the CLI names its flag instead.
public enum FilterError: SentenceError, Equatable {
  case badRegex(setting: String, pattern: String, reason: String)
  case badDate(setting: String, text: String)
  case badAge(setting: String, text: String)
  case badDuration(setting: String, text: String)
  case badEpisodeType(String)
  case badField(String)
  case badFirstPolicy(String)
  case unknownSetting(String)
  case outOfRange(setting: String, value: Int, range: ClosedRange<Int>)

  /// The setting the value was given for: `match`, `since`, `limit-rate`, `first` ...
  public var setting: String {
    switch self {
    case .badRegex(let setting, _, _), .badDate(let setting, _), .badAge(let setting, _),
      .badDuration(let setting, _), .outOfRange(let setting, _, _):
      return setting
    case .badEpisodeType: return "type"
    case .badField: return "match-in"
    case .badFirstPolicy: return "first"
    case .unknownSetting: return "unset"
    }
  }

  /// The value and what is wrong with it: `30x: not a date; give ...`.
  public var problem: String {
    switch self {
    case .badRegex(_, let pattern, let reason):
      return "\(pattern): not a regular expression (\(reason))"
    case .badDate(_, let text):
      return "\(text): not a date; give 2024-05-01, or an age such as 30d or 2w"
    case .badAge(_, let text):
      return "\(text): not an age; give 0, or an age such as 7d, 2w or 12h"
    case .badDuration(_, let text):
      return "\(text): not a duration; give 45s, 10m, 1h30m or 1:30:00"
    case .badEpisodeType(let text):
      return "\(text): the episode type is full, trailer or bonus"
    case .badField(let text):
      return "\(text): the fields are title and description"
    case .badFirstPolicy(let text):
      return "\(text): the first-sync policy is latest, all, none or a number of episodes"
    case .unknownSetting(let text):
      return "\(text): not a setting"
    case .outOfRange(_, _, let range):
      return "must be from \(range.lowerBound) to \(range.upperBound)"
    }
  }

  public var description: String { "\(setting) \(problem)" }
}
