import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The names of the files podcast writes under a temporary name before they get their real
/// one (side files, playlists, feeds, kept copies, staged episode copies), and the one rule
/// that says which of them nobody is writing any more: every such name ends in `.tmp` and
/// holds its writer as one of its "-"-separated parts (`ProcessOwner.name`), so a sweep needs
/// nothing but the name to judge it, wherever the file is.
public enum TemporaryName {
  /// `<prefix><owner>-<128 random bits in hex>.tmp`. From the system's generator
  /// (`getrandom`), not `UUID()`, which opens and reads /dev/urandom for every name.
  public static func make(prefix: String, owner: ProcessOwner = .current) -> String {
    var random = SystemRandomNumberGenerator()
    let high = String(random.next(), radix: 16)
    let low = String(random.next(), radix: 16)
    return "\(prefix)\(owner.name)-\(high)\(low).tmp"
  }

  /// The writer `name` names, if it names one as one of its "-"-separated parts.
  public static func owner(of name: String) -> ProcessOwner? {
    let stem = name.hasSuffix(".tmp") ? name.dropLast(4) : Substring(name)
    for part in stem.split(separator: "-") {
      if let owner = ProcessOwner(name: part) { return owner }
    }
    return nil
  }

  /// The prefixes of the temporaries older versions named after a bare pid
  /// (`<prefix><pid>-<uuid>.tmp`, `.podcast-<partial>-<pid>.tmp`): kept copies, cover
  /// records, and everything under Episodes and in the library's state folder.
  static let ownPrefixes = [".podcast-", ".kept-", ".cover-url-"]

  /// An older version's temporary is left to its writer for an hour: its name cannot say
  /// whether that process still runs, since the pid may be another process's after a reboot.
  static let unnamedOwnerGrace: TimeInterval = 3600

  /// Whether the temporary `name` in `folder` is abandoned: its writer is gone. A name that
  /// is not one of ours never is.
  public static func isAbandoned(_ name: String, in folder: String) -> Bool {
    guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
    if let owner = owner(of: name) { return !owner.isAlive }
    guard ownPrefixes.contains(where: name.hasPrefix) else { return false }
    var info = stat()
    guard lstat(folder + "/" + name, &info) == 0 else { return false }
    return Date().timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) > unnamedOwnerGrace
  }

  /// Removes every abandoned temporary directly in `folder` whose name starts with `prefix`;
  /// the names removed. A temporary of a process still running is its write in progress and
  /// stays.
  ///
  /// Read with `readdir`, names compared as bytes: a sync looks in every podcast folder it
  /// writes a playlist in, and Foundation's listing makes a string of every name in each.
  @discardableResult
  public static func removeAbandoned(in folder: String, prefix: String = ".") -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    let start = Array(prefix.utf8)
    let end = Array(".tmp".utf8)
    var removed: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw -> String? in
        let bytes = raw.bindMemory(to: UInt8.self)
        let length = bytes.firstIndex(of: 0) ?? bytes.count
        let name = bytes[..<length]
        guard name.starts(with: start), name.reversed().starts(with: end.reversed()) else {
          return nil
        }
        return String(decoding: name, as: UTF8.self)
      }
      guard let name, isAbandoned(name, in: folder) else { continue }
      if unlink(folder + "/" + name) == 0 { removed.append(name) }
    }
    return removed
  }
}
