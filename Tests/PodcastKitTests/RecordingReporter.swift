import Downloads
import Fetching
import Foundation
import PodcastKit

/// A reporter that keeps what a use case told it, for the tests to read when the run is over.
final class RecordingReporter: RunReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var _results: [DownloadResult] = []
  private var _problems: [String] = []
  private var _batches = 0
  private var open = 0

  var results: [DownloadResult] { lock.withLock { _results } }
  /// `subject: sentence`, or the sentence alone.
  var problems: [String] { lock.withLock { _problems } }
  var batches: Int { lock.withLock { _batches } }
  /// Whether every batch that started also ended.
  var allBatchesEnded: Bool { lock.withLock { open == 0 } }

  func batchStarted(_ progress: ProgressBuffer) {
    lock.withLock {
      _batches += 1
      open += 1
    }
  }

  func downloadEnded(_ result: DownloadResult) {
    lock.withLock { _results.append(result) }
  }

  func batchEnded() {
    lock.withLock { open -= 1 }
  }

  func problem(_ error: Error, subject: String?) {
    let sentence = String(describing: error)
    lock.withLock { _problems.append(subject.map { "\($0): \(sentence)" } ?? sentence) }
  }
}
