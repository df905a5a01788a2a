import Basics
import Fetching
import Foundation
import SideFiles
import Tags

#if canImport(Glibc)
  import Glibc
#endif

/// The tag step of a download, between verify and finish.
///
/// Crash safety: TagLib rewrites a file in place and changes its size, so a kill mid-tag
/// leaves that file damaged, and a damaged partial must never be resumed by its byte count nor
/// linked into Episodes. So the partial itself is never tagged: the verified bytes are copied
/// beside it (`<partial>.tagging`, in the partials folder), the copy is tagged, and the copy is
/// what `Finisher` links into place. The partial stays exactly the server's bytes until the
/// download is recorded done. A kill at any moment therefore leaves either
///   - a complete, untouched partial plus a `.tagging` copy in an unknown state: the copy is
///     debris by definition (nothing ever reads one that this process did not just write) and
///     is deleted as soon as the next run holds the partial's lock; the partial finishes from
///     its bytes on disk without a new request, and is tagged again; or
///   - a tagged file under Episodes that its run could not record: the next run adopts it
///     like any unrecorded file at its target.
/// No path ever links or resumes a file TagLib was writing when it died. A tagging failure
/// of any kind drops the copy and finishes the untouched partial as served, with a note.
package struct EpisodeTagging {
  package let request: TagRequest
  package let hint: FormatHint
  package let covers: CoverCache
  /// The chapters file comes from here, so the side file beside the episode is the same
  /// body, fetched once.
  package let sideFiles: SideFileWriter
  /// The job's Podcasting 2.0 chapters file, whose chapters go into the tag (ID3 CHAP/CTOC for
  /// MP3, CHAPTERnnn comments for Ogg); nil, or one that cannot be had or read, leaves them out.
  package let chaptersURL: String?
  /// The feed: a private feed's credentials go to a chapters file on its host.
  package let feedURL: String?

  /// A tagged copy to finish from (nil: finish the partial as served) and what to report.
  package struct Outcome {
    package var copy: PartialFile?
    package var note: SideFileReport
  }

  /// Where the copy of `partialPath` is tagged.
  package static func copyPath(of partialPath: String) -> String { partialPath + ".tagging" }

  /// Deletes what a run killed mid-tag left beside the partial. Call with its lock held.
  package static func discardDebris(of partial: PartialFile) {
    unlink(copyPath(of: partial.path))
  }

  package func run(on partial: PartialFile) async -> Outcome {
    do {
      try partial.flush()
    } catch {
      return Outcome(copy: nil, note: SideFileReport(note: "not tagged: \(error)"))
    }
    let source = partial.path
    let kind: ContentSniffer.Kind
    do {
      kind = try ContentSniffer.kind(ofFileAt: source)
    } catch {
      return Outcome(copy: nil, note: SideFileReport(note: "not tagged: \(error)"))
    }
    let format: AudioFormat
    switch kind {
    case .audio(let audio): format = audio
    case .other(let name):
      guard let name else {
        // The feed's claim is no name for bytes that are not what it says.
        let claimed = hint.name.map { " (the feed says \($0))" } ?? ""
        return Outcome(
          copy: nil,
          note: SideFileReport(note: "not tagged: not an audio format TagLib writes\(claimed)"))
      }
      return Outcome(copy: nil, note: Self.unsupported(name))
    }
    let cover = await covers.image(from: request.coverURLs)
    var tags = request.tags
    tags.chapters = await chapters()
    let copy = Self.copyPath(of: source)
    let finalTags = tags
    let result = await Self.offThePool { () -> Result<TagResult, TagFailure> in
      do throws(TagFailure) {
        try Self.copyFile(source, to: copy)
      } catch {
        return .failure(error)
      }
      do throws(TagError) {
        return .success(
          // The copy has the partial's bytes: the format sniffed above is the copy's.
          try Tagger().tag(fileAt: copy, format: format, with: finalTags, cover: cover))
      } catch {
        return .failure(.tagLib(error))
      }
    }
    switch result {
    case .success(.tagged):
      if let file = try? PartialFile(path: copy) {
        return Outcome(copy: file, note: SideFileReport(tagged: true, cover: cover != nil))
      }
      unlink(copy)
      return Outcome(copy: nil, note: SideFileReport(note: "not tagged: cannot reopen \(copy)"))
    case .success(.unsupported(let name)):
      unlink(copy)
      return Outcome(copy: nil, note: Self.unsupported(name))
    case .failure(let failure):
      unlink(copy)
      return Outcome(copy: nil, note: SideFileReport(note: "not tagged: \(failure.description)"))
    }
  }

  /// The chapters to write, or none when the feed links none or the file is not usable (the
  /// side-file step says why).
  private func chapters() async -> [ChapterMark] {
    guard let url = chaptersURL,
      case .success(let body) = await sideFiles.chapters(url, feedURL: feedURL)
    else { return [] }
    return ChapterMark.marks(inChapters: body)
  }

  private static func unsupported(_ name: String?) -> SideFileReport {
    SideFileReport(note: "not tagged: TagLib does not write \(name ?? "an unrecognised format")")
  }

  /// Why the copy could not be tagged: the copy itself, or TagLib.
  package enum TagFailure: Error, CustomStringConvertible {
    case cannotRead(path: String)
    case cannotCreate(path: String)
    case cannotWrite(path: String, errno: Int32)
    case tagLib(TagError)

    package var description: String {
      switch self {
      case .cannotRead(let path): return "cannot read \(path) to tag it"
      case .cannotCreate(let path): return "cannot create \(path)"
      case .cannotWrite(let path, let code):
        return "cannot write \(path): \(String(cString: strerror(code)))"
      case .tagLib(let error): return error.description
      }
    }
  }

  /// TagLib and the copy block on file I/O for a while: keep them off the cooperative pool.
  private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
  }

  /// A plain byte copy, synced: TagLib then works on this file only.
  private static func copyFile(_ source: String, to target: String) throws(TagFailure) {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw .cannotRead(path: source) }
    defer { close(input) }
    let output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard output >= 0 else { throw .cannotCreate(path: target) }
    defer { close(output) }
    do {
      try PartialFile.copyAll(from: input, to: output)
    } catch {
      switch error {
      case .reading: throw .cannotRead(path: source)
      case .writing(let code): throw .cannotWrite(path: target, errno: code)
      }
    }
  }
}
