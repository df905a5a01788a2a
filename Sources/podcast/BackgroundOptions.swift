import ArgumentParser
import Foundation
import PodcastKit

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

  /// Re-runs this very command without `--background` in a new session of its own (so the
  /// terminal's SIGHUP never reaches it), output to the log, and returns its pid: the pid of
  /// the process doing the work, which `status` and `kill` can then be given.
  func detach(logDirectory: String) throws -> (pid: Int32, log: String) {
    let log = logDirectory + "/background.log"
    // 0600: the log repeats the command line, which may hold a private feed's URL.
    let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw BackgroundError.cannotLog(log) }
    defer { close(descriptor) }
    let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--background" }
    let line = Console.shown("--- \(Date()) podcast \(arguments.joined(separator: " "))\n")
    Console.write(line, to: descriptor)
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // SIGINT, SIGTERM and SIGHUP as a new process has them, whatever this one chose.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGDEF | Self.newSession))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, descriptor, STDOUT_FILENO)
    posix_spawn_file_actions_adddup2(&actions, descriptor, STDERR_FILENO)

    Self.keepDescriptorsFromChildren()
    var pid: pid_t = 0
    let words = [executable] + arguments
    let status = Self.withCStrings(words) { argv in
      posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    }
    guard status == 0 else {
      throw BackgroundError.cannotStart(String(cString: strerror(status)))
    }
    return (pid, log)
  }

  /// What `--background` says once the work is handed on: the worker's pid and its log, as
  /// sentences or, with `--json`, as `{"pid": N, "log": PATH}`.
  static func announce(_ started: (pid: Int32, log: String), doing: String, json: Bool) {
    if json {
      Console.print(
        JSONValue.object([("pid", .int(started.pid)), ("log", .string(started.log))]).rendered())
      return
    }
    Console.print(
      "\(doing) in the background (pid \(started.pid)); follow it with `podcast status`.")
    Console.print("Log: \(started.log)")
  }

  /// Marks every descriptor this process holds beyond stdin, stdout and stderr close-on-exec,
  /// so the worker holds nothing of its parent's: a pipe its parent's caller waits on (a
  /// script reading our output, a supervisor that watches a descriptor for our exit) would
  /// otherwise stay open until the worker ends. This process exits right after, so its own
  /// use of them is over.
  private static func keepDescriptorsFromChildren() {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    else { return }
    for descriptor in names.compactMap({ Int32($0) }) where descriptor > STDERR_FILENO {
      let flags = fcntl(descriptor, F_GETFD)
      if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
    }
  }

  /// glibc's `POSIX_SPAWN_SETSID` (glibc 2.26 and later): the child starts a session of its
  /// own. Swift's Glibc module leaves the name out, so its value is written here.
  private static let newSession: Int32 = 0x80

  private static func withCStrings<T>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T
  ) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
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
  case cannotStart(String)

  var description: String {
    switch self {
    case .cannotLog(let path): return "cannot write the background log \(path)"
    case .cannotStart(let reason): return reason
    }
  }
}

/// POSIX shell single quotes: safe for any file name, including ones with quotes and `$`.
enum ShellQuote {
  static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
