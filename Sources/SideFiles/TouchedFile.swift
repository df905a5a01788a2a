/// A file in a podcast folder that a run touched, and so the views of its folder it looks at
/// (`FolderViews.update`).
public struct TouchedFile: Sendable {
  public var file: String
  public var kind: Kind
  /// What the run asks of the folder's views.
  public var request: FolderRequest

  public enum Kind: Sendable, Equatable {
    /// Put in place, found in place, pruned, deleted, or finished by a run that died: every
    /// view of the folder is looked at.
    case changed
    /// Put in place by a finish round that listed it in the views written on arrival
    /// (`FolderView.isWrittenOnArrival`): only the other views are looked at.
    case listed
    /// Unchanged, in a folder whose subscription asks for views (`set NAME --write-feed`):
    /// the views it asks for are looked at, so they follow a changed request.
    case asked
  }

  public init(_ file: String, _ kind: Kind, request: FolderRequest = FolderRequest()) {
    self.file = file
    self.kind = kind
    self.request = request
  }

  /// Whether `view` is to be looked at for this file.
  func concerns(_ view: any FolderView.Type) -> Bool {
    switch kind {
    case .changed: true
    case .listed: !view.isWrittenOnArrival
    case .asked: view.isAsked(by: request)
    }
  }
}
