import Basics
import Downloads
import Model
import SideFiles
import Store
import Transfer

/// What belongs beside episodes a sync did not download: the podcast's picture in the folders
/// of feeds that now name another one (new episodes or not), and the transcripts and chapters
/// an earlier run could not fetch. `--no-cover` and the other side-file flags hold here too.
public struct SideFileCompletion: Sendable {
  /// Pictures written, by path.
  public var covers: [String] = []
  /// Transcripts and chapters written, by path.
  public var files: [String] = []
  /// What could not be kept.
  public var notes: [SideFileNote] = []

  package init() {}

  package static func complete(
    _ plan: SyncPlan, store: LibraryStore, http: HTTPClient, settings: DownloadSettings,
    subscriptionSettings: [Int64: SubscriptionSettings]
  ) async -> SideFileCompletion {
    let manager = DownloadManager(store: store, http: http, options: settings.options)
    var completion = SideFileCompletion()
    for feed in plan.feeds where !settings.noCover {
      guard let url = feed.imageURL,
        subscriptionSettings[feed.subscription.id]?.cover != false
      else { continue }
      for result in await manager.refreshCovers(of: feed.subscription, imageURL: url) {
        switch result {
        case .success(let file): completion.covers.append(file)
        case .failure(let error):
          completion.notes.append(SideFileNote(.cover, error, subject: feed.subscription.name))
        }
      }
    }
    for check in plan.sideFileChecks {
      var job = subscriptionSettings[check.subscriptionId, default: SubscriptionSettings()]
        .sideFiles(of: settings.sideFiles(of: check.job))
      job.folderCoverURL = nil
      let report = await manager.completeSideFiles(of: job, besides: check.file)
      completion.files += report.files
      completion.notes += report.sideFileNotes.map {
        SideFileNote($0.kind, $0.error, subject: check.file)
      }
    }
    return completion
  }
}
