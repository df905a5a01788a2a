import Basics
import Privacy

/// An episode and its podcast as JSON, in the keys scripts read (the README lists them under
/// `--info-json`, in "Tags, covers, transcripts and chapters"): one mapping for the
/// `episodes --json` listing and the `<episode>.info.json` kept beside a download. It lives
/// beside `Episode` and `Podcast` because that is the lowest layer holding what it maps; the
/// writer is in Basics and the masking of secrets in Privacy, both below.
///
/// URLs (enclosures, links, pictures, the feed's own) are masked by `SecretMask` unless
/// `showingSecrets` (the CLI's `--show-secrets`); titles and notes are written as the feed
/// gave them, as everywhere.
public enum EpisodeJSON {
  /// `{title, author, link, description, language, imageURL, feedURL}`.
  public static func podcast(_ podcast: Podcast, showingSecrets: Bool) -> JSONValue {
    .object([
      ("title", .string(podcast.title)),
      ("author", .string(podcast.author)),
      ("link", url(podcast.link, showingSecrets: showingSecrets)),
      ("description", .string(podcast.description)),
      ("language", .string(podcast.language)),
      ("imageURL", url(podcast.imageURL, showingSecrets: showingSecrets)),
      ("feedURL", url(podcast.feedURL, showingSecrets: showingSecrets)),
    ])
  }

  /// The episode's own members, `guid` to `chapters`, continuing the object `members` writes
  /// (its caller writes what comes before and after: the listing's `index` and `state`, the
  /// info file's `file` and `podcast`).
  ///
  /// Member by member: building a `JSONValue` tree for each of 20,000 episodes was a tenth of
  /// a large listing's work, spent on allocating and freeing it.
  public static func writeMembers(
    of episode: Episode, showingSecrets: Bool, members: inout JSONMembers,
    to writer: inout JSONWriter
  ) {
    let nested = members.indent + 2
    members.next("guid", &writer)
    writer.value(episode.guid)
    members.next("title", &writer)
    writer.value(episode.title)
    members.next("published", &writer)
    writer.value(episode.published)
    members.next("duration", &writer)
    writer.value(episode.duration)
    members.next("enclosure", &writer)
    var enclosure = JSONMembers(indent: nested)
    writer.open("{")
    enclosure.next("url", &writer)
    // Empty only for an episode a library remembers without its link (one its feed dropped):
    // unknown, so null.
    writer.value(
      episode.enclosure.url.isEmpty ? nil : shown(episode.enclosure.url, showingSecrets))
    enclosure.next("length", &writer)
    writer.value(episode.enclosure.length)
    enclosure.next("type", &writer)
    writer.value(episode.enclosure.type)
    writer.close("}", empty: false, indent: nested)
    members.next("link", &writer)
    writer.value(episode.link.map { shown($0, showingSecrets) })
    members.next("description", &writer)
    if let notes = episode.showNotes {
      notes.withUTF8 { writer.value(utf8Buffer: $0) }
    } else {
      writer.value(nil as String?)
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
    writer.value(episode.imageURL.map { shown($0, showingSecrets) })
    members.next("transcripts", &writer)
    writer.write(
      .array(
        episode.transcripts.map {
          .object([
            ("url", url($0.url, showingSecrets: showingSecrets)), ("type", .string($0.type)),
            ("language", .string($0.language)),
          ])
        }), indent: nested)
    members.next("chapters", &writer)
    writer.write(
      episode.chapters.map {
        .object([
          ("url", url($0.url, showingSecrets: showingSecrets)), ("type", .string($0.type)),
        ])
      } ?? .null, indent: nested)
  }

  private static func url(_ value: String?, showingSecrets: Bool) -> JSONValue {
    value.map { .string(shown($0, showingSecrets)) } ?? .null
  }

  private static func shown(_ url: String, _ showingSecrets: Bool) -> String {
    showingSecrets ? url : SecretMask.masked(url)
  }
}
