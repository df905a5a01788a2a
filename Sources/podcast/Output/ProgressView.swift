import Foundation
import PodcastKit

/// Live progress bars on stderr, one per running download and a total line, redrawn in place a
/// few times a second. Finished episodes scroll up above the bars as permanent lines.
final class ProgressView: Sendable {
  private struct State {
    /// Columns of each line of the live part last drawn, to know how many rows it takes
    /// once the terminal has been resized (terminals re-wrap what is on screen).
    var drawnWidths: [Int] = []
    var messages: [String] = []
    var stopped = false
  }

  private let buffer: ProgressBuffer
  private let state = Guarded(State())
  private let started = Date()

  init(buffer: ProgressBuffer) {
    self.buffer = buffer
  }

  func run() async {
    Console.write("\u{1B}[?25l", to: STDERR_FILENO)
    // A resized terminal is redrawn at once, at its new width, not at the next tick.
    signal(SIGWINCH, SIG_IGN)
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH)
    resize.setEventHandler { [weak self] in self?.redraw() }
    resize.resume()
    defer { resize.cancel() }
    while !Task.isCancelled {
      redraw()
      try? await Task.sleep(for: .milliseconds(200))
    }
  }

  /// A line that stays (a finished or failed episode).
  func announce(_ line: String) {
    state.withLock { $0.messages.append(line) }
  }

  /// Draws the final frame and gives the cursor back. Safe to call twice (also from Ctrl-C).
  func stop() {
    redraw(final: true)
  }

  private func redraw(final: Bool = false) {
    let snapshot = buffer.snapshot()
    let width = max(40, Console.stderrWidth)
    state.withLock { state in
      guard !state.stopped else { return }
      let rows = state.drawnWidths.reduce(0) { $0 + max(1, ($1 + width - 1) / width) }
      var out = rows > 0 ? "\r\u{1B}[\(rows)A" : "\r"
      // Finished lines stay whole (a file's path matters) and may wrap: they are above the
      // live part, which is cleared first and redrawn below them.
      if !state.messages.isEmpty { out += "\u{1B}[J" }
      for message in state.messages { out += message + "\n" }
      state.messages = []
      let bars = final ? [] : lines(for: snapshot, width: width)
      for line in bars { out += "\u{1B}[2K" + line + "\n" }
      out += "\u{1B}[J"
      if final {
        out += "\u{1B}[?25h"
        state.stopped = true
      }
      state.drawnWidths = bars.map(TerminalText.width)
      Console.write(out, to: STDERR_FILENO)
    }
  }

  private func lines(for snapshot: ProgressBuffer.Snapshot, width: Int) -> [String] {
    let live = snapshot.live.values
    let active = live.filter { $0.state == .downloading }.sorted {
      ($0.started ?? .distantPast) < ($1.started ?? .distantPast)
    }
    let queued = live.filter { $0.state == .queued }.count
    var lines = active.map { bar(for: $0, width: width) }
    let bytes = live.reduce(snapshot.endedBytes) { $0 + max(0, $1.bytes - $1.startBytes) }
    let elapsed = max(0.001, Date().timeIntervalSince(started))
    let total =
      "Total: \(snapshot.done)/\(snapshot.count) done, \(active.count) running, \(queued) queued, "
      + "\(Format.bytes(bytes).nonEmpty ?? "0 B") at "
      + "\(Format.bytes(Int64(Double(bytes) / elapsed)).nonEmpty ?? "0 B")/s"
    lines.append(TerminalText.truncated(total, to: width - 1))
    return lines
  }

  /// `title [####------]  42%  12 MB / 30 MB  1.2 MB/s  ETA 0:15`, fitted to `width`: the
  /// details go first (ETA, then speed, then sizes), then the bar shrinks, then the bar goes;
  /// a line never reaches the last column, so the terminal never wraps it. Each detail has a
  /// fixed width, whatever its value, so the bar stays in its column from frame to frame.
  private func bar(for entry: ProgressBuffer.Entry, width: Int) -> String {
    let elapsed = max(0.001, Date().timeIntervalSince(entry.started ?? Date()))
    let speed = Double(entry.bytes - entry.startBytes) / elapsed
    func fixed(_ text: String, _ columns: Int) -> String {
      TerminalText.padded(text, to: columns, right: true)
    }
    let bytes = Format.bytes(entry.bytes).nonEmpty ?? "0 B"
    var details = [fixed(bytes, 6) + " / " + fixed(entry.total.map(Format.bytes) ?? "?", 6)]
    details.append(fixed(speed > 0 ? Format.bytes(Int64(speed)) + "/s" : "--", 8))
    let eta = entry.total.flatMap { total in
      speed > 0 ? Format.duration(Int(Double(total - entry.bytes) / speed)).nonEmpty ?? "0:00" : nil
    }
    details.append("ETA " + fixed(eta ?? "--:--", 7))
    let percent = entry.fraction.map(Format.percent) ?? "  ?%"
    let name = Format.singleLine(entry.title ?? "episode")
    let available = width - 1
    for count in stride(from: details.count, through: 0, by: -1) {
      let right = details.prefix(count).joined(separator: "  ")
      let fixed =
        1 + TerminalText.width(percent) + (right.isEmpty ? 0 : 2 + TerminalText.width(right))
      let room = available - fixed  // for the title, a space and the bar
      let inner = min(20, (room - 1) / 3)
      guard inner >= 8, room - 1 - (inner + 2) >= Self.minimumTitle || count == 0 else { continue }
      let titleWidth = max(1, room - 1 - (inner + 2))
      let filled = Int((entry.fraction ?? 0) * Double(inner))
      let bar =
        "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: inner - filled)
        + "]"
      let line = fitted(name, titleWidth) + " " + bar + " " + percent
      return right.isEmpty ? line : line + "  " + right
    }
    // Too narrow for a bar: the title and the percentage.
    let titleWidth = max(1, available - 1 - TerminalText.width(percent))
    return fitted(name, titleWidth) + " " + percent
  }

  private static let minimumTitle = 24

  /// `text` cut or padded to exactly `width` columns.
  private func fitted(_ text: String, _ width: Int) -> String {
    let cut = TerminalText.truncated(text, to: width)
    return cut + String(repeating: " ", count: max(0, width - TerminalText.width(cut)))
  }
}

extension String {
  var nonEmpty: String? { isEmpty ? nil : self }
}
