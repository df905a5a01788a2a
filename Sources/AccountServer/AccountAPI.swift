import Basics

/// The two ways sync servers speak, and what each can do. Both keep a user's subscription
/// changes and episode actions with timestamps of the server's clock; only the gpodder.net API
/// has devices, and with them sync groups.
public enum AccountAPI: String, Sendable, CaseIterable {
  /// gpodder.net API v2 (`/api/2/...`): gpodder.net itself, oPodSync, PodFetch, mygpo.
  case gpodder
  /// Nextcloud gPodder Sync (`/index.php/apps/gpoddersync/...`): Nextcloud's gpoddersync app,
  /// and servers that imitate it (oPodSync). One list per user, no devices.
  case nextcloud

  /// The name a user recognises, for messages.
  public var name: String {
    switch self {
    case .gpodder: return "the gpodder.net API"
    case .nextcloud: return "Nextcloud gPodder Sync"
    }
  }

  /// Whether the API knows devices (list, register, sync groups). Nextcloud's keeps one list
  /// of subscriptions per user and has no device endpoints at all.
  public var hasDevices: Bool { self == .gpodder }
}
