import Foundation
import Glibc
import XCTest

/// A tool beside the project that a test needs (an oPodSync checkout, the phone's venv),
/// found through the environment variable the test set-up exports (`PODCAST_OPODSYNC`, ...). Without it the test
/// says so and is skipped, except in CI (`CI=true`), where a missing tool is a failure: the
/// tests it guards must run there.
public enum TestTool {
  /// The variable's value, or a skip (a failure in CI) naming the variable and `what`.
  public static func path(_ variable: String, for what: String) throws -> String {
    let environment = ProcessInfo.processInfo.environment
    guard let value = environment[variable], !value.isEmpty,
      FileManager.default.fileExists(atPath: value)
    else {
      let reason = "\(variable) is not set to an existing path: \(what) cannot run"
      if environment["CI"] == "true" {
        XCTFail(reason + " (CI must run it: .ci/run and `make test` set it)")
        throw XCTSkip(reason)
      }
      print("skipping: \(reason) (`make test` sets it)")
      throw XCTSkip(reason)
    }
    return value
  }

  /// Runs `executable` to its end: its standard output, or an error with its standard error.
  ///
  /// posix_spawn and waitpid rather than Foundation's Process: from an async test, Process
  /// never saw the end of a script whose child lives on (oPodSync's `serve` leaves PHP running)
  /// and waited on a zombie for ever. The child starts with no signal blocked, whatever this
  /// test thread blocks, so that the server it leaves behind can be stopped with SIGTERM.
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:]
  )
    throws -> String
  {
    let folder = NSTemporaryDirectory() + "podcast-tool-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (outPath, errPath) = (folder + "/out", folder + "/err")

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      .map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let spawned = withCStrings([executable] + arguments) { argv in
      withCStrings(variables) { envp in
        posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
      }
    }
    guard spawned == 0 else {
      throw TestToolError(
        description: "\(executable) could not start: \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    guard status == 0 else {
      let errors = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
      throw TestToolError(
        description:
          "\(executable) \(arguments.joined(separator: " ")) failed (\(status)): \(errors)")
    }
    return output
  }

  /// `strings` as a NULL-terminated array of C strings, for `body` only.
  private static func withCStrings<T>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T
  ) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
  }
}

public struct TestToolError: Error, CustomStringConvertible {
  public let description: String
  public init(description: String) { self.description = description }
}
