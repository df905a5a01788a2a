import Basics
import Model

extension SubscriptionSettings {
  /// `job` without the tags and side files this subscription turned off.
  public func sideFiles(of job: DownloadJob) -> DownloadJob {
    var job = job
    if tags == false { job.tagging = nil }
    if cover == false { job.folderCoverURL = nil }
    if transcripts == false { job.transcripts = [] }
    if chapters == false { job.chaptersURL = nil }
    return job
  }
}
