import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

@testable import Sync

/// Retention with a real library and real files: past `keep`, the oldest downloads go, and
/// nothing the library did not download is ever touched.
final class SyncPrunerTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var folder: URL!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    try library.paths.prepare()
    store = try library.store()
    folder = URL(fileURLWithPath: library.paths.episodes).appendingPathComponent("Show")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// A subscription with `count` downloaded episodes, one day apart (episode `count` newest);
  /// returns it and each episode's file, oldest first. `file` picks another path for one.
  private func subscription(
    _ name: String, keep: Int?, downloaded count: Int, file: (Int) -> URL? = { _ in nil }
  ) throws -> (Subscription, [String]) {
    let subscription = try Subscriptions(store: store).add(
      name: name, feedURL: "https://example.com/\(name).xml", title: nil, keep: keep)
    let id = subscription.id
    var files: [String] = []
    for number in 1...count {
      let seen = SeenEpisode(
        subscriptionId: id, guid: "\(name)-\(number)",
        enclosureURL: "https://example.com/\(name)-\(number).mp3", title: "Episode \(number)",
        published: Date(timeIntervalSince1970: 1_714_000_000 + Double(number) * 86_400))
      let path = file(number) ?? folder.appendingPathComponent("\(name) \(number).mp3")
      try Data("episode \(number)".utf8).write(to: path)
      try EpisodeLog(store: store).record(subscriptionId: id, episodes: [seen])
      try EpisodeLog(store: store).markDownloaded(
        subscriptionId: id, key: seen.key, file: path.path)
      files.append(path.path)
    }
    return (subscription, files)
  }

  private func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
  }

  private func recordedFiles(_ subscription: Subscription) throws -> [String] {
    try EpisodeLog(store: store).episodes(subscriptionId: subscription.id).compactMap(
      \.downloadedFile
    ).sorted()
  }

  func testTheOldestFilesPastKeepAreRemovedAndForgotten() throws {
    let (show, files) = try subscription("show", keep: 2, downloaded: 4)
    let notes = folder.appendingPathComponent("my notes.txt")
    try Data("mine".utf8).write(to: notes)

    let outcome = SyncPruner(store: store).prune([show])

    XCTAssertEqual(outcome.failures, [])
    XCTAssertEqual(outcome.removed, [files[1], files[0]], "newest first, as sync lists them")
    XCTAssertEqual(files.map(exists), [false, false, true, true])
    XCTAssertEqual(try recordedFiles(show), [files[2], files[3]].sorted())
    XCTAssertTrue(exists(notes.path), "a file the library did not download stays")
  }

  func testASubscriptionWithoutKeepIsLeftAlone() throws {
    let (show, files) = try subscription("show", keep: nil, downloaded: 3)

    let outcome = SyncPruner(store: store).prune([show])

    XCTAssertEqual(outcome, SyncPruner.Outcome())
    XCTAssertEqual(files.map(exists), [true, true, true])
  }

  /// A damaged or hand-edited database can name any file: outside the Episodes directory it
  /// is refused, said, and stays recorded.
  func testARecordedFileOutsideTheEpisodesDirectoryIsNeverTouched() throws {
    let outside = library.directory.appendingPathComponent("precious.mp3")
    let (show, files) = try subscription("show", keep: 1, downloaded: 2) {
      $0 == 1 ? outside : nil
    }

    let outcome = SyncPruner(store: store).prune([show])

    let episodes = URL(fileURLWithPath: library.paths.episodes).standardizedFileURL.path
    XCTAssertEqual(
      outcome.failures, [.cannotRemove(.outsideEpisodes(file: outside.path, episodes: episodes))])
    XCTAssertEqual(outcome.removed, [])
    XCTAssertTrue(exists(outside.path))
    XCTAssertTrue(exists(files[1]), "the newest is kept")
    XCTAssertEqual(try recordedFiles(show), files.sorted(), "still recorded, as it is still there")
  }

  /// The user deleted an old episode by hand: it is simply forgotten, not a failure.
  func testAFileAlreadyGoneDoesNotFailThePrune() throws {
    let (show, files) = try subscription("show", keep: 1, downloaded: 3)
    try FileManager.default.removeItem(atPath: files[0])

    let outcome = SyncPruner(store: store).prune([show])

    XCTAssertEqual(outcome.failures, [])
    XCTAssertEqual(Set(outcome.removed), Set([files[0], files[1]]))
    XCTAssertEqual(files.map(exists), [false, false, true])
    XCTAssertEqual(try recordedFiles(show), [files[2]])
  }

  func testOnlyTheSubscriptionsGivenArePruned() throws {
    let (kept, keptFiles) = try subscription("kept", keep: 1, downloaded: 2)
    let (pruned, prunedFiles) = try subscription("pruned", keep: 1, downloaded: 2)

    let outcome = SyncPruner(store: store).prune([pruned])

    XCTAssertEqual(outcome.removed, [prunedFiles[0]])
    XCTAssertEqual(keptFiles.map(exists), [true, true], "\(kept.name) was not synced")
  }

  /// `--dry-run`: what would go once the planned episodes arrive; nothing is deleted.
  func testWouldPruneCountsThePlannedEpisodesAndDeletesNothing() throws {
    let (show, files) = try subscription("show", keep: 2, downloaded: 2)
    let id = show.id
    let tomorrow = Date(timeIntervalSince1970: 1_714_000_000 + 10 * 86_400)

    let pruner = SyncPruner(store: store)
    XCTAssertEqual(pruner.wouldPrune([show], adding: [:]), [])
    XCTAssertEqual(pruner.wouldPrune([show], adding: [id: [tomorrow]]), [files[0]])
    XCTAssertEqual(pruner.wouldPrune([show], adding: [id: [tomorrow, nil]]), [files[1], files[0]])
    XCTAssertEqual(files.map(exists), [true, true])
    XCTAssertEqual(try recordedFiles(show), files.sorted())
  }
}
