import XCTest

@testable import FullText

/// A field's matches as moments: the passage's time, a snippet cut at words, and the best
/// few of them.
final class MomentFinderTests: XCTestCase {
  private let transcript = PassageText([
    Passage(start: 0, text: "Welcome back to the show."),
    Passage(start: 61.5, text: "Today:"),
    Passage(start: 63, text: "the Voyager probes,"),
    Passage(start: 65, text: "which left in 1977."),
    Passage(start: 2472.9, text: "The golden record on each Voyager is a message."),
  ])

  /// What `highlight()` gives for `words` in `text`: each occurrence marked.
  private func marked(_ text: String, _ words: [String]) -> Highlight {
    var marked = text
    for word in words {
      marked = marked.replacingOccurrences(
        of: word, with: Highlight.open + word + Highlight.close)
    }
    return Highlight(marked: marked)
  }

  func testHighlightMarksAreReadAsByteRanges() {
    let highlight = Highlight(marked: "a \u{1}Café\u{2} b \u{1}x\u{2}")
    XCTAssertEqual(highlight.text, "a Café b x")
    XCTAssertEqual(highlight.matches, [2..<7, 10..<11])
  }

  func testTheTimelineRoundTripsAndFindsPassages() {
    let stored = PassageText(text: transcript.text, timeline: transcript.timeline)
    XCTAssertEqual(stored, transcript)
    XCTAssertEqual(transcript.passage(at: 0)?.milliseconds, 0)
    let offset = transcript.text.utf8.count - 3
    XCTAssertEqual(transcript.passage(at: offset)?.milliseconds, 2_472_900)
    XCTAssertEqual(PassageText(text: "short", timeline: [1, 2, 3]).starts, [], "damaged")
    XCTAssertEqual(
      PassageText(
        text: "x",
        timeline: PassageText([Passage(start: 1, text: "longer text")]).timeline + [
          9, 0, 0, 0, 0, 0, 0, 0,
        ]
      ).starts,
      [], "offsets past the text")
  }

  func testATranscriptMatchIsAMomentAtItsCueWithTheCuesAfterIt() {
    let moments = MomentFinder.candidates(
      field: .transcripts, highlight: marked(transcript.text, ["Voyager"]),
      passages: transcript)
    XCTAssertEqual(moments.map(\.seconds), [63, 2472])
    XCTAssertEqual(
      moments[0].snippet.text, "the Voyager probes, which left in 1977.",
      "the cue after it, two seconds on; not the one forty minutes later")
    XCTAssertEqual(moments[0].snippet.pieces.filter(\.matched).map(\.text), ["Voyager"])
    XCTAssertEqual(moments[1].snippet.text, "The golden record on each Voyager is a message.")
  }

  func testALongPassageIsCutAroundItsMatchAtSpaces() {
    let long = (1...80).map { "word\($0)" }.joined(separator: " ")
    let text = PassageText([Passage(start: 600, text: long)])
    let moment = MomentFinder.candidates(
      field: .transcripts, highlight: marked(text.text, ["word40 "]), passages: text)[0]
    XCTAssertTrue(moment.snippet.text.hasPrefix("…word"), moment.snippet.text)
    XCTAssertTrue(moment.snippet.text.hasSuffix("…"), moment.snippet.text)
    XCTAssertTrue(moment.snippet.text.contains("word40"))
    XCTAssertLessThan(moment.snippet.text.utf8.count, 200)
    XCTAssertEqual(moment.seconds, 600)
  }

  func testNotesGiveTheirBestStretchAndPickPrefersMoreWordsThenFields() {
    let notes =
      "Links: " + String(repeating: "filler ", count: 40)
      + "the golden record and the Voyager probes. " + String(repeating: "more ", count: 40)
      + "Voyager again."
    let noteMoments = MomentFinder.candidates(
      field: .notes, highlight: marked(notes, ["golden", "Voyager"]))
    XCTAssertEqual(noteMoments.count, 1)
    XCTAssertEqual(noteMoments[0].words, 2)
    XCTAssertTrue(noteMoments[0].snippet.text.contains("golden record and the Voyager"))

    let title = MomentFinder.candidates(field: .title, highlight: marked("Voyager", ["Voyager"]))
    XCTAssertEqual(title.map(\.snippet.text), ["Voyager"])
    let spoken = MomentFinder.candidates(
      field: .transcripts, highlight: marked(transcript.text, ["Voyager", "golden"]),
      passages: transcript)
    let picked = MomentFinder.pick(title + noteMoments + spoken, limit: 2)
    XCTAssertEqual(picked.map(\.field), [.notes, .transcripts], "two words beat one")
    XCTAssertEqual(picked.last?.seconds, 2472, "the cue with both words")
    XCTAssertEqual(
      MomentFinder.pick(title + spoken.prefix(1), limit: 3).map(\.field), [.title, .transcripts],
      "at equal words, in field order")
  }

  func testNeighbouringCuesAreNotPickedTwice() {
    let moments = MomentFinder.candidates(
      field: .transcripts, highlight: marked(transcript.text, ["the", "The"]),
      passages: transcript)
    let picked = MomentFinder.pick(moments, limit: 3)
    let passages = picked.compactMap(\.passage)
    for (a, b) in zip(passages, passages.dropFirst()) { XCTAssertGreaterThan(b - a, 1) }
  }
}
