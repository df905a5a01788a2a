import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

final class LibraryLockTests: XCTestCase {
  func testASecondAcquireWithoutWaitingIsBusyUntilReleased() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let first = try LibraryLock.acquire(paths: library.paths, wait: false)
    XCTAssertThrowsError(try LibraryLock.acquire(paths: library.paths, wait: false)) { error in
      XCTAssertEqual(error as? LibraryError, .busy)
    }
    first.release()
    let second = try LibraryLock.acquire(paths: library.paths, wait: false)
    second.release()
  }

  func testTheLockIsDroppedWithTheObject() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    do { _ = try LibraryLock.acquire(paths: library.paths, wait: false) }
    XCTAssertNoThrow(try LibraryLock.acquire(paths: library.paths, wait: false))
  }

  func testALockHeldByAnotherProcessMakesUsBusy() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let ready = library.directory.appendingPathComponent("ready").path
    // The shell takes the lock with util-linux flock(1), then becomes `sleep`, so terminating
    // the child ends the lock holder itself.
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/sh")
    child.arguments = [
      "-c", "exec 9>\"$0\"; flock 9 || exit 3; touch \"$1\"; exec sleep 30",
      library.paths.lockFile, ready,
    ]
    try child.run()
    defer {
      child.terminate()
      child.waitUntilExit()
    }
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: ready) && Date() < deadline {
      usleep(20_000)
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: ready), "the child never took the lock")
    XCTAssertThrowsError(try LibraryLock.acquire(paths: library.paths, wait: false)) { error in
      XCTAssertEqual(error as? LibraryError, .busy)
    }
  }
}
