import Basics
import Foundation
import Selection

/// A subscription's settings as `podcast:`-prefixed outline attributes, so an export restores
/// everything on import. The reader hands attributes over by local name (lower-cased), so
/// every name here is chosen not to clash with OPML's own outline attributes (`type`, `text`,
/// `title`...): the episode type travels as `podcast:episodeType`.
package enum OPMLSettings {
  package static let namespace = "urn:x-podcast-cli:subscription-settings"

  /// Name and value pairs, prefixed, in a fixed order; unset settings are left out.
  package static func attributes(name: String, keep: Int?, settings: SubscriptionSettings) -> [(
    String, String
  )] {
    let filter = settings.filter
    let pairs: [(String, String?)] = [
      ("name", name),
      ("keep", keep.map(String.init)),
      ("match", filter.match),
      ("exclude", filter.exclude),
      ("matchIn", filter.matchIn.map { $0.map(\.rawValue).joined(separator: ",") }),
      ("since", filter.since),
      ("until", filter.until),
      ("minDuration", filter.minDuration.map(String.init)),
      ("maxDuration", filter.maxDuration.map(String.init)),
      ("episodeType", filter.type),
      ("nameTemplate", settings.nameTemplate),
      ("episodesDir", settings.episodesDir),
      ("concurrency", settings.concurrency.map(String.init)),
      ("limitRate", settings.limitRate.map(String.init)),
      ("tags", settings.tags.map { $0 ? "true" : "false" }),
      ("cover", settings.cover.map { $0 ? "true" : "false" }),
      ("transcripts", settings.transcripts.map { $0 ? "true" : "false" }),
      ("chapters", settings.chapters.map { $0 ? "true" : "false" }),
      ("first", settings.first?.description),
      ("writeFeed", settings.feed.map { $0 ? "true" : "false" }),
      ("feedBaseURL", settings.feedBaseURL),
      ("writePage", settings.page.map { $0 ? "true" : "false" }),
      ("infoJSON", settings.info.map { $0 ? "true" : "false" }),
      ("pages", settings.pages.map { $0 ? "true" : "false" }),
      ("deletePlayed", settings.deletePlayed),
      ("shareWithAccount", settings.shareWithAccount.map { $0 ? "true" : "false" }),
    ]
    return pairs.compactMap { key, value in value.map { ("podcast:" + key, $0) } }
  }

  /// Settings from an outline's attributes (keys lower-cased local names). A value that does
  /// not parse is left out, as another program's attribute of the same name would be.
  package static func settings(from attributes: [String: String]) -> SubscriptionSettings {
    var settings = SubscriptionSettings()
    var filter = EpisodeFilter()
    filter.match = attributes["match"].flatMap(validRegex)
    filter.exclude = attributes["exclude"].flatMap(validRegex)
    filter.matchIn = attributes["matchin"].flatMap { try? EpisodeFilter.fields($0) }
    filter.since = attributes["since"].flatMap { validDate($0, setting: "since") }
    filter.until = attributes["until"].flatMap { validDate($0, setting: "until") }
    filter.minDuration = attributes["minduration"].flatMap { Int($0) }.flatMap {
      $0 >= 0 ? $0 : nil
    }
    filter.maxDuration = attributes["maxduration"].flatMap { Int($0) }.flatMap {
      $0 >= 0 ? $0 : nil
    }
    filter.type = attributes["episodetype"].map { $0.lowercased() }
      .flatMap { EpisodeFilter.episodeTypes.contains($0) ? $0 : nil }
    settings.filter = filter
    settings.nameTemplate = attributes["nametemplate"].flatMap {
      (try? FileNamer(template: $0)) == nil ? nil : $0
    }
    settings.episodesDir = attributes["episodesdir"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    settings.concurrency = attributes["concurrency"].flatMap { Int($0) }
      .flatMap { (1...32).contains($0) ? $0 : nil }
    settings.limitRate = attributes["limitrate"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
    let flag = { (name: String) in attributes[name].flatMap { ["true": true, "false": false][$0] } }
    settings.tags = flag("tags")
    settings.cover = flag("cover")
    settings.transcripts = flag("transcripts")
    settings.chapters = flag("chapters")
    settings.first = attributes["first"].flatMap { try? FirstSyncPolicy(parsing: $0) }
    settings.feed = flag("writefeed")
    settings.page = flag("writepage")
    settings.pages = flag("pages")
    settings.feedBaseURL = attributes["feedbaseurl"].flatMap {
      $0.hasPrefix("http://") || $0.hasPrefix("https://") ? $0 : nil
    }
    settings.info = flag("infojson")
    settings.deletePlayed = attributes["deleteplayed"].flatMap {
      (try? DateBound.age($0, setting: "delete-played")) == nil ? nil : $0
    }
    settings.shareWithAccount = flag("sharewithaccount")
    return settings
  }

  private static func validRegex(_ pattern: String) -> String? {
    (try? NSRegularExpression(pattern: pattern)) == nil ? nil : pattern
  }

  private static func validDate(_ text: String, setting: String) -> String? {
    (try? DateBound.resolve(text, setting: setting)) == nil ? nil : text
  }
}
