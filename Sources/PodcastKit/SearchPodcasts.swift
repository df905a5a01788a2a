import Foundation
import Search

/// `podcast search`: asks the chosen directories at once and merges what they find
/// (`ResultMerge`). Each directory has its own time limit; one that fails, times out or
/// rate-limits is reported in the outcome while the others' results still count. A 429 is
/// asked again once, after the wait it names when that is at most `longestRetryWait`.
public struct SearchPodcasts: Sendable {
  public static let defaultLimit = ITunesClient.defaultLimit
  public static let defaultCountry = ITunesClient.defaultCountry
  /// How many results one search may ask for (Apple's bounds, which the others exceed).
  public static let limits = ITunesClient.limitRange
  /// Seconds each request to a directory may take, unless the user says.
  public static let defaultTimeLimit = 10.0
  /// Seconds a `Retry-After` may ask for and still be waited for (once).
  public static let longestRetryWait = 10

  /// What one search found, and which directories failed and why.
  public struct Outcome: Sendable {
    /// The merged results, best first.
    public var results: [SearchResult]
    /// One error per directory that gave no results, in the order they were asked.
    public var failures: [SearchError]
    /// The directories asked, in the order given.
    public var asked: [Directory]

    /// The directories asked that answered (with results or none).
    public var answered: [Directory] {
      asked.filter { directory in !failures.contains { $0.directory == directory } }
    }
  }

  private let network: Network

  public init(network: Network) {
    self.network = network
  }

  /// Apple, plus Podcast Index when the user has a key (as AntennaPod's combined search).
  public static func defaultDirectories(hasPodcastIndexKey: Bool) -> [Directory] {
    hasPodcastIndexKey ? [.apple, .podcastindex] : [.apple]
  }

  /// Checks a search's arguments before anything goes over the wire, so a front end can
  /// report them as usage errors.
  public static func check(term: String, limit: Int, country: String) throws(SearchError) {
    try ITunesClient.validate(term: term, limit: limit, country: country)
  }

  /// Checks that every directory in `directories` can be asked: Podcast Index needs a key.
  public static func check(directories: [Directory], hasPodcastIndexKey: Bool)
    throws(SearchError)
  {
    if directories.contains(.podcastindex) && !hasPodcastIndexKey {
      throw .podcastIndexKeyMissing
    }
  }

  /// Asks `directories` at once for `term`: at most `limit` results from each and from the
  /// merge; `country` is Apple's store; each request may take `timeLimit` seconds.
  public func run(
    term: String, limit: Int, country: String, directories: [Directory],
    timeLimit: Double = SearchPodcasts.defaultTimeLimit
  ) async -> Outcome {
    let asked =
      directories.isEmpty
      ? Self.defaultDirectories(hasPodcastIndexKey: network.hasPodcastIndexKey) : directories
    let answers = await withTaskGroup(of: (Int, Result<[SearchResult], SearchError>).self) {
      group in
      for (index, directory) in asked.enumerated() {
        guard let client = network.client(for: directory) else {
          group.addTask { (index, .failure(.podcastIndexKeyMissing)) }
          continue
        }
        group.addTask {
          (
            index,
            await Self.ask(
              client, term: term, limit: limit, country: country, timeLimit: timeLimit)
          )
        }
      }
      var answers: [(Int, Result<[SearchResult], SearchError>)] = []
      for await answer in group { answers.append(answer) }
      return answers.sorted { $0.0 < $1.0 }.map(\.1)
    }
    var rankings: [[SearchResult]] = []
    var failures: [SearchError] = []
    for answer in answers {
      switch answer {
      case .success(let results): rankings.append(results)
      case .failure(let error): failures.append(error)
      }
    }
    return Outcome(
      results: ResultMerge.merge(rankings, limit: limit), failures: failures, asked: asked)
  }

  /// One directory's results: its request within `timeLimit` seconds, and once more after a
  /// 429 whose `Retry-After` (1 s when it names none) is at most `longestRetryWait`.
  private static func ask(
    _ client: any DirectoryClient, term: String, limit: Int, country: String,
    timeLimit: Double
  ) async -> Result<[SearchResult], SearchError> {
    var retried = false
    while true {
      let answer = await within(timeLimit, client.directory) { () async throws(SearchError) in
        try await client.search(term: term, limit: limit, country: country)
      }
      guard case .failure(.rateLimited(_, _, let status, let retryAfter)) = answer,
        status == 429, !retried, (retryAfter ?? 1) <= longestRetryWait
      else { return answer }
      retried = true
      try? await Task.sleep(for: .seconds(retryAfter ?? 1))
      if Task.isCancelled { return answer }
    }
  }

  /// `body`'s outcome, or `timedOut` when it takes more than `seconds`; the request is then
  /// cancelled, which stops its transfer.
  private static func within<T: Sendable>(
    _ seconds: Double, _ directory: Directory,
    _ body: @escaping @Sendable () async throws(SearchError) -> T
  ) async -> Result<T, SearchError> {
    let first = await withTaskGroup(of: Result<T, SearchError>?.self) { group in
      group.addTask {
        do throws(SearchError) {
          return .success(try await body())
        } catch {
          return .failure(error)
        }
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(seconds))
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    return first ?? .failure(.timedOut(directory, seconds: seconds))
  }
}
