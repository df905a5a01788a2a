import Basics
import Feeds
import Foundation

/// What `<episode>.info.json` beside a downloaded episode says: the episode as
/// `episodes --json` lists it (`EpisodeJSON`, the same mapping) without the listing's own
/// members, then `file`, the audio's name beside it, and `podcast`, the podcast's fields.
///
/// Left out on purpose: `index` (the episode's place in the feed, which changes with every new
/// episode) and `state` / `progress` (what the library says when it lists, not what the feed
/// said). Secrets in URLs are always masked: the file sits beside the audio, which may be
/// served or shared (`--write-feed`), and no `--show-secrets` reaches it.
public struct EpisodeInfo: Sendable, Hashable {
  public var episode: Episode
  public var podcast: Podcast

  public init(episode: Episode, podcast: Podcast) {
    self.episode = episode
    self.podcast = podcast
  }

  /// The file's bytes: pretty-printed JSON, ending with a newline. `episodeFile` is the
  /// audio's path; only its name is written (the two are in one folder).
  package func document(besides episodeFile: String) -> Data {
    var writer = JSONWriter()
    var members = JSONMembers(indent: 0)
    writer.open("{")
    EpisodeJSON.writeMembers(
      of: episode, showingSecrets: false, members: &members, to: &writer)
    members.next("file", &writer)
    writer.value((episodeFile as NSString).lastPathComponent)
    members.next("podcast", &writer)
    writer.write(EpisodeJSON.podcast(podcast, showingSecrets: false), indent: 2)
    writer.close("}", empty: false, indent: 0)
    return writer.takeData()
  }

  /// Two infos of one episode as the feed identifies it: enough for `DownloadJob`'s hash,
  /// whose equality compares everything.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(episode.guid)
    hasher.combine(episode.enclosure.url)
    hasher.combine(podcast.feedURL)
  }
}
