import Foundation
import PodcastKit

#if canImport(Glibc)
  import Glibc
#endif

/// Where a password comes from: `--password-file` (its first line), the environment variable
/// (`PODCAST_PASSWORD` for a private feed, `PODCAST_SYNC_PASSWORD` for a sync account: cron),
/// `~/.netrc` where the caller names a host, else the terminal, typed without echo.
enum PasswordSource {
  static func password(
    file: String?, variable: String = "PODCAST_PASSWORD",
    netrc: (host: String, user: String)? = nil
  ) throws -> String {
    if let file {
      guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
        throw PasswordError.unreadable(file)
      }
      return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }
    let environment = ProcessInfo.processInfo.environment
    if let fromEnvironment = environment[variable] {
      return fromEnvironment
    }
    if let netrc, let found = Netrc.password(host: netrc.host, user: netrc.user) {
      return found
    }
    return try fromTerminal(variable: variable)
  }

  /// Reads one line from /dev/tty with echo off, so the password is neither shown nor taken
  /// from a pipe meant for something else.
  private static func fromTerminal(variable: String) throws -> String {
    let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard tty >= 0 else { throw PasswordError.noTerminal(variable: variable) }
    defer { close(tty) }
    var saved = termios()
    guard tcgetattr(tty, &saved) == 0 else { throw PasswordError.noTerminal(variable: variable) }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    _ = tcsetattr(tty, TCSAFLUSH, &quiet)
    defer {
      _ = tcsetattr(tty, TCSAFLUSH, &saved)
      _ = Glibc.write(tty, "\n", 1)
    }
    let prompt = "Password: "
    _ = Glibc.write(tty, prompt, prompt.utf8.count)
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
    return String(decoding: line, as: UTF8.self)
  }
}

enum PasswordError: Error, CustomStringConvertible {
  case unreadable(String)
  case noTerminal(variable: String)

  var description: String {
    switch self {
    case .unreadable(let file): return "cannot read the password file \(file)"
    case .noTerminal(let variable):
      return "no terminal to ask for the password: set \(variable) or use --password-file"
    }
  }
}
