import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C and `kill`: partial downloads are already on disk and resumable, so stopping is just
/// tidying the terminal, one line of explanation, and exit 130.
enum Interrupt {
  nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

  static func install(message: String, beforeExit: @escaping @Sendable () -> Void = {}) {
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler {
        beforeExit()
        Console.error(message)
        exit(signalNumber == SIGINT ? 130 : 128 + signalNumber)
      }
      source.resume()
      sources.append(source)
    }
  }
}
