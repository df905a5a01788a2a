import Basics
import Model

/// What a podcast folder's views are made from: the library's finished downloads whose files
/// are under the folder (at any depth), with what the library knows of each episode. Whether
/// each file is still on disk is the view's to check (it stats the files it lists).
package struct FolderEpisodes: Sendable {
  /// The podcast folder, standardized.
  package var folder: String
  package var records: [DownloadRecord]

  package init(folder: String, records: [DownloadRecord]) {
    self.folder = folder
    self.records = records
  }
}
