import Basics
import Fetching

/// What a front end hears while a use case downloads: each batch's live progress, each
/// episode as it ends, and the problems that do not stop the run. Called from the run's tasks,
/// so an implementation must be safe to call from any of them.
public protocol RunReporter: Sendable {
  /// A batch of downloads begins; its transfers show in `progress` until `batchEnded`.
  func batchStarted(_ progress: ProgressBuffer)
  /// One episode ended: downloaded, already there, or failed.
  func downloadEnded(_ result: DownloadResult)
  func batchEnded()
  /// Something went wrong without stopping the run: a feed that failed, a file that could
  /// not be pruned, a playlist not written. `subject` names what it was about, if the error
  /// does not (a subscription's name).
  func problem(_ error: Error, subject: String?)
}

extension RunReporter {
  /// Runs `jobs` on `manager` as one batch, telling this reporter as it goes.
  package func download(_ jobs: [DownloadJob], on manager: DownloadManager) async
    -> [DownloadResult]
  {
    batchStarted(manager.progress)
    let results = await manager.download(jobs) { downloadEnded($0) }
    batchEnded()
    return results
  }
}
