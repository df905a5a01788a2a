import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A file that is either its old self or complete new contents, even across a power cut: the
/// bytes go to a temporary name (created with the final permissions, so a private file is
/// never readable by others while it is written), are synced, renamed over the target, and the
/// folder is synced so the new name survives too. Side files, playlists and exports use it.
public enum AtomicFile {
  /// Writes `data` to `path` through a temporary named by `TemporaryName` in `folder`
  /// (beside `path` when nil). Nil when done; otherwise the errno that stopped it, with nothing
  /// left behind (EXDEV: `folder` is on another filesystem than `path`).
  ///
  /// `durable` false skips both syncs: the file is still old or new, never a mix, to every
  /// process, but a power cut may lose or cut short the new one. For caches that check
  /// themselves when read and cost only a refetch when lost.
  public static func write(
    _ data: Data, to path: String, mode: mode_t = 0o644, prefix: String, in folder: String? = nil,
    durable: Bool = true
  ) -> Int32? {
    write([Pending(data, to: path, mode: mode, prefix: prefix, in: folder, durable: durable)])[0]
  }

  /// One file for `write(_:)`, with the arguments of `write(_:to:mode:prefix:in:durable:)`.
  public struct Pending: Sendable {
    public var data: Data
    public var path: String
    public var mode: mode_t
    public var prefix: String
    public var folder: String?
    public var durable: Bool

    public init(
      _ data: Data, to path: String, mode: mode_t = 0o644, prefix: String, in folder: String? = nil,
      durable: Bool = true
    ) {
      self.data = data
      self.path = path
      self.mode = mode
      self.prefix = prefix
      self.folder = folder
      self.durable = durable
    }
  }

  /// Writes every file as `write(_:to:mode:prefix:in:durable:)` does one, with the same promise for
  /// each, but all at once (`ParallelFlush`): each temporary is made, written and synced on a
  /// thread of its own, then all are renamed and each target folder is synced once. One after
  /// another, 200 podcast folders' playlists paid 400 syncs in turn, and making a file can
  /// itself wait on the disk (the filesystem's inode search just after many deletions).
  /// The errno of each, in order.
  public static func write(_ files: [Pending]) -> [Int32?] {
    let temporaries = ParallelFlush.run(files.count) { index -> (path: String?, failure: Int32?) in
      let file = files[index]
      let targetFolder = StandardPath.directory(of: file.path)
      let staging = file.folder ?? (targetFolder.isEmpty ? "." : targetFolder)
      let temporary = staging + "/" + TemporaryName.make(prefix: file.prefix)
      let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, file.mode)
      guard descriptor >= 0 else { return (nil, errno) }
      let written = file.data.withUnsafeBytes { AnonymousFile.write(descriptor, $0, at: 0) }
      // Synced before the rename: a power cut never leaves an empty file in its place.
      let failure: Int32? =
        written && (!file.durable || fdatasync(descriptor) == 0) ? nil : (errno == 0 ? EIO : errno)
      close(descriptor)
      if failure == nil { return (temporary, nil) }
      unlink(temporary)
      return (nil, failure)
    }
    var results = temporaries.map(\.failure)
    var renamed: [String] = []
    for (index, temporary) in temporaries.enumerated() {
      guard let temporary = temporary.path else { continue }
      let path = files[index].path
      if rename(temporary, path) == 0 {
        let folder = StandardPath.directory(of: path)
        if files[index].durable { renamed.append(folder.isEmpty ? "." : folder) }
        continue
      }
      results[index] = errno
      unlink(temporary)
    }
    // Best effort: the files themselves are synced; this makes their new names durable.
    var seen = Set<String>()
    _ = ParallelFlush.flushDirectories(renamed.filter { seen.insert($0).inserted })
    return results
  }
}
