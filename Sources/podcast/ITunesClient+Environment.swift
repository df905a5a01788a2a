import Foundation
import PodcastKit

extension ITunesClient {
  /// The client the CLI uses: `PODCAST_ITUNES_URL` replaces Apple's server (tests point it at
  /// a loopback server), and the client honours `PODCAST_TIMEOUT` like every other command.
  /// PodcastKit itself never reads the environment.
  static func fromEnvironment(http: HTTPClient = CommandContext.httpClient()) -> ITunesClient {
    let fromEnvironment = ProcessInfo.processInfo.environment["PODCAST_ITUNES_URL"] ?? ""
    return ITunesClient(baseURL: fromEnvironment.isEmpty ? defaultBaseURL : fromEnvironment) {
      try await http.fetch($0)
    }
  }

}
