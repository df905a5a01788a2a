import Foundation
import PodcastKit

/// The `episodes --json` document of the contract.
enum EpisodeListJSON {
  /// Streams the document to stdout, one episode at a time; `status` is asked as each one is
  /// written, so no per-episode array is built on top of the feed.
  /// `indexes` are the 1-based positions in `episodes` to list, so a filtered listing keeps
  /// the feed's own numbers.
  static func print(
    podcast: Podcast, episodes: [Episode], indexes: [Int], status: (_ index: Int) -> ListedStatus
  ) {
    var writer = JSONWriter(streamingTo: STDOUT_FILENO)
    writer.open("{")
    writer.element(first: true, indent: 2)
    writer.key("podcast")
    writer.write(podcastObject(podcast), indent: 2)
    writer.element(first: false, indent: 2)
    writer.key("episodes")
    writer.open("[")
    for (offset, index) in indexes.enumerated() {
      let episode = episodes[index - 1]
      writer.element(first: offset == 0, indent: 4)
      writer.write(episodeObject(episode, index: index, status: status(index)), indent: 4)
    }
    writer.close("]", empty: indexes.isEmpty, indent: 2)
    writer.close("}", empty: false, indent: 0)
    writer.finish()
  }

  static func podcastObject(_ podcast: Podcast) -> JSONValue {
    .object([
      ("title", .string(podcast.title)),
      ("author", .string(podcast.author)),
      ("link", .url(podcast.link)),
      ("description", .string(podcast.description)),
      ("language", .string(podcast.language)),
      ("imageURL", .url(podcast.imageURL)),
      ("feedURL", .url(podcast.feedURL)),
    ])
  }

  static func episodeObject(_ episode: Episode, index: Int, status: ListedStatus)
    -> JSONValue
  {
    .object([
      ("index", .int(index)),
      ("guid", .string(episode.guid)),
      ("title", .string(episode.title)),
      ("published", .date(episode.published)),
      ("duration", .int(episode.duration)),
      (
        "enclosure",
        .object([
          ("url", .url(episode.enclosure.url)),
          ("length", .int(episode.enclosure.length)),
          ("type", .string(episode.enclosure.type)),
        ])
      ),
      ("link", .url(episode.link)),
      ("description", episode.showNotes.map { .utf8($0.utf8) } ?? .null),
      ("season", .int(episode.season)),
      ("number", .int(episode.number)),
      ("episodeType", .string(episode.episodeType)),
      ("explicit", .bool(episode.explicit)),
      ("imageURL", .url(episode.imageURL)),
      (
        "transcripts",
        .array(
          episode.transcripts.map {
            .object([
              ("url", .url($0.url)), ("type", .string($0.type)),
              ("language", .string($0.language)),
            ])
          })
      ),
      (
        "chapters",
        episode.chapters.map {
          .object([("url", .url($0.url)), ("type", .string($0.type))])
        } ?? .null
      ),
      ("state", .string(status.state)),
      (
        "progress",
        status.progress == 1 ? .int(1) : status.progress == 0 ? .int(0) : .double(status.progress)
      ),
      ("file", .string(status.download.file)),
    ])
  }
}
