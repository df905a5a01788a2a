import Foundation
import Model
import Store

/// `podcast import`: subscribe to every feed of an OPML file another podcast app exported.
///
/// Feeds already subscribed are skipped, and an entry that cannot be added does not stop the
/// others: the outcome says what became of each.
public struct ImportSubscriptions: Sendable {
  public struct Outcome: Sendable {
    /// The feed URLs subscribed to, in the file's order.
    public var added: [String] = []
    /// Entries whose feed was subscribed already, before the import or by an earlier entry.
    public var alreadySubscribed = 0
    public var failed: [FailedEntry] = []
  }

  public struct FailedEntry: Sendable {
    public var feedURL: String
    public var error: any Error
  }

  /// The file itself could not be used: nothing was imported.
  public struct FileError: Error, CustomStringConvertible {
    public var file: String
    public var reason: String
    public var description: String { "cannot import \(file): \(reason)" }
  }

  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  public func run(file: String) throws -> Outcome {
    // Read before the library is opened, so a mistyped file name creates no library.
    let entries = try Self.entries(in: file)
    let store = try LibraryStore(paths: paths)
    var outcome = Outcome()
    for (entry, result) in zip(entries, try SubscriptionImport(store: store).add(entries)) {
      switch result {
      case .added: outcome.added.append(entry.feedURL)
      case .alreadySubscribed: outcome.alreadySubscribed += 1
      case .failed(let error):
        outcome.failed.append(FailedEntry(feedURL: entry.feedURL, error: error))
      }
    }
    return outcome
  }

  private static func entries(in file: String) throws -> [OPMLEntry] {
    guard FileManager.default.fileExists(atPath: file) else {
      throw FileError(file: file, reason: "no such file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      throw FileError(file: file, reason: "cannot read it (\(error.localizedDescription))")
    }
    do {
      return try OPML.parse(data)
    } catch {
      throw FileError(file: file, reason: "\(error)")
    }
  }
}
