import Downloads
import Foundation
import Synchronization
import XCTest

/// Finishing an episode (link, folder fsync, durable record) holds its folder's lock: episodes
/// of one folder take turns, episodes of different folders finish side by side.
final class FolderLocksTests: XCTestCase {
  func testAFolderTakesOneLockWhateverItsCase() {
    let locks = FolderLocks()
    XCTAssertEqual(
      locks.stripe(for: "/p/Episodes/The Daily"), locks.stripe(for: "/p/Episodes/the daily"))
  }

  /// The second folder takes its lock while the first is held: with one lock for every folder
  /// it would wait until the deadline and the test fails instead of hanging.
  func testFoldersWithDifferentLocksDoNotWaitForEachOther() throws {
    let locks = FolderLocks()
    let first = "/p/Episodes/Show 0"
    let second = try XCTUnwrap(
      (1...1_000).map { "/p/Episodes/Show \($0)" }.first {
        locks.stripe(for: $0) != locks.stripe(for: first)
      })
    let secondHeld = DispatchSemaphore(value: 0)
    var tookSecondWhileFirstHeld = false
    locks.withLock(folder: first) {
      Thread.detachNewThread {
        locks.withLock(folder: second) { _ = secondHeld.signal() }
      }
      tookSecondWhileFirstHeld = secondHeld.wait(timeout: .now() + 30) == .success
    }
    XCTAssertTrue(tookSecondWhileFirstHeld)
  }

  func testOneFolderIsHeldByOneAtATime() {
    let locks = FolderLocks(count: 4)
    let inside = Mutex(0)
    let most = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<200 {
        locks.withLock(folder: "/p/Episodes/Show") {
          let now = inside.withLock { count in
            count += 1
            return count
          }
          most.withLock { $0 = max($0, now) }
          inside.withLock { $0 -= 1 }
        }
      }
    }
    XCTAssertEqual(most.withLock { $0 }, 1)
  }
}
