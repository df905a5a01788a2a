import Basics
import Fetching
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A finished episode copied onto the Episodes directory's filesystem, not yet named there.
///
/// When Episodes is on another filesystem than the library, no rename can make the file appear
/// whole, so the partial is copied first. The copy goes into an unnamed file (`O_TMPFILE`) in
/// the target's directory, which gets its name only once complete and synced: a kill at any
/// moment leaves nothing to see under Episodes and nothing to clean up (the kernel frees it).
/// Staging in `.podcast/` instead would still need a copy across filesystems at the end.
/// Filesystems without `O_TMPFILE` (FAT, FUSE, many network ones) get a hidden name beside
/// the target instead, `.podcast-<partial>-<owner>.tmp` (`TemporaryName`); a kill or a power
/// cut can leave that behind, so the next copy into the directory removes those whose process
/// is gone (another process's copy in progress stays), and so does the next run's sweep
/// (`TemporarySweep`), whether or not it copies anything there.
package final class StagedCopy {
  private let descriptor: Int32
  /// nil for the unnamed kind.
  private let hiddenPath: String?

  /// Copies `file` into `directory` and syncs it.
  package init(copying file: PartialFile, into directory: String) throws {
    var descriptor = open(directory, Self.unnamedFileFlags | O_WRONLY | O_CLOEXEC, 0o644)
    var hiddenPath: String?
    if descriptor < 0 {
      let code = errno
      guard [EOPNOTSUPP, EISDIR, EINVAL].contains(code) else {
        throw DownloadError.writing(directory, errno: code)
      }
      TemporaryName.removeAbandoned(in: directory, prefix: Self.hiddenPrefix)
      let hidden =
        directory + "/" + Self.hiddenPrefix + (file.path as NSString).lastPathComponent + "-"
        + ProcessOwner.current.name + ".tmp"
      unlink(hidden)
      descriptor = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else { throw DownloadError.writing(hidden) }
      hiddenPath = hidden
    }
    self.descriptor = descriptor
    self.hiddenPath = hiddenPath
    let shownPath = hiddenPath ?? directory
    try file.copy(to: descriptor, targetPath: shownPath)
    guard fsync(descriptor) == 0 else { throw DownloadError.writing(shownPath) }
  }

  deinit {
    close(descriptor)
    if let hiddenPath { unlink(hiddenPath) }
  }

  /// Gives the copy the name `target`, never replacing a file there: false when it is taken.
  package func name(_ target: String) throws -> Bool {
    guard let hiddenPath else {
      // linkat with AT_EMPTY_PATH needs a capability; the /proc name of the descriptor does not.
      if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0 {
        return true
      }
      if errno == EEXIST { return false }
      throw DownloadError.writing(target)
    }
    if link(hiddenPath, target) == 0 { return true }
    if errno == EEXIST { return false }
    // Without hard links (FAT), rename; the check before it is the best such a filesystem allows.
    if FileManager.default.fileExists(atPath: target) { return false }
    guard rename(hiddenPath, target) == 0 else { throw DownloadError.writing(target) }
    return true
  }

  /// `O_TMPFILE`: Glibc's macro (`__O_TMPFILE | O_DIRECTORY`) does not reach Swift.
  private static let unnamedFileFlags: Int32 = 0o20_000_000 | O_DIRECTORY

  private static let hiddenPrefix = ".podcast-"
}
