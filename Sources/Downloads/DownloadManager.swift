import Basics
import Fetching
import Foundation
import Model
import SideFiles
import Store
import Transfer

#if canImport(Glibc)
  import Glibc
#endif

/// Downloads a batch of episodes concurrently (with a cap per host), reporting live progress
/// into `progress`, keyed by each episode's remote URL.
public final class DownloadManager: Sendable {
  public let progress = ProgressBuffer()
  private let paths: LibraryPaths
  private let http: HTTPClient
  private let store: LibraryStore
  private let options: DownloadOptions
  /// Asked for a fresh link when the server refuses one (401, 403, 410): signed links expire.
  private let refresher: LinkRefresher?
  private let covers: CoverCache
  private let folderCovers: FolderCovers
  private let sideFiles: SideFileWriter

  /// `episodesDirectory`: where these episodes land when not the library's Episodes folder
  /// (a subscription's own folder).
  public init(
    store: LibraryStore, episodesDirectory: String? = nil, http: HTTPClient = .shared,
    options: DownloadOptions = DownloadOptions(), refresher: LinkRefresher? = nil
  ) {
    self.refresher = refresher
    self.paths = LibraryPaths(
      root: store.paths.root, episodes: episodesDirectory ?? store.paths.episodes)
    self.http = http
    self.store = store
    self.options = options
    let scratch = store.paths.partials
    self.covers = CoverCache(http: http, options: options, scratchDirectory: scratch)
    self.sideFiles = SideFileWriter(http: http, options: options, scratchDirectory: scratch)
    self.folderCovers = FolderCovers(
      stateDirectory: store.paths.stateDirectory, images: covers, writer: sideFiles)
  }

  /// Runs every job (each URL once, whatever the duplicates in `jobs`) and returns one result
  /// per distinct URL, in the order given. One failure never stops the others.
  public func download(
    _ jobs: [DownloadJob], onFinish: @escaping @Sendable (DownloadResult) -> Void = { _ in }
  ) async -> [DownloadResult] {
    let (groups, arrival) = AsyncStream<[DownloadJob]>.makeStream()
    arrival.yield(jobs)
    arrival.finish()
    return await download(arriving: groups, onFinish: onFinish)
  }

  /// Runs jobs as they arrive, a group at a time (sync hands over each feed's as soon as the
  /// feed is planned), within one set of limits: the first group's transfers start while later
  /// feeds are still being fetched. Returns one result per distinct URL, in the order they
  /// arrived, once the stream has ended and every job with it.
  public func download(
    arriving groups: AsyncStream<[DownloadJob]>,
    onFinish: @escaping @Sendable (DownloadResult) -> Void = { _ in }
  ) async -> [DownloadResult] {
    // What earlier runs left behind goes first: partial files no unfinished row owns. Before
    // any job of this run has a partial file of its own.
    let setUp = Result { try PartialSweep(store: store).run() }
    // The per-host cap is on connections: a job holds a transfer slot only while its bytes
    // come in (`TransferTurn`), so one episode's fsync, link and record overlap the next
    // one's transfer. Jobs begun at once are capped too (twice the transfers), and so are
    // those finishing (`JobTurn`), which keeps open partial files bounded; a job trades the
    // one place for the other when its transfer ends, so the episodes waiting for a finish
    // batch never hold back their host's next transfer.
    let transfers = HostSlots(total: options.concurrency, perHost: options.perHost)
    let begun = HostSlots(total: 2 * options.concurrency, perHost: 2 * options.perHost)
    let finishing = HostSlots(
      total: Self.finishingPerTransfer * options.concurrency,
      perHost: Self.finishingPerTransfer * options.concurrency)
    return await withTaskGroup(of: (Int, DownloadResult).self) { group in
      var arrived = 0
      var earlierPaths: Set<String> = []
      for await jobs in groups {
        let unique = jobs.filter {
          progress.enqueue($0.url, title: $0.title, podcast: $0.podcastTitle)
        }
        let first = arrived
        arrived += unique.count
        let keys: [DownloadKey]
        do {
          _ = try setUp.get()
          // Queued in the library too, so `podcast status` elsewhere shows the whole batch; a
          // download begun under another link moves to the feed's current one.
          // So a queue this process leaves behind (killed) reads as paused, not waiting
          // forever. Those the caller queued for this process already keep their rows.
          let pid = ProcessInfo.processInfo.processIdentifier
          // One key per job given, in order: the others take them as they come.
          var queued = try store.queueDownloads(
            unique.filter { $0.queuedAs == nil }.map { $0.queued(pid: pid) })[...]
          keys = unique.map { $0.queuedAs ?? queued.removeFirst() }
        } catch {
          for (offset, job) in unique.enumerated() {
            let result = DownloadResult(job: job, outcome: .failed(DownloadFailure(error)))
            progress.fail(job.url, state: .failed, error: String(describing: error))
            onFinish(result)
            group.addTask { (first + offset, result) }
          }
          continue
        }
        // A path an earlier group had too is not this one's to adopt either.
        let sharedPaths = Self.pathsOfSeveral(unique).union(
          unique.lazy.map(\.relativePath).filter { earlierPaths.contains($0) })
        earlierPaths.formUnion(unique.lazy.map(\.relativePath))
        for job in unique { covers.claim(Self.pictures(of: job)) }
        for (offset, job) in unique.enumerated() {
          group.addTask {
            let turn = JobTurn(begun: begun, finishing: finishing, host: job.servingHost)
            await turn.begin()
            let fetched = await self.fetch(
              job, key: keys[offset], mayAdopt: !sharedPaths.contains(job.relativePath),
              transfers: transfers, turn: turn)
            await turn.end()
            let result = await self.addingSideFiles(to: fetched)
            self.covers.release(Self.pictures(of: job))
            onFinish(result)
            return (first + offset, result)
          }
        }
      }
      var results: [(Int, DownloadResult)] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }

  /// Jobs finishing at once, per transfer: enough for a finish batch to gather what arrives
  /// while the one before is made durable (a few milliseconds a round) at loopback speed.
  private static let finishingPerTransfer = 4

  /// The pictures `job` looks up in the cover cache: its tag's covers and its folder's.
  private static func pictures(of job: DownloadJob) -> [String] {
    (job.tagging?.coverURLs ?? []) + [job.folderCoverURL].compactMap { $0 }
  }

  /// One job, and once more under the feed's current link when the server refused the one
  /// the job had (an expired signature): the row moves to it with its validators, and the
  /// partial file, named after the episode, resumes with `Range` and `If-Range`.
  private func fetch(
    _ job: DownloadJob, key: DownloadKey, mayAdopt: Bool, transfers: HostSlots, turn: JobTurn
  ) async -> DownloadResult {
    let first = await episodeDownload(
      job, key: key, mayAdopt: mayAdopt, transfers: transfers, turn: turn
    ).attempt()
    guard case .failed = first.outcome, let refresher, Self.isRefusedLink(first.error),
      let fresh = await refresher.currentURL(for: job), fresh != job.url, URLPolicy.isAllowed(fresh)
    else { return DownloadResult(job: job, outcome: first.outcome) }
    var renewed = job
    renewed.url = fresh
    do {
      try store.relinkDownload(key, to: fresh)
    } catch {
      // Unrecorded, the new link would be fetched under the old one's row: say why instead.
      return DownloadResult(job: job, outcome: .failed(DownloadFailure(error)))
    }
    _ = progress.enqueue(fresh, title: job.title, podcast: job.podcastTitle)
    let second = await episodeDownload(
      renewed, key: key, mayAdopt: mayAdopt, transfers: transfers, turn: turn
    ).run()
    return DownloadResult(job: renewed, outcome: second)
  }

  private static func isRefusedLink(_ error: Error?) -> Bool {
    guard case .httpStatus(_, let status, _)? = error as? TransferError else { return false }
    return status == 401 || status == 403 || status == 410
  }

  /// The side files beside the episode: all of them for a new download; for one that was
  /// already here, only those missing (an earlier run could not fetch them), so a rerun costs
  /// a `stat` per side file. Never a failure: what cannot be had becomes a note.
  private func addingSideFiles(to result: DownloadResult) async -> DownloadResult {
    var result = result
    switch result.outcome {
    case .downloaded(let file, let bytes, let report):
      let report = await sideFiles(of: result.job, besides: file, onlyMissing: false, report)
      result.outcome = .downloaded(file: file, bytes: bytes, report: report)
    case .alreadyDownloaded(let file):
      guard FileManager.default.fileExists(atPath: file) else { break }
      result.sideFiles = await sideFiles(of: result.job, besides: file, onlyMissing: true, .none)
    case .failed:
      break
    }
    return result
  }

  private func sideFiles(
    of job: DownloadJob, besides file: String, onlyMissing: Bool, _ report: SideFileReport
  ) async -> SideFileReport {
    var report = report
    func note(_ result: Result<String, SideFileError>?, _ kind: SideFileNote.Kind) {
      switch result {
      case .success(let path): report.files.append(path)
      case .failure(let error): report.sideFileNotes.append(SideFileNote(kind, error))
      case nil: break
      }
    }
    let wanted = { (path: String) in !onlyMissing || !FileManager.default.fileExists(atPath: path) }
    if let url = job.folderCoverURL {
      note(await folderCovers.update(besides: file, from: url), .cover)
    }
    let names = SideFileNames.transcripts(job.transcripts, besides: file)
    for (transcript, name) in zip(job.transcripts, names) where wanted(name) {
      note(await sideFiles.fetch(transcript.url, to: name, feedURL: job.feedURL), .transcript)
    }
    if let url = job.chaptersURL, wanted(SideFileNames.chapters(besides: file)) {
      note(
        await sideFiles.keepChapters(url, besides: file, feedURL: job.feedURL), .chapters)
    }
    if let info = job.info, wanted(SideFileNames.info(besides: file)) {
      note(sideFiles.keepInfo(info, besides: file), .info)
    }
    return report
  }

  /// The side files missing beside `file`, an episode already in place: the ones an earlier
  /// run could not fetch (see `SyncPlan.SideFileCheck`); present ones are not fetched again.
  public func completeSideFiles(of job: DownloadJob, besides file: String) async
    -> SideFileReport
  {
    guard FileManager.default.fileExists(atPath: file) else { return .none }
    return await sideFiles(of: job, besides: file, onlyMissing: true, .none)
  }

  /// Puts the picture at `imageURL` in the folders of the subscription's downloaded episodes
  /// when it is not there yet: a feed can change its picture without a new episode. Nothing
  /// is fetched for a folder whose cover came from this URL, nor for one whose cover the user
  /// put there. One result per folder this call wrote, or failed to.
  public func refreshCovers(of subscription: Subscription, imageURL: String) async -> [Result<
    String, SideFileError
  >] {
    guard let id = subscription.id, let seen = try? store.seenEpisodes(subscriptionId: id) else {
      return []
    }
    var folders: [String: String] = [:]
    for file in seen.compactMap(\.downloadedFile) where FileManager.default.fileExists(atPath: file)
    {
      folders[(file as NSString).deletingLastPathComponent] = file
    }
    var results: [Result<String, SideFileError>] = []
    for file in folders.values.sorted() {
      if let result = await folderCovers.update(besides: file, from: imageURL) {
        results.append(result)
      }
    }
    return results
  }

  /// Relative paths that more than one job of the batch would use.
  private static func pathsOfSeveral(_ jobs: [DownloadJob]) -> Set<String> {
    var counts: [String: Int] = [:]
    for job in jobs { counts[job.relativePath, default: 0] += 1 }
    return Set(counts.filter { $0.value > 1 }.keys)
  }

  private func episodeDownload(
    _ job: DownloadJob, key: DownloadKey, mayAdopt: Bool, transfers: HostSlots, turn: JobTurn
  ) -> EpisodeDownload {
    EpisodeDownload(
      job: job, key: key, paths: paths, http: http, store: store, progress: progress,
      options: options,
      mayAdoptFileAtTarget: mayAdopt, covers: covers, sideFiles: sideFiles, transfers: transfers,
      jobTurn: turn)
  }
}
