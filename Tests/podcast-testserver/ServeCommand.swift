import Foundation
import Glibc
import LoopbackServer

/// `serve`: directories on 127.0.0.1 until SIGTERM or SIGINT.
struct ServeCommand {
  let mounts: [(prefix: String, directory: String)]
  let port: UInt16
  let bytesPerSecond: Int?

  init(_ arguments: [String]) throws(TestServerError) {
    let options = try CommandLineOptions(arguments, allowed: ["root", "mount", "port", "rate"])
    var mounts = options.all("root").map { (prefix: "/", directory: $0) }
    for text in options.all("mount") {
      guard let equals = text.firstIndex(of: "="), text.hasPrefix("/") else {
        throw .badMount(text)
      }
      mounts.append((String(text[..<equals]), String(text[text.index(after: equals)...])))
    }
    guard !mounts.isEmpty else { throw .missingOption("--root or --mount") }
    for mount in mounts {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: mount.directory, isDirectory: &isDirectory),
        isDirectory.boolValue
      else { throw .notADirectory(mount.directory) }
    }
    self.mounts = mounts
    self.port = UInt16(try options.integer("port", in: 0...65535) ?? 0)
    self.bytesPerSecond = try options.integer("rate", in: 1...Int.max)
  }

  func run() throws {
    // Block the stop signals before any thread exists, so every thread inherits the mask and
    // the main thread can take them synchronously with sigwait.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGTERM)
    sigaddset(&stopSignals, SIGINT)
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

    let server = try LoopbackServer(port: port) { line in
      FileHandle.standardError.write(Data((line + "\n").utf8))
    }
    var faults = Faults()
    faults.bytesPerSecond = bytesPerSecond
    for mount in mounts {
      server.setDirectory(mount.directory, under: mount.prefix, faults: faults)
    }
    // Written straight to fd 1: the caller waits for this line, so no stdio buffering.
    FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))

    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    server.stop()
  }
}
