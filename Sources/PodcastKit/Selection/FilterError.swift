import Foundation

/// Why a filter, setting or mark could not be understood. Each case reads as a sentence.
public enum FilterError: Error, Equatable, CustomStringConvertible {
  case badRegex(option: String, pattern: String, reason: String)
  case badDate(option: String, text: String)
  case badDuration(option: String, text: String)
  case badRate(option: String, text: String)
  case badEpisodeType(String)
  case badField(String)
  case badFirstPolicy(String)
  case unknownSetting(String)

  public var description: String {
    switch self {
    case .badRegex(let option, let pattern, let reason):
      return "\(option) \(pattern): not a regular expression (\(reason))"
    case .badDate(let option, let text):
      return "\(option) \(text): not a date; give 2024-05-01, or an age such as 30d or 2w"
    case .badDuration(let option, let text):
      return "\(option) \(text): not a duration; give 45s, 10m, 1h30m or 1:30:00"
    case .badRate(let option, let text):
      return "\(option) \(text): not a rate; give bytes per second such as 500k or 2M"
    case .badEpisodeType(let text):
      return "--type \(text): the episode type is full, trailer or bonus"
    case .badField(let text):
      return "--match-in \(text): the fields are title and description"
    case .badFirstPolicy(let text):
      return "--first \(text): the first-sync policy is latest, all, none or a number of episodes"
    case .unknownSetting(let text):
      return "--unset \(text): not a setting; see `podcast set --help`"
    }
  }
}

/// The sentence is what Foundation and the CLI show for the error.
extension FilterError: LocalizedError {
  public var errorDescription: String? { description }
}
