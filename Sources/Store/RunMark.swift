import Basics
import Foundation
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// A download or sync run's mark in the library while it runs: `.podcast/runs/<owner>`
/// (`ProcessOwner.name`), holding the Episodes directory it writes to. Making one first sweeps
/// what dead runs left (`TemporarySweep`) when there is reason to: the mark of a run that is
/// gone (killed), or no stamp of this boot (`boot-<id>`: the boot changed since the last
/// sweep, as after a power cut, which can take unsynced marks with it). The mark goes with
/// this object; one a killed run leaves is what tells the next run to sweep.
package final class RunMark: Sendable {
  private let path: String
  /// Episodes a run that is gone may have recorded done without writing their folder's
  /// playlist and feed again: those recorded since the earliest such run began (since the
  /// last boot's first run, after a reboot). Empty when no run died; the run brings their
  /// folders up to date with its own.
  package let finishedByDeadRuns: [String]
  /// The feeds that listed them: what such a run downloaded may still miss its transcript or
  /// chapters, which a sync looks for only in a feed it reads whole (a 304 names none).
  package let feedsOfDeadRuns: Set<String>

  /// Sweeps if needed, then marks this run.
  package init(store: LibraryStore, episodesDirectory: String) {
    let folder = store.paths.stateDirectory + "/runs"
    mkdir(folder, 0o700)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    let stamp = "boot-" + ProcessOwner.currentBoot
    let stamps = names.filter { $0.hasPrefix("boot-") }
    var dead: [String] = []
    var episodesDirectories = [episodesDirectory]
    for name in names where !name.hasPrefix("boot-") {
      guard ProcessOwner(name: name)?.isAlive != true else { continue }
      dead.append(name)
      if let written = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8),
        !written.isEmpty, !episodesDirectories.contains(written)
      {
        episodesDirectories.append(written)
      }
    }
    // Since when a dead run may have worked: its mark was made as it began, a boot's stamp by
    // the boot's first run. No stamp at all: since ever.
    let rebooted = !stamps.contains(stamp)
    let since = ((rebooted ? stamps : []) + dead).compactMap { Self.modified(folder + "/" + $0) }
    if rebooted || !dead.isEmpty {
      TemporarySweep(store: store).run(episodesDirectories: episodesDirectories)
      let earliest = rebooted && since.isEmpty ? Date.distantPast : since.min() ?? Date()
      let finished = (try? FinishedDownloads(store: store).files(since: earliest)) ?? []
      finishedByDeadRuns = finished.map(\.file)
      feedsOfDeadRuns = Set(finished.compactMap(\.feedURL))
      // Only once it is done: a sweep cut short is made again by the next run.
      for name in dead + stamps where name != stamp { unlink(folder + "/" + name) }
      Self.create(folder + "/" + stamp, holding: "")
    } else {
      finishedByDeadRuns = []
      feedsOfDeadRuns = []
    }
    path = folder + "/" + ProcessOwner.current.name
    Self.create(path, holding: episodesDirectory)
  }

  deinit {
    unlink(path)
  }

  private static func modified(_ path: String) -> Date? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
  }

  /// Best effort: a mark that cannot be made costs only a sweep that does not happen.
  private static func create(_ path: String, holding text: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
  }
}
