import Search
import Transfer

/// How the use cases reach the network: the user's patience with a stalled transfer and the
/// address of the iTunes directory. A front end reads both from wherever it keeps settings;
/// PodcastKit itself never reads the environment.
public struct Network: Sendable {
  /// Seconds a transfer may go without a byte before it is given up, unless the user says.
  public static let defaultStallTimeout = TransferOptions().stallTimeout

  package let http: HTTPClient
  private let iTunesBaseURL: String

  /// `stallTimeout` nil: the default; `iTunesBaseURL` nil: Apple's own server.
  public init(stallTimeout: Int? = nil, iTunesBaseURL: String? = nil) {
    var options = TransferOptions()
    if let stallTimeout {
      options.stallTimeout = stallTimeout
      // Waiting longer to connect than to be sent a byte would make no sense.
      options.connectTimeout = min(options.connectTimeout, stallTimeout)
    }
    http = HTTPClient(options: options)
    self.iTunesBaseURL = iTunesBaseURL ?? ITunesClient.defaultBaseURL
  }

  /// `text` as a stall timeout: nil unless it is a positive whole number of seconds.
  public static func stallTimeout(parsing text: String) -> Int? {
    guard let seconds = Int(text), seconds > 0 else { return nil }
    return seconds
  }

  package var iTunes: ITunesClient {
    let http = http
    return ITunesClient(baseURL: iTunesBaseURL) { try await http.fetch($0) }
  }

  /// Stops every transfer in this process, returning once what each had received is on its
  /// way to disk: for Ctrl-C, so the next run resumes from every byte.
  public static func stopAllTransfers() {
    HTTPClient.stopAllTransfers()
  }
}
