import Foundation
import PodcastKit

#if canImport(Glibc)
  import Glibc
#endif

/// The process's standard streams and what kind of terminal (if any) they are.
enum Console {
  static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
  static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  /// `NO_COLOR` set to anything: no colour and no bold (no-color.org).
  static var noColor: Bool { ProcessInfo.processInfo.environment["NO_COLOR"]?.isEmpty == false }

  /// Terminal width in columns; 80 when it cannot be known, `COLUMNS` wins when set.
  static var width: Int {
    if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 20
    {
      return columns
    }
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 {
      return Int(size.ws_col)
    }
    return 80
  }

  /// Width of the terminal stderr is on (progress bars go there).
  static var stderrWidth: Int {
    var size = winsize()
    if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 {
      return Int(size.ws_col)
    }
    return width
  }

  /// Whether secrets in URLs (a private feed's token, a password) are printed as they are:
  /// only with `--show-secrets`, set once when a command starts, before any other thread runs.
  nonisolated(unsafe) static var showsSecrets = false

  /// Text for people (tables, messages, logs): private URLs masked unless `showsSecrets`.
  static func shown(_ text: String) -> String {
    showsSecrets ? text : SecretMask.masked(text)
  }

  static func print(_ text: String) {
    write(shown(text) + "\n", to: STDOUT_FILENO)
  }

  /// One diagnostic line: `podcast: <message>`. Messages quote feeds (titles, URLs), so
  /// they are made safe for a terminal and kept to one line.
  static func error(_ message: String) {
    write(errorLine(message) + "\n", to: STDERR_FILENO)
  }

  /// The one line `error` prints for `message`: secrets masked, control characters made
  /// harmless, on one line.
  static func errorLine(_ message: String) -> String {
    let line = TerminalText.safe(shown(message)).split(whereSeparator: \.isNewline).joined(
      separator: " ")
    return "podcast: \(line)"
  }

  /// The diagnostic line for an error, in the words `CommandFailure` gives it.
  static func error(_ error: any Error) {
    self.error(CommandFailure.message(for: error))
  }

  static func write(_ text: String, to descriptor: Int32) {
    write(Array(text.utf8), to: descriptor)
  }

  static func write(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { write($0, to: descriptor) }
  }

  static func write(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) {
    guard let base = buffer.baseAddress else { return }
    var offset = 0
    while offset < buffer.count {
      let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
