import Basics
import Fetching
import Foundation
import Model
import Privacy
import SideFiles
import Store
import Synchronization
import Tags
import Transfer

#if canImport(Glibc)
  import Glibc
#endif

/// Fetches one episode into its partial file and moves the verified file into the Episodes
/// directory: a small state machine, each step a method below.
///
///   start   lock the partial file; with a transfer turn, cut it to what its row trusts
///           after a reboot, and unless the episode is recorded as here already, begin it
///           in its row
///   claim   adopt a file at its target that no download owns
///   plan    resume from the bytes on disk when their validators prove the same file
///   fetch   one attempt; retried (resuming) on transient failures; the partial synced
///           at checkpoints as it grows (`Checkpoints`)
///   verify  the body is the episode: its length, not empty, not tiny, not gzip
///   tag     write the feed's tags into a copy of the verified partial (`EpisodeTagging`)
///   finish  sync, link into place and record it done, with the others of its batch
///
/// `DownloadRow` is the only writer of the download's row while it runs, and never on the
/// transfer thread; before, `start` only forgets the row queued under `key` when the episode
/// turns out done under another. Both write through the store's `DownloadTransition`. The
/// row and the partial file are the episode's (`key`); the job's URL is where it is fetched
/// from this time.
package struct EpisodeDownload {
  package let job: DownloadJob
  /// The download's row, as the download manager queued it.
  package let key: DownloadKey
  package let paths: LibraryPaths
  package let http: HTTPClient
  package let store: LibraryStore
  package let progress: ProgressBuffer
  package let options: DownloadOptions
  /// False when another job of the batch would land on the same path: a file found there
  /// could be either episode's.
  package let mayAdoptFileAtTarget: Bool
  /// Cover images shared by the batch.
  package let covers: CoverCache
  /// The batch's side files: the chapters for the tag come from it.
  package let sideFiles: SideFileWriter
  /// The batch's connections per host, held only for the transfer itself.
  package let transfers: HostSlots
  /// The job's place in the batch: traded for a finishing place when the transfer is over.
  package let jobTurn: JobTurn
  /// Where its progress is noted for other processes while its transfer runs.
  let notes: ProgressNotes

  /// Finishing (link + record) and recognising a file at the target are one step within this
  /// process, so a download never adopts another's file in the moment between its link and
  /// its record. Only downloads into one folder can meet that way, so the locks are per
  /// folder. Episodes finish in batches (`FinishBatch`): one round of syncs and one commit
  /// for all that finished their transfer while the round before was being made durable.
  static let finishing = FinishBatch()

  package func run() async -> DownloadOutcome {
    await attempt().outcome
  }

  /// The outcome, and for a failure the error behind it (the manager decides from it whether
  /// a fresher link is worth asking for). While it runs, finish rounds wait a little for its
  /// episode (`FinishBatch.expecting`): a lone download's round never waits.
  package func attempt() async -> (outcome: DownloadOutcome, error: Error?) {
    await Self.finishing.expecting { await attemptOnce() }
  }

  private func attemptOnce() async -> (outcome: DownloadOutcome, error: Error?) {
    do {
      try URLPolicy.check(job.url)
      // The lock comes before the already-downloaded check: two processes asking at once
      // would both see "not yet" and both download.
      guard let file = try PartialFile(path: paths.partial(forKey: key)) else {
        throw DownloadError.busyElsewhere(url: job.url)
      }
      // A run killed mid-tag left its copy: never finished nor resumed, only deleted.
      EpisodeTagging.discardDebris(of: file)
      let turn = TransferTurn(slots: transfers, host: job.servingHost)
      await turn.take()
      let row: DownloadRow
      do {
        try trustOnlyWhatSurvived(file)
        switch try DownloadRows(store: store).start(
          key, job.queued(withDetails: false), owner: .current, bytesOnDisk: file.size)
        {
        case .alreadyHere(let record, let path):
          await turn.giveBack()
          return (try alreadyHere(record, at: path, file), nil)
        case .begun(let record, let unwritten):
          row = DownloadRow(store: store, begun: record, unwritten: unwritten)
          file.synced.claim(record.durableBytes)
        }
      } catch {
        await turn.giveBack()
        throw error
      }
      do {
        if let done = try claim(file, row: row) {
          await turn.giveBack()
          return (done, nil)
        }
        return (try await fetchAndFinish(file, row: row, turn: turn), nil)
      } catch {
        // Still holding the lock: a failure before the first byte leaves nothing to resume.
        if file.size == 0 { unlink(file.path) }
        return (failed(error, row: row), error)
      }
    } catch {
      return (failed(error, row: nil), error)
    }
  }

  // MARK: start

  /// `start` found the episode recorded as done (under this URL or another of its identity).
  private func alreadyHere(_ record: DownloadRecord, at path: String, _ file: PartialFile) throws
    -> DownloadOutcome
  {
    // Recorded before a kill could tidy up, or the empty file the lock just made.
    unlink(file.path)
    try DownloadRows(store: store).recordAlreadyDownloaded(
      record, episode: job.subscriptionEpisode, superseding: key)
    progress.finish(job.url, bytes: record.bytes)
    return .alreadyDownloaded(file: path)
  }

  // MARK: claim

  /// The episode is already here as a file at its target path that no other download owns (a
  /// library whose `.podcast/` was lost): recorded done with it. Nil when it must be fetched.
  private func claim(_ file: PartialFile, row: DownloadRow) throws -> DownloadOutcome? {
    guard mayAdoptFileAtTarget else { return nil }
    let destination = try Finisher.Destination(
      episodesDirectory: paths.episodes, relativePath: job.relativePath)
    let target = destination.path
    // Nothing there, as for every new episode: the answer is no without the folder's lock,
    // which a finish round holds for all its folders while it syncs and commits.
    guard Self.regularFileSize(target).map({ $0 > 0 }) == true else { return nil }
    return try Self.finishing.folders.withLock(folder: destination.directory) {
      () -> DownloadOutcome? in
      guard let size = Self.regularFileSize(target), size > 0,
        try !FinishedDownloads(store: store).isFileOfAnother(target, key: key)
      else { return nil }
      try row.finish(file: target, bytes: size, episode: job.subscriptionEpisode)
      unlink(file.path)
      progress.finish(job.url, bytes: size)
      return .alreadyDownloaded(file: target)
    }
  }

  private static func regularFileSize(_ path: String) -> Int64? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int64(info.st_size)
  }

  // MARK: plan, fetch, verify

  /// The transfer and what follows it, for a download `start` began, holding its transfer
  /// turn.
  private func fetchAndFinish(_ file: PartialFile, row: DownloadRow, turn: TransferTurn)
    async throws -> DownloadOutcome
  {
    let checkpoints = Checkpoints.Subject(file: file, row: row)
    file.onCheckpointDue = { Checkpoints.shared.request(checkpoints) }
    // The closure holds the file: let go of it when the body is in, or never came; and the
    // checkpoints, so that a next attempt in this process finds the file unlocked.
    defer {
      file.onCheckpointDue = nil
      Checkpoints.shared.withdraw(file)
    }
    notes.add(job.url, checkpoints: checkpoints)
    let bytes: Int64
    do {
      bytes = try await fetchWithRetries(into: file, row: row, turn: turn)
      await turn.giveBack()
    } catch {
      await turn.giveBack()
      notes.remove(job.url, row: row)
      throw error
    }
    // No progress write may land after the finish.
    notes.remove(job.url, row: row)
    await jobTurn.finishing()
    let tagging = await tag(file)
    guard let copy = tagging.copy else {
      return try await finish(file, bytes: bytes, row: row, tags: tagging.note)
    }
    do {
      // The copy is what the batch finishes; the partial only waits to be unlinked.
      try file.releaseBuffer()
      return try await finish(
        copy, bytes: try copy.seekToEnd(), row: row, partial: file, tags: tagging.note)
    } catch {
      unlink(copy.path)
      throw error
    }
  }

  // MARK: tag

  private func tag(_ file: PartialFile) async -> EpisodeTagging.Outcome {
    guard let request = job.tagging else { return EpisodeTagging.Outcome(note: .none) }
    let name = StandardPath.pathExtension(of: job.relativePath)
    let hint = FormatHint(mimeType: job.mimeType, fileExtension: name.isEmpty ? nil : name)
    return await EpisodeTagging(
      request: request, hint: hint, covers: covers, sideFiles: sideFiles,
      chaptersURL: job.chaptersURL, feedURL: job.feedURL
    ).run(on: file)
  }

  /// After a reboot, only what a checkpoint synced is proven to be the file's: the rest of a
  /// partial file goes before anything builds on it (see `trustedPartialLength`). An empty
  /// file, as every new download's is, has nothing to distrust: its row is not read. Nor has
  /// one already linked into Episodes: a finish links only a file it synced whole, and that
  /// name is the episode, which `claim` adopts; cutting the partial would cut it too.
  private func trustOnlyWhatSurvived(_ file: PartialFile) throws {
    let onDisk = file.size
    guard onDisk > 0, !file.isLinkedElsewhere,
      let known = try DownloadRows(store: store).find(key: key)
    else {
      return
    }
    let trusted = known.trustedPartialLength(onDisk: onDisk, boot: ProcessOwner.currentBoot)
    if trusted < onDisk { _ = try file.truncate(to: trusted) }
  }

  /// Drops the partial file's bytes: first, durably, the row's word that any of them is
  /// synced, so the bytes written next are never taken for those (see `DurableLength`).
  private func discard(_ file: PartialFile, row: DownloadRow) throws {
    _ = try file.truncate(to: 0) { try row.recordDurable($0) }
  }

  private func fetchWithRetries(into file: PartialFile, row: DownloadRow, turn: TransferTurn)
    async throws -> Int64
  {
    var restarts = 0
    return try await options.retry.run {
      try await fetchOnce(into: file, row: row, turn: turn)
    } startingOver: { error in
      guard case .changedOnServer? = error as? DownloadError, restarts < 2 else { return false }
      // The bytes on disk belong to no known version (dropped already, unless the row
      // vouched for them as synced).
      restarts += 1
      try discard(file, row: row)
      try row.forgetValidators()
      return true
    }
  }

  /// Resumes only when the bytes on disk are provably the server's file (a validator for
  /// If-Range, or at least its size); otherwise starts over.
  private func plan(_ file: PartialFile, row: DownloadRow) throws -> ResumeBasis? {
    let onDisk = try file.seekToEnd()
    let known = row.current
    guard onDisk > 0, row.resumeValidator != nil || known.total != nil else {
      if onDisk > 0 { try discard(file, row: row) }
      return nil
    }
    return ResumeBasis(
      offset: onDisk, total: known.total, etag: known.etag, lastModified: known.lastModified)
  }

  private func fetchOnce(into file: PartialFile, row: DownloadRow, turn: TransferTurn)
    async throws -> Int64
  {
    let basis = try plan(file, row: row)
    if let basis, let total = basis.total, basis.offset == total {
      // Complete on disk: a run was stopped between the last byte and the finish.
      try verifyBody(file, size: total, contentType: nil, row: row)
      return total
    }
    var request = TransferRequest(url: job.url, options: http.options)
    request.acceptsCompression = false
    request.bulk = true
    request.credentials = FeedCredentials.forEnclosure(job.url, feedURL: job.feedURL)
    request.rangeStart = basis?.offset
    request.ifRange = basis == nil ? nil : row.resumeValidator
    let seen = SeenHead()
    // The head's write, a task started by the transfer thread when the head arrives (that
    // thread only hands it over), each after the one before; awaited before the attempt's
    // own writes. One task per head, not one per download waiting on a stream of heads.
    let headWrite = Locked<Task<Void, Never>?>(nil)
    let sink = DownloadSink(
      url: job.url, file: file, resuming: basis, acceptsHTML: MediaType.isHTML(job.mimeType),
      progress: progress,
      onHead: { [transfers, progress, job] head, total in
        seen.set(head, total)
        headWrite.withLock { pending in
          pending = Task { [pending] in
            await pending?.value
            guard let (head, total) = seen.value else { return }
            // A body that came in whole while the head waited for this task (a small episode
            // arrives in the same moment as its head) needs no write of its own: the finish
            // records the head with it, and a kill before then costs only those bytes again.
            let whole = total.map { total in (progress.entry(for: job.url)?.bytes ?? 0) >= total }
            if whole != true { row.noteHead(head, total: total, bytes: basis?.offset ?? 0) }
            // The hosts this head came through may now take their larger shares.
            await transfers.admitWaiting()
          }
        }
      })
    let headWritten = { await headWrite.withLock { $0 }?.value }
    do {
      try await transfer(request, into: sink, turn: turn)
    } catch TransferError.httpStatus(_, 416, _) where basis != nil {
      await headWritten()
      try discard(file, row: row)
      throw DownloadError.changedOnServer(
        url: job.url, reason: "the server has no byte \(basis?.offset ?? 0) any more")
    } catch {
      await headWritten()
      try row.noteAttempt(head: seen.value, bytes: sink.written)
      try row.check()
      throw error
    }
    await headWritten()
    row.noteCompleted(head: seen.value, bytes: sink.written)
    try row.check()
    let size = try verifyLength(sink, file: file, row: row)
    try verifyBody(file, size: size, contentType: sink.contentType, row: row)
    return size
  }

  /// One request under the host's connection cap (taken again for a retry); the slot goes
  /// back as soon as the bytes are in, or the attempt failed (a retry's pause holds none).
  private func transfer(_ request: TransferRequest, into sink: DownloadSink, turn: TransferTurn)
    async throws
  {
    await turn.take()
    do {
      _ = try await http.perform(request, into: sink)
    } catch {
      await turn.giveBack()
      throw error
    }
    await turn.giveBack()
  }

  private func verifyLength(_ sink: DownloadSink, file: PartialFile, row: DownloadRow) throws
    -> Int64
  {
    let size = try file.seekToEnd()
    guard let total = sink.total else { return size }
    if size > total {
      try discard(file, row: row)
      throw DownloadError.lengthMismatch(url: job.url, expected: total, received: size)
    }
    guard size == total else {
      throw DownloadError.lengthMismatch(url: job.url, expected: total, received: size)
    }
    return size
  }

  /// The body is the episode, not an accident of the server: a failure drops the bytes, so a
  /// retry starts clean and nothing of it can ever be finished.
  private func verifyBody(
    _ file: PartialFile, size: Int64, contentType: String?, row: DownloadRow
  ) throws {
    let problem = BodyCheck(
      url: job.url, declaredLength: job.declaredLength,
      mediaTypes: [job.mimeType, contentType].compactMap { $0 }
    ).problem(size: size, prefix: try file.prefix(2))
    if let problem {
      try discard(file, row: row)
      throw problem
    }
  }

  // MARK: finish

  /// Puts `file` in place: the partial itself, or its tagged copy (then `partial` is the
  /// partial, removed with the copy once the download is recorded). Durable and recorded with
  /// the other episodes of its batch (`FinishBatch`); done is reported only after that.
  private func finish(
    _ file: PartialFile, bytes: Int64, row: DownloadRow, partial: PartialFile? = nil,
    tags: SideFileReport
  ) async throws -> DownloadOutcome {
    let descriptor = try file.writeOut()
    let destination = try Finisher.Destination(
      episodesDirectory: paths.episodes, relativePath: job.relativePath)
    let staged = try Finisher.stage(file, to: destination)
    let path = try await Self.finishing.finish(
      FinishBatch.Request(
        file: file, descriptor: descriptor, staged: staged, destination: destination, row: row,
        store: store, record: row.finishing(bytes: bytes, episode: job.subscriptionEpisode),
        url: job.url))
    unlink(file.path)
    if let partial { unlink(partial.path) }
    progress.finish(job.url, bytes: bytes)
    return .downloaded(file: path, bytes: bytes, report: tags)
  }

  private func failed(_ error: Error, row: DownloadRow?) -> DownloadOutcome {
    var failure = DownloadFailure(error)
    let interrupted =
      (error as? TransferError).map { if case .cancelled = $0 { true } else { false } } ?? false
    let state: DownloadState = interrupted ? .paused : .failed
    progress.fail(job.url, state: state, error: failure.description)
    // A database that just failed would only fail again (after its busy timeout).
    if let row, !Self.isDatabaseFailure(error) {
      do {
        try row.fail(state: state, reason: failure.description)
      } catch {
        failure.unrecorded = error
      }
    }
    return .failed(failure)
  }

  private static func isDatabaseFailure(_ error: Error) -> Bool {
    switch error {
    case is LibraryError: return true
    case DownloadError.cannotRecord: return true
    default: return false
    }
  }
}
