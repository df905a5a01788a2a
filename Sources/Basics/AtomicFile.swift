import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A file that is either its old self or complete new contents, even across a power cut: the
/// bytes go to a temporary name (created with the final permissions, so a private file is
/// never readable by others while it is written), are synced, renamed over the target, and the
/// folder is synced so the new name survives too. Side files, playlists and exports use it.
public enum AtomicFile {
  /// Writes `data` to `path` through a temporary named `<prefix><pid>-<uuid>.tmp` in `folder`
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
    let targetFolder = (path as NSString).deletingLastPathComponent
    let staging = folder ?? (targetFolder.isEmpty ? "." : targetFolder)
    let temporary = staging + "/\(prefix)\(getpid())-\(UUID().uuidString).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else { return errno }
    let written = data.withUnsafeBytes { AnonymousFile.write(descriptor, $0, at: 0) }
    let failure: Int32? =
      written && (!durable || fsync(descriptor) == 0) ? nil : (errno == 0 ? EIO : errno)
    close(descriptor)
    if failure == nil && rename(temporary, path) == 0 {
      if durable { syncFolder(targetFolder.isEmpty ? "." : targetFolder) }
      return nil
    }
    let code = failure ?? errno
    unlink(temporary)
    return code
  }

  /// Best effort: the file itself is synced; this makes its new name durable.
  private static func syncFolder(_ folder: String) {
    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard directory >= 0 else { return }
    fsync(directory)
    close(directory)
  }
}
