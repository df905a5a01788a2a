import Foundation
import PodcastKit

/// Runs a batch of downloads with the right kind of feedback: live bars on a terminal, a line
/// per episode otherwise, JSON at the end with --json. Shared by `download` and `sync`.
struct DownloadRun {
  let manager: DownloadManager
  let json: Bool
  /// Only failures are printed (sync --quiet).
  var quiet = false

  func perform(_ jobs: [DownloadJob]) async -> [DownloadResult] {
    let live = !json && !quiet && Console.stderrIsTerminal
    let view = live ? ProgressView(buffer: manager.progress) : nil
    Interrupt.install(
      message: "interrupted: partial downloads are kept; run the same command again to resume"
    ) {
      view?.stop()
      // What arrived but sits in a write buffer reaches the partial files before the exit.
      HTTPClient.stopAllTransfers()
    }
    let drawing = Task { await view?.run() }
    let results = await manager.download(jobs) { result in
      if Interrupt.isStopping { return }
      let failed = if case .failed = result.outcome { true } else { false }
      if json {
        // The document comes at the end; each failure still gets its line on stderr now.
        if case .failed(let failure) = result.outcome { Console.error(failure) }
        return
      }
      if quiet && !failed { return }
      let line = DownloadRun.line(for: result)
      guard let view else {
        Console.print(line)
        if case .failed(let failure) = result.outcome { Console.error(failure) }
        return
      }
      // Everything on the terminal goes through the view, or a redraw would leave garbage.
      if case .failed(let failure) = result.outcome {
        view.announce(CommandFailure.line(for: failure))
      } else {
        view.announce(line)
      }
    }
    drawing.cancel()
    view?.stop()
    return results
  }

  static func line(for result: DownloadResult) -> String {
    let title = Format.singleLine(result.job.title ?? result.job.url)
    switch result.outcome {
    case .downloaded(let file, let bytes, let tags):
      let note = notes([tags.note].compactMap { $0 } + tags.sideFileNotes)
      return "downloaded  \(title)  (\(Format.bytes(bytes))) -> \(file)\(note)"
    case .alreadyDownloaded(let file):
      let added = result.sideFiles.files.map { ", added \($0)" }.joined()
      return "skipped     \(title)  (already downloaded: \(file)\(added))"
        + notes(result.sideFiles.sideFileNotes)
    case .failed: return "failed      \(title)"
    }
  }

  /// The notes of one episode in one parenthesis: the line stays one line.
  private static func notes(_ notes: [String]) -> String {
    notes.isEmpty ? "" : "  (" + notes.map { Format.singleLine($0) }.joined(separator: "; ") + ")"
  }

  static func summary(_ results: [DownloadResult]) -> String {
    var downloaded = 0
    var skipped = 0
    var failed = 0
    for result in results {
      switch result.outcome {
      case .downloaded: downloaded += 1
      case .alreadyDownloaded: skipped += 1
      case .failed: failed += 1
      }
    }
    return "\(downloaded) downloaded, \(skipped) skipped, \(failed) failed"
  }

  /// The contract's `{downloaded, skipped, failed}`; `otherFailures` adds failed feeds (sync).
  static func document(_ results: [DownloadResult], otherFailures: [JSONValue] = []) -> JSONValue {
    var downloaded: [JSONValue] = []
    var skipped: [JSONValue] = []
    var failed: [JSONValue] = otherFailures
    for result in results {
      let url = ("url", JSONValue.string(result.job.url))
      let title = ("title", JSONValue.string(result.job.title))
      switch result.outcome {
      case .downloaded(let file, let bytes, let tags):
        downloaded.append(
          .object([
            url, title, ("file", .string(file)), ("bytes", .int(bytes)),
            ("tagged", .bool(tags.tagged)), ("cover", .bool(tags.cover)),
            ("tagNote", .string(tags.note)), ("sideFiles", .array(tags.files.map { .string($0) })),
            ("sideFileNotes", .array(tags.sideFileNotes.map { .string($0) })),
          ]))
      case .alreadyDownloaded(let file):
        let added = result.sideFiles
        skipped.append(
          .object([
            url, title, ("file", .string(file)), ("reason", .string("already downloaded")),
            ("sideFiles", .array(added.files.map { .string($0) })),
            ("sideFileNotes", .array(added.sideFileNotes.map { .string($0) })),
          ]))
      case .failed(let failure):
        failed.append(
          .object([url, title, ("error", .string(CommandFailure.message(for: failure)))]))
      }
    }
    return .object([
      ("downloaded", .array(downloaded)), ("skipped", .array(skipped)), ("failed", .array(failed)),
    ])
  }
}

extension [DownloadResult] {
  /// Files this run put in place or found in place: their podcast folders' playlists follow.
  var episodeFiles: [String] {
    compactMap { result in
      switch result.outcome {
      case .downloaded(let file, _, _), .alreadyDownloaded(let file): file
      case .failed: nil
      }
    }
  }

  /// Files this run put in place, for `--exec`.
  var downloadedFiles: [(file: String, title: String?, podcast: String?)] {
    compactMap { result in
      guard case .downloaded(let file, _, _) = result.outcome else { return nil }
      return (file, result.job.title, result.job.podcastTitle)
    }
  }
}
