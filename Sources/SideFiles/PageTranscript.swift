import Basics
import Foundation
import FullText

/// A transcript beside an episode as the cues an archive page shows and follows playback
/// with. The file is read by the full-text index's `TranscriptReader` (WebVTT, SRT,
/// Podcasting 2.0 JSON; a `.vtt` that holds SRT, or a `.json` that holds WebVTT, is read as
/// what it holds); what is left here is the page's shaping: only timed passages, in time order,
/// each with an end, and the speaker in front of the words. HTML and plain text transcripts
/// have no times and make no cues.
package enum PageTranscript {
  package struct Cue: Sendable, Equatable {
    /// Seconds from the start of the episode.
    package var start: Double
    package var end: Double
    /// Plain text, markup removed; a speaker as `Name: ` in front.
    package var text: String

    package init(start: Double, end: Double, text: String) {
      self.start = start
      self.end = end
      self.text = text
    }
  }

  /// Whether a side file named `fileName` is read for cues: a WebVTT, SRT or JSON transcript.
  /// HTML and text have no times, and a page of a big folder is written after every sync:
  /// reading each episode's HTML transcript through to find none would cost it dearly.
  package static func mayHoldCues(fileName: String) -> Bool {
    let timed: [TranscriptReader.Format] = [.webVTT, .subRip, .json]
    return timed.map(\.rawValue).contains(StandardPath.pathExtension(of: fileName).lowercased())
  }

  /// The cues of the transcript file `data` named `fileName`; empty when it holds none.
  package static func cues(_ data: Data, fileName: String) -> [Cue] {
    cues(
      TranscriptReader.passages(
        in: data, fileExtension: StandardPath.pathExtension(of: fileName)))
  }

  /// Timed passages as cues in time order (a file's own order among equal starts). A passage
  /// without an end (a JSON segment without `endTime`) lasts until the next one starts.
  package static func cues(_ passages: [Passage]) -> [Cue] {
    let timed = passages.enumerated().compactMap { offset, passage in
      passage.start.map { (start: $0, offset: offset, passage: passage) }
    }.sorted { ($0.start, $0.offset) < ($1.start, $1.offset) }
    return timed.enumerated().map { index, entry in
      let next = index + 1 < timed.count ? timed[index + 1].start : entry.start
      let end = max(entry.passage.end ?? next, entry.start)
      let text = entry.passage.speaker.map { "\($0): " + entry.passage.text } ?? entry.passage.text
      return Cue(start: entry.start, end: end, text: text)
    }
  }
}
