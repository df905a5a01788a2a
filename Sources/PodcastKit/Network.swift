import Foundation
import Search
import Transfer

/// How the use cases reach the network: the user's patience with a stalled transfer, the
/// addresses of the podcast directories and the user's Podcast Index key. A front end reads
/// them from wherever it keeps settings; PodcastKit itself never reads the environment.
public struct Network: Sendable {
  /// Seconds a transfer may go without a byte before it is given up, unless the user says.
  public static let defaultStallTimeout = TransferOptions().stallTimeout

  package let http: HTTPClient
  private let iTunesBaseURL: String
  private let podcastIndexBaseURL: String
  private let fyydBaseURL: String
  private let gpodderBaseURL: String
  private let podcastIndexCredentials: PodcastIndexCredentials?

  /// `stallTimeout` nil: the default; a base URL nil: the directory's own server;
  /// `podcastIndexCredentials` nil: Podcast Index is not asked.
  public init(
    stallTimeout: Int? = nil, iTunesBaseURL: String? = nil, podcastIndexBaseURL: String? = nil,
    fyydBaseURL: String? = nil, gpodderBaseURL: String? = nil,
    podcastIndexCredentials: PodcastIndexCredentials? = nil
  ) {
    var options = TransferOptions()
    if let stallTimeout {
      options.stallTimeout = stallTimeout
      // Waiting longer to connect than to be sent a byte would make no sense.
      options.connectTimeout = min(options.connectTimeout, stallTimeout)
    }
    http = HTTPClient(options: options)
    self.iTunesBaseURL = iTunesBaseURL ?? ITunesClient.defaultBaseURL
    self.podcastIndexBaseURL = podcastIndexBaseURL ?? PodcastIndexClient.defaultBaseURL
    self.fyydBaseURL = fyydBaseURL ?? FyydClient.defaultBaseURL
    self.gpodderBaseURL = gpodderBaseURL ?? GpodderClient.defaultBaseURL
    self.podcastIndexCredentials = podcastIndexCredentials
  }

  /// `text` as a stall timeout: nil unless it is a positive whole number of seconds.
  public static func stallTimeout(parsing text: String) -> Int? {
    guard let seconds = Int(text), seconds > 0 else { return nil }
    return seconds
  }

  /// Whether the user gave a Podcast Index key and secret.
  public var hasPodcastIndexKey: Bool { podcastIndexCredentials != nil }

  package var iTunes: ITunesClient {
    let http = http
    return ITunesClient(baseURL: iTunesBaseURL) { try await http.fetch($0) }
  }

  /// Nil without the user's key: Podcast Index answers nothing unsigned.
  package var podcastIndex: PodcastIndexClient? {
    podcastIndexCredentials.map {
      PodcastIndexClient(baseURL: podcastIndexBaseURL, credentials: $0, fetch: directoryFetch)
    }
  }

  package var fyyd: FyydClient {
    FyydClient(baseURL: fyydBaseURL, fetch: directoryFetch)
  }

  package var gpodder: GpodderClient {
    GpodderClient(baseURL: gpodderBaseURL, fetch: directoryFetch)
  }

  /// The client of `directory`; nil for Podcast Index without a key.
  package func client(for directory: Directory) -> (any DirectoryClient)? {
    switch directory {
    case .apple: return iTunes
    case .podcastindex: return podcastIndex
    case .fyyd: return fyyd
    case .gpodder: return gpodder
    }
  }

  /// A GET whose answer comes back whatever its status, so a client reads a directory's
  /// refusals too. libcurl sends no custom `Authorization` on to another host after a redirect.
  private var directoryFetch: DirectoryFetch {
    let http = http
    return { url, headers in
      var request = TransferRequest(url: url, options: http.options)
      request.headers = headers
      return try await http.send(request)
    }
  }

  /// Stops every transfer in this process, returning once what each had received is on its
  /// way to disk: for Ctrl-C, so the next run resumes from every byte.
  public static func stopAllTransfers() {
    HTTPClient.stopAllTransfers()
  }
}
