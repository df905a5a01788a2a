import Basics

/// The elements an item is read from, as one small number each: worked out once per distinct
/// name by `ElementNameCache`, so the builder switches on a number instead of comparing the
/// name with each case in turn (a string comparison call per case that did not match, 1.5
/// million per 20,000-episode feed). Elements that mean the same to an item share a case.
package enum FeedElement: UInt8 {
  case other
  case item, entry, channel
  case enclosure, mediaContent, mediaGroup
  case title, dublinCoreTitle
  case rssGUID, atomID
  case pubDate, atomPublished, dublinCoreDate, atomUpdated
  case rssLink, atomLink
  case contentEncoded, description, itunesSummary
  case duration, season, episodeNumber, episodeType, explicit, itunesImage
  case transcript, chapters

  package init(_ ns: FeedNamespace, _ name: String) {
    switch ns {
    case .rss: self = Self.rss[name] ?? .other
    case .atom: self = Self.atom[name] ?? .other
    case .itunes: self = Self.itunes[name] ?? .other
    case .content: self = name == "encoded" ? .contentEncoded : .other
    case .media: self = name == "content" ? .mediaContent : name == "group" ? .mediaGroup : .other
    case .dublinCore:
      self = name == "title" ? .dublinCoreTitle : name == "date" ? .dublinCoreDate : .other
    case .podcast:
      self = name == "transcript" ? .transcript : name == "chapters" ? .chapters : .other
    case .other: self = .other
    }
  }

  private static let rss: [String: FeedElement] = [
    "item": .item, "channel": .channel, "enclosure": .enclosure, "title": .title,
    "guid": .rssGUID, "pubDate": .pubDate, "link": .rssLink, "description": .description,
  ]

  private static let atom: [String: FeedElement] = [
    "entry": .entry, "title": .title, "id": .atomID, "published": .atomPublished,
    "issued": .atomPublished, "created": .atomPublished, "updated": .atomUpdated,
    "modified": .atomUpdated, "link": .atomLink, "content": .contentEncoded,
    "summary": .description,
  ]

  private static let itunes: [String: FeedElement] = [
    "summary": .itunesSummary, "duration": .duration, "season": .season,
    "episode": .episodeNumber, "episodeType": .episodeType, "explicit": .explicit,
    "image": .itunesImage,
  ]
}
