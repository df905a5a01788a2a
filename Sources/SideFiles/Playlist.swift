import Basics
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An extended M3U playlist (UTF-8, `.m3u8`) of episode files, as car stereos, phones synced by
/// folder and media servers read one. Paths are relative to the playlist's folder when the
/// file is inside it, so the folder can move; absolute otherwise. Written under a temporary
/// name and renamed: a player never reads half a playlist.
public struct Playlist: Sendable, Equatable {
  public struct Entry: Sendable, Equatable {
    public var file: String
    public var title: String?

    public init(file: String, title: String?) {
      self.file = file
      self.title = title
    }
  }

  public var entries: [Entry]

  public init(entries: [Entry]) {
    self.entries = entries
  }

  /// The playlist's text for a file at `path`.
  package func text(at path: String) -> String {
    let folder = StandardPath.directory(of: StandardPath.of(path))
    var lines = ["#EXTM3U"]
    for entry in entries {
      let file = StandardPath.of(entry.file)
      let title = (entry.title ?? StandardPath.lastComponent(of: file))
        .split(whereSeparator: \.isNewline).joined(separator: " ")
      lines.append("#EXTINF:-1,\(title)")
      lines.append(file.hasPrefix(folder + "/") ? String(file.dropFirst(folder.count + 1)) : file)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A playlist being written is `<temporaryPrefix><owner>-<UUID>.tmp` (`TemporaryName`).
  package static let temporaryPrefix = ".podcast-playlist-"

  /// `staging`: a folder on the same filesystem to write the temporary in, so that a run
  /// killed mid-write leaves nothing beside the playlist (the library's state folder for a
  /// podcast folder's playlist); beside the playlist when there is none or it is elsewhere.
  public func write(to path: String, staging: String? = nil) throws(FolderViewError) {
    if let failure = Self.write([(self, path)], staging: staging)[0] { throw failure }
  }

  /// `write(to:staging:)` for several playlists, made and synced together (`AtomicFile`);
  /// one failure or nil for each, in order.
  package static func write(_ playlists: [(playlist: Playlist, path: String)], staging: String?)
    -> [FolderViewError?]
  {
    let codes = AtomicFile.write(
      playlists.map { (data: Data($0.playlist.text(at: $0.path).utf8), path: $0.path) },
      prefix: temporaryPrefix, staging: staging)
    return zip(playlists, codes).map { playlist, code in
      code.map { .cannotWrite(path: playlist.path, reason: String(cString: strerror($0))) }
    }
  }
}
