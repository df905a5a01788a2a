import Basics
import Foundation

/// A file in a podcast folder made from what the library knows of the folder's downloaded
/// episodes: its playlist (`FolderPlaylist`), its own feed (`FolderFeed`). A view only says what
/// its file should hold; `FolderViews` reads the folder's episodes once for all its views,
/// writes each file atomically (left untouched when it would say the same), removes it with
/// the folder's last episode, and says why one could not be. A new view is one more type
/// conforming to this, listed in `FolderViews.all`.
package protocol FolderView: Sendable {
  /// The view's file in `folder`, a podcast folder (standardized).
  static func path(inFolder folder: String) -> String

  /// What the file should be now: the bytes for `episodes`, none (the folder has no episode
  /// on disk: a file there goes), or left as it is (a view written only when asked, neither
  /// asked for by `request` nor there). `existing`: the file's bytes now, nil when there is
  /// none.
  static func contents(of episodes: FolderEpisodes, request: FolderRequest, existing: Data?)
    -> FolderViewContents

  /// Whether a finish round writes the view with the episodes it places, before they are
  /// recorded (`FolderViews.write(arriving:episodesDirectories:store:)`): those the round
  /// listed are not looked at again at the end of the run.
  static var isWrittenOnArrival: Bool { get }

  /// Whether the view is made only when a run asks for it (`isAsked(by:)`): neither asked
  /// for nor there, its `contents` leave it as it is, so the folder's downloads need not be
  /// read for it. False by default.
  static var isWrittenOnlyWhenAsked: Bool { get }

  /// Whether the view shows the episodes' play states (`FolderEpisodes.playStates`): those
  /// are read, a table of the whole library, only when a view looked at needs them.
  static var showsPlays: Bool { get }

  /// Whether `request` asks for the view: a folder whose subscription asks for it is looked
  /// at on every run (`TouchedFile.Kind.asked`), to follow a changed request.
  static func isAsked(by request: FolderRequest) -> Bool

  /// The sentences for a file that could not be written or removed.
  static func cannotWrite(path: String, reason: String) -> FolderViewError
  static func cannotRemove(path: String, reason: String) -> FolderViewError

  /// What follows the folders' views in each Episodes directory a run looked at (`touched`,
  /// in order), some of whose folders' views it wrote or removed (`changed`): the list of
  /// every folder's feed. Nothing by default.
  static func updateEpisodesDirectories(touched: [String], changed: Set<String>, staging: String)
    -> [FolderViewError]
}

extension FolderView {
  package static var isWrittenOnlyWhenAsked: Bool { false }
  package static var showsPlays: Bool { false }

  package static func updateEpisodesDirectories(
    touched: [String], changed: Set<String>, staging: String
  ) -> [FolderViewError] { [] }
}

/// What a folder view's file should be (`FolderView.contents`).
package enum FolderViewContents: Sendable, Equatable {
  /// These bytes, listing `entries` episodes.
  case file(Data, entries: Int)
  /// No file: one there is removed.
  case none
  /// Whatever is there stays as it is.
  case leave
}

/// What an update did to a folder view's file.
public enum FolderViewChange: Sendable, Equatable {
  case written(entries: Int)
  case removed
  /// It already said exactly this, or there is no file and none is wanted.
  case unchanged
}
