import PodcastKit

/// The `episodes --json` document of the contract.
enum EpisodeListJSON {
  static func document(podcast: Podcast, episodes: [Episode]) -> JSONValue {
    .object([
      ("podcast", podcastObject(podcast)),
      ("episodes", .array(episodes.enumerated().map { episodeObject($1, index: $0 + 1) })),
    ])
  }

  static func podcastObject(_ podcast: Podcast) -> JSONValue {
    .object([
      ("title", .string(podcast.title)),
      ("author", .string(podcast.author)),
      ("link", .string(podcast.link)),
      ("description", .string(podcast.description)),
      ("language", .string(podcast.language)),
      ("imageURL", .string(podcast.imageURL)),
      ("feedURL", .string(podcast.feedURL)),
    ])
  }

  static func episodeObject(_ episode: Episode, index: Int) -> JSONValue {
    .object([
      ("index", .int(index)),
      ("guid", .string(episode.guid)),
      ("title", .string(episode.title)),
      ("published", .date(episode.published)),
      ("duration", .int(episode.duration)),
      (
        "enclosure",
        .object([
          ("url", .string(episode.enclosure.url)),
          ("length", .int(episode.enclosure.length)),
          ("type", .string(episode.enclosure.type)),
        ])
      ),
      ("link", .string(episode.link)),
      ("description", .string(episode.description)),
      ("season", .int(episode.season)),
      ("number", .int(episode.number)),
      ("episodeType", .string(episode.episodeType)),
      ("explicit", .bool(episode.explicit)),
      ("imageURL", .string(episode.imageURL)),
      ("state", .string("new")),
      ("progress", .int(0)),
      ("file", .null),
    ])
  }
}
