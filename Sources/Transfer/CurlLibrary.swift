import Basics
internal import CCurl
import Dispatch
import Synchronization

/// libcurl, opened on the first transfer rather than linked: see `CurlLibrary.h` for why.
package enum CurlLibrary {
  /// Why the one attempt this process makes failed, or nil once libcurl is open. Kept, so every
  /// transfer after a failure reports the same reason without trying again.
  private static let failure: String? = call { podcast_curl_load(PODCAST_LIBCURL_SONAME, $0, $1) }
  private static let opened = Atomic<Bool>(false)

  /// Opens libcurl if no transfer has yet; throws for `url` when it cannot be.
  package static func prepare(for url: String) throws {
    // Once open, every later transfer (thousands in a sync) asks only this.
    if opened.load(ordering: .acquiring) { return }
    if let failure {
      throw TransferError.setup(url: url, reason: "libcurl could not be loaded: \(failure)")
    }
    opened.store(true, ordering: .releasing)
  }

  /// Opens libcurl and sets up the transfer thread on another thread, now: for a command
  /// sure to fetch, whose first request would otherwise wait for both (20 ms, 2% of a warm
  /// sync of 10,000 feeds, loading libcurl's libraries and initialising TLS) after its start-up
  /// (reading the library) instead of during it. A failure is kept for that first request to
  /// report, as when it opens libcurl itself.
  package static func openInBackground() {
    DispatchQueue.global(qos: .userInitiated).async {
      guard failure == nil else { return }
      _ = TransferEngine.shared
    }
  }

  /// Whether a transfer may have started: nothing to stop before libcurl is open.
  package static var isOpen: Bool { opened.load(ordering: .acquiring) }

  /// Why the shared object `soname` would not do as libcurl, or nil if it would. Opens and
  /// closes it, keeping nothing.
  package static func problem(with soname: String) -> String? {
    call { podcast_curl_check(soname, $0, $1) }
  }

  /// Runs a C function that returns 0, or -1 with a reason written into the buffer it is given.
  private static func call(_ function: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String? {
    var reason = [CChar](repeating: 0, count: 512)
    let status = reason.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { function($0, buffer.count - 1) } ?? -1
    }
    guard status != 0 else { return nil }
    return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
