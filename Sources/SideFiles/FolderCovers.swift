import Basics
import Foundation
import Model
import Synchronization
import Tags

#if canImport(Glibc)
  import Glibc
#endif

/// `cover.jpg` / `cover.png` in each podcast folder, for players and media servers that show a
/// folder's picture (Jellyfin, Plex, car stereos). Fetched once: the URL it came from is kept
/// in the library's state directory (never in the Episodes folder, which media servers scan),
/// and the picture is fetched again only when the feed names another one. Written under a
/// temporary name and renamed, so the folder only ever holds a complete picture.
package final class FolderCovers: Sendable {
  private let stateDirectory: String
  private let images: CoverCache
  private let writer: SideFileWriter
  /// One fetch and write per folder per batch, however many of its episodes finish at once.
  private let writes = Mutex<[String: Task<Result<String, SideFileError>?, Never>]>([:])

  package init(stateDirectory: String, images: CoverCache, writer: SideFileWriter) {
    self.stateDirectory = stateDirectory + "/covers"
    self.images = images
    self.writer = writer
  }

  /// Makes sure the folder of `episodeFile` has the picture at `url`: the cover's path when
  /// this call wrote it, why not when it could not be had, nil when there was nothing to do
  /// (already there, or another call of the batch saw to it).
  package func update(besides episodeFile: String, from url: String) async -> Result<
    String, SideFileError
  >? {
    let folder = (episodeFile as NSString).deletingLastPathComponent
    let task = writes.withLock { writes in
      if let task = writes[folder] { return (task, false) }
      let task = Task { await self.write(folder: folder, url: url) }
      writes[folder] = task
      return (task, true)
    }
    let written = await task.0.value
    return task.1 ? written : nil
  }

  private func write(folder: String, url: String) async -> Result<String, SideFileError>? {
    let record = stateDirectory + "/" + Self.key(folder)
    let existing = Self.names.map { folder + "/" + $0 }.filter {
      FileManager.default.fileExists(atPath: $0)
    }
    let recorded = (try? String(contentsOfFile: record, encoding: .utf8)) ?? nil
    if !existing.isEmpty && (recorded == url || recorded == nil) {
      // A cover the user (or another tool) put there is theirs to keep.
      return nil
    }
    let image: CoverImage
    do {
      image = try await images.image(at: url).get()
    } catch {
      return .failure(error)
    }
    let target = folder + "/cover." + (image.mimeType == "image/png" ? "png" : "jpg")
    do {
      try writer.place(image.data, at: target)
    } catch {
      return .failure(error)
    }
    // Kept means kept with its source: unrecorded, the next run would take the picture for
    // one the user put there and never refresh it. So a record that cannot be written takes
    // the new picture back, and the next run tries again.
    if let failure = Self.recordSource(url, at: record, in: stateDirectory) {
      unlink(target)
      return .failure(failure)
    }
    for other in existing where other != target { unlink(other) }
    return .success(target)
  }

  private static func recordSource(_ url: String, at record: String, in directory: String)
    -> SideFileError?
  {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      return .cannotWrite(path: directory, reason: error.localizedDescription)
    }
    guard let code = AtomicFile.write(Data(url.utf8), to: record, prefix: ".cover-url-") else {
      return nil
    }
    return .cannotWrite(path: record, reason: String(cString: strerror(code)))
  }

  package static let names = ["cover.jpg", "cover.png"]

  /// A file name for the folder's record: the folder path can be long and has slashes.
  private static func key(_ folder: String) -> String {
    LibraryPaths.hashName(folder) + ".url"
  }
}
