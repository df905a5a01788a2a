import Foundation

/// The partial files' write buffers, handed from one download to the next instead of freed.
///
/// A fresh half megabyte costs a page fault for each 4 KiB the first time it is written, and
/// glibc hands freed ones back to the kernel, so every download would fault its buffer in anew
/// while copying the body in: a visible part of a cold sync's CPU, more in a VM whose host
/// backs each new page on demand. At most
/// `kept` wait here, as many as a batch runs at once by default, so a run's peak is what its
/// downloads held at once anyway.
final class WriteBuffers: @unchecked Sendable {
  static let shared = WriteBuffers()

  static let kept = 16

  private let lock = NSLock()
  private var free: [UnsafeMutableRawBufferPointer] = []

  /// A buffer of `PartialFile.bufferSize` bytes.
  func take() -> UnsafeMutableRawBufferPointer {
    if let buffer = lock.withLock({ free.popLast() }) { return buffer }
    return .allocate(byteCount: PartialFile.bufferSize, alignment: 16)
  }

  /// Takes `buffer` back for the next download (an empty one is ignored).
  func give(_ buffer: UnsafeMutableRawBufferPointer) {
    guard buffer.baseAddress != nil else { return }
    let kept = lock.withLock {
      guard free.count < Self.kept else { return false }
      free.append(buffer)
      return true
    }
    if !kept { buffer.deallocate() }
  }
}
