import Basics
import Fetching
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Puts a verified partial file into the Episodes directory in one atomic step.
///
/// `link(2)` instead of `rename(2)`: link refuses to replace an existing file, so two episodes
/// can never land on one path, and the file appears complete or not at all. The caller records
/// the download as done and only then removes the partial name, so a crash in between leaves
/// a rerun that recognises its own link (same inode) instead of saving a second copy. The
/// caller also makes the file's data durable before `place`, and the new name after it
/// (`Destination.folders`): `FinishBatch` does both for a batch of episodes at once.
package enum Finisher {
  /// Where a file landed; `isNew` when this call made the name (so it may take it back).
  package struct Placed {
    package var path: String
    package var isNew: Bool
  }

  /// Where an episode goes: its path, proven inside the Episodes directory, and its folder.
  /// Worked out once per episode; the folder also names the lock its finishing takes.
  package struct Destination {
    package var path: String
    package var directory: String
    /// The folder and each one above it up to the Episodes directory: the ones whose sync
    /// makes the new name survive a power cut, the folder's own name too when it is new.
    package var folders: [String]

    package init(episodesDirectory: String, relativePath: String) throws {
      let (root, parts) = try Finisher.rootAndParts(
        episodesDirectory: episodesDirectory, relativePath: relativePath)
      path = root + parts.joined(separator: "/")
      directory = StandardPath.directory(of: path)
      folders = (0..<parts.count).reversed().map { depth in
        depth > 0
          ? root + parts[..<depth].joined(separator: "/")
          : root == "/" ? root : String(root.dropLast())
      }
    }
  }

  /// Before `place`, outside any lock: when the Episodes directory is on another filesystem,
  /// the slow part, the copy, happens here (see `StagedCopy`), so `place` only names it.
  /// nil when a link will do. The copy is synced here; a file linked as it is, by its batch.
  package static func stage(_ file: PartialFile, to destination: Destination) throws -> StagedCopy?
  {
    try makeDirectory(destination.directory)
    var partial = stat()
    var episodes = stat()
    guard stat(file.path, &partial) == 0, stat(destination.directory, &episodes) == 0,
      partial.st_dev != episodes.st_dev
    else { return nil }
    return try StagedCopy(copying: file, into: destination.directory)
  }

  package static func place(_ file: PartialFile, staged: StagedCopy?, at destination: Destination)
    throws -> Placed
  {
    let directory = destination.directory
    // A staged copy waits in the folder itself, which keeps it from being pruned.
    if staged != nil { try makeDirectory(directory) }
    var staged = staged
    for candidate in candidates(for: destination.path) {
      if let copy = staged {
        if try copy.name(candidate) { return Placed(path: candidate, isNew: true) }
        continue
      }
      if link(file.path, candidate) == 0 { return Placed(path: candidate, isNew: true) }
      // A prune may have removed the emptied folder since `stage` made it: made again, only
      // then (making it again first, every time, was two system calls per episode).
      if errno == ENOENT {
        try makeDirectory(directory)
        if link(file.path, candidate) == 0 { return Placed(path: candidate, isNew: true) }
      }
      switch errno {
      case EEXIST:
        // Our own link, made by a run stopped before it could record it.
        if isSameFile(file.path, candidate) { return Placed(path: candidate, isNew: true) }
        continue
      case EXDEV, EPERM, EOPNOTSUPP:
        // A mount boundary `stage` could not see, or a filesystem without hard links.
        let copy = try StagedCopy(copying: file, into: directory)
        staged = copy
        if try copy.name(candidate) { return Placed(path: candidate, isNew: true) }
        continue
      default: throw DownloadError.writing(candidate)
      }
    }
    throw DownloadError.cannotWrite(path: destination.path, reason: "too many files with this name")
  }

  /// The folder, created when missing. One mkdir(2) when only the folder itself is new;
  /// FileManager (which stats every level first) only when its parents are missing too.
  private static func makeDirectory(_ directory: String) throws {
    if mkdir(directory, 0o777) == 0 || errno == EEXIST && isDirectory(directory) { return }
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw DownloadError.cannotWrite(path: directory, reason: reason(error))
    }
  }

  private static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// The joined path, proven to stay inside the Episodes directory.
  package static func safeTarget(episodesDirectory: String, relativePath: String) throws -> String {
    let (root, parts) = try rootAndParts(
      episodesDirectory: episodesDirectory, relativePath: relativePath)
    return root + parts.joined(separator: "/")
  }

  /// The Episodes directory, standardized and ending in "/", and the relative path's parts.
  private static func rootAndParts(episodesDirectory: String, relativePath: String) throws
    -> (String, [Substring])
  {
    let parts = relativePath.split(separator: "/").filter { !$0.isEmpty && $0 != "." }
    guard !parts.isEmpty, !parts.contains("..") else {
      throw DownloadError.cannotWrite(
        path: relativePath, reason: "not a file name inside the Episodes directory")
    }
    // Without empty, "." and ".." parts the join cannot climb out of the root, so only the
    // root needs standardizing: a second URL round trip per episode bought nothing.
    return (standardizedRoot(episodesDirectory), parts)
  }

  /// The Episodes directory, standardized and ending in "/": worked out once per directory (a
  /// run has one or a few), not once per episode.
  private static func standardizedRoot(_ episodesDirectory: String) -> String {
    if let known = roots.withLock({ $0[episodesDirectory] }) { return known }
    let root = URL(fileURLWithPath: episodesDirectory).standardizedFileURL.path
    let standardized = root.hasSuffix("/") ? root : root + "/"
    roots.withLock { $0[episodesDirectory] = standardized }
    return standardized
  }

  private static let roots = Mutex<[String: String]>([:])

  /// `name.mp3`, `name (2).mp3`, `name (3).mp3`, … made one at a time: nearly every episode
  /// takes the first, so the other 998 names are never built.
  package static func candidates(for target: String) -> LazyMapSequence<ClosedRange<Int>, String> {
    let ext = StandardPath.pathExtension(of: target)
    let stem = ext.isEmpty ? target : String(target.dropLast(ext.count + 1))
    return (1...999).lazy.map { number in
      if number == 1 { return target }
      return ext.isEmpty ? "\(stem) (\(number))" : "\(stem) (\(number)).\(ext)"
    }
  }

  private static func isSameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev
      && a.st_ino == b.st_ino
  }

  private static func reason(_ error: Error) -> String {
    (error as NSError).localizedFailureReason ?? error.localizedDescription
  }
}
