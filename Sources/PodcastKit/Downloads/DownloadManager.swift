import Foundation

/// Downloads a batch of episodes concurrently (with a cap per host), reporting live progress
/// into `progress`, keyed by each episode's remote URL.
public final class DownloadManager: Sendable {
  public let progress = ProgressBuffer()
  private let paths: LibraryPaths
  private let http: HTTPClient
  private let store: LibraryStore
  private let options: DownloadOptions
  private let covers: CoverCache
  private let folderCovers: FolderCovers
  private let sideFiles: SideFileWriter

  /// `episodesDirectory`: where these episodes land when not the library's Episodes folder
  /// (a subscription's own folder).
  public init(
    store: LibraryStore, episodesDirectory: String? = nil, http: HTTPClient = .shared,
    options: DownloadOptions = DownloadOptions()
  ) {
    self.paths = LibraryPaths(
      root: store.paths.root, episodes: episodesDirectory ?? store.paths.episodes)
    self.http = http
    self.store = store
    self.options = options
    self.covers = CoverCache(http: http)
    self.folderCovers = FolderCovers(stateDirectory: store.paths.stateDirectory, images: covers)
    self.sideFiles = SideFileWriter(http: http)
  }

  /// Runs every job (each URL once, whatever the duplicates in `jobs`) and returns one result
  /// per distinct URL, in the order given. One failure never stops the others.
  public func download(
    _ jobs: [DownloadJob], onFinish: @escaping @Sendable (DownloadResult) -> Void = { _ in }
  ) async -> [DownloadResult] {
    let unique = jobs.filter { progress.enqueue($0.url, title: $0.title, podcast: $0.podcastTitle) }
    do {
      // Queued in the library too, so `podcast status` elsewhere shows the whole batch.
      try store.queueDownloads(unique.map(queuedRecord))
    } catch {
      return unique.map { job in
        let result = DownloadResult(job: job, outcome: .failed(reason: String(describing: error)))
        progress.fail(job.url, state: .failed, error: String(describing: error))
        onFinish(result)
        return result
      }
    }
    let sharedPaths = Self.pathsOfSeveral(unique)
    let slots = HostSlots(total: options.concurrency, perHost: options.perHost)
    return await withTaskGroup(of: (Int, DownloadResult).self) { group in
      for (index, job) in unique.enumerated() {
        group.addTask {
          let host = URL(string: job.url)?.host ?? ""
          await slots.acquire(host: host)
          let outcome = await self.episodeDownload(
            job, mayAdopt: !sharedPaths.contains(job.relativePath)
          ).run()
          await slots.release(host: host)
          let result = DownloadResult(job: job, outcome: await self.addingSideFiles(outcome, job))
          onFinish(result)
          return (index, result)
        }
      }
      var results: [(Int, DownloadResult)] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }

  /// The side files beside a newly downloaded episode: only ever complete, never a failure.
  private func addingSideFiles(_ outcome: DownloadOutcome, _ job: DownloadJob) async
    -> DownloadOutcome
  {
    guard case .downloaded(let file, let bytes, var report) = outcome else { return outcome }
    if let url = job.folderCoverURL,
      let cover = await folderCovers.update(besides: file, from: url)
    {
      report.files.append(cover)
    }
    let names = SideFileNames.transcripts(job.transcripts, besides: file)
    for (transcript, name) in zip(job.transcripts, names) {
      if let written = await sideFiles.fetch(transcript.url, to: name) {
        report.files.append(written)
      }
    }
    if let url = job.chaptersURL,
      let written = await sideFiles.fetch(url, to: SideFileNames.chapters(besides: file))
    {
      report.files.append(written)
    }
    return .downloaded(file: file, bytes: bytes, report: report)
  }

  private func queuedRecord(_ job: DownloadJob) -> DownloadRecord {
    var record = store.newDownloadRecord(
      url: job.url, podcastTitle: job.podcastTitle, episodeTitle: job.title)
    record.feedURL = job.feedURL
    record.episodeKey = job.identityKeys.first
    // So a queue this process leaves behind (killed) reads as paused, not waiting forever.
    record.pid = ProcessInfo.processInfo.processIdentifier
    return record
  }

  /// Relative paths that more than one job of the batch would use.
  private static func pathsOfSeveral(_ jobs: [DownloadJob]) -> Set<String> {
    var counts: [String: Int] = [:]
    for job in jobs { counts[job.relativePath, default: 0] += 1 }
    return Set(counts.filter { $0.value > 1 }.keys)
  }

  private func episodeDownload(_ job: DownloadJob, mayAdopt: Bool) -> EpisodeDownload {
    EpisodeDownload(
      job: job, paths: paths, http: http, store: store, progress: progress, options: options,
      mayAdoptFileAtTarget: mayAdopt, covers: covers)
  }
}
