import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C and `kill`: partial downloads are already on disk and resumable, and the database is
/// transactional, so stopping is just tidying the terminal, one line of explanation, and exit
/// 130. Commands install it early and update the message as their work changes.
enum Interrupt {
  private struct Handler {
    var message = "interrupted"
    var beforeExit: @Sendable () -> Void = {}
  }

  private static let handler = Guarded(Handler())
  private static let stopping = Guarded(false)

  /// True once a signal arrived: results that come in after it are the interruption's own
  /// (cancelled transfers) and are not reported one by one.
  static var isStopping: Bool { stopping.withLock { $0 } }
  nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
  private static let installOnce: Void = {
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler {
        stopping.withLock { $0 = true }
        let current = handler.withLock { $0 }
        current.beforeExit()
        Console.error(current.message)
        exit(signalNumber == SIGINT ? 130 : 128 + signalNumber)
      }
      source.resume()
      sources.append(source)
    }
  }()

  /// Called where a command would report what its run did: once a signal arrived, what the
  /// run did is the interruption's (transfers it stopped end as failures), and the handler
  /// is about to say so and exit 130. This thread waits for that exit instead of reporting
  /// those as failed episodes and exiting 1 first.
  static func waitForExitIfStopping() {
    guard isStopping else { return }
    while true { sleep(60) }
  }

  static func install(message: String, beforeExit: @escaping @Sendable () -> Void = {}) {
    _ = installOnce
    handler.withLock { $0 = Handler(message: message, beforeExit: beforeExit) }
  }
}
