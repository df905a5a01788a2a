import Basics
import Foundation

/// The one rule for every URL the tool fetches: absolute http or https, nothing else.
public enum URLPolicy {
  public static func check(_ url: String) throws {
    if SimpleWebURL.isSimple(url) { return }
    guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased() else {
      throw TransferError.invalidURL(url)
    }
    guard scheme == "http" || scheme == "https" else {
      throw TransferError.unsupportedScheme(url: url)
    }
    guard let host = parsed.host, !host.isEmpty else { throw TransferError.invalidURL(url) }
  }

  public static func isAllowed(_ url: String) -> Bool {
    (try? check(url)) != nil
  }
}
