import PodcastKit

/// PodcastKit's errors name values, not where they came from; the CLI knows which flag or
/// environment variable the user typed them into, and says so.
enum InputHint {
  /// The sentence with its source named, or nil when the error needs no hint.
  static func message(for error: Error) -> String? {
    switch error {
    case SearchError.invalidBaseURL:
      // The base URL can only have come from the environment.
      return "PODCAST_ITUNES_URL: \(error)"
    default:
      return nil
    }
  }
}
