import Basics
import Fetching
import Foundation
import Model
import SideFiles
import Store
import Synchronization
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
  fileprivate let store: LibraryStore
  private let options: DownloadOptions
  /// Asked for a fresh link when the server refuses one (401, 403, 410): signed links expire.
  private let refresher: LinkRefresher?
  fileprivate let covers: CoverCache
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
    let results = Locked<[(Int, DownloadResult)]>([])
    await download(
      onFinish: { index, result in
        results.withLock { $0.append((index, result)) }
        onFinish(result)
      },
      feeding: { intake in await intake.add(jobs) })
    return results.withLock { $0 }.sorted { $0.0 < $1.0 }.map(\.1)
  }

  /// Runs jobs as `feeding` hands them over, a group at a time (sync hands over each feed's as
  /// soon as the feed is planned), within one set of limits: the first group's transfers start
  /// while later feeds are still being fetched. Returns once `feeding` has returned and every
  /// job it gave has ended; each result goes to `onFinish` as its job ends, with its place in
  /// the order the jobs were given. Duplicate URLs run once.
  ///
  /// Jobs wait as values, not as tasks, until their server has a place (`HostQueue`), and
  /// `Intake.add` waits while `queueCapacity` jobs wait already: what feeds the manager runs
  /// only that far ahead of the downloads, so a run's memory does not grow with its length.
  public func download<Value>(
    onFinish: @escaping @Sendable (_ index: Int, DownloadResult) -> Void,
    feeding: (Intake) async -> Value
  ) async -> Value {
    // The per-host cap is on connections: a job holds a transfer slot only while its bytes
    // come in (`TransferTurn`), so one episode's fsync, link and record overlap the next
    // one's transfer. Jobs begun at once are capped too (twice the transfers), and so are
    // those finishing (`JobTurn`), which keeps open partial files bounded; a job trades the
    // one place for the other when its transfer ends, so the episodes waiting for a finish
    // batch never hold back their host's next transfer.
    let transfers = HostSlots(total: options.concurrency, perHost: options.perHost)
    let begun = HostQueue<Intake.Entry>(
      total: 2 * options.concurrency, perHost: 2 * options.perHost,
      capacity: Self.waitingPerTransfer * options.concurrency)
    let finishing = HostSlots(
      total: Self.finishingPerTransfer * options.concurrency,
      perHost: Self.finishingPerTransfer * options.concurrency)
    let intake = Intake(manager: self, queue: begun, onFinish: onFinish)
    let notes = ProgressNotes(progress: progress)
    let noting = Task { await notes.run() }
    async let ran: Void = run(
      begun, transfers: transfers, finishing: finishing, notes: notes, onFinish: onFinish)
    let value = await feeding(intake)
    begun.close()
    await ran
    noting.cancel()
    await noting.value
    return value
  }

  /// Starts each job the queue hands out, its begun place taken, until the queue is closed
  /// and empty: a task per job running now, none for those waiting.
  private func run(
    _ begun: HostQueue<Intake.Entry>, transfers: HostSlots, finishing: HostSlots,
    notes: ProgressNotes, onFinish: @escaping @Sendable (Int, DownloadResult) -> Void
  ) async {
    await withDiscardingTaskGroup { group in
      while let (host, entry) = await begun.next() {
        group.addTask {
          let turn = JobTurn(finishing: finishing) { begun.release(host: host) }
          let job = entry.job
          let (fetched, outcome) = await self.fetch(
            job, key: entry.key, mayAdopt: entry.mayAdopt, transfers: transfers, turn: turn,
            notes: notes)
          await turn.end()
          let result = await self.addingSideFiles(to: outcome, of: fetched)
          self.covers.release(Self.pictures(of: job))
          onFinish(entry.index, result)
        }
      }
    }
  }

  /// Where a download manager's jobs come in (see `download(onFinish:feeding:)`): each group
  /// is queued in the library and waits for its server's turn.
  public final class Intake: Sendable {
    /// A job waiting for its turn, with its row and its place in the run.
    package struct Entry: Sendable {
      var job: DownloadJob
      var key: DownloadKey
      /// False when another job of the run would land on the same path: a file found there
      /// could be either episode's.
      var mayAdopt: Bool
      var index: Int
    }

    private struct State {
      var arrived = 0
      var paths: Set<String> = []
    }

    private let manager: DownloadManager
    private let queue: HostQueue<Entry>
    private let onFinish: @Sendable (Int, DownloadResult) -> Void
    private let state = Mutex(State())
    /// What earlier runs left behind goes first: partial files no unfinished row owns. Before
    /// any job of this run has a partial file of its own.
    private let setUp: Result<Void, Error>

    fileprivate init(
      manager: DownloadManager, queue: HostQueue<Entry>,
      onFinish: @escaping @Sendable (Int, DownloadResult) -> Void
    ) {
      self.manager = manager
      self.queue = queue
      self.onFinish = onFinish
      setUp = Result { try PartialSweep(store: manager.store).run() }
    }

    /// Queues `jobs` (those whose URL the run has not had yet), first waiting while the
    /// manager has its fill of jobs waiting.
    public func add(_ jobs: [DownloadJob]) async {
      let progress = manager.progress
      let store = manager.store
      // One group at a time: the indexes and the paths shared between groups follow the
      // order the groups came in.
      let entries = state.withLock { state -> [Entry] in
        let unique = jobs.filter {
          progress.enqueue($0.url, title: $0.title, podcast: $0.podcastTitle)
        }
        let first = state.arrived
        state.arrived += unique.count
        let keys: [DownloadKey]
        do {
          try setUp.get()
          // Queued in the library too, so `podcast status` elsewhere shows the whole batch; a
          // download begun under another link moves to the feed's current one.
          // So a queue this process leaves behind (killed) reads as paused, not waiting
          // forever. Those the caller queued for this process already keep their rows.
          // One key per job given, in order: the others take them as they come.
          var queued = try DownloadRows(store: store).queue(
            unique.filter { $0.queuedAs == nil }.map { $0.queued(owner: .current) })[...]
          keys = unique.map { $0.queuedAs ?? queued.removeFirst() }
        } catch {
          for (offset, job) in unique.enumerated() {
            progress.fail(job.url, state: .failed, error: String(describing: error))
            onFinish(
              first + offset, DownloadResult(job: job, outcome: .failed(DownloadFailure(error))))
          }
          return []
        }
        // A path an earlier group had too is not this one's to adopt either.
        var sharedPaths = DownloadManager.pathsOfSeveral(unique)
        for job in unique where !state.paths.insert(job.relativePath).inserted {
          sharedPaths.insert(job.relativePath)
        }
        return unique.enumerated().map { offset, job in
          Entry(
            job: job, key: keys[offset], mayAdopt: !sharedPaths.contains(job.relativePath),
            index: first + offset)
        }
      }
      for entry in entries {
        manager.covers.claim(DownloadManager.pictures(of: entry.job))
        await queue.add(entry, host: entry.job.servingHost)
      }
    }
  }

  /// Jobs waiting for their turn, per transfer: enough that each server's next ones are at
  /// hand when a place frees, few enough that a long run holds little.
  private static let waitingPerTransfer = 8

  /// Jobs finishing at once, per transfer: enough for a finish batch to gather what arrives
  /// while the one before is made durable (a few milliseconds a round) at loopback speed.
  private static let finishingPerTransfer = 4

  /// The pictures `job` looks up in the cover cache: its tag's covers and its folder's.
  fileprivate static func pictures(of job: DownloadJob) -> [String] {
    (job.tagging?.coverURLs ?? []) + [job.folderCoverURL].compactMap { $0 }
  }

  /// One job, and once more under the feed's current link when the server refused the one
  /// the job had (an expired signature): the row moves to it with its validators, and the
  /// partial file, named after the episode, resumes with `Range` and `If-Range`. Returns the
  /// job as last tried, with how it ended.
  private func fetch(
    _ job: DownloadJob, key: DownloadKey, mayAdopt: Bool, transfers: HostSlots, turn: JobTurn,
    notes: ProgressNotes
  ) async -> (DownloadJob, DownloadOutcome) {
    let first = await episodeDownload(
      job, key: key, mayAdopt: mayAdopt, transfers: transfers, turn: turn, notes: notes
    ).attempt()
    guard case .failed = first.outcome, let refresher, Self.isRefusedLink(first.error),
      let fresh = await refresher.currentURL(for: job), fresh != job.url, URLPolicy.isAllowed(fresh)
    else { return (job, first.outcome) }
    var renewed = job
    renewed.url = fresh
    do {
      try DownloadRows(store: store).relink(key, to: fresh)
    } catch {
      // Unrecorded, the new link would be fetched under the old one's row: say why instead.
      return (job, .failed(DownloadFailure(error)))
    }
    _ = progress.enqueue(fresh, title: job.title, podcast: job.podcastTitle)
    let second = await episodeDownload(
      renewed, key: key, mayAdopt: mayAdopt, transfers: transfers, turn: turn, notes: notes
    ).run()
    return (renewed, second)
  }

  private static func isRefusedLink(_ error: Error?) -> Bool {
    guard case .httpStatus(_, let status, _)? = error as? TransferError else { return false }
    return status == 401 || status == 403 || status == 410
  }

  /// The side files beside the episode: all of them for a new download; for one that was
  /// already here, only those missing (an earlier run could not fetch them), so a rerun costs
  /// a `stat` per side file. Never a failure: what cannot be had becomes a note.
  private func addingSideFiles(to outcome: DownloadOutcome, of job: DownloadJob) async
    -> DownloadResult
  {
    var result = DownloadResult(job: job, outcome: outcome)
    switch outcome {
    case .downloaded(let file, let bytes, let report):
      let report = await sideFiles(of: job, besides: file, onlyMissing: false, report)
      result.outcome = .downloaded(file: file, bytes: bytes, report: report)
    case .alreadyDownloaded(let file):
      guard FileManager.default.fileExists(atPath: file) else { break }
      result.sideFiles = await sideFiles(of: job, besides: file, onlyMissing: true, .none)
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
    // The transcript and chapters in `find`'s index, for an episode of a subscription: those
    // that arrived now, and those that changed or whose indexing a cut lost (the index reads
    // only those). Not indexed now is indexed at the next look; never the episode's failure.
    let indexed = names + (job.chaptersURL == nil ? [] : [SideFileNames.chapters(besides: file)])
    if !indexed.isEmpty {
      try? FindIndex(store: store).indexSideFiles(
        of: job.subscriptionEpisode, feedURL: job.feedURL, identityKeys: job.identityKeys,
        sideFiles: indexed)
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
    guard let seen = try? EpisodeLog(store: store).episodes(subscriptionId: subscription.id) else {
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
  fileprivate static func pathsOfSeveral(_ jobs: [DownloadJob]) -> Set<String> {
    var counts: [String: Int] = [:]
    for job in jobs { counts[job.relativePath, default: 0] += 1 }
    return Set(counts.filter { $0.value > 1 }.keys)
  }

  private func episodeDownload(
    _ job: DownloadJob, key: DownloadKey, mayAdopt: Bool, transfers: HostSlots, turn: JobTurn,
    notes: ProgressNotes
  ) -> EpisodeDownload {
    EpisodeDownload(
      job: job, key: key, paths: paths, http: http, store: store, progress: progress,
      options: options,
      mayAdoptFileAtTarget: mayAdopt, covers: covers, sideFiles: sideFiles, transfers: transfers,
      jobTurn: turn, notes: notes)
  }
}
