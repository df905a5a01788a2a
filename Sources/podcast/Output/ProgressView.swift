import Foundation
import PodcastKit
import Synchronization

/// Live progress bars on stderr, one per running download and a total line, redrawn in place a
/// few times a second. Finished episodes scroll up above the bars as permanent lines.
final class ProgressView: Sendable {
  private struct State {
    var drawnLines = 0
    var messages: [String] = []
    var stopped = false
  }

  private let buffer: ProgressBuffer
  private let state = Mutex(State())
  private let started = Date()

  init(buffer: ProgressBuffer) {
    self.buffer = buffer
  }

  func run() async {
    Console.write("\u{1B}[?25l", to: STDERR_FILENO)
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
      var out = state.drawnLines > 0 ? "\r\u{1B}[\(state.drawnLines)A" : "\r"
      for message in state.messages {
        out += "\u{1B}[2K" + TerminalText.truncated(message, to: width - 1) + "\n"
      }
      state.messages = []
      let bars = final ? [] : lines(for: snapshot, width: width)
      for line in bars { out += "\u{1B}[2K" + line + "\n" }
      out += "\u{1B}[J"
      if final {
        out += "\u{1B}[?25h"
        state.stopped = true
      }
      state.drawnLines = bars.count
      Console.write(out, to: STDERR_FILENO)
    }
  }

  private func lines(for snapshot: [String: ProgressBuffer.Entry], width: Int) -> [String] {
    let active = snapshot.values.filter { $0.state == .downloading }.sorted {
      ($0.started ?? .distantPast) < ($1.started ?? .distantPast)
    }
    let queued = snapshot.values.filter { $0.state == .queued }.count
    var lines = active.map { bar(for: $0, width: width) }
    let done = snapshot.values.filter { $0.state == .done }.count
    let bytes = snapshot.values.reduce(Int64(0)) { $0 + max(0, $1.bytes - $1.startBytes) }
    let elapsed = max(0.001, Date().timeIntervalSince(started))
    lines.append(
      "Total: \(done)/\(snapshot.count) done, \(active.count) running, \(queued) queued, "
        + "\(Format.bytes(bytes).isEmpty ? "0 B" : Format.bytes(bytes)) at \(Format.bytes(Int64(Double(bytes) / elapsed)))/s"
    )
    return lines
  }

  private func bar(for entry: ProgressBuffer.Entry, width: Int) -> String {
    let elapsed = max(0.001, Date().timeIntervalSince(entry.started ?? Date()))
    let speed = Double(entry.bytes - entry.startBytes) / elapsed
    var right = Format.bytes(entry.bytes)
    if let total = entry.total { right += " / " + Format.bytes(total) }
    right += "  " + (speed > 0 ? Format.bytes(Int64(speed)) + "/s" : "--")
    if let total = entry.total, speed > 0 {
      right +=
        "  ETA " + (Format.duration(Int(Double(total - entry.bytes) / speed)).nonEmpty ?? "0:00")
    }
    let percent = entry.fraction.map(Format.percent) ?? "  ?%"
    let barWidth = 20
    let filled = Int((entry.fraction ?? 0) * Double(barWidth))
    let bar =
      "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
      + "]"
    let titleWidth = max(10, width - TerminalText.width(right) - barWidth - 2 - 4 - 6)
    let title = TerminalText.truncated(Format.singleLine(entry.title ?? "episode"), to: titleWidth)
    let padding = String(repeating: " ", count: max(0, titleWidth - TerminalText.width(title)))
    return "\(title)\(padding) \(bar) \(percent)  \(right)"
  }
}

extension String {
  var nonEmpty: String? { isEmpty ? nil : self }
}
