import Basics
import Fetching
import Foundation

/// Whether a complete body can be the side file it was fetched as. Servers answer a missing
/// transcript with their HTML error page and a 200, or hand out a `.vtt.gz` as it lies on
/// disk; neither may land beside the episode under a name that promises a transcript.
package struct SideFileCheck {
  package let url: String
  /// The extension the file is kept under (`vtt`, `json`, `html`, …).
  package let fileExtension: String

  package func problem(_ body: Data) -> SideFileError? {
    if body.isEmpty { return .empty(url: url) }
    if body.count >= 2, body[body.startIndex] == 0x1f, body[body.startIndex + 1] == 0x8b {
      return .compressed(url: url)
    }
    let looksLikeHTML = body.prefix(64).withUnsafeBytes { HTMLSniffer.looksLikeHTML($0) }
    if looksLikeHTML && fileExtension != "html" { return .htmlPage(url: url) }
    if fileExtension == "json", (try? JSONSerialization.jsonObject(with: body)) == nil {
      return .notJSON(url: url)
    }
    return nil
  }
}
