import Basics
import Foundation
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// Where the library keeps the last copy of each subscription's feed (`KeptFeed`): one file
/// per subscription, `<library>/.podcast/feeds/<subscription id>.feed`, readable by its owner
/// only (a private feed's document holds its tokens).
///
/// Files, not database rows: a listing must never write the database, and sync writes each
/// copy as its feed arrives instead of holding every copy for its one transaction at the end.
/// A copy is written under a temporary name and renamed, so a reader sees the old copy or the
/// new one; it is not synced to disk, because a copy lost or cut short by a power cut fails
/// its checks and costs only one whole fetch at the next sync (see `validators`).
///
/// A file's modification time is when its copy was last known to be the feed as served:
/// written from a fetch, or confirmed by a sync's 304 (`confirm`).
public struct KeptFeeds: Sendable {
  public let folder: String

  public init(paths: LibraryPaths) {
    folder = paths.keptFeeds
  }

  public func path(subscriptionId: Int64) -> String {
    folder + "/\(subscriptionId).feed"
  }

  /// The copy kept for the subscription and when it was last known current; nil when none is
  /// kept. Throws `KeptFeedError` when the file cannot be read or is damaged.
  public func copy(subscriptionId: Int64) throws -> (feed: KeptFeed, checked: Date)? {
    let path = path(subscriptionId: subscriptionId)
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch CocoaError.fileReadNoSuchFile {
      return nil
    } catch {
      throw KeptFeedError.unreadable(path: path, reason: error.localizedDescription)
    }
    do {
      let feed = try KeptFeed(decoding: data)
      return (feed, modified(path) ?? Date())
    } catch KeptFeedError.damaged(_, let reason) {
      throw KeptFeedError.damaged(path: path, reason: reason)
    }
  }

  /// The validators of the copy kept for the subscription at `feedURL`: what a conditional
  /// request may send, as a 304 then still leaves the document at hand. nil when there is no
  /// copy, or it was kept for another URL, or its header or size is not right (a copy cut
  /// short); the caller then asks for the whole feed, which keeps a fresh copy.
  ///
  /// Reads the header only: sync asks this of every feed.
  package func validators(subscriptionId: Int64, feedURL: String) -> Validators? {
    let descriptor = open(path(subscriptionId: subscriptionId), O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    var prefix = Data()
    let chunk = 4 << 10
    // A header is a few hundred bytes; 64 KiB bounds what a damaged file makes this read.
    while prefix.count < 64 << 10 {
      var bytes = [UInt8](repeating: 0, count: chunk)
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, chunk, off_t(prefix.count))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      prefix.append(contentsOf: bytes[0..<count])
      if let header = KeptFeed.Header(prefix) {
        guard header.feedURL == feedURL, header.fileBytes == Int(info.st_size) else { return nil }
        return header.validators
      }
    }
    return nil
  }

  /// The prefix of a copy being written, before `<pid>-`.
  private static let temporaryPrefix = ".kept-"

  /// Keeps `feed` as the subscription's copy, replacing the one before.
  public func keep(_ feed: KeptFeed, subscriptionId: Int64) throws {
    let path = path(subscriptionId: subscriptionId)
    if mkdir(folder, 0o700) != 0 && errno != EEXIST {
      throw KeptFeedError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
    if let failure = AtomicFile.write(
      feed.encoded(), to: path, mode: 0o600, prefix: Self.temporaryPrefix, durable: false)
    {
      throw KeptFeedError.cannotWrite(path: path, reason: String(cString: strerror(failure)))
    }
  }

  /// Records that the server confirmed the subscription's copy is current (a 304): its
  /// modification time becomes now. Best effort: a copy that cannot be touched only looks
  /// older than it is.
  package func confirm(subscriptionId: Int64) {
    _ = utimensat(AT_FDCWD, path(subscriptionId: subscriptionId), nil, 0)
  }

  /// Removes the subscription's copy (it is unsubscribed). Best effort: a copy left behind is
  /// never read for another subscription, as ids are not reused and each copy names its feed.
  public func forget(subscriptionId: Int64) {
    unlink(path(subscriptionId: subscriptionId))
  }

  /// A run killed while writing a copy left `.kept-<pid>-….tmp` (a large feed's is megabytes);
  /// one of a process still running is its write in progress and stays.
  package func removeAbandonedTemporaries() {
    AtomicFile.removeAbandonedTemporaries(in: folder, prefix: Self.temporaryPrefix)
  }

  private func modified(_ path: String) -> Date? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Date(
      timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)
        + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
  }
}
