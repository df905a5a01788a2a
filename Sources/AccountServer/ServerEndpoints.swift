import Basics
import Foundation

/// The URLs of each call in each API, for one account. The user and device go into gpodder.net
/// paths percent-encoded; Nextcloud's paths name neither (the login says who).
struct ServerEndpoints {
  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
  let api: AccountAPI
  let account: AccountLogin

  private var gpodder: String { account.server + "/api/2" }
  private var nextcloud: String { account.server + "/index.php/apps/gpoddersync" }
  private var user: String { Self.segment(account.user) }
  private var device: String { Self.segment(account.device) }

  /// gpodder.net: `POST` here with Basic auth checks the login and starts a session.
  var login: String { "\(gpodder)/auth/\(user)/login.json" }
  var devices: String { "\(gpodder)/devices/\(user).json" }
  var thisDevice: String { "\(gpodder)/devices/\(user)/\(device).json" }
  var deviceGroups: String { "\(gpodder)/sync-devices/\(user).json" }

  func subscriptionChanges(since: Int64) -> String {
    switch api {
    case .gpodder: return "\(gpodder)/subscriptions/\(user)/\(device).json?since=\(since)"
    case .nextcloud: return "\(nextcloud)/subscriptions?since=\(since)"
    }
  }

  var subscriptionPush: String {
    switch api {
    case .gpodder: return "\(gpodder)/subscriptions/\(user)/\(device).json"
    case .nextcloud: return "\(nextcloud)/subscription_change/create"
    }
  }

  func episodeActions(since: Int64) -> String {
    switch api {
    case .gpodder: return "\(gpodder)/episodes/\(user).json?since=\(since)"
    case .nextcloud: return "\(nextcloud)/episode_action?since=\(since)"
    }
  }

  var episodeActionUpload: String {
    switch api {
    case .gpodder: return "\(gpodder)/episodes/\(user).json"
    case .nextcloud: return "\(nextcloud)/episode_action/create"
    }
  }

  /// Everything but unreserved characters escaped, `/` and `@` included: a user name is one
  /// path segment.
  static func segment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }
}
