import Basics
internal import CWriteback
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `.part` file one download streams into, opened for the whole download and locked
/// (`flock`) so two processes never write the same episode at once.
///
/// Appends are gathered in memory and written in large pieces: libcurl hands over at most
/// 16 KiB a call, and a `write(2)` per 16 KiB costs ext4 more than twice the system time of
/// a few hundred KiB at once. The transfer flushes after every burst it receives, so what is on
/// disk trails the network by one read at most, and a stalled or killed download keeps all of it.
package final class PartialFile {
  package let path: String
  private let descriptor: Int32
  /// Taken at the first append (a copy only written whole, like a tagged one, never needs
  /// one), and empty again once the file is written out or let go of it: appends after that go
  /// straight to the file.
  private var buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
  private var buffering = true
  private var buffered = 0
  /// Written since writeback was last started, and where that stretch begins.
  private var unstarted = 0
  private var unstartedFrom: off_t = -1
  /// Where the next write lands: the file's end, as every write appends.
  private var position: off_t = 0
  /// The file's length on disk. Only this process writes it (it holds the lock), and only
  /// through here, so it is kept as the writes go rather than asked of the file each time.
  private var length: Int64 = 0
  /// How far the file is written and synced (see `Checkpoints`).
  package let synced = DurableLength()
  /// Called on the writing thread each time another `writebackStep` of the body is written: a
  /// checkpoint is due. It must not block.
  package var onCheckpointDue: (() -> Void)?

  package static let bufferSize = 512 << 10

  /// Opens (creating) `path` and takes its lock. Returns nil when another process holds it.
  ///
  /// The holder of a lock may unlink the name when it finishes; a lock taken on that unlinked
  /// file would guard nothing, so the lock counts only while the name still leads to it.
  package init?(path: String) throws {
    var descriptor: Int32 = -1
    while true {
      descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw DownloadError.writing(path)
      }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        close(descriptor)
        return nil
      }
      if let length = Self.currentLength(descriptor, path: path) {
        self.length = length
        break
      }
      close(descriptor)
    }
    self.path = path
    self.descriptor = descriptor
    synced.wrote(length: length)
  }

  /// A partial file without a name, in `directory`: for a body that is only worth keeping once
  /// complete (a transcript, a chapters file), so a kill at any moment leaves nothing behind.
  /// `path` only names it in messages.
  package init(anonymousIn directory: String, describedAs path: String) throws {
    guard let descriptor = AnonymousFile.make(prefix: ".side", in: directory) else {
      throw DownloadError.writing(directory)
    }
    self.path = path
    self.descriptor = descriptor
  }

  /// The open file's length when `path` still names it; nil when the name leads elsewhere
  /// (or nowhere).
  private static func currentLength(_ descriptor: Int32, path: String) -> Int64? {
    var open = stat()
    var named = stat()
    guard fstat(descriptor, &open) == 0, stat(path, &named) == 0,
      open.st_dev == named.st_dev, open.st_ino == named.st_ino
    else { return nil }
    return Int64(open.st_size)
  }

  deinit {
    // Whatever arrived is worth keeping for the next run; an error here has nobody to tell.
    try? flush()
    close(descriptor)
    WriteBuffers.shared.give(buffer)
  }

  /// Whether the file has another name too: a finish links the synced file into Episodes
  /// before the library records it, so one found so has its episode's name there.
  package var isLinkedElsewhere: Bool {
    var info = stat()
    return fstat(descriptor, &info) == 0 && info.st_nlink > 1
  }

  /// Bytes on disk and still in memory: zero means there is nothing to resume.
  package var size: Int64 {
    length + Int64(buffered)
  }

  /// Drops every byte past `length` (the server sent the whole file, the old bytes belong to
  /// another version, a reboot left them unproven). When the download's row vouches for more
  /// than `length` as synced, `lower` first records `length` in it, durably (see
  /// `DurableLength`); without `lower` such a drop is refused: false, and the file stays as it
  /// is. True when dropped.
  package func truncate(to length: Int64, lower: ((Int64) throws -> Void)? = nil) throws -> Bool {
    try flush()
    return try synced.dropping(to: length, lower: lower) {
      unstarted = 0
      unstartedFrom = -1
      // A new download's empty file, about to be written from its start, needs neither call.
      if self.length == length && position == off_t(length) { return }
      guard ftruncate(descriptor, off_t(length)) == 0,
        lseek(descriptor, off_t(length), SEEK_SET) >= 0
      else {
        throw DownloadError.writing(path)
      }
      position = off_t(length)
      self.length = length
    }
  }

  /// The file's length with everything appended so far written out, and the place the next
  /// write lands.
  package func seekToEnd() throws -> Int64 {
    try flush()
    if position != off_t(length) {
      position = lseek(descriptor, 0, SEEK_END)
      guard position >= 0 else { throw DownloadError.writing(path) }
      length = Int64(position)
    }
    return length
  }

  /// Syncs the file's data (a checkpoint, see `Checkpoints`): every byte written before the
  /// call is on disk when it returns true. Safe while another thread appends.
  package func flushData() -> Bool {
    fdatasync(descriptor) == 0
  }

  /// Up to `count` bytes from the start of the file (what a body begins with).
  package func prefix(_ count: Int) throws -> [UInt8] {
    try flush()
    var bytes = [UInt8](repeating: 0, count: count)
    let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
    guard read >= 0 else { throw DownloadError.writing(path) }
    return Array(bytes.prefix(read))
  }

  /// Copies the whole file into `target` (an open descriptor on another filesystem) with plain
  /// reads and writes, so a failure is an errno (a full disk says so), not a Foundation error.
  package func copy(to target: Int32, targetPath: String) throws {
    try flush()
    do {
      try Self.copyAll(from: descriptor, to: target)
    } catch {
      switch error {
      case .reading(let code): throw DownloadError.writing(path, errno: code)
      case .writing(let code): throw DownloadError.writing(targetPath, errno: code)
      }
    }
  }

  /// Which side of `copyAll` failed, with its errno: only the caller knows the paths.
  package enum CopyFailure: Error {
    case reading(Int32)
    case writing(Int32)
  }

  /// Copies all of `source`, from its start whatever its position, to `target` at its
  /// position, in 1 MiB reads and writes that retry when a signal interrupts them.
  package static func copyAll(from source: Int32, to target: Int32) throws(CopyFailure) {
    let chunk = 1 << 20
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
    defer { scratch.deallocate() }
    guard let base = scratch.baseAddress else { return }
    var offset: off_t = 0
    while true {
      let read = pread(source, base, chunk, offset)
      if read < 0 {
        if errno == EINTR { continue }
        throw .reading(errno)
      }
      if read == 0 { return }
      var done = 0
      while done < read {
        let written = write(target, base + done, read - done)
        if written < 0 {
          if errno == EINTR { continue }
          throw .writing(errno)
        }
        done += written
      }
      offset += off_t(read)
    }
  }

  package func append(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    if buffering && buffer.baseAddress == nil { buffer = WriteBuffers.shared.take() }
    if buffered + bytes.count > buffer.count { try flush() }
    if bytes.count >= buffer.count {
      try writeAll(base, count: bytes.count)
      startWriteback(after: bytes.count)
      return
    }
    UnsafeMutableRawBufferPointer(rebasing: buffer[buffered...]).copyMemory(from: bytes)
    buffered += bytes.count
  }

  package func flush() throws {
    guard buffered > 0, let base = buffer.baseAddress else { return }
    let count = buffered
    buffered = 0
    try writeAll(UnsafeRawPointer(base), count: count)
    startWriteback(after: count)
  }

  /// Every 8 MiB, asks the kernel to start writing what came in (without waiting): the disk
  /// then works while the network does, instead of the whole episode waiting in the page cache
  /// for `sync()`, which for a 1 GiB episode was seconds of writeback after the last byte.
  /// A checkpoint is due then too: it waits, on a thread of its own, for what this started.
  private func startWriteback(after count: Int) {
    if unstartedFrom < 0 { unstartedFrom = position - off_t(count) }
    unstarted += count
    guard unstarted >= Self.writebackStep, unstartedFrom >= 0 else { return }
    // Advice only: where it fails (not Linux, an old kernel), `sync()` still does it all.
    _ = podcast_start_writeback(descriptor, Int64(unstartedFrom), Int64(unstarted))
    unstartedFrom += off_t(unstarted)
    unstarted = 0
    onCheckpointDue?()
  }

  /// Also the step between checkpoints: a power cut costs a resume at most this much more
  /// than the bytes that arrived since the last one (see `Checkpoints` for the time limit).
  package static let writebackStep = 8 << 20

  /// The finished file handed to its finish batch (`FinishBatch`): what is held is written
  /// out and the kernel asked to start writing all of it to disk without waiting, so the disk
  /// works while the batch before it is being made durable. Returns the descriptor the batch
  /// syncs (`fdatasync`) before any name of the file appears under Episodes, so a power cut can
  /// never leave a complete-looking but empty episode. Valid while this file is open.
  package func writeOut() throws -> Int32 {
    try flush()
    // Advice only, like `startWriteback`: the batch's sync writes whatever this did not.
    _ = podcast_start_writeback(descriptor, 0, 0)
    unstarted = 0
    unstartedFrom = -1
    // Its half megabyte goes to the next download instead of waiting with the file for its
    // batch.
    try releaseBuffer()
    return descriptor
  }

  /// Writes out what is held and gives the write buffer to the next download: nothing more is
  /// appended in bulk (a partial whose tagged copy is what gets finished).
  package func releaseBuffer() throws {
    try flush()
    buffering = false
    WriteBuffers.shared.give(buffer)
    buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
  }

  private func writeAll(_ start: UnsafeRawPointer, count: Int) throws {
    var base = start
    var remaining = count
    while remaining > 0 {
      let written = write(descriptor, base, remaining)
      if written < 0 {
        if errno == EINTR { continue }
        throw DownloadError.writing(path)
      }
      remaining -= written
      base += written
      position += off_t(written)
    }
    length = max(length, Int64(position))
    synced.wrote(length: Int64(position))
  }
}
