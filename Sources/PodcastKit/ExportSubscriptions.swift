import Foundation
import Model
import Privacy
import Store

/// `podcast export`: the subscriptions as OPML 2.0, for other podcast apps.
///
/// A private feed's URL is its password (a token or userinfo), so private feeds leave the
/// library only when asked for, and a file that holds them is created readable by its owner
/// alone.
public struct ExportSubscriptions: Sendable {
  public struct Outcome: Sendable {
    /// The OPML document, written to the file when one was given.
    public var document: String
    public var exported: Int
    /// Names of the private feeds left out.
    public var leftOut: [String]
    /// Whether the document holds private feed URLs, which are passwords.
    public var holdsPrivateFeeds: Bool
    /// Set when the file could not be written. Returned rather than thrown, so the notes on
    /// private feeds are still told first, as they are about what was asked.
    public var writeFailure: FileError?
  }

  public struct FileError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var reason: String
    public var description: String { "cannot write \(file): \(reason)" }
  }

  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  /// `file`: where to write the document; nil writes nothing and only returns it.
  public func run(includePrivate: Bool, to file: String? = nil) throws -> Outcome {
    // Exporting only reads: a folder without a library exports an empty list.
    let store = try Library.existingStore(at: paths)
    let all = try store.map { try Subscriptions(store: $0).all() } ?? []
    let exported = includePrivate ? all : all.filter { !SecretMask.hasSecret($0.feedURL) }
    var outcome = Outcome(
      document: OPML.export(
        exported, settings: try store.map { try SavedSettings(store: $0).all() } ?? [:]),
      exported: exported.count,
      leftOut: all.filter { !exported.contains($0) }.map(\.name),
      holdsPrivateFeeds: exported.contains { SecretMask.hasSecret($0.feedURL) })
    guard let file else { return outcome }
    // Created 0600 when it may hold private feeds' passwords, not chmod-ed after the write:
    // there is no moment when others could read it.
    if let code = AtomicFile.write(
      Data(outcome.document.utf8), to: file, mode: includePrivate ? 0o600 : 0o644,
      prefix: ".podcast-export-")
    {
      outcome.writeFailure = FileError(file: file, reason: String(cString: strerror(code)))
    }
    return outcome
  }
}
