import Basics
import Foundation
import Privacy

/// Who this library is on a sync server: the server's address, the login, and the device the
/// library registers as. The password is never part of any text made from an account.
public struct AccountLogin: Sendable, Equatable {
  /// The server's base URL (`https://cloud.example.org`, or with a path where the server lives
  /// under one), without a trailing slash.
  public var server: String
  public var user: String
  public var password: String
  /// This library's device ID on servers with devices: letters, digits, `.`, `_` and `-`.
  public var device: String

  public init(server: String, user: String, password: String, device: String) {
    var base = server.trimmingCharacters(in: .whitespacesAndNewlines)
    while base.hasSuffix("/") { base.removeLast() }
    self.server = base
    self.user = user
    self.password = password
    self.device = device
  }

  /// The server as messages name it, any secret in its URL masked.
  public var serverName: String { SecretMask.masked(server) }

  /// `podcast-<hostname>`, with every character a server would refuse in a device ID turned
  /// into `-` (oPodSync, like gpodder.net, takes `[A-Za-z0-9_.-]+`).
  public static func defaultDevice(hostname: String) -> String {
    let short = hostname.prefix { $0 != "." }
    let name = short.isEmpty ? "host" : String(short)
    return "podcast-" + String(name.map { isDeviceCharacter($0) ? $0 : "-" })
  }

  /// Whether a server would take `device` as a device ID.
  public static func isValidDevice(_ device: String) -> Bool {
    !device.isEmpty && device.count <= 64 && device.allSatisfy(isDeviceCharacter)
  }

  private static func isDeviceCharacter(_ character: Character) -> Bool {
    guard character.isASCII, let value = character.asciiValue else { return false }
    return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
      || (value >= 0x61 && value <= 0x7A) || character == "." || character == "_"
      || character == "-"
  }
}

/// Printed, dumped or interpolated, an account shows who and where, never the password.
extension AccountLogin: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String { "\(user) on \(serverName) as device \(device)" }
  public var debugDescription: String { description }
  public var customMirror: Mirror {
    Mirror(
      self,
      children: ["server": serverName, "user": user, "password": SecretMask.mark, "device": device])
  }
}
