import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A temporary file that holds the show notes of a large feed while its episodes are sorted
/// and printed. A 20,000-episode feed carries about 60 MB of them; here they cost page cache
/// instead of the process's memory, and the listing stays within a few tens of MB. The file
/// is an `AnonymousFile`, so nothing is left behind by a crash.
final class ShowNotesSpool: Sendable {
  private struct State {
    var buffer: [UInt8] = []
    /// Bytes already in the file; `buffer` follows them.
    var flushed = 0
    /// The file mapped for reading back: one `pread` per episode was 18,000 system calls in a
    /// 20,000-episode listing. Its address and length, remapped when the file has grown.
    var mapping: (address: UInt, count: Int)?
  }

  private let descriptor: Int32
  private let state = Mutex(State())
  private static let flushSize = 1 << 20

  /// nil when no temporary file can be made: the notes then stay in memory.
  init?() {
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
  func append(_ bytes: [UInt8]) -> Range<Int>? {
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

  func read(_ range: Range<Int>) -> [UInt8]? {
    state.withLock { state in
      if range.lowerBound >= state.flushed {
        let start = range.lowerBound - state.flushed
        guard range.upperBound - state.flushed <= state.buffer.count else { return nil }
        return Array(state.buffer[start..<start + range.count])
      }
      guard range.upperBound <= state.flushed else { return nil }
      if let base = mapped(&state) {
        return Array(UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
      }
      var bytes = [UInt8](repeating: 0, count: range.count)
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, range.count, off_t(range.lowerBound))
      }
      return count == range.count ? bytes : nil
    }
  }

  /// The start of the file's mapping, covering every flushed byte; nil when it cannot be
  /// mapped (then `pread` does the job).
  private func mapped(_ state: inout State) -> UnsafeRawPointer? {
    if let mapping = state.mapping, mapping.count >= state.flushed {
      return UnsafeRawPointer(bitPattern: mapping.address)
    }
    if let mapping = state.mapping { Self.unmap(mapping) }
    state.mapping = nil
    let address = mmap(nil, state.flushed, PROT_READ, MAP_SHARED, descriptor, 0)
    guard let address, address != MAP_FAILED else { return nil }
    state.mapping = (UInt(bitPattern: address), state.flushed)
    return UnsafeRawPointer(address)
  }

  private static func unmap(_ mapping: (address: UInt, count: Int)) {
    munmap(UnsafeMutableRawPointer(bitPattern: mapping.address), mapping.count)
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
