import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A process named so that any process can tell later whether it is still running: its pid,
/// when it started (clock ticks after boot, field 22 of `/proc/PID/stat`) and the boot it ran
/// in (`/proc/sys/kernel/random/boot_id`). A download's row and the name of every temporary
/// carry one, and `isAlive` is the one rule for "is its owner still running".
///
/// A pid alone does not do: pids start again from 1 after a reboot, so a pid the run had
/// before a power cut may belong to any process of the new boot (a daemon keeps it for
/// months), and that run's rows and temporaries would look owned for as long. The start time
/// tells apart two processes of one boot that had the same pid, the boot id two boots.
///
/// Why not a `flock` held for the run's life on a file of its own under `.podcast/`: a name
/// of this kind is judged on its own, wherever it is (an Episodes folder on another disk, one
/// two libraries share, an export's folder), with no lock file to find, keep and clean up per
/// run. What it costs: nothing for this process's own rows and names, nothing for another
/// boot's, one read of `/proc/PID/stat` for another process of this boot.
public struct ProcessOwner: Codable, Sendable, Hashable {
  public var pid: Int32
  /// Clock ticks from boot to the process's start.
  public var started: UInt64
  /// The boot id in 32 hexadecimal digits (no dashes), "" when unknown.
  public var boot: String

  public init(pid: Int32, started: UInt64, boot: String) {
    self.pid = pid
    self.started = started
    self.boot = boot
  }

  /// This process.
  public static let current = ProcessOwner(
    pid: getpid(), started: startTime(of: getpid()) ?? 0, boot: currentBoot)

  /// The process running under `pid` now, if one does.
  public init?(running pid: Int32) {
    guard let started = Self.startTime(of: pid) else { return nil }
    self.init(pid: pid, started: started, boot: Self.currentBoot)
  }

  /// The boot this process runs in, as `boot` keeps it.
  public static let currentBoot: String = {
    guard let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
    else { return "" }
    return String(text.lowercased().filter(\.isHexDigit))
  }()

  /// Whether this process is still running. One of another boot never is, whatever runs
  /// under its pid now.
  public var isAlive: Bool {
    if self == Self.current { return true }
    guard pid > 0, boot == Self.currentBoot else { return false }
    guard let start = Self.startTime(of: pid) else {
      // Without /proc (never on Linux as shipped) the pid is all there is to go by.
      return Self.current.started == 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
    return start == started
  }

  /// `<pid>.<started>.<boot>`: no "-" nor "/", so it is one part of a name whose parts are
  /// joined by "-" (see `TemporaryName`).
  public var name: String { "\(pid).\(started).\(boot)" }

  /// The owner `name` spells (`name` above), or nil when it is not one.
  public init?(name: some StringProtocol) {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let pid = Int32(parts[0]), pid > 0, let started = UInt64(parts[1]),
      parts[2].count == 32, parts[2].allSatisfy({ $0.isHexDigit && !$0.isUppercase })
    else { return nil }
    self.init(pid: pid, started: started, boot: String(parts[2]))
  }

  /// When `pid` started, in clock ticks after boot; nil when no such process runs. A zombie
  /// does not: it has ended and only waits for its parent to read how (an init that never
  /// does, as in some containers, keeps it so for good), and holds no lock nor file.
  static func startTime(of pid: Int32) -> UInt64? {
    let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 1024)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so the fields are
    // counted from after its last ")"; the start time is the 20th of them (field 22).
    guard let close = bytes[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
    let fields = bytes[(close + 1)..<count].split(separator: UInt8(ascii: " "))
    let ended: [UInt8] = [UInt8(ascii: "Z"), UInt8(ascii: "X")]
    guard fields.count > 19, let state = fields[0].first, !ended.contains(state) else {
      return nil
    }
    return UInt64(String(decoding: fields[19], as: UTF8.self))
  }
}
