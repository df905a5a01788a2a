import Foundation
import PodcastKit

/// A subscription's settings in `subscriptions --json` (under `settings`), in its table, and
/// as `podcast set` confirms them.
enum SettingsView {
  static func json(keep: Int?, _ settings: SubscriptionSettings) -> JSONValue {
    let filter = settings.filter
    return .object([
      ("keep", .int(keep)),
      ("match", .string(filter.match)),
      ("exclude", .string(filter.exclude)),
      ("matchIn", filter.matchIn.map { .array($0.map { .string($0.rawValue) }) } ?? .null),
      ("since", .string(filter.since)),
      ("until", .string(filter.until)),
      ("minDuration", .int(filter.minDuration)),
      ("maxDuration", .int(filter.maxDuration)),
      ("type", .string(filter.type)),
      ("nameTemplate", .string(settings.nameTemplate)),
      ("episodesDir", .string(settings.episodesDir)),
      ("concurrency", .int(settings.concurrency)),
      ("limitRate", .int(settings.limitRate)),
      ("tags", .bool(settings.tags)),
      ("cover", .bool(settings.cover)),
      ("transcripts", .bool(settings.transcripts)),
      ("chapters", .bool(settings.chapters)),
      ("writeFeed", .bool(settings.feed)),
      ("feedBaseURL", .string(settings.feedBaseURL)),
      ("first", .string(settings.first?.description)),
      ("infoJSON", .bool(settings.info)),
      ("writePage", .bool(settings.page)),
      ("pages", .bool(settings.pages)),
      ("deletePlayed", .string(settings.deletePlayed)),
      ("shareWithAccount", .bool(settings.shareWithAccount)),
    ])
  }

  /// `keep 10, match ^Full, first all`: only what is set, flag names as `set` takes them.
  static func summary(keep: Int?, _ settings: SubscriptionSettings) -> String {
    let parts = flags(keep: keep, settings).map { name, value in
      value.map { "\(name) \($0)" } ?? name
    }
    return parts.isEmpty ? "defaults" : parts.joined(separator: ", ")
  }

  static func flags(keep: Int?, _ settings: SubscriptionSettings) -> [(String, String?)] {
    let filter = settings.filter
    let pairs: [(String, String?)?] = [
      keep.map { ("keep", String($0)) },
      filter.match.map { ("match", $0) },
      filter.exclude.map { ("exclude", $0) },
      filter.matchIn.map { ("match-in", $0.map(\.rawValue).joined(separator: ",")) },
      filter.since.map { ("since", $0) },
      filter.until.map { ("until", $0) },
      filter.minDuration.map { ("min-duration", DurationText.text($0)) },
      filter.maxDuration.map { ("max-duration", DurationText.text($0)) },
      filter.type.map { ("type", $0) },
      settings.nameTemplate.map { ("name-template", $0) },
      settings.episodesDir.map { ("episodes-dir", $0) },
      settings.concurrency.map { ("concurrency", String($0)) },
      settings.limitRate.map { ("limit-rate", TransferRate.text($0)) },
      settings.first.map { ("first", $0.description) },
      settings.tags == false ? ("no-tags", nil) : nil,
      settings.cover == false ? ("no-cover", nil) : nil,
      settings.transcripts == false ? ("no-transcripts", nil) : nil,
      settings.chapters == false ? ("no-chapters", nil) : nil,
      settings.feed == true ? ("write-feed", nil) : nil,
      settings.feedBaseURL.map { ("feed-base-url", $0) },
      settings.page == true ? ("write-page", nil) : nil,
      settings.info == true ? ("info-json", nil) : nil,
      settings.pages == false ? ("no-pages", nil) : nil,
      settings.deletePlayed.map { ("delete-played", $0) },
      settings.shareWithAccount == true ? ("share-with-account", nil) : nil,
    ]
    return pairs.compactMap { $0 }
  }
}
