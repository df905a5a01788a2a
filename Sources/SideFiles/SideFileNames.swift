import Basics
import Feeds
import Foundation

/// The names of the files beside an episode, made from the episode file's own name so
/// players that look for `<name>.vtt` or `<name>.srt` next to the audio find them.
package enum SideFileNames {
  /// `Show/2024-05-01 Title.mp3` → `Show/2024-05-01 Title.chapters.json`.
  package static func chapters(besides episodeFile: String) -> String {
    stem(episodeFile) + ".chapters.json"
  }

  /// `Show/2024-05-01 Title.mp3` → `Show/2024-05-01 Title.info.json`.
  package static func info(besides episodeFile: String) -> String {
    stem(episodeFile) + ".info.json"
  }

  /// One name per transcript, in the feed's order: the first is `<name>.<ext>`; more (with
  /// `--all-transcripts`) add their language, or their position when that is taken too.
  package static func transcripts(_ transcripts: [Transcript], besides episodeFile: String)
    -> [String]
  {
    let base = stem(episodeFile)
    var used: Set<String> = []
    return transcripts.enumerated().map { index, transcript in
      let ext = fileExtension(of: transcript)
      var candidates = [base + "." + ext]
      if let language = safe(transcript.language) {
        candidates.append("\(base).\(language).\(ext)")
      }
      candidates.append("\(base).\(index + 1).\(ext)")
      let name = candidates.first { !used.contains($0) } ?? candidates[candidates.count - 1]
      used.insert(name)
      return name
    }
  }

  /// The side files of `episodeFile` that exist, so they go when it goes (prune, unsubscribe
  /// --delete-files): `<name>.chapters.json`, `<name>.info.json`, `<name>.<ext>` and
  /// `<name>.<language or n>.<ext>` for the transcript extensions. Nothing else: `Ep 1.5.mp3`
  /// is not a side file of `Ep 1.mp3`.
  package static func existing(besides episodeFile: String) -> [String] {
    let folder = (episodeFile as NSString).deletingLastPathComponent
    return existing(
      besides: episodeFile,
      among: (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
  }

  /// `existing(besides:)` among `names`, the listing of the episode's folder, for a caller
  /// that looks at every episode of a folder and lists it once.
  package static func existing(besides episodeFile: String, among names: [String]) -> [String] {
    let folder = (episodeFile as NSString).deletingLastPathComponent
    let prefix =
      ((episodeFile as NSString).lastPathComponent as NSString).deletingPathExtension + "."
    return names.filter { name in
      guard name.hasPrefix(prefix) else { return false }
      let rest = name.dropFirst(prefix.count).split(
        separator: ".", omittingEmptySubsequences: false)
      switch rest.count {
      case 1: return transcriptExtensions.contains(String(rest[0]))
      case 2:
        if (rest[0] == "chapters" || rest[0] == "info") && rest[1] == "json" { return true }
        return safe(String(rest[0])) != nil && transcriptExtensions.contains(String(rest[1]))
      default: return false
      }
    }.map { folder + "/" + $0 }
  }

  private static let transcriptExtensions: Set<String> = ["vtt", "srt", "json", "html", "txt"]

  /// The extension the served type implies, else the URL's, else `txt`.
  package static func fileExtension(of transcript: Transcript) -> String {
    let type = transcript.type?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
      .lowercased()
    switch type {
    case "text/vtt": return "vtt"
    case "application/x-subrip", "application/srt", "text/srt", "text/x-srt": return "srt"
    case "application/json": return "json"
    case "text/html": return "html"
    case "text/plain": return "txt"
    default: break
    }
    let fromURL = URL(string: transcript.url)?.pathExtension.lowercased() ?? ""
    return safe(fromURL) ?? "txt"
  }

  private static func stem(_ path: String) -> String {
    StandardPath.withoutExtension(of: path)
  }

  /// Letters, digits and dashes only, short: a feed's value never makes a path of its own.
  private static func safe(_ value: String?) -> String? {
    guard let value, !value.isEmpty, value.count <= 16,
      value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
    else { return nil }
    return value
  }
}
