import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `--background` and `--exec`, shared by `download` and `sync`.
struct BackgroundOptions: ParsableArguments {
  @Flag(
    help:
      "Hand the work to a detached process that outlives the terminal; follow it with `podcast status`."
  )
  var background = false

  @Option(
    help: ArgumentHelp(
      "Run CMD for each downloaded file when done; {file}, {title} and {podcast} are replaced, shell-quoted.",
      valueName: "CMD"))
  var exec: String?

  /// Re-runs this very command without `--background` in a new session, output to a log file,
  /// and returns its pid. The parent exits at once; the child survives the shell closing.
  func detach(logDirectory: String) throws -> Int32 {
    let log = logDirectory + "/background.log"
    // 0600: the log repeats the command line, which may hold a private feed's URL.
    let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw BackgroundError.cannotLog(log) }
    close(descriptor)
    guard let output = FileHandle(forWritingAtPath: log) else {
      throw BackgroundError.cannotLog(log)
    }
    output.seekToEndOfFile()
    let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--background" }
    let line = Console.shown("--- \(Date()) podcast \(arguments.joined(separator: " "))")
    output.write(Data((line + "\n").utf8))
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let process = Process()
    // setsid: a new session, so the terminal's SIGHUP never reaches the child.
    let setsid = "/usr/bin/setsid"
    if FileManager.default.isExecutableFile(atPath: setsid) {
      process.executableURL = URL(fileURLWithPath: setsid)
      process.arguments = [executable] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = Array(arguments)
    }
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process.processIdentifier
  }

  /// Runs the `--exec` command for each finished file, like a completion handler.
  func runCompletionCommand(files: [(file: String, title: String?, podcast: String?)]) -> Bool {
    guard let exec else { return true }
    var succeeded = true
    for item in files {
      let command =
        exec
        .replacingOccurrences(of: "{file}", with: ShellQuote.quote(item.file))
        .replacingOccurrences(of: "{title}", with: ShellQuote.quote(item.title ?? ""))
        .replacingOccurrences(of: "{podcast}", with: ShellQuote.quote(item.podcast ?? ""))
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", command]
      do {
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
          Console.error(
            "--exec command failed with status \(process.terminationStatus) for \(item.file)")
          succeeded = false
        }
      } catch {
        Console.error("--exec command could not start: \(error.localizedDescription)")
        succeeded = false
      }
    }
    return succeeded
  }
}

enum BackgroundError: Error, CustomStringConvertible {
  case cannotLog(String)

  var description: String {
    switch self {
    case .cannotLog(let path): return "cannot write the background log \(path)"
    }
  }
}

/// POSIX shell single quotes: safe for any file name, including ones with quotes and `$`.
enum ShellQuote {
  static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
