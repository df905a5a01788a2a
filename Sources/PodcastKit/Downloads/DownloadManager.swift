import Foundation

/// Downloads a batch of episodes concurrently (with a cap per host), reporting live progress
/// into `progress`, keyed by each episode's remote URL.
public final class DownloadManager: Sendable {
  public let progress = ProgressBuffer()
  private let episodesDirectory: String
  private let partialsDirectory: String
  private let http: HTTPClient
  private let ledger: DownloadLedger?
  private let options: DownloadOptions

  public init(
    episodesDirectory: String, partialsDirectory: String, http: HTTPClient = .shared,
    ledger: DownloadLedger?, options: DownloadOptions = DownloadOptions()
  ) {
    self.episodesDirectory = episodesDirectory
    self.partialsDirectory = partialsDirectory
    self.http = http
    self.ledger = ledger
    self.options = options
  }

  /// Runs every job (each URL once, whatever the duplicates in `jobs`) and returns one result
  /// per distinct URL, in the order given. One failure never stops the others.
  public func download(
    _ jobs: [DownloadJob], onFinish: @escaping @Sendable (DownloadResult) -> Void = { _ in }
  ) async -> [DownloadResult] {
    let unique = jobs.filter { progress.enqueue($0.url, title: $0.title, podcast: $0.podcastTitle) }
    let slots = HostSlots(total: options.concurrency, perHost: options.perHost)
    let persister = Task { await persistProgressEverySecond() }
    defer { persister.cancel() }
    return await withTaskGroup(of: (Int, DownloadResult).self) { group in
      for (index, job) in unique.enumerated() {
        group.addTask {
          let host = URL(string: job.url)?.host ?? ""
          await slots.acquire(host: host)
          let outcome = await self.episodeDownload(job).run()
          await slots.release(host: host)
          let result = DownloadResult(job: job, outcome: outcome)
          onFinish(result)
          return (index, result)
        }
      }
      var results: [(Int, DownloadResult)] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }

  private func episodeDownload(_ job: DownloadJob) -> EpisodeDownload {
    EpisodeDownload(
      job: job, episodesDirectory: episodesDirectory, partialsDirectory: partialsDirectory,
      http: http, ledger: ledger, progress: progress, options: options)
  }

  /// Copies running downloads' progress to the ledger, so `podcast status` in another process
  /// sees it live; once a second keeps the database out of the hot path.
  private func persistProgressEverySecond() async {
    guard let ledger else { return }
    var lastSaved: [String: Int64] = [:]
    while !Task.isCancelled {
      try? await Task.sleep(for: .seconds(1))
      let changed = progress.snapshot().filter { url, entry in
        entry.state == .downloading && lastSaved[url] != entry.bytes
      }
      guard !changed.isEmpty else { continue }
      let entries = changed.map { url, entry in
        LedgerEntry(
          url: url, state: .downloading, bytes: entry.bytes, total: entry.total,
          podcastTitle: entry.podcast, episodeTitle: entry.title)
      }
      try? ledger.saveProgress(entries)
      for (url, entry) in changed { lastSaved[url] = entry.bytes }
    }
  }
}
