import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Blocking flushes to disk (`fdatasync`, `fsync`) made many at once, each on a thread of its own.
///
/// One after another, every call waits for a journal commit and a cache flush of its own: 200
/// finished episodes paid 200 of each. Made together, the filesystem folds calls that arrive
/// while a commit is being written into the next one, and the block layer merges their flushes,
/// so a batch costs about one round of them. The cooperative pool (as wide as the cores) is no
/// place for calls that wait on a disk, so these get plain threads of their own (`Helpers`),
/// kept for the next batch once made: a sync of 200 episodes ran a few hundred small batches,
/// and made and tore down a thread for each call of most of them.
package enum ParallelFlush {
  /// At most this many threads per call: enough for the kernel to see the calls together, few
  /// enough that their stacks and creation stay small beside the work.
  package static let width = 16

  /// Runs `call(index)` for every index in `0..<count`, at most `width` at a time, and returns
  /// once all have; each result lands at its index.
  package static func run<Result: Sendable>(
    _ count: Int, _ call: @escaping @Sendable (Int) -> Result
  ) -> [Result] {
    guard count > 1 else { return count == 1 ? [call(0)] : [] }
    let work = Work(count: count, call: call)
    for _ in 0..<(min(width, count) - 1) {
      Helpers.shared.submit { work.drain() }
    }
    // The calling thread works too: a batch of two needs one new thread, not two. It waits for
    // the calls, not for the helpers: one that gets its turn late (all threads busy with
    // another batch) finds nothing left and returns.
    work.drain()
    work.finished.wait()
    return work.results()
  }

  /// `fdatasync` of every descriptor together; the errno of each that failed, nil for each done.
  package static func flushData(_ descriptors: [Int32]) -> [Int32?] {
    run(descriptors.count) { index -> Int32? in
      fdatasync(descriptors[index]) == 0 ? nil : errno
    }
  }

  /// `fsync` of every directory together, by path: what makes names made in them survive a
  /// power cut. The errno of each that could not be synced, nil for each done.
  package static func flushDirectories(_ paths: [String]) -> [Int32?] {
    run(paths.count) { index -> Int32? in
      let descriptor = open(paths[index], O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard descriptor >= 0 else { return errno }
      defer { close(descriptor) }
      return fsync(descriptor) == 0 ? nil : errno
    }
  }

  /// Runs `work` on one of the kept threads (`Helpers`): for a loop of blocking calls that
  /// starts and stops often (`Rounds`), which would otherwise make a thread each time.
  package static func detach(_ work: @escaping @Sendable () -> Void) {
    Helpers.shared.submit(work)
  }

  /// Threads that wait for blocking calls to make, up to `width`, made as a batch first needs
  /// them and kept for the rest of the process.
  private final class Helpers: @unchecked Sendable {
    static let shared = Helpers()
    private let condition = NSCondition()
    private var tasks: [@Sendable () -> Void] = []
    private var idle = 0
    private var threads = 0

    func submit(_ task: @escaping @Sendable () -> Void) {
      condition.withLock {
        tasks.append(task)
        // A thread told to wake may not have taken its task yet: only more tasks than
        // waiting threads need another one.
        if tasks.count > idle && threads < ParallelFlush.width {
          threads += 1
          Thread.detachNewThread { self.serve() }
        }
        condition.signal()
      }
    }

    private func serve() {
      condition.lock()
      while true {
        while tasks.isEmpty {
          idle += 1
          condition.wait()
          idle -= 1
        }
        let task = tasks.removeFirst()
        condition.unlock()
        task()
        condition.lock()
      }
    }
  }

  /// The indices still to run and the results so far, shared by the threads of one `run`.
  private final class Work<Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var slots: [Result?]
    private var done = 0
    private let call: @Sendable (Int) -> Result
    /// Signalled once, when the last call has returned.
    let finished = DispatchSemaphore(value: 0)

    init(count: Int, call: @escaping @Sendable (Int) -> Result) {
      slots = Array(repeating: nil, count: count)
      self.call = call
    }

    func drain() {
      while let index = take() {
        let result = call(index)
        let last = lock.withLock {
          slots[index] = result
          done += 1
          return done == slots.count
        }
        if last { finished.signal() }
      }
    }

    private func take() -> Int? {
      lock.withLock {
        guard next < slots.count else { return nil }
        defer { next += 1 }
        return next
      }
    }

    /// Every slot is filled once `finished` is signalled.
    func results() -> [Result] {
      lock.withLock { slots.compactMap { $0 } }
    }
  }
}
