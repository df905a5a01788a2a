import Search

/// `podcast search`: podcasts in Apple's directory by title or author.
public struct SearchPodcasts: Sendable {
  public static let defaultLimit = ITunesClient.defaultLimit
  public static let defaultCountry = ITunesClient.defaultCountry
  /// How many results one search may ask for (Apple's bounds).
  public static let limits = ITunesClient.limitRange

  private let iTunes: ITunesClient

  public init(network: Network) {
    iTunes = network.iTunes
  }

  /// Checks a search's arguments before anything goes over the wire, so a front end can
  /// report them as usage errors.
  public static func check(term: String, limit: Int, country: String) throws(SearchError) {
    try ITunesClient.validate(term: term, limit: limit, country: country)
  }

  /// The podcasts matching `term` in the store of `country`, at most `limit`, in Apple's order.
  public func run(term: String, limit: Int, country: String) async throws(SearchError)
    -> [SearchResult]
  {
    try await iTunes.search(term: term, limit: limit, country: country)
  }
}
