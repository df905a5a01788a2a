import Foundation
import PodcastKit

/// The `episodes --json` document: `podcast`, then `episodes`, each in `EpisodeJSON`'s keys
/// with what the library knows of it (`index`, `state`, `file`, `inFeed`, `played`, ...).
enum EpisodeListJSON {
  /// Streams the document to stdout, one episode at a time; `status` is asked as each one is
  /// written, so no per-episode array is built on top of the feed.
  /// `indexes` are the 1-based positions in `episodes` to list, so a filtered listing keeps
  /// the feed's own numbers. `dropped` follow, without an index and with `"inFeed": false`.
  static func print(
    podcast: Podcast, episodes: [Episode], indexes: [Int], status: (_ index: Int) -> ListedStatus,
    dropped: [DroppedEpisode] = []
  ) {
    var writer = JSONWriter(flushingTo: { Console.write($0, to: STDOUT_FILENO) })
    writer.open("{")
    writer.element(first: true, indent: 2)
    writer.key("podcast")
    writer.write(EpisodeJSON.podcast(podcast, showingSecrets: Console.showsSecrets), indent: 2)
    writer.element(first: false, indent: 2)
    writer.key("episodes")
    writer.open("[")
    // Through a buffer, so each episode is lent to `write` where it lies: taken from the
    // array, it would be copied first (a dozen retains and releases each).
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

  /// One episode: the listing's own members around the episode's (`EpisodeJSON`). `index`
  /// nil: one the feed no longer lists.
  private static func write(
    _ episode: Episode, index: Int?, status: ListedStatus, to writer: inout JSONWriter
  ) {
    var members = JSONMembers(indent: 4)
    writer.open("{")
    members.next("index", &writer)
    writer.value(index)
    EpisodeJSON.writeMembers(
      of: episode, showingSecrets: Console.showsSecrets, members: &members, to: &writer)
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
    members.next("played", &writer)
    writer.value(status.played)
    members.next("position", &writer)
    writer.value(status.position)
    members.next("keptForever", &writer)
    writer.value(status.keptForever)
    writer.close("}", empty: false, indent: 4)
  }
}
