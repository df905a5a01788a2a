import Basics
import Foundation
import Transfer

/// Why an exchange with a sync server failed. Each case names the server (its URL, secrets
/// masked) and the reason in one sentence. No case holds the password: a reason taken from a
/// server's answer or from the transfer has it cut out before it is kept.
public enum AccountServerError: Error, Equatable, CustomStringConvertible {
  /// No answer at all: connection refused, unknown host, TLS failure, a refused redirect.
  case unreachable(server: String, reason: String)
  /// 401 or 403: the user name or password is wrong (or the account is not allowed in).
  case loginRefused(server: String, user: String, status: Int)
  /// 5xx: the server failed on its side.
  case serverFailed(server: String, call: String, status: Int, message: String?)
  /// The server went silent for `seconds`.
  case timedOut(server: String, call: String, seconds: Int)
  /// The answer was not what the API sends: not JSON, or without a field it must have.
  case malformedAnswer(server: String, call: String, reason: String)
  /// Another 4xx: the server refused what was sent (a URL it will not store, say).
  case refused(server: String, call: String, status: Int, message: String?)
  /// The server has no such endpoint (404, 405, 501) or answers it with nothing: not this
  /// API, a feature it does not implement, or a wrong server address.
  case notSupported(server: String, call: String, detail: String)
  /// The account has no device `device` (a `--follow` with a typo): `known` are the ones it
  /// has, this library's aside.
  case unknownDevice(server: String, device: String, known: [String])
  /// `--api auto` found neither API at the address.
  case notAnAccountServer(server: String)
  case cancelled(server: String)

  public var server: String {
    switch self {
    case .unreachable(let server, _), .loginRefused(let server, _, _),
      .serverFailed(let server, _, _, _), .timedOut(let server, _, _),
      .malformedAnswer(let server, _, _), .refused(let server, _, _, _),
      .notSupported(let server, _, _), .notAnAccountServer(let server), .cancelled(let server),
      .unknownDevice(let server, _, _):
      return server
    }
  }

  /// Worth trying again at the next sync: the server or the network may be back by then.
  public var isTransient: Bool {
    switch self {
    case .unreachable, .serverFailed, .timedOut: return true
    case .refused(_, _, let status, _): return status == 408 || status == 429
    default: return false
    }
  }

  public var description: String {
    switch self {
    case .unreachable(let server, let reason):
      return "sync server \(server) cannot be reached: \(reason)"
    case .loginRefused(let server, let user, let status):
      return "sync server \(server) refused the login of \(user) (HTTP \(status)):"
        + " check the user name and password"
    case .serverFailed(let server, let call, let status, let message):
      return "sync server \(server) failed on \(call) (HTTP \(status)\(Self.reason(status)))"
        + (message.map { ": \($0)" } ?? "")
    case .timedOut(let server, let call, let seconds):
      return "sync server \(server) stopped answering \(call) (no data for \(seconds) s)"
    case .malformedAnswer(let server, let call, let reason):
      return "sync server \(server) sent an unreadable answer to \(call): \(reason)"
    case .refused(let server, let call, let status, let message):
      return "sync server \(server) refused \(call) (HTTP \(status)\(Self.reason(status)))"
        + (message.map { ": \($0)" } ?? "")
    case .notSupported(let server, let call, let detail):
      return "sync server \(server) does not offer \(call) (\(detail))"
    case .unknownDevice(let server, let device, let known):
      return "sync server \(server) has no device \(device) for this account: "
        + (known.isEmpty
          ? "it knows no other device yet (a phone appears once it has synced)"
          : "its devices are " + known.joined(separator: ", "))
    case .notAnAccountServer(let server):
      return "\(server) speaks neither the gpodder.net API nor Nextcloud gPodder Sync:"
        + " check the address (with its path, if the server lives under one)"
    case .cancelled(let server):
      return "the exchange with sync server \(server) was cancelled"
    }
  }

  private static func reason(_ status: Int) -> String {
    let text = HTTPStatus.reason(status)
    return text.isEmpty ? "" : " " + text
  }
}

/// The sentence is what Foundation and the CLI show for the error.
extension AccountServerError: LocalizedError {
  public var errorDescription: String? { description }
}
