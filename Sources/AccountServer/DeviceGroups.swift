import Basics

/// Which devices share one list of subscriptions, where a server keeps a list per device
/// (gpodder.net): devices in one group see each other's subscription changes.
public struct DeviceGroups: Sendable, Equatable {
  /// Each group's device IDs.
  public var synchronized: [[String]]
  /// Devices in no group.
  public var notSynchronized: [String]

  public init(synchronized: [[String]], notSynchronized: [String]) {
    self.synchronized = synchronized
    self.notSynchronized = notSynchronized
  }

  /// The group `device` is in, if any.
  public func group(of device: String) -> [String]? {
    synchronized.first { $0.contains(device) }
  }
}
