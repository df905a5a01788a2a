import Basics
import Foundation
import Transfer

/// A directory `podcast search` can ask: one client per directory, each turning its service's
/// answers into `SearchResult`s that name it in `directories`, in the service's own order.
public protocol DirectoryClient: Sendable {
  var directory: Directory { get }
  /// At most `limit` podcasts matching `term`; `country` matters to Apple's store only.
  func search(term: String, limit: Int, country: String) async throws(SearchError)
    -> [SearchResult]
}

/// One GET to a directory: the URL and extra header fields in, the answer out whatever its
/// status. Throws (a `TransferError`) only when no answer came. Replaceable, so tests can
/// answer without a network.
public typealias DirectoryFetch =
  @Sendable (_ url: String, _ headers: [(name: String, value: String)]) async throws
  -> HTTPResponse
