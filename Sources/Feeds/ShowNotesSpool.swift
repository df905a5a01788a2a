import Basics
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A temporary file that holds the show notes of a large feed while its episodes are sorted
/// and printed. A 20,000-episode feed carries about 60 MB of them; here they cost page cache
/// instead of the process's memory, and the listing stays within a few tens of MB. The file
/// is an `AnonymousFile`, so nothing is left behind by a crash.
package final class ShowNotesSpool: Sendable {
  private struct Window {
    var address: UInt
    var offset: Int
    var count: Int

    func covers(_ range: Range<Int>) -> Bool {
      range.lowerBound >= offset && range.upperBound <= offset + count
    }
  }

  /// Episodes are read back mostly in the order they were written, so a window moves along
  /// the file a few times per listing; 4 MiB keeps the mapped part well inside the memory
  /// budget of a large listing.
  private static let windowSize = 4 << 20

  private struct State {
    var buffer: [UInt8] = []
    /// Bytes already in the file; `buffer` follows them.
    var flushed = 0
    /// A window of the file mapped for reading back: one `pread` per episode was 18,000 system
    /// calls in a 20,000-episode listing, and mapping the whole file counted all of it as the
    /// process's memory. Its address, the file offset it starts at, and its length.
    var mapping: Window?
  }

  private let descriptor: Int32
  private let state = Mutex(State())
  private static let flushSize = 1 << 20

  /// nil when no temporary file can be made: the notes then stay in memory.
  package init?() {
    guard let descriptor = AnonymousFile.make(prefix: "podcast-notes") else { return nil }
    self.descriptor = descriptor
  }

  deinit {
    state.withLock { state in
      if let mapping = state.mapping { Self.unmap(mapping) }
    }
    close(descriptor)
  }

  /// Where `bytes` were put, or nil when the file cannot take them (a full disk).
  package func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    state.withLock { state in
      let start = state.flushed + state.buffer.count
      state.buffer.append(contentsOf: bytes)
      if state.buffer.count >= Self.flushSize, !flush(&state) {
        state.buffer.removeLast(bytes.count)
        return nil
      }
      return start..<start + bytes.count
    }
  }

  package func read(_ range: Range<Int>) -> [UInt8]? {
    var bytes: [UInt8]?
    withBytes(range) { bytes = $0.map { Array($0) } }
    return bytes
  }

  /// `body` gets the bytes of `range` where they lie (the write buffer or the mapped window),
  /// or nil when they cannot be read; they are valid only during the call. (No result: what
  /// leaves the lock must be `sending`.)
  package func withBytes(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
    state.withLock { state in
      if range.lowerBound >= state.flushed {
        let start = range.lowerBound - state.flushed
        guard range.upperBound - state.flushed <= state.buffer.count else { return body(nil) }
        return state.buffer.withUnsafeBufferPointer {
          body(UnsafeBufferPointer(rebasing: $0[start..<start + range.count]))
        }
      }
      guard range.upperBound <= state.flushed else { return body(nil) }
      if let window = window(covering: range, &state),
        let base = UnsafeRawPointer(bitPattern: window.address)
      {
        let start = (base + (range.lowerBound - window.offset)).assumingMemoryBound(to: UInt8.self)
        return body(UnsafeBufferPointer(start: start, count: range.count))
      }
      var bytes = [UInt8](repeating: 0, count: range.count)
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, range.count, off_t(range.lowerBound))
      }
      guard count == range.count else { return body(nil) }
      return bytes.withUnsafeBufferPointer { body($0) }
    }
  }

  /// A mapped window of flushed bytes that holds `range`; nil when it cannot be mapped (then
  /// `pread` does the job).
  private func window(covering range: Range<Int>, _ state: inout State) -> Window? {
    if let window = state.mapping, window.covers(range) { return window }
    if let window = state.mapping { Self.unmap(window) }
    state.mapping = nil
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let offset = range.lowerBound / page * page
    let count = min(max(Self.windowSize, range.upperBound - offset), state.flushed - offset)
    // Populated at once: every byte of the window is read in turn, and one call filling
    // the mapping costs less than a page fault every few pages.
    let address = mmap(
      nil, count, PROT_READ, MAP_SHARED | MAP_POPULATE, descriptor, off_t(offset))
    guard let address, address != MAP_FAILED else { return nil }
    let window = Window(address: UInt(bitPattern: address), offset: offset, count: count)
    state.mapping = window
    return window
  }

  private static func unmap(_ window: Window) {
    munmap(UnsafeMutableRawPointer(bitPattern: window.address), window.count)
  }

  private func flush(_ state: inout State) -> Bool {
    let offset = state.flushed
    let written = state.buffer.withUnsafeBytes {
      AnonymousFile.write(descriptor, $0, at: offset)
    }
    guard written else { return false }
    state.flushed += state.buffer.count
    state.buffer.removeAll(keepingCapacity: true)
    return true
  }
}
