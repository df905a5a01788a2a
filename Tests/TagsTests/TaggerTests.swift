import Foundation
import Tags
import TagsTestSupport
import XCTest

/// Tags real files made by ffmpeg and reads them back field by field with TagLib (and, for
/// what a media server sees, with ffprobe); the audio must come out byte for byte the same.
final class TaggerTests: XCTestCase {
  private var fixtures: AudioFixtures!

  override func setUpWithError() throws {
    fixtures = try AudioFixtures()
  }

  override func tearDown() {
    fixtures = nil
  }

  private let published = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z

  private func episodeTags(chapters: [ChapterMark] = []) -> EpisodeTags {
    EpisodeTags(
      title: "Episode 7: Tones", podcast: "Sine Weekly", author: "Ada Lovelace",
      published: published, number: 7, season: 2,
      comment: "All about 440 Hz.\nAnd “quotes” & ünïcödé.", chapters: chapters)
  }

  private func values(_ fields: [TagField], _ key: String) -> [String] {
    fields.filter { $0.key == key }.map(\.text)
  }

  private func bytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  func testMP3GetsAnID3v24TagWithEveryFieldTheCoverAndChapters() throws {
    let path = try fixtures.tone("episode.mp3", codec: "libmp3lame")
    let framesBefore = try AudioFixtures.mp3Frames(path)
    XCTAssertTrue(AudioFixtures.isMPEGFrameStart(framesBefore), "no MPEG frame after the tag")
    let packetsBefore = try AudioFixtures.audioPacketsMD5(path)
    let cover = try XCTUnwrap(CoverImage(data: try fixtures.picture("cover.jpg")))
    let chapters = [
      ChapterMark(start: 0, end: 1000, title: "Intro"), ChapterMark(start: 1000, title: "Tone"),
    ]

    let result = try Tagger().tag(
      fileAt: path, as: FormatHint(mimeType: "audio/mpeg"), with: episodeTags(chapters: chapters),
      cover: cover)

    XCTAssertEqual(result, .tagged(.mp3))
    let fields = try TagReader.fields(ofFileAt: path)
    XCTAssertEqual(values(fields, "ID3v2:version"), ["4"])
    XCTAssertEqual(values(fields, "ID3v2:TIT2"), ["Episode 7: Tones"])
    XCTAssertEqual(values(fields, "ID3v2:TALB"), ["Sine Weekly"])
    XCTAssertEqual(values(fields, "ID3v2:TPE2"), ["Sine Weekly"])
    XCTAssertEqual(values(fields, "ID3v2:TPE1"), ["Ada Lovelace"])
    XCTAssertEqual(values(fields, "ID3v2:TCON"), ["Podcast"])
    XCTAssertEqual(values(fields, "ID3v2:TDRC"), ["2024-05-01T10:00:00"])
    XCTAssertEqual(values(fields, "ID3v2:TDRL"), ["2024-05-01T10:00:00"])
    XCTAssertEqual(values(fields, "ID3v2:TRCK"), ["7"])
    XCTAssertEqual(values(fields, "ID3v2:TPOS"), ["2"])
    XCTAssertEqual(
      values(fields, "ID3v2:COMM:XXX:"), ["All about 440 Hz.\nAnd “quotes” & ünïcödé."])
    XCTAssertEqual(fields.filter { $0.key == "ID3v2:APIC:3:image/jpeg" }.map(\.value), [cover.data])
    XCTAssertEqual(values(fields, "ID3v2:CHAP:chp0"), ["0-1000 Intro"])
    let last = try XCTUnwrap(values(fields, "ID3v2:CHAP:chp1").first)
    XCTAssertTrue(last.hasPrefix("1000-") && last.hasSuffix(" Tone"), last)
    // The open-ended last chapter runs to the end of the audio, about two seconds.
    let end = try XCTUnwrap(Int(last.dropFirst(5).prefix { $0.isNumber }))
    XCTAssertTrue((1900...2200).contains(end), "last chapter ends at \(end) ms")
    XCTAssertEqual(values(fields, "ID3v2:CTOC:toc"), ["top=1 ordered=1 children=chp0,chp1"])
    XCTAssertEqual(try AudioFixtures.mp3Frames(path), framesBefore)
    XCTAssertEqual(try AudioFixtures.audioPacketsMD5(path), packetsBefore)
  }

  func testMP3ChaptersAndTitleAreWhatFFprobeSees() throws {
    let path = try fixtures.tone("episode.mp3", codec: "libmp3lame")
    let chapters = [
      ChapterMark(start: 0, end: 500, title: "Intro"),
      ChapterMark(start: 500, end: 1500, title: "Middle"),
    ]
    _ = try Tagger().tag(
      fileAt: path, as: FormatHint(), with: episodeTags(chapters: chapters), cover: nil)

    let probe = try AudioFixtures.probe(path)
    let format = try XCTUnwrap(probe["format"] as? [String: Any])
    let tags = try XCTUnwrap(format["tags"] as? [String: Any])
    XCTAssertEqual(tags["title"] as? String, "Episode 7: Tones")
    XCTAssertEqual(tags["album"] as? String, "Sine Weekly")
    XCTAssertEqual(tags["artist"] as? String, "Ada Lovelace")
    let probed = try XCTUnwrap(probe["chapters"] as? [[String: Any]])
    XCTAssertEqual(probed.compactMap { $0["start_time"] as? String }, ["0.000000", "0.500000"])
    XCTAssertEqual(probed.compactMap { $0["end_time"] as? String }, ["0.500000", "1.500000"])
    XCTAssertEqual(
      probed.compactMap { ($0["tags"] as? [String: Any])?["title"] as? String },
      ["Intro", "Middle"])
  }

  func testM4AGetsEveryITunesItemAndTheCover() throws {
    let path = try fixtures.tone("episode.m4a", codec: "aac")
    let mediaBefore = try AudioFixtures.mp4MediaData(path)
    let packetsBefore = try AudioFixtures.audioPacketsMD5(path)
    let cover = try XCTUnwrap(CoverImage(data: try fixtures.picture("cover.png")))

    let result = try Tagger().tag(
      fileAt: path, as: FormatHint(mimeType: "audio/mp4"), with: episodeTags(), cover: cover)

    XCTAssertEqual(result, .tagged(.mp4))
    let fields = try TagReader.fields(ofFileAt: path)
    XCTAssertEqual(values(fields, "MP4:©nam"), ["Episode 7: Tones"])
    XCTAssertEqual(values(fields, "MP4:©alb"), ["Sine Weekly"])
    XCTAssertEqual(values(fields, "MP4:aART"), ["Sine Weekly"])
    XCTAssertEqual(values(fields, "MP4:©ART"), ["Ada Lovelace"])
    XCTAssertEqual(values(fields, "MP4:©gen"), ["Podcast"])
    XCTAssertEqual(values(fields, "MP4:©day"), ["2024-05-01T10:00:00Z"])
    XCTAssertEqual(values(fields, "MP4:trkn"), ["7/0"])
    XCTAssertEqual(values(fields, "MP4:disk"), ["2/0"])
    XCTAssertEqual(values(fields, "MP4:©cmt"), ["All about 440 Hz.\nAnd “quotes” & ünïcödé."])
    XCTAssertEqual(values(fields, "MP4:desc"), ["All about 440 Hz.\nAnd “quotes” & ünïcödé."])
    // 14: the MP4 cover type for PNG.
    XCTAssertEqual(fields.filter { $0.key == "MP4:covr:14" }.map(\.value), [cover.data])
    XCTAssertFalse(mediaBefore.isEmpty)
    XCTAssertEqual(try AudioFixtures.mp4MediaData(path), mediaBefore)
    // The chunk offsets must follow the moved audio, or a player reads the wrong bytes.
    XCTAssertEqual(try AudioFixtures.audioPacketsMD5(path), packetsBefore)
    let probe = try AudioFixtures.probe(path)
    let tags = try XCTUnwrap((probe["format"] as? [String: Any])?["tags"] as? [String: Any])
    XCTAssertEqual(tags["title"] as? String, "Episode 7: Tones")
  }

  func testAStreamableM4AKeepsItsAudioWhenTheTagMovesIt() throws {
    // Most podcast M4As put moov before mdat: a bigger tag moves the audio, and every chunk
    // offset in the sample tables must move with it.
    let path = try fixtures.tone("episode.m4a", codec: "aac", extra: ["-movflags", "+faststart"])
    let mediaBefore = try AudioFixtures.mp4MediaData(path)
    let packetsBefore = try AudioFixtures.audioPacketsMD5(path)
    let cover = try XCTUnwrap(CoverImage(data: try fixtures.picture("cover.jpg")))

    let result = try Tagger().tag(
      fileAt: path, as: FormatHint(), with: episodeTags(), cover: cover)

    XCTAssertEqual(result, .tagged(.mp4))
    XCTAssertEqual(try AudioFixtures.mp4MediaData(path), mediaBefore)
    XCTAssertEqual(try AudioFixtures.audioPacketsMD5(path), packetsBefore)
    let fields = try TagReader.fields(ofFileAt: path)
    // 13: the MP4 cover type for JPEG.
    XCTAssertEqual(fields.filter { $0.key == "MP4:covr:13" }.map(\.value), [cover.data])
  }

  func testAnID3v23TagBecomesV24AndAnID3v1TagIsKept() throws {
    let path = try fixtures.tone(
      "episode.mp3", codec: "libmp3lame",
      extra: [
        "-id3v2_version", "3", "-write_id3v1", "1", "-metadata", "title=Publisher Title",
        "-metadata",
        "composer=Publisher Composer",
      ])
    let tailBefore = try AudioFixtures.mp3Frames(path)
    XCTAssertEqual(tailBefore.suffix(128).prefix(3), Data("TAG".utf8), "fixture has no ID3v1")

    _ = try Tagger().tag(fileAt: path, as: FormatHint(), with: episodeTags(), cover: nil)

    let fields = try TagReader.fields(ofFileAt: path)
    XCTAssertEqual(values(fields, "ID3v2:version"), ["4"])
    XCTAssertEqual(values(fields, "ID3v2:TCOM"), ["Publisher Composer"])
    XCTAssertEqual(values(fields, "ID3v2:TIT2"), ["Episode 7: Tones"])
    XCTAssertEqual(try AudioFixtures.mp3Frames(path), tailBefore)
  }

  func testOpusGetsXiphCommentsAndAPictureBlock() throws {
    try assertXiphTagged("episode.opus", codec: "libopus", as: .opus)
  }

  func testVorbisGetsXiphCommentsAndAPictureBlock() throws {
    try assertXiphTagged("episode.ogg", codec: "libvorbis", as: .vorbis)
  }

  private func assertXiphTagged(_ name: String, codec: String, as format: AudioFormat) throws {
    let path = try fixtures.tone(name, codec: codec)
    let packetsBefore = try AudioFixtures.audioPacketsMD5(path)
    let cover = try XCTUnwrap(CoverImage(data: try fixtures.picture("cover.jpg")))

    let chapters = [
      ChapterMark(start: 0, end: 1000, title: "Intro"), ChapterMark(start: 1250, title: "Tone"),
    ]

    let result = try Tagger().tag(
      fileAt: path, as: FormatHint(mimeType: "audio/ogg"), with: episodeTags(chapters: chapters),
      cover: cover)

    XCTAssertEqual(result, .tagged(format))
    let fields = try TagReader.fields(ofFileAt: path)
    XCTAssertEqual(values(fields, "Xiph:TITLE"), ["Episode 7: Tones"])
    XCTAssertEqual(values(fields, "Xiph:ALBUM"), ["Sine Weekly"])
    XCTAssertEqual(values(fields, "Xiph:ALBUMARTIST"), ["Sine Weekly"])
    XCTAssertEqual(values(fields, "Xiph:ARTIST"), ["Ada Lovelace"])
    XCTAssertEqual(values(fields, "Xiph:GENRE"), ["Podcast"])
    XCTAssertEqual(values(fields, "Xiph:DATE"), ["2024-05-01"])
    XCTAssertEqual(values(fields, "Xiph:TRACKNUMBER"), ["7"])
    XCTAssertEqual(values(fields, "Xiph:DISCNUMBER"), ["2"])
    XCTAssertEqual(values(fields, "Xiph:COMMENT"), ["All about 440 Hz.\nAnd “quotes” & ünïcödé."])
    XCTAssertEqual(
      fields.filter { $0.key == "Xiph:PICTURE:3:image/jpeg" }.map(\.value), [cover.data])
    XCTAssertEqual(values(fields, "Xiph:CHAPTER001"), ["00:00:00.000"])
    XCTAssertEqual(values(fields, "Xiph:CHAPTER001NAME"), ["Intro"])
    XCTAssertEqual(values(fields, "Xiph:CHAPTER002"), ["00:00:01.250"])
    XCTAssertEqual(values(fields, "Xiph:CHAPTER002NAME"), ["Tone"])
    XCTAssertEqual(try AudioFixtures.audioPacketsMD5(path), packetsBefore)
    // ffmpeg (and so mpv and Jellyfin) turns those comments into chapters.
    let probed = try XCTUnwrap(try AudioFixtures.probe(path)["chapters"] as? [[String: Any]])
    XCTAssertEqual(probed.compactMap { $0["start_time"] as? String }, ["0.000000", "1.250000"])
    XCTAssertEqual(
      probed.compactMap { ($0["tags"] as? [String: Any])?["title"] as? String }, ["Intro", "Tone"])
  }

  func testTaggingAgainReplacesOurFieldsAndKeepsThePublishersOthers() throws {
    let path = try fixtures.tone(
      "episode.mp3", codec: "libmp3lame",
      extra: ["-metadata", "title=Publisher Title", "-metadata", "composer=Publisher Composer"])
    let tagger = Tagger()
    let first = try XCTUnwrap(CoverImage(data: try fixtures.picture("first.jpg", color: "red")))
    let second = try XCTUnwrap(CoverImage(data: try fixtures.picture("second.png", color: "blue")))
    var tags = episodeTags(chapters: [ChapterMark(start: 0, end: 2000, title: "Only")])
    _ = try tagger.tag(fileAt: path, as: FormatHint(), with: tags, cover: first)
    tags.title = "Renamed"
    tags.chapters = [
      ChapterMark(start: 0, end: 700, title: "A"), ChapterMark(start: 700, end: 2000, title: "B"),
    ]
    _ = try tagger.tag(fileAt: path, as: FormatHint(), with: tags, cover: second)

    let fields = try TagReader.fields(ofFileAt: path)
    XCTAssertEqual(values(fields, "ID3v2:TIT2"), ["Renamed"])
    XCTAssertEqual(values(fields, "ID3v2:TCOM"), ["Publisher Composer"])
    XCTAssertEqual(fields.filter { $0.key.hasPrefix("ID3v2:APIC:3:") }.map(\.value), [second.data])
    XCTAssertEqual(values(fields, "ID3v2:COMM:XXX:").count, 1)
    XCTAssertEqual(
      fields.filter { $0.key.hasPrefix("ID3v2:CHAP:") }.map(\.text), ["0-700 A", "700-2000 B"])
    XCTAssertEqual(values(fields, "ID3v2:CTOC:toc"), ["top=1 ordered=1 children=chp0,chp1"])
  }

  func testMissingFieldsLeaveThePublishersValues() throws {
    let path = try fixtures.tone(
      "episode.mp3", codec: "libmp3lame",
      extra: ["-metadata", "title=Publisher Title", "-metadata", "track=12"])
    let result = try Tagger().tag(
      fileAt: path, as: FormatHint(), with: EpisodeTags(podcast: "Sine Weekly"), cover: nil)

    XCTAssertEqual(result, .tagged(.mp3))
    let fields = try TagReader.fields(ofFileAt: path)
    XCTAssertEqual(values(fields, "ID3v2:TIT2"), ["Publisher Title"])
    XCTAssertEqual(values(fields, "ID3v2:TRCK"), ["12"])
    XCTAssertEqual(values(fields, "ID3v2:TALB"), ["Sine Weekly"])
    XCTAssertTrue(
      fields.filter { $0.key.hasPrefix("ID3v2:APIC") || $0.key.hasPrefix("ID3v2:CHAP") }.isEmpty)
  }

  func testFilesTaggedFromSeveralThreadsAtOnceEachGetTheirOwnTags() throws {
    let paths = try (0..<4).map { try fixtures.tone("episode\($0).mp3", codec: "libmp3lame") }
    let results = Results()
    let base = episodeTags()
    DispatchQueue.concurrentPerform(iterations: paths.count) { index in
      var tags = base
      tags.title = "Episode \(index)"
      tags.number = index + 1
      let result = Result {
        try Tagger().tag(fileAt: paths[index], as: FormatHint(), with: tags, cover: nil)
      }
      results.set(index, result)
    }
    for (index, path) in paths.enumerated() {
      XCTAssertEqual(try results.get(index)?.get(), .tagged(.mp3))
      let fields = try TagReader.fields(ofFileAt: path)
      XCTAssertEqual(values(fields, "ID3v2:TIT2"), ["Episode \(index)"])
      XCTAssertEqual(values(fields, "ID3v2:TRCK"), ["\(index + 1)"])
    }
  }

  func testWAVIsLeftExactlyAsServed() throws {
    let path = try fixtures.tone("episode.wav", codec: "pcm_s16le")
    let before = try bytes(path)

    let result = try Tagger().tag(
      fileAt: path, as: FormatHint(mimeType: "audio/wav"), with: episodeTags(), cover: nil)

    XCTAssertEqual(result, .unsupported("WAV"))
    XCTAssertEqual(try bytes(path), before)
  }

  func testAnUnknownFormatIsLeftExactlyAsServedAndNamedByItsHint() throws {
    let path = fixtures.path("episode.part")
    let before = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    try before.write(to: URL(fileURLWithPath: path))

    let result = try Tagger().tag(
      fileAt: path, as: FormatHint(mimeType: "audio/x-ms-wma", fileExtension: "wma"),
      with: episodeTags(), cover: nil)

    XCTAssertEqual(result, .unsupported("WMA"))
    XCTAssertEqual(try bytes(path), before)
  }

  func testTheFormatComesFromTheBytesNotTheHint() throws {
    // Publishers serve M4A as audio/mpeg; writing an ID3 tag in front of it would break it.
    let path = try fixtures.tone("episode.m4a", codec: "aac")
    let result = try Tagger().tag(
      fileAt: path, as: FormatHint(mimeType: "audio/mpeg", fileExtension: "mp3"),
      with: episodeTags(), cover: nil)
    XCTAssertEqual(result, .tagged(.mp4))
  }

  func testAMissingFileIsAnErrorNamingIt() throws {
    let path = fixtures.path("gone.part")
    XCTAssertThrowsError(
      try Tagger().tag(fileAt: path, as: FormatHint(), with: episodeTags(), cover: nil)
    ) { error in
      guard case .unreadable(let named, _) = error as? TagError else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertEqual(named, path)
      XCTAssertTrue("\(error)".contains(path))
    }
  }

  func testATruncatedMP4IsAnErrorAndNotAFalseSuccess() throws {
    let path = fixtures.path("truncated.part")
    // An ftyp atom and nothing else: the download broke off before any audio.
    let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypM4A ".utf8) + [0, 0, 0, 0]
    try Data(ftyp).write(to: URL(fileURLWithPath: path))

    XCTAssertThrowsError(
      try Tagger().tag(fileAt: path, as: FormatHint(), with: episodeTags(), cover: nil)
    ) { error in
      XCTAssertEqual(error as? TagError, .cannotOpen(path: path, format: .mp4))
      XCTAssertEqual((error as? TagError)?.leftFileUntouched, true)
    }
    XCTAssertEqual(try bytes(path), Data(ftyp))
  }
}

/// Results gathered from `concurrentPerform`, one slot per iteration.
private final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Int: Result<TagResult, any Error>] = [:]

  func set(_ index: Int, _ result: Result<TagResult, any Error>) {
    lock.withLock { results[index] = result }
  }

  func get(_ index: Int) -> Result<TagResult, any Error>? {
    lock.withLock { results[index] }
  }
}
