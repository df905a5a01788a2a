import Basics
import Model

/// What a podcast folder's views are made from: the library's finished downloads whose files
/// are under the folder (at any depth), with what the library knows of each episode. Whether
/// each file is still on disk is the view's to check (it stats the files it lists).
package struct FolderEpisodes: Sendable {
  /// The podcast folder, standardized.
  package var folder: String
  package var records: [DownloadRecord]
  /// The library's play states by episode key (for the page's "played"); empty where the
  /// views looked at need none (the finish round's).
  package var playStates: [String: PlayState]

  package init(
    folder: String, records: [DownloadRecord], playStates: [String: PlayState] = [:]
  ) {
    self.folder = folder
    self.records = records
    self.playStates = playStates
  }
}
