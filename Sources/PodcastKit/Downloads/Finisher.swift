import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Puts a verified partial file into the Episodes directory in one atomic step.
///
/// `link(2)` instead of `rename(2)`: link refuses to replace an existing file, so two episodes
/// can never land on one path, and the file appears complete or not at all. The caller records
/// the download as done and only then removes the partial name, so a crash in between leaves
/// a rerun that recognises its own link (same inode) instead of saving a second copy.
enum Finisher {
  /// Where a file landed; `isNew` when this call made the name (so it may take it back).
  struct Placed {
    var path: String
    var isNew: Bool
  }

  /// The partial is synced by the caller before this.
  static func place(_ file: PartialFile, episodesDirectory: String, relativePath: String)
    throws -> Placed
  {
    let target = try safeTarget(episodesDirectory: episodesDirectory, relativePath: relativePath)
    let directory = (target as NSString).deletingLastPathComponent
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw DownloadError.cannotWrite(path: directory, reason: reason(error))
    }
    for candidate in candidates(for: target) {
      if link(file.path, candidate) == 0 {
        syncDirectory(directory)
        return Placed(path: candidate, isNew: true)
      }
      switch errno {
      case EEXIST:
        // Our own link, made by a run stopped before it could record it.
        if isSameFile(file.path, candidate) { return Placed(path: candidate, isNew: true) }
        continue
      case EXDEV:
        if FileManager.default.fileExists(atPath: candidate) { continue }
        if try copyAcrossFilesystems(file, to: candidate) {
          return Placed(path: candidate, isNew: true)
        }
        continue
      default: throw DownloadError.writing(candidate)
      }
    }
    throw DownloadError.cannotWrite(path: target, reason: "too many files with this name")
  }

  /// The joined path, proven to stay inside the Episodes directory.
  static func safeTarget(episodesDirectory: String, relativePath: String) throws -> String {
    let root = URL(fileURLWithPath: episodesDirectory).standardizedFileURL.path
    let parts = relativePath.split(separator: "/").filter { !$0.isEmpty && $0 != "." }
    guard !parts.isEmpty, !parts.contains("..") else {
      throw DownloadError.cannotWrite(
        path: relativePath, reason: "not a file name inside the Episodes directory")
    }
    let target = URL(fileURLWithPath: root).appendingPathComponent(parts.joined(separator: "/"))
      .standardizedFileURL.path
    guard target.hasPrefix(root + "/") else {
      throw DownloadError.cannotWrite(
        path: relativePath, reason: "not a file name inside the Episodes directory")
    }
    return target
  }

  /// `name.mp3`, `name (2).mp3`, `name (3).mp3`, …
  static func candidates(for target: String) -> [String] {
    let ext = (target as NSString).pathExtension
    let stem = ext.isEmpty ? target : String(target.dropLast(ext.count + 1))
    return [target] + (2...999).map { ext.isEmpty ? "\(stem) (\($0))" : "\(stem) (\($0)).\(ext)" }
  }

  /// The Episodes directory is on another filesystem than the library, so no rename can make
  /// the file appear whole. The copy goes into an unnamed file (`O_TMPFILE`) in the target's
  /// directory, which gets its name only once complete and synced: a kill at any moment
  /// leaves nothing to see under Episodes, and nothing to clean up (the kernel frees it).
  /// Staging in `.podcast/` instead would need a copy to cross filesystems at the end anyway.
  /// Returns false when the name was taken meanwhile.
  private static func copyAcrossFilesystems(_ file: PartialFile, to target: String) throws -> Bool {
    let directory = (target as NSString).deletingLastPathComponent
    let descriptor = open(directory, unnamedFileFlags | O_WRONLY | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let code = errno
      // Filesystems without O_TMPFILE (FAT, some network ones) get the hidden name instead.
      if [EOPNOTSUPP, EISDIR, EINVAL].contains(code) {
        return try copyUnderHiddenName(file, to: target)
      }
      throw DownloadError.writing(directory, errno: code)
    }
    defer { close(descriptor) }
    try file.copy(to: descriptor, targetPath: target)
    guard fsync(descriptor) == 0 else { throw DownloadError.writing(target) }
    // linkat with AT_EMPTY_PATH needs a capability; the /proc name of the descriptor does not.
    guard
      linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0
    else {
      if errno == EEXIST { return false }
      throw DownloadError.writing(target)
    }
    syncDirectory(directory)
    return true
  }

  /// `O_TMPFILE`: Glibc's macro (`__O_TMPFILE | O_DIRECTORY`) does not reach Swift.
  private static let unnamedFileFlags: Int32 = 0o20_000_000 | O_DIRECTORY

  /// The fallback: a hidden name beside the target, then a link to the real name (which,
  /// unlike rename, never replaces a file). A kill can leave the hidden name behind; the next
  /// copy into the directory removes those older than an hour (younger ones may be another
  /// process's copy in progress).
  private static func copyUnderHiddenName(_ file: PartialFile, to target: String) throws -> Bool {
    let directory = (target as NSString).deletingLastPathComponent
    removeStaleHiddenCopies(in: directory)
    let hidden =
      directory + "/.podcast-" + (file.path as NSString).lastPathComponent + "-\(getpid()).tmp"
    unlink(hidden)
    defer { unlink(hidden) }
    let descriptor = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw DownloadError.writing(hidden) }
    defer { close(descriptor) }
    try file.copy(to: descriptor, targetPath: hidden)
    guard fsync(descriptor) == 0 else { throw DownloadError.writing(hidden) }
    if link(hidden, target) != 0 {
      if errno == EEXIST { return false }
      guard rename(hidden, target) == 0 else { throw DownloadError.writing(target) }
    }
    syncDirectory(directory)
    return true
  }

  private static func removeStaleHiddenCopies(in directory: String) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names where name.hasPrefix(".podcast-") && name.hasSuffix(".tmp") {
      let path = directory + "/" + name
      var info = stat()
      guard stat(path, &info) == 0, time(nil) - info.st_mtim.tv_sec > 3600 else { continue }
      unlink(path)
    }
  }

  private static func isSameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev
      && a.st_ino == b.st_ino
  }

  /// fsync by name; the errno when it could not be done.
  @discardableResult
  private static func sync(_ path: String, flags: Int32 = 0) -> Int32? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | flags)
    guard descriptor >= 0 else { return errno }
    defer { close(descriptor) }
    return fsync(descriptor) == 0 ? nil : errno
  }

  /// Makes a new name in `path` survive a power cut; best effort, the file itself is synced.
  private static func syncDirectory(_ path: String) {
    sync(path, flags: O_DIRECTORY)
  }

  private static func reason(_ error: Error) -> String {
    (error as NSError).localizedFailureReason ?? error.localizedDescription
  }
}
