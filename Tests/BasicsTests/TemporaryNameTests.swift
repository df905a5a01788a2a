import Basics
import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// A temporary's name says who writes it; a sweep removes those whose writer is gone and
/// nothing else.
final class TemporaryNameTests: XCTestCase {
  private var folder: String!
  private let gone = ProcessOwner(pid: 2_147_483_000, started: 1, boot: ProcessOwner.currentBoot)

  override func setUpWithError() throws {
    folder =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-temporary-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: folder)
  }

  private func create(_ name: String, age: TimeInterval = 0) {
    let path = folder + "/" + name
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    if age > 0 {
      let then = Date().addingTimeInterval(-age).timeIntervalSince1970
      var times = [
        timeval(tv_sec: Int(then), tv_usec: 0), timeval(tv_sec: Int(then), tv_usec: 0),
      ]
      XCTAssertEqual(utimes(path, &times), 0)
    }
  }

  private var names: Set<String> {
    Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
  }

  func testEveryKindOfNameGivesBackItsOwner() {
    let made = TemporaryName.make(prefix: ".podcast-side-")
    XCTAssertTrue(made.hasPrefix(".podcast-side-") && made.hasSuffix(".tmp"), made)
    XCTAssertEqual(TemporaryName.owner(of: made), .current)
    // A staged copy of an episode: the partial file's name, then its writer.
    XCTAssertEqual(
      TemporaryName.owner(of: ".podcast-0123456789abcdef.part-\(gone.name).tmp"), gone)
    // A side file's scratch copy in the moment between its making and its unlinking.
    XCTAssertEqual(TemporaryName.owner(of: ".side-\(gone.name)-aB3xYz.tmp"), gone)
    // A library being created, and SQLite's files beside it.
    XCTAssertEqual(TemporaryName.owner(of: "library.sqlite.new-\(gone.name)-wal"), gone)
    XCTAssertNil(TemporaryName.owner(of: ".podcast-side-1234-9F0C7E51-3C7B-4E0B.tmp"))
  }

  func testOnlyTheTemporariesOfWritersThatAreGoneAreRemoved() {
    let dead = ".podcast-side-\(gone.name)-A.tmp"
    let staged = ".podcast-0123456789abcdef.part-\(gone.name).tmp"
    let running = TemporaryName.make(prefix: ".podcast-side-")
    let episode = "2024-01-01 Episode.mp3"
    let ownHidden = ".notes-\(gone.name).txt"
    let someoneElses = ".cache.tmp"
    for name in [dead, staged, running, episode, ownHidden, someoneElses] { create(name) }

    let removed = TemporaryName.removeAbandoned(in: folder)

    XCTAssertEqual(Set(removed), [dead, staged])
    XCTAssertEqual(names, [running, episode, ownHidden, someoneElses])
  }

  /// An older version named its temporaries after a bare pid, which a reboot may have given
  /// to anyone: such a name goes once it is an hour old, whoever has that pid now.
  func testAnOlderVersionsTemporaryGoesOnceAnHourOld() {
    let old = ".podcast-playlist-\(getpid())-B.tmp"
    let fresh = ".kept-\(getpid())-C.tmp"
    create(old, age: 2 * 3600)
    create(fresh)
    XCTAssertEqual(TemporaryName.removeAbandoned(in: folder), [old])
    XCTAssertEqual(names, [fresh])
  }

  func testAPrefixLimitsWhatIsLookedAt() {
    let side = ".podcast-side-\(gone.name)-A.tmp"
    let kept = ".kept-\(gone.name)-B.tmp"
    for name in [side, kept] { create(name) }
    XCTAssertEqual(TemporaryName.removeAbandoned(in: folder, prefix: ".kept-"), [kept])
    XCTAssertEqual(names, [side])
  }
}
