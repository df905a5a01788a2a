import Basics
import Foundation
import Selection

/// How sync treats one subscription, beyond `Subscription.keep`: which episodes it takes,
/// where and under what name they go, how fast. Every field is optional: nil means "the
/// command's own default", so a setting can be removed again (`podcast set NAME --unset X`).
public struct SubscriptionSettings: Codable, Sendable, Equatable {
  public var filter = EpisodeFilter()
  public var nameTemplate: String?
  public var episodesDir: String?
  public var concurrency: Int?
  /// Bytes per second for this subscription's downloads.
  public var limitRate: Int64?
  /// False once `--no-tags` is set: sync leaves this subscription's episodes as served.
  public var tags: Bool?
  /// False once `--no-cover`: sync keeps no `cover.<ext>` in this subscription's folder.
  public var cover: Bool?
  /// False once `--no-transcripts`: sync keeps no transcript beside its episodes.
  public var transcripts: Bool?
  /// False once `--no-chapters`: sync keeps no chapters file beside its episodes.
  public var chapters: Bool?
  public var first: FirstSyncPolicy?
  /// True once `--write-feed`: sync keeps `feed.xml`, a feed of the downloaded episodes, in
  /// this subscription's folder.
  public var feed: Bool?
  /// `--feed-base-url`: the URL the Episodes directory is served at, for that feed's links.
  public var feedBaseURL: String?
  /// True once `--write-page`: sync keeps `index.html`, a page to browse and play the
  /// downloaded episodes, in this subscription's folder (and the Episodes directory's index).
  public var page: Bool?
  /// True once `--info-json`: sync keeps `<episode>.info.json` beside this subscription's
  /// episodes.
  public var info: Bool?
  /// False once `--no-pages`: a paged feed (RFC 5005) is read on its first page only.
  public var pages: Bool?
  /// `--delete-played AGE` (`0`, `7d`, `30d`): an episode played on any device is deleted from
  /// disk this long after it was played. Kept as text, as `since` is.
  public var deletePlayed: String?
  /// True once `--share-with-account`: this private feed is sent to the account's server like
  /// any other (private feeds are kept from it otherwise).
  public var shareWithAccount: Bool?

  public init() {}

  public var isEmpty: Bool { self == SubscriptionSettings() }

  /// Throws `FilterError.outOfRange` for a concurrency out of bounds.
  public func check() throws(FilterError) {
    if let concurrency { try ParallelDownloads.check(concurrency, setting: "concurrency") }
    if let deletePlayed { _ = try DateBound.age(deletePlayed, setting: "delete-played") }
  }

  /// How long after it was played an episode's file goes (`deletePlayed`); nil: kept.
  public var deletePlayedAge: TimeInterval? {
    deletePlayed.flatMap { try? DateBound.age($0, setting: "delete-played") }
  }

  /// The names `podcast set --unset` takes, as the flags spell them.
  public static let optionNames = [
    "keep", "match", "exclude", "match-in", "since", "until", "min-duration", "max-duration",
    "type", "name-template", "episodes-dir", "concurrency", "limit-rate", "first", "tags",
    "cover", "transcripts", "chapters", "write-feed", "feed-base-url", "write-page",
    "info-json", "pages", "delete-played", "share-with-account",
  ]

  /// Clears one setting by its flag name (`keep` lives on `Subscription` and is cleared there).
  public mutating func unset(_ option: String) throws {
    switch option {
    case "match": filter.match = nil
    case "exclude": filter.exclude = nil
    case "match-in": filter.matchIn = nil
    case "since": filter.since = nil
    case "until": filter.until = nil
    case "min-duration": filter.minDuration = nil
    case "max-duration": filter.maxDuration = nil
    case "type": filter.type = nil
    case "name-template": nameTemplate = nil
    case "episodes-dir": episodesDir = nil
    case "concurrency": concurrency = nil
    case "limit-rate": limitRate = nil
    case "first": first = nil
    case "tags", "no-tags": tags = nil
    case "cover", "no-cover": cover = nil
    case "transcripts", "no-transcripts": transcripts = nil
    case "chapters", "no-chapters": chapters = nil
    case "write-feed", "feed": feed = nil
    case "feed-base-url": feedBaseURL = nil
    case "write-page", "page": page = nil
    case "info-json": info = nil
    case "pages", "no-pages": pages = nil
    case "delete-played": deletePlayed = nil
    case "share-with-account": shareWithAccount = nil
    case "keep": break
    default: throw FilterError.unknownSetting(option)
    }
  }

  /// Fields `other` has replace these.
  public func overridden(by other: SubscriptionSettings) -> SubscriptionSettings {
    var merged = self
    merged.filter = filter.overridden(by: other.filter)
    merged.nameTemplate = other.nameTemplate ?? nameTemplate
    merged.episodesDir = other.episodesDir ?? episodesDir
    merged.concurrency = other.concurrency ?? concurrency
    merged.limitRate = other.limitRate ?? limitRate
    merged.tags = other.tags ?? tags
    merged.cover = other.cover ?? cover
    merged.transcripts = other.transcripts ?? transcripts
    merged.chapters = other.chapters ?? chapters
    merged.first = other.first ?? first
    merged.feed = other.feed ?? feed
    merged.feedBaseURL = other.feedBaseURL ?? feedBaseURL
    merged.page = other.page ?? page
    merged.info = other.info ?? info
    merged.pages = other.pages ?? pages
    merged.deletePlayed = other.deletePlayed ?? deletePlayed
    merged.shareWithAccount = other.shareWithAccount ?? shareWithAccount
    return merged
  }
}
