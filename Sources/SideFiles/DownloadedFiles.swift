import Basics
import Foundation
import Model

/// Removes finished episode files, refusing anything outside the Episodes directory, so a
/// damaged or hand-edited database can never make `podcast` delete a user's other files.
public enum DownloadedFiles {
  public struct Outcome: Sendable, Equatable {
    public var deleted: [String] = []
    /// One error per file that could not be deleted.
    public var failures: [LibraryError] = []
  }

  public static func delete(_ files: [String], paths: LibraryPaths) -> Outcome {
    var outcome = Outcome()
    let episodes = URL(fileURLWithPath: paths.episodes).standardizedFileURL.path
    for file in files {
      let path = URL(fileURLWithPath: file).standardizedFileURL.path
      guard path.hasPrefix(episodes + "/") else {
        outcome.failures.append(.outsideEpisodes(file: file, episodes: episodes))
        continue
      }
      guard FileManager.default.fileExists(atPath: path) else { continue }
      do {
        let sideFiles = SideFileNames.existing(besides: path)
        try FileManager.default.removeItem(atPath: path)
        outcome.deleted.append(path)
        // Transcripts and chapters mean nothing without their episode; one that stays is said.
        for sideFile in sideFiles {
          do {
            try FileManager.default.removeItem(atPath: sideFile)
          } catch {
            outcome.failures.append(
              .cannotDelete(path: sideFile, reason: error.localizedDescription))
          }
        }
        removeEmptyFolders(above: path, stoppingAt: episodes)
      } catch {
        outcome.failures.append(
          .cannotDelete(path: path, reason: error.localizedDescription))
      }
    }
    return outcome
  }

  /// The podcast's folder goes once its last episode has. Its picture and its playlist alone
  /// (and its feed) are no reason to keep it (a subfolder's picture none to keep the subfolder).
  private static func removeEmptyFolders(above path: String, stoppingAt root: String) {
    var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    while folder.path.hasPrefix(root + "/"),
      let left = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    {
      var ours = Set(FolderCovers.names)
      if folder.deletingLastPathComponent().path == root {
        ours.insert(FolderPlaylist.fileName(inFolder: folder.path))
        ours.insert(ArchiveFeed.fileName)
      }
      guard left.allSatisfy(ours.contains) else { return }
      for name in left {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
      }
      guard (try? FileManager.default.removeItem(at: folder)) != nil else { return }
      folder = folder.deletingLastPathComponent()
    }
  }
}
