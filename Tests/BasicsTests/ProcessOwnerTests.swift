import Basics
import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// "Is its owner still running": true only for the very process that wrote a row or a name,
/// never for one that got its pid later, as every process may after a reboot.
final class ProcessOwnerTests: XCTestCase {
  private var scratch: URL!

  override func setUpWithError() throws {
    scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-owner-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: scratch)
  }

  func testThisProcessIsAliveAndItsNameSaysWhoItIs() throws {
    let me = ProcessOwner.current
    XCTAssertEqual(me.pid, getpid())
    XCTAssertGreaterThan(me.started, 0)
    XCTAssertEqual(me.boot.count, 32)
    XCTAssertTrue(me.isAlive)
    XCTAssertEqual(ProcessOwner(name: me.name), me)
    XCTAssertFalse(me.name.contains("-"), "one part of a name whose parts are joined by -")
    XCTAssertEqual(ProcessOwner(running: getpid()), me)
  }

  /// What a reboot does to pids, done to one: the pid a row names now belongs to a process
  /// that started later (or in another boot). It is not the owner.
  func testAProcessThatGotTheSamePidLaterIsNotTheOwner() throws {
    let live = try XCTUnwrap(ProcessOwner(running: 1), "pid 1 always runs")
    XCTAssertTrue(live.isAlive)
    var earlier = live
    earlier.started = live.started + 1
    XCTAssertFalse(earlier.isAlive, "pid 1 is running, but not the process that started then")
    var otherBoot = live
    otherBoot.boot = String(repeating: "0", count: 32)
    XCTAssertFalse(otherBoot.isAlive, "a process of another boot is never running")
    var unknownBoot = live
    unknownBoot.boot = ""
    XCTAssertFalse(unknownBoot.isAlive, "a row written before owners had boots names nobody")
  }

  func testAProcessThatEndedIsNotAlive() throws {
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/sleep")
    ended.arguments = ["30"]
    try ended.run()
    let owner = try XCTUnwrap(ProcessOwner(running: ended.processIdentifier))
    XCTAssertTrue(owner.isAlive)
    ended.terminate()
    ended.waitUntilExit()
    XCTAssertFalse(owner.isAlive)
  }

  /// The start time is read after the command's name, which may hold spaces and parentheses.
  func testAnOddCommandNameDoesNotConfuseTheStartTime() throws {
    let odd = scratch.appendingPathComponent("a) (b c")
    try FileManager.default.createSymbolicLink(
      at: odd, withDestinationURL: URL(fileURLWithPath: "/bin/sleep"))
    let sleeper = Process()
    sleeper.executableURL = odd
    sleeper.arguments = ["30"]
    try sleeper.run()
    defer {
      sleeper.terminate()
      sleeper.waitUntilExit()
    }
    let stat = try String(
      contentsOfFile: "/proc/\(sleeper.processIdentifier)/stat", encoding: .utf8)
    XCTAssertTrue(stat.contains("(a) (b c)"), stat)
    let owner = try XCTUnwrap(ProcessOwner(running: sleeper.processIdentifier))
    XCTAssertGreaterThanOrEqual(owner.started, ProcessOwner.current.started)
    XCTAssertTrue(owner.isAlive)
  }

  /// A process that ended but was not reaped (its parent never waits, as under an init that
  /// does not) is a zombie: gone, whatever /proc still lists under its pid.
  func testAZombieIsNotAlive() throws {
    // `cat` reading a pipe this test holds: it ends when the test closes the pipe.
    var pipeEnds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&pipeEnds), 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    let command: [String] = ["/bin/cat"]
    let arguments = command.map { strdup($0) } + [nil]
    defer { for argument in arguments { free(argument) } }
    var pid: pid_t = 0
    XCTAssertEqual(posix_spawn(&pid, "/bin/cat", &actions, nil, arguments, environ), 0)
    close(pipeEnds[0])
    let owner = try XCTUnwrap(ProcessOwner(running: pid), "read while it runs")
    XCTAssertTrue(owner.isAlive)
    defer { waitpid(pid, nil, 0) }

    close(pipeEnds[1])
    // Waits for it to end without reaping it (WNOWAIT): a zombie until the deferred waitpid.
    var info = siginfo_t()
    XCTAssertEqual(waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT), 0)
    XCTAssertFalse(owner.isAlive)
  }

  func testNamesThatAreNotOwnersAreRefused() {
    let boot = String(repeating: "a", count: 32)
    XCTAssertNotNil(ProcessOwner(name: "12.34.\(boot)"))
    for name in [
      "12", "12.34", "x.34.\(boot)", "12.x.\(boot)", "12.34.\(boot.dropLast())",
      "12.34.\(boot.uppercased())", "0.34.\(boot)", "-1.34.\(boot)", "12.34.\(boot).5",
    ] {
      XCTAssertNil(ProcessOwner(name: name), name)
    }
  }
}
