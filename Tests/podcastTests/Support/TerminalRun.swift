import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The binary run on a pseudo-terminal of a given size, as in a user's terminal window: stdin,
/// stdout and stderr are the terminal, so `podcast` draws its tables and progress view for
/// that width (no `COLUMNS` is set: the width comes from the terminal itself).
struct TerminalRun {
  var status: Int32
  /// Everything written to the terminal, escape sequences included, in order.
  var raw: String

  /// The lines as printed, escape sequences taken out (what a pipe would hold).
  var lines: [String] {
    Self.withoutEscapes(raw).split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0.split(separator: "\r").last ?? "") }
  }

  /// Each line of the progress view's live part as drawn, frame after frame: what follows
  /// an erase-line (`ESC [2K`) up to its newline.
  var liveLines: [String] {
    raw.components(separatedBy: "\u{1B}[2K").dropFirst().compactMap { drawn in
      drawn.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map {
        Self.withoutEscapes(String($0))
      }
    }
  }

  static func withoutEscapes(_ text: String) -> String {
    text.replacingOccurrences(
      of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
  }

  /// Columns `line` takes: one per character here (the tests' titles are ASCII and `…`).
  static func width(_ line: String) -> Int { line.count }

  /// Runs `arguments` on a terminal `columns` wide and waits for it to end.
  static func run(
    _ binary: PodcastBinary, _ arguments: [String], columns: Int, rows: Int = 50,
    timeout: TimeInterval = 60
  ) throws -> TerminalRun {
    let (master, name) = try openTerminal()
    defer { close(master) }
    let slave = open(name, O_RDWR | O_NOCTTY)
    guard slave >= 0 else {
      throw TerminalError(description: "cannot open \(name)")
    }
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
    // Newlines as written: no carriage return added, so lines compare as printed.
    var modes = termios()
    tcgetattr(slave, &modes)
    modes.c_oflag &= ~tcflag_t(OPOST)
    tcsetattr(slave, TCSANOW, &modes)

    let process = Process()
    process.executableURL = PodcastBinary.url
    process.arguments = arguments
    var environment = binary.environment
    environment["COLUMNS"] = nil
    environment["TERM"] = "xterm"
    process.environment = environment
    let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.standardInput = terminal
    process.standardOutput = terminal
    process.standardError = terminal
    try process.run()
    close(slave)

    let output = Output()
    let reader = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(master, &buffer, buffer.count)
        // EIO once the last holder of the terminal's other end is gone.
        if count <= 0 { break }
        output.append(buffer[0..<count])
      }
      output.finish()
    }
    reader.start()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw TerminalError(description: "podcast \(arguments) did not end in \(timeout) s")
    }
    process.waitUntilExit()
    guard output.wait(seconds: 10) else {
      throw TerminalError(description: "the terminal of podcast \(arguments) did not close")
    }
    return TerminalRun(
      status: process.terminationStatus, raw: String(decoding: output.bytes, as: UTF8.self))
  }

  /// A new pseudo-terminal: its controlling side, and the path of the side a program uses.
  /// glibc's `posix_openpt`, `grantpt`, `unlockpt` and `ptsname_r` are found at run time:
  /// Swift's Glibc module leaves out what glibc declares only for X/Open.
  private static func openTerminal() throws -> (Int32, String) {
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Prepare = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    let libc = dlopen(nil, RTLD_NOW)
    guard let open = dlsym(libc, "posix_openpt"), let grant = dlsym(libc, "grantpt"),
      let unlock = dlsym(libc, "unlockpt"), let name = dlsym(libc, "ptsname_r")
    else { throw TerminalError(description: "this C library has no pseudo-terminals") }
    let master = unsafeBitCast(open, to: Open.self)(O_RDWR | O_NOCTTY)
    var path = [CChar](repeating: 0, count: 128)
    guard master >= 0, unsafeBitCast(grant, to: Prepare.self)(master) == 0,
      unsafeBitCast(unlock, to: Prepare.self)(master) == 0,
      unsafeBitCast(name, to: Name.self)(master, &path, path.count) == 0
    else {
      throw TerminalError(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    return (master, String(decoding: path.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
  }

  /// The lines wider than `columns`, each with its width: what the terminal would wrap.
  func overflowing(_ columns: Int, ignoring ignored: (String) -> Bool = { _ in false })
    -> [String]
  {
    lines.filter { Self.width($0) > columns && !ignored($0) }.map {
      "\(Self.width($0)) columns: \($0)"
    }
  }
}

/// The bytes read from the terminal, handed from the reading thread.
private final class Output: @unchecked Sendable {
  private let lock = NSCondition()
  private var data: [UInt8] = []
  private var done = false

  func append(_ bytes: ArraySlice<UInt8>) {
    lock.lock()
    data += bytes
    lock.unlock()
  }

  func finish() {
    lock.lock()
    done = true
    lock.broadcast()
    lock.unlock()
  }

  var bytes: [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    return data
  }

  func wait(seconds: TimeInterval) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    let deadline = Date().addingTimeInterval(seconds)
    while !done { if !lock.wait(until: deadline) { return done } }
    return true
  }
}

struct TerminalError: Error, CustomStringConvertible {
  var description: String
}
