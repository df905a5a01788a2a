import Basics

/// Picks the file that is the episode among an item's enclosures and Media RSS contents.
/// Feeds attach cover art as a second enclosure (before or after the audio), list several
/// renditions in a `media:group`, or give only a `media:content`; a downloader wants the
/// audio or video. Best first: audio/video by media type, then by file extension, then any
/// other file, then an image `<enclosure>` as a last resort (the feed calls it the episode);
/// a `media:content medium="image"` is never the episode. Among equals, feed order, with
/// `<enclosure>` before `media:content`.
package enum EnclosureChoice {
  package static func best(enclosures: [ItemDraft.MediaFile], mediaContents: [ItemDraft.MediaFile])
    -> ItemDraft.MediaFile?
  {
    // The two lists one after the other, without a collection of both built for every item.
    var best: (file: ItemDraft.MediaFile, rank: Int)?
    if !consider(enclosures, &best) { _ = consider(mediaContents, &best) }
    return best?.file
  }

  /// Keeps in `best` the best-ranked of `files` that beats it; true once one ranks 0, when
  /// nothing after it can be better.
  private static func consider(
    _ files: [ItemDraft.MediaFile], _ best: inout (file: ItemDraft.MediaFile, rank: Int)?
  ) -> Bool {
    for file in files where file.isFetchable {
      guard let rank = rank(file), rank < (best?.rank ?? Int.max) else { continue }
      best = (file, rank)
      if rank == 0 { return true }
    }
    return false
  }

  /// 0 is best; nil when the file can never be the episode.
  private static func rank(_ file: ItemDraft.MediaFile) -> Int? {
    let type = file.type?.lowercased() ?? ""
    let medium = file.medium?.lowercased() ?? ""
    if type.hasPrefix("audio/") || type.hasPrefix("video/") { return 0 }
    let isImage = type.hasPrefix("image/") || medium == "image" || hasExtension(file.url, images)
    if !isImage && (medium == "audio" || medium == "video" || hasExtension(file.url, media)) {
      return 1
    }
    if !isImage { return 2 }
    return file.isMediaContent ? nil : 3
  }

  private static let media: Set<String> = [
    "mp3", "m4a", "m4b", "aac", "ogg", "oga", "opus", "wav", "flac", "mp4", "m4v", "mov",
    "webm", "weba", "mkv", "mpga", "mp2", "wma", "aif", "aiff",
  ]
  private static let images: Set<String> = [
    "jpg", "jpeg", "png", "gif", "webp", "avif", "heic", "svg", "bmp", "tif", "tiff",
  ]

  /// Whether the URL's path (query and fragment aside) ends in one of `extensions`.
  private static func hasExtension(_ url: String, _ extensions: Set<String>) -> Bool {
    let path =
      url.split(separator: "?", maxSplits: 1).first?
      .split(separator: "#", maxSplits: 1).first ?? ""
    let last = path.split(separator: "/").last ?? ""
    guard let dot = last.lastIndex(of: ".") else { return false }
    return extensions.contains(last[last.index(after: dot)...].lowercased())
  }
}
