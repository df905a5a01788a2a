import Basics
import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// A run starts by removing what runs that died left behind, wherever it is, when a run did
/// die (its mark is still there) or the machine rebooted since (no stamp of this boot).
final class RunMarkTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private let gone = ProcessOwner(pid: 2_147_483_000, started: 1, boot: ProcessOwner.currentBoot)

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  private var runs: String { library.paths.stateDirectory + "/runs" }

  private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  private func create(_ path: String, _ text: String = "x") throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  /// Leftovers of a run that is gone in every place runs write them, and one of a live run.
  private func leaveDebris(episodes: String) throws -> (dead: [String], live: String) {
    let dead = [
      episodes + "/Show/.podcast-side-\(gone.name)-A.tmp",
      episodes + "/Show/Season 2/.podcast-0123456789abcdef.part-\(gone.name).tmp",
      library.paths.stateDirectory + "/.podcast-playlist-\(gone.name)-B.tmp",
      library.paths.keptFeeds + "/.kept-\(gone.name)-C.tmp",
    ]
    let live = episodes + "/Show/" + TemporaryName.make(prefix: ".podcast-side-")
    for path in dead + [live] { try create(path) }
    return (dead, live)
  }

  func testTheFirstRunOfABootSweepsEverywhereAndMarksItself() throws {
    let debris = try leaveDebris(episodes: library.paths.episodes)
    let episode = library.paths.episodes + "/Show/2024-01-01 One.mp3"
    try create(episode)

    var mark: RunMark? = RunMark(store: store, episodesDirectory: library.paths.episodes)

    for path in debris.dead { XCTAssertFalse(exists(path), path) }
    XCTAssertTrue(exists(debris.live), "a live run's write in progress stays")
    XCTAssertTrue(exists(episode))
    XCTAssertTrue(exists(runs + "/boot-" + ProcessOwner.currentBoot))
    let own = runs + "/" + ProcessOwner.current.name
    XCTAssertEqual(try String(contentsOfFile: own, encoding: .utf8), library.paths.episodes)
    withExtendedLifetime(mark) {}
    mark = nil
    XCTAssertFalse(exists(own), "the mark goes with the run")
  }

  /// A run killed in this boot left its mark: the next run sweeps, the Episodes directory the
  /// dead run used included, and learns which episodes it recorded that may be missing from
  /// their folder's playlist.
  func testTheMarkOfADeadRunBringsASweepOfWhereItWrote() throws {
    _ = RunMark(store: store, episodesDirectory: library.paths.episodes)  // stamps this boot
    let elsewhere = library.directory.appendingPathComponent("Elsewhere").path
    let debris = try leaveDebris(episodes: elsewhere)
    try create(runs + "/" + gone.name, elsewhere)
    let file = elsewhere + "/Show/One.mp3"
    try create(file)
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/1.mp3", podcastTitle: "Show", episodeTitle: "One",
        state: .done, bytes: 1, partialPath: "", file: file))

    let mark = RunMark(store: store, episodesDirectory: library.paths.episodes)

    for path in debris.dead { XCTAssertFalse(exists(path), path) }
    XCTAssertTrue(exists(debris.live))
    XCTAssertFalse(exists(runs + "/" + gone.name), "swept: its mark goes")
    XCTAssertEqual(mark.finishedByDeadRuns, [file])
  }

  /// After a clean run in this boot nobody died: no sweep, so a cron job of a large library
  /// does not list every folder under Episodes every hour.
  func testAfterCleanRunsNothingIsListed() throws {
    _ = RunMark(store: store, episodesDirectory: library.paths.episodes)
    let debris = try leaveDebris(episodes: library.paths.episodes)
    let mark = RunMark(store: store, episodesDirectory: library.paths.episodes)
    XCTAssertTrue(debris.dead.allSatisfy(exists), "no run died since the last sweep")
    XCTAssertEqual(mark.finishedByDeadRuns, [])
  }

  /// A stamp of another boot: the machine rebooted (a power cut takes unsynced marks with
  /// it), so everything is swept, and every episode recorded since that boot's first run may
  /// be missing from its playlist.
  func testARebootBringsASweep() throws {
    try create(runs + "/boot-" + String(repeating: "0", count: 32), "")
    let debris = try leaveDebris(episodes: library.paths.episodes)
    let mark = RunMark(store: store, episodesDirectory: library.paths.episodes)
    for path in debris.dead { XCTAssertFalse(exists(path), path) }
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: runs).sorted(),
      ["boot-" + ProcessOwner.currentBoot, ProcessOwner.current.name].sorted())
    withExtendedLifetime(mark) {}
  }
}
