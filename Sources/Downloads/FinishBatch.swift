import Basics
import Fetching
import Foundation
import Model
import SideFiles
import Store
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Finished episodes made durable and recorded done together: a group commit.
///
/// The promise is the one a single episode keeps: nothing appears under Episodes or is
/// recorded done before its data is on disk. What changes is who pays for it. The episodes
/// that finish their transfer while one batch is being made durable wait together and are the
/// next batch, which pays one round for all of them:
///
///   1. data    every file's `fdatasync`, all at once (`ParallelFlush`)
///   2. link    every file into place (`Finisher.place`), under the locks of their folders
///   3. lists   the podcast folders' views written on arrival (their playlists), listing
///              the new files (`FolderViews.write(arriving:episodesDirectories:store:)`)
///   4. names   every folder that got a name, and those above it, synced once each (a
///              view's folder by its own write)
///   5. record  one durable commit records every one of them done (`DownloadRows.recordFinished(_:)`)
///
/// A lone episode finds no round running and starts one at once; 200 finishing together pay
/// a few rounds, not 200 file syncs, 200 folder syncs and 200 commits one after another. A
/// kill between steps leaves what a kill inside one episode's finish always left: a complete
/// partial that the next run finishes from its bytes on disk (before 2), or a file at its
/// target that the next run recognises as its own link or adopts (before 4). The partial's
/// name goes only after 4 (`EpisodeDownload`).
///
/// Rounds run one at a time, on a thread of their own (`Rounds`): every step waits on the
/// disk, and the cooperative pool is only as wide as the cores.
package final class FinishBatch: Sendable {
  /// One episode to finish.
  ///
  /// Unchecked: its files and row belong to the batch until the answer, while the episode's
  /// task does nothing but wait for it.
  package struct Request: @unchecked Sendable {
    /// The file to put in place (the partial, or its tagged copy).
    package var file: PartialFile
    /// `file`'s descriptor, written out (`PartialFile.writeOut`).
    package var descriptor: Int32
    /// The copy on the Episodes directory's filesystem (synced already), when one was needed.
    package var staged: StagedCopy?
    package var destination: Finisher.Destination
    package var row: DownloadRow
    package var store: LibraryStore
    /// What is recorded once the file is in place (`file` set then).
    package var record: FinishedDownload
    /// The episode's link, for the error that names it.
    package var url: String

    package init(
      file: PartialFile, descriptor: Int32, staged: StagedCopy?,
      destination: Finisher.Destination, row: DownloadRow, store: LibraryStore,
      record: FinishedDownload, url: String
    ) {
      self.file = file
      self.descriptor = descriptor
      self.staged = staged
      self.destination = destination
      self.row = row
      self.store = store
      self.record = record
      self.url = url
    }
  }

  private let rounds: Rounds<Request, String>
  /// Files a round placed and recorded whose folder's views written on arrival list them
  /// (step 3 wrote them, or found them saying so): a run's own look at its folders needs to
  /// read those folders again only for its other views (`unlisted`).
  private let listed: ListedFiles
  /// Finishing and recognising a file at a target (`EpisodeDownload.claim`) are one step
  /// within this process, per folder: see `EpisodeDownload`.
  package let folders: FolderLocks

  package init() {
    let folders = FolderLocks()
    let listed = ListedFiles()
    self.folders = folders
    self.listed = listed
    rounds = Rounds(gathering: .brief) { requests in
      Self.finish(requests, folders: folders, listed: listed)
    }
  }

  /// `files` less those a round recorded and listed in their folders' views written on
  /// arrival, which are forgotten here (each is asked about once, by the run that finished
  /// it): the files whose folders the run's look at its views (`FolderViews.update`) still
  /// has to read for those views.
  package func unlisted(_ files: [String]) -> [String] {
    listed.files.withLock { listed in files.filter { listed.remove($0) == nil } }
  }

  /// Runs `body`, a download: a round starting meanwhile waits a little for its episode to
  /// be handed in (`finish`), or for it to end without that (`Rounds.Gathering.brief`). A
  /// first sync's rounds held one to four episodes, each round a transaction, its pages and a
  /// thread woken.
  package func expecting<Value>(_ body: () async throws -> Value) async rethrows -> Value {
    try await rounds.expecting(body)
  }

  /// Waits for `request`'s round and returns where the file landed, recorded done; or throws
  /// why it could not be (nothing of it is then recorded, and no new name of it is left).
  package func finish(_ request: Request) async throws -> String {
    try await rounds.submit(request)
  }

  /// One round: the steps above for all of `requests`; an answer for each, in their order.
  private static func finish(
    _ requests: [Request], folders: FolderLocks, listed: ListedFiles
  ) -> [Result<String, any Error>] {
    var answers = [Result<String, any Error>?](repeating: nil, count: requests.count)
    // 1. A staged copy was synced when it was made; a file linked as it is, here.
    let linked = requests.indices.filter { requests[$0].staged == nil }
    let synced = ParallelFlush.flushData(linked.map { requests[$0].descriptor })
    for (index, failure) in zip(linked, synced) {
      if let failure {
        answers[index] = .failure(DownloadError.writing(requests[index].file.path, errno: failure))
      }
    }
    let durable = requests.indices.filter { answers[$0] == nil }
    folders.withLocks(folders: durable.map { requests[$0].destination.directory }) {
      // 2.
      var placed: [(index: Int, at: Finisher.Placed)] = []
      for index in durable {
        let request = requests[index]
        do {
          placed.append(
            (
              index,
              try Finisher.place(request.file, staged: request.staged, at: request.destination)
            ))
        } catch {
          answers[index] = .failure(error)
        }
      }
      var byStore: [ObjectIdentifier: [(index: Int, at: Finisher.Placed)]] = [:]
      for entry in placed {
        byStore[ObjectIdentifier(requests[entry.index].store), default: []].append(entry)
      }
      // 3.
      var seen = Set<String>()
      var listing = Set<String>()
      for group in byStore.values {
        let arriving = group.map { entry in
          var record = requests[entry.index].row.current
          record.file = entry.at.path
          record.state = .done
          record.updatedAt = Date()
          return record
        }
        let roots = Set(group.compactMap { requests[$0.index].destination.folders.last })
        let views = FolderViews.write(
          arriving: arriving, episodesDirectories: Array(roots),
          store: requests[group[0].index].store)
        seen.formUnion(views.synced)
        listing.formUnion(views.listed)
      }
      // 4. Best effort, as every folder sync here: the files themselves are synced.
      let names = placed.flatMap { requests[$0.index].destination.folders }.filter {
        seen.insert($0).inserted
      }
      _ = ParallelFlush.flushDirectories(names)
      // 5. One commit per library (a process has one, unless a test opens several).
      for group in byStore.values {
        let store = requests[group[0].index].store
        let records = group.map { entry in
          var record = requests[entry.index].record
          record.file = entry.at.path
          return record
        }
        let results: [Result<DownloadRecord?, LibraryError>]
        do {
          results = try DownloadRows(store: store).recordFinished(records)
        } catch {
          results = Array(repeating: .failure(LibraryError(error)), count: records.count)
        }
        for (entry, result) in zip(group, results) {
          let request = requests[entry.index]
          switch result {
          case .success(let finished):
            request.row.recorded(finished)
            answers[entry.index] = .success(entry.at.path)
            listed.files.withLock { listed in
              if listing.contains(entry.at.path) {
                listed.insert(entry.at.path)
              } else {
                listed.remove(entry.at.path)
              }
            }
          case .failure(let error):
            // Unrecorded, the file would be downloaded again next time beside itself: take
            // back the name just made; the partial stays, complete, for the next run.
            if entry.at.isNew { unlink(entry.at.path) }
            answers[entry.index] = .failure(DownloadError.cannotRecord(url: request.url, error))
          }
        }
      }
    }
    // Every request has its answer by now: failed at a step, or recorded. The default only
    // keeps a slip in the steps above from ever passing for a finished episode.
    return answers.enumerated().map { index, answer in
      answer
        ?? .failure(
          DownloadError.cannotWrite(path: requests[index].file.path, reason: "it was not finished"))
    }
  }
}

/// `FinishBatch`'s files listed in their playlists, shared with its rounds.
private final class ListedFiles: Sendable {
  let files = Mutex(Set<String>())
}
