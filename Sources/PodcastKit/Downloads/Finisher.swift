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
  static func linkIntoPlace(_ file: PartialFile, episodesDirectory: String, relativePath: String)
    throws -> String
  {
    try file.sync()
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
        return candidate
      }
      switch errno {
      case EEXIST:
        if isSameFile(file.path, candidate) { return candidate }
        continue
      case EXDEV:
        if FileManager.default.fileExists(atPath: candidate) { continue }
        return try copyAcrossFilesystems(file, to: candidate)
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

  /// The Episodes directory is on another filesystem than the library: copy to a hidden name
  /// beside the target, then rename, so the visible name still appears only when complete.
  private static func copyAcrossFilesystems(_ file: PartialFile, to target: String) throws -> String
  {
    let directory = (target as NSString).deletingLastPathComponent
    let hidden = directory + "/.podcast-" + (target as NSString).lastPathComponent + ".tmp"
    do {
      try? FileManager.default.removeItem(atPath: hidden)
      try FileManager.default.copyItem(atPath: file.path, toPath: hidden)
      // As for a link: the bytes are on disk before the name appears.
      if let code = sync(hidden) { throw DownloadError.writing(hidden, errno: code) }
      guard rename(hidden, target) == 0 else {
        throw DownloadError.writing(target)
      }
      syncDirectory(directory)
      return target
    } catch {
      try? FileManager.default.removeItem(atPath: hidden)
      throw error
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
