import Basics
import Foundation

/// Where one library keeps its episodes and its state. Pure path arithmetic until `prepare()`.
public struct LibraryPaths: Sendable, Equatable {
  public let root: String
  public let episodes: String
  public let stateDirectory: String
  public let database: String
  public let partials: String
  public let lockFile: String
  /// Where earlier versions kept the last copy of each subscription's feed, a file each; they
  /// move into the database (`KeptFeeds`) the first time a write opens the library.
  public let keptFeeds: String

  /// `episodes` defaults to `<root>/Episodes`. Relative paths are taken as given; the CLI makes
  /// them absolute so that paths stored in the database stay valid from any directory.
  public init(root: String, episodes: String? = nil) {
    let rootURL = URL(fileURLWithPath: root)
    let state = rootURL.appendingPathComponent(".podcast")
    self.root = rootURL.path
    self.episodes =
      episodes.map { URL(fileURLWithPath: $0).path }
      ?? rootURL.appendingPathComponent("Episodes").path
    self.stateDirectory = state.path
    self.database = state.appendingPathComponent("library.sqlite").path
    self.partials = state.appendingPathComponent("partial").path
    self.lockFile = state.appendingPathComponent("sync.lock").path
    self.keptFeeds = state.appendingPathComponent("feeds").path
  }

  /// The partial file of the download keyed `key`: the one place its name is made. Named
  /// after the episode, not its link, so a link that changes keeps the bytes already fetched.
  public func partial(forKey key: DownloadKey) -> String {
    partials + "/" + Self.hashName(key.text) + ".part"
  }

  /// The name a download's partial file had before rows were keyed by episode: after its URL.
  /// Only for taking over what an older version left (`PartialSweep`); the same name as
  /// `partial(forKey:)` for a download keyed by its URL.
  public func partial(for url: String) -> String {
    partials + "/" + Self.hashName(url) + ".part"
  }

  /// A short file name made from `text` (a URL, a path: long, with slashes): its 64-bit FNV-1a
  /// hash in hex. Stable across runs and versions, as names already on disk depend on it.
  package static func hashName(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }

  /// Creates every directory the library writes to, so later failures are about content,
  /// not about a missing or read-only folder.
  public func prepare() throws {
    for directory in [root, stateDirectory, partials, episodes] {
      try Self.makeWritableDirectory(directory)
    }
  }

  private static func makeWritableDirectory(_ path: String) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw LibraryError.notADirectory(path: path)
      }
    } else {
      do {
        try FileManager.default.createDirectory(
          atPath: path, withIntermediateDirectories: true)
      } catch {
        throw LibraryError.cannotCreateDirectory(path: path, reason: Self.reason(for: path))
      }
    }
    guard access(path, W_OK | X_OK) == 0 else {
      throw LibraryError.directoryNotWritable(path: path)
    }
  }

  /// The nearest existing ancestor tells why creation failed better than Foundation's message.
  private static func reason(for path: String) -> String {
    var parent = URL(fileURLWithPath: path).deletingLastPathComponent()
    while parent.path != "/" && !FileManager.default.fileExists(atPath: parent.path) {
      parent = parent.deletingLastPathComponent()
    }
    if access(parent.path, W_OK) != 0 {
      return "\(parent.path) is not writable"
    }
    return "a parent is not a directory"
  }
}
