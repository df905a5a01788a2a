import Basics
import Model
import Store

/// Where a sync's planner writes each feed's record (`FeedRecord`). One that queues downloads
/// is written before the downloads are handed on (`now`), in a round with the others ready at
/// that moment; one of the subscription alone (a 304, a failure) waits (`later`) and is
/// written with a few hundred others, or when the run's feeds are all in: a feed server takes
/// only a few refreshes at a time, so rounds of those would be as small, a transaction for
/// every two or three unchanged feeds. A kill loses
/// nothing that matters of those waiting: the next sync asks those feeds again.
final class FeedRecords: Sendable {
  fileprivate struct Waiting: Sendable {
    var index: Int
    var original: Subscription
    var record: FeedRecord
  }

  private let store: LibraryStore
  private let rounds: Rounds<FeedRecord, FeedRecord.Outcome>
  private let waiting = Locked<[Waiting]>([])
  /// Those written later that the library refused, by the subscription's place in the run.
  private let refused = Locked<[Int: (original: Subscription, error: LibraryError)]>([:])

  /// Records of the subscription alone written at once.
  private static let batch = 256

  init(store: LibraryStore) {
    self.store = store
    rounds = Rounds(gathering: .brief) { records in
      do {
        return try FeedRefreshes(store: store).record(records).map { .success($0) }
      } catch {
        return records.map { _ in .failure(error) }
      }
    }
  }

  /// Writes `record` with whatever else is ready now, and answers for it.
  func now(_ record: FeedRecord) async throws -> FeedRecord.Outcome {
    try await rounds.submit(record)
  }

  /// `count` feeds are under way and may write a record soon (`now`): a round starting
  /// meanwhile waits a little for them (`Rounds.Gathering.brief`), until `withdraw` is
  /// called for each. A 2,000-feed first sync wrote its records in rounds of two feeds, each
  /// round a transaction and a dozen pages of the library written again.
  func announce(_ count: Int) {
    rounds.announce(count)
  }

  /// One feed announced has made its part: its record is in, or it has none to write now.
  func withdraw() {
    rounds.withdraw()
  }

  /// Records kept to be written together, once `batch` of them wait.
  struct Batch: Sendable {
    fileprivate let records: [Waiting]
  }

  /// Keeps `record` (of the subscription at `index` in the run, `original` as it was) to be
  /// written with others, and writes those that wait once they are a batch.
  func later(_ record: FeedRecord, index: Int, original: Subscription) {
    if let full = keep(record, index: index, original: original) { write(full) }
  }

  /// Keeps `record` as `later` does, but hands back the batch it completes for the caller to
  /// write (`write(_:)`) where waiting for the library's write lock holds nothing else up.
  func keep(_ record: FeedRecord, index: Int, original: Subscription) -> Batch? {
    waiting.withLock { waiting -> Batch? in
      waiting.append(Waiting(index: index, original: original, record: record))
      guard waiting.count >= Self.batch else { return nil }
      defer { waiting = [] }
      return Batch(records: waiting)
    }
  }

  /// Writes a batch `keep` handed back.
  func write(_ batch: Batch) {
    write(batch.records)
  }

  /// Writes what waits, and returns every record written later that the library refused
  /// (or could not write), by the subscription's place in the run.
  func finish() -> [Int: (original: Subscription, error: LibraryError)] {
    write(
      waiting.withLock { waiting in
        defer { waiting = [] }
        return waiting
      })
    return refused.withLock { $0 }
  }

  private func write(_ batch: [Waiting]) {
    guard !batch.isEmpty else { return }
    let outcomes: [FeedRecord.Outcome]
    do {
      outcomes = try FeedRefreshes(store: store).record(batch.map(\.record))
    } catch {
      outcomes = batch.map { _ in .failed(LibraryError(error)) }
    }
    for (waiting, outcome) in zip(batch, outcomes) {
      switch outcome {
      case .recorded, .stale: continue
      case .refused(let error), .failed(let error):
        refused.withLock { $0[waiting.index] = (waiting.original, error) }
      }
    }
  }
}
