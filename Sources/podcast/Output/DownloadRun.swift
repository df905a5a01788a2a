import Foundation
import PodcastKit

/// How a run's downloads look: live bars on a terminal, a line per episode otherwise, JSON at
/// the end with --json (failures still get their line on stderr as they happen). The
/// reporter `download` and `sync` give their use case.
final class DownloadRun: RunReporter, @unchecked Sendable {
  let json: Bool
  /// Only failures are printed (sync --quiet).
  let quiet: Bool
  private let lock = NSLock()
  /// The live view of the batch running now, on a terminal.
  private var view: ProgressView?
  private var drawing: Task<Void, Never>?

  init(json: Bool, quiet: Bool = false) {
    self.json = json
    self.quiet = quiet
  }

  func batchStarted(_ progress: ProgressBuffer) {
    let live = !json && !quiet && Console.stderrIsTerminal
    let view = live ? ProgressView(buffer: progress) : nil
    Interrupt.install(
      message: "interrupted: partial downloads are kept; run the same command again to resume"
    ) {
      view?.stop()
      // What arrived but sits in a write buffer reaches the partial files before the exit.
      Network.stopAllTransfers()
    }
    lock.withLock {
      self.view = view
      drawing = Task { await view?.run() }
    }
  }

  func downloadEnded(_ result: DownloadResult) {
    if Interrupt.isStopping { return }
    let failed = if case .failed = result.outcome { true } else { false }
    if json {
      // The document comes at the end; each failure still gets its line on stderr now.
      if case .failed(let failure) = result.outcome { Console.error(failure) }
      return
    }
    if quiet && !failed { return }
    let line = DownloadRun.line(for: result)
    guard let view = lock.withLock({ view }) else {
      Console.print(line)
      if case .failed(let failure) = result.outcome { Console.error(failure) }
      return
    }
    // Everything on the terminal goes through the view, or a redraw would leave garbage.
    if case .failed(let failure) = result.outcome {
      // Masked and made safe for the terminal, as `Console.error` does it without a view.
      view.announce(Console.errorLine(CommandFailure.message(for: failure)))
    } else {
      view.announce(line)
    }
  }

  func batchEnded() {
    let (view, drawing) = lock.withLock { (self.view, self.drawing) }
    drawing?.cancel()
    view?.stop()
    lock.withLock {
      self.view = nil
      self.drawing = nil
    }
  }

  func problem(_ error: Error, subject: String?) {
    let message = CommandFailure.message(for: error)
    let line = Console.errorLine(subject.map { "\($0): \(message)" } ?? message)
    // A sync's downloads may be on screen already while its last feeds come in.
    guard let view = lock.withLock({ view }) else {
      return Console.write(line + "\n", to: STDERR_FILENO)
    }
    view.announce(line)
  }

  static func line(for result: DownloadResult) -> String {
    let title = Format.singleLine(result.job.title ?? result.job.url)
    switch result.outcome {
    case .downloaded(let file, let bytes, let tags):
      let note = notes([tags.note].compactMap { $0 } + tags.sideFileNotes.map(\.description))
      return "downloaded  \(title)  (\(Format.bytes(bytes))) -> \(file)\(note)"
    case .alreadyDownloaded(let file):
      let added = result.sideFiles.files.map { ", added \($0)" }.joined()
      return "skipped     \(title)  (already downloaded: \(file)\(added))"
        + notes(result.sideFiles.sideFileNotes.map(\.description))
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
            ("sideFileNotes", .array(tags.sideFileNotes.map { .string($0.description) })),
          ]))
      case .alreadyDownloaded(let file):
        let added = result.sideFiles
        skipped.append(
          .object([
            url, title, ("file", .string(file)), ("reason", .string("already downloaded")),
            ("sideFiles", .array(added.files.map { .string($0) })),
            ("sideFileNotes", .array(added.sideFileNotes.map { .string($0.description) })),
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
