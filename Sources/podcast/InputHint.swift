import PodcastKit

/// PodcastKit's errors name values, not where they came from; the CLI knows which flag or
/// environment variable the user typed them into, and which command shows what to type.
enum InputHint {
  /// The sentence with its source named, or nil when the error needs no hint.
  static func message(for error: Error) -> String? {
    switch error {
    case let error as SearchError: return message(for: error)
    case let error as LibraryError: return message(for: error)
    case FilterError.unknownSetting(let text):
      return "--unset \(text): not a setting; see `podcast set --help`"
    case let error as FilterError:
      return "--\(error.setting) \(error.problem)"
    case let error as TransferRateError:
      return "--\(error.setting) \(error.problem)"
    default: return nil
    }
  }

  private static func message(for error: SearchError) -> String? {
    switch error {
    case .invalidBaseURL(let directory, _):
      // The base URL can only have come from the environment.
      return "\(baseURLVariable(directory)): \(error)"
    case .podcastIndexKeyMissing:
      return "\(error): set PODCAST_INDEX_KEY and PODCAST_INDEX_SECRET (or podcastindex-key "
        + "and podcastindex-secret in config.toml), or ask other directories with --directory"
    case .keyRefused:
      return "\(error) (PODCAST_INDEX_KEY and PODCAST_INDEX_SECRET, or podcastindex-key and "
        + "podcastindex-secret in config.toml)"
    case .unknownDirectory:
      return "--directory \(error)"
    case .timedOut:
      return "\(error) (give it longer with --timeout)"
    case .limitOutOfRange(let limit):
      return "--limit \(limit) is out of range: the iTunes API returns 1 to "
        + "\(SearchPodcasts.limits.upperBound) results"
    case .invalidCountry:
      return "--country \(error)"
    default:
      return nil
    }
  }

  private static func baseURLVariable(_ directory: Directory) -> String {
    switch directory {
    case .apple: return "PODCAST_ITUNES_URL"
    case .podcastindex: return "PODCAST_PODCASTINDEX_URL"
    case .fyyd: return "PODCAST_FYYD_URL"
    case .gpodder: return "PODCAST_GPODDER_URL"
    }
  }

  private static func message(for error: LibraryError) -> String? {
    switch error {
    case .duplicateName:
      return "\(error); choose another with --name"
    case .noSubscription(_, let count) where count > 0:
      return "\(error) (see `podcast subscriptions`)"
    default:
      return nil
    }
  }
}
