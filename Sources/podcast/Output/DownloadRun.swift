import Foundation
import PodcastKit

/// How a run's downloads look: live bars on a terminal, a line per episode otherwise, JSON at
/// the end with --json (failures still get their line on stderr as they happen). The
/// reporter `download` and `sync` give their use case.
final class DownloadRun: RunReporter, @unchecked Sendable {
  let json: Bool
  /// Only failures are printed (sync --quiet).
  let quiet: Bool
  /// The library's folder: on a terminal, files under it are shown relative to it.
  let root: String?
  private let lock = NSLock()
  /// The live view of the batch running now, on a terminal.
  private var view: ProgressView?
  private var drawing: Task<Void, Never>?

  init(json: Bool, quiet: Bool = false, root: String? = nil) {
    self.json = json
    self.quiet = quiet
    self.root = root
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
    guard let view = lock.withLock({ view }) else {
      let width = Console.isTerminal ? Console.width : nil
      for line in DownloadRun.lines(for: result, width: width, root: root) { Console.print(line) }
      if case .failed(let failure) = result.outcome { Console.error(failure) }
      return
    }
    // Everything on the terminal goes through the view, or a redraw would leave garbage:
    // the episode's line (which names it: the failure alone names only its URL), then why.
    for line in DownloadRun.lines(for: result, width: Console.stderrWidth, root: root) {
      view.announce(Console.shown(line))
    }
    if case .failed(let failure) = result.outcome {
      // Masked and made safe for the terminal, as `Console.error` does it without a view.
      view.announce(Console.errorLine(CommandFailure.message(for: failure)))
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

  /// What one episode's outcome says: in a pipe (`width` nil) one line, the file's full path
  /// in it, for scripts; on a terminal lines that fit `width`, the file on its own line,
  /// relative to the library (`root`) when it is in it.
  static func lines(for result: DownloadResult, width: Int?, root: String?) -> [String] {
    let title = Format.singleLine(result.job.title ?? result.job.url)
    let head: String
    let file: String?
    var detail: String
    switch result.outcome {
    case .downloaded(let path, let bytes, let tags):
      head = "downloaded  "
      file = path
      detail = "(\(Format.bytes(bytes)))"
      let noted = notes([tags.note].compactMap { $0 } + tags.sideFileNotes.map(\.description))
      if width == nil { return [head + title + "  " + detail + " -> \(path)" + noted] }
      detail += noted
    case .alreadyDownloaded(let path):
      head = "skipped     "
      file = path
      let added = result.sideFiles.files.map { ", added \($0)" }.joined()
      let noted = notes(result.sideFiles.sideFileNotes.map(\.description))
      if width == nil {
        return [head + title + "  (already downloaded: \(path)\(added))" + noted]
      }
      detail = "(already downloaded\(added))" + noted
    case .failed:
      head = "failed      "
      file = nil
      detail = ""
    }
    guard let width else { return [head + title] }
    // The title gets what the detail leaves, and at least two thirds of the line.
    let room = width - 1 - head.count
    let detailRoom = min(TerminalText.width(detail), room / 3)
    let cutDetail = detailRoom < 4 ? "" : "  " + TerminalText.truncated(detail, to: detailRoom)
    var lines = [
      head + TerminalText.truncatedInMiddle(title, to: room - TerminalText.width(cutDetail))
        + cutDetail
    ]
    if let file {
      lines.append(String(repeating: " ", count: head.count) + "-> " + shown(file, root))
    }
    return lines
  }

  /// `file` relative to the library's folder when it is in it.
  private static func shown(_ file: String, _ root: String?) -> String {
    guard let root, file.hasPrefix(root + "/") else { return file }
    return String(file.dropFirst(root.count + 1))
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

  /// The `--json` document of `download` and `sync`: `{downloaded, skipped, failed}`;
  /// `otherFailures` adds failed feeds (sync).
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
