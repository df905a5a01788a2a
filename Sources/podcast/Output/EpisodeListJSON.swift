import Foundation
import PodcastKit

/// The `episodes --json` document of the contract.
enum EpisodeListJSON {
  /// Streams the document to stdout, one episode at a time; `status` is asked as each one is
  /// written, so no per-episode array is built on top of the feed.
  /// `indexes` are the 1-based positions in `episodes` to list, so a filtered listing keeps
  /// the feed's own numbers. `dropped` follow, without an index and with `"inFeed": false`.
  static func print(
    podcast: Podcast, episodes: [Episode], indexes: [Int], status: (_ index: Int) -> ListedStatus,
    dropped: [DroppedEpisode] = []
  ) {
    var writer = JSONWriter(streamingTo: STDOUT_FILENO)
    writer.open("{")
    writer.element(first: true, indent: 2)
    writer.key("podcast")
    writer.write(podcastObject(podcast), indent: 2)
    writer.element(first: false, indent: 2)
    writer.key("episodes")
    writer.open("[")
    // Through a buffer, so each episode is lent to `write` where it lies: taken from the
    // array it was copied first (a dozen retains and releases each).
    episodes.withUnsafeBufferPointer { episodes in
      for (offset, index) in indexes.enumerated() {
        writer.element(first: offset == 0, indent: 4)
        write(episodes[index - 1], index: index, status: status(index), to: &writer)
        writer.flushIfLarge()
      }
    }
    for (offset, gone) in dropped.enumerated() {
      writer.element(first: indexes.isEmpty && offset == 0, indent: 4)
      write(gone.episode, index: nil, status: gone.status, to: &writer)
      writer.flushIfLarge()
    }
    writer.close("]", empty: indexes.isEmpty && dropped.isEmpty, indent: 2)
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

  /// One episode, member by member: building a `JSONValue` tree for each of 20,000 episodes
  /// was a tenth of a large listing's work, spent on allocating and freeing it. `index` nil:
  /// one the feed no longer lists.
  private static func write(
    _ episode: Episode, index: Int?, status: ListedStatus, to writer: inout JSONWriter
  ) {
    var members = JSONMembers(indent: 4)
    writer.open("{")
    members.next("index", &writer)
    writer.value(index)
    members.next("guid", &writer)
    writer.value(episode.guid)
    members.next("title", &writer)
    writer.value(episode.title)
    members.next("published", &writer)
    writer.value(episode.published)
    members.next("duration", &writer)
    writer.value(episode.duration)
    members.next("enclosure", &writer)
    var enclosure = JSONMembers(indent: 6)
    writer.open("{")
    enclosure.next("url", &writer)
    // Empty only for a dropped episode the library knew no link of: unknown, so null.
    writer.value(url: episode.enclosure.url.isEmpty ? nil : episode.enclosure.url)
    enclosure.next("length", &writer)
    writer.value(episode.enclosure.length)
    enclosure.next("type", &writer)
    writer.value(episode.enclosure.type)
    writer.close("}", empty: false, indent: 6)
    members.next("link", &writer)
    writer.value(url: episode.link)
    members.next("description", &writer)
    if let notes = episode.showNotes {
      notes.withUTF8 { writer.value(utf8Buffer: $0) }
    } else {
      writer.value(utf8: nil)
    }
    members.next("season", &writer)
    writer.value(episode.season)
    members.next("number", &writer)
    writer.value(episode.number)
    members.next("episodeType", &writer)
    writer.value(episode.episodeType)
    members.next("explicit", &writer)
    writer.value(episode.explicit)
    members.next("imageURL", &writer)
    writer.value(url: episode.imageURL)
    members.next("transcripts", &writer)
    writer.write(
      .array(
        episode.transcripts.map {
          .object([
            ("url", .url($0.url)), ("type", .string($0.type)), ("language", .string($0.language)),
          ])
        }), indent: 6)
    members.next("chapters", &writer)
    writer.write(
      episode.chapters.map { .object([("url", .url($0.url)), ("type", .string($0.type))]) }
        ?? .null, indent: 6)
    members.next("state", &writer)
    writer.value(status.state)
    members.next("progress", &writer)
    let progress = status.progress
    if progress == 1 || progress == 0 {
      writer.value(Int(progress))
    } else {
      writer.write(.double(progress))
    }
    members.next("file", &writer)
    writer.value(status.download.file)
    members.next("inFeed", &writer)
    writer.value(index != nil)
    writer.close("}", empty: false, indent: 4)
  }
}

/// Keys of an object written member by member: the comma and indentation before each.
private struct JSONMembers {
  let indent: Int
  private var first = true

  init(indent: Int) {
    self.indent = indent
  }

  mutating func next(_ key: StaticString, _ writer: inout JSONWriter) {
    writer.element(first: first, indent: indent + 2)
    writer.key(key)
    first = false
  }
}
