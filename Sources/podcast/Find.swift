import ArgumentParser
import Foundation
import PodcastKit

struct Find: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "find",
    abstract:
      "Search every episode the library knows, down to the moment in a transcript or chapter.",
    discussion: """
      Words must all match, in any order; case and accents are ignored. "a phrase" matches \
      its words together, word* matches words that start so, -word must not match. Quote the \
      query, or put -- before it, when it has a -word: podcast find 'copper -festival'.

      Titles and show notes of every subscription's episodes are searched, downloaded or not; \
      the chapters and transcripts of downloaded ones too, each moment with its time. The \
      index is the one `episodes` prints, so `podcast download NAME INDEX` follows.

      Examples:
        podcast find voyager probes
        podcast find '"golden record" -festival' --in transcripts,chapters
        podcast find pluto --podcast radiolab --since 2023-01-01 --downloaded
        podcast find --rebuild
      """
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(help: "Words to find; \"a phrase\", prefix*, -word.")
  var query: [String] = []

  @Option(help: "Only this subscription's episodes (name, prefix or number).")
  var podcast: String?

  @Option(
    name: .customLong("in"),
    help: "Where to look: title, notes, chapters, transcripts, or several with commas.")
  var fields: String?

  @Option(help: "Only episodes published on or after this date (2024-05-01) or age (30d, 2w).")
  var since: String?

  @Option(help: "Only episodes published before the end of this date, or older than an age.")
  var until: String?

  @Flag(help: "Only episodes downloaded and still on disk.")
  var downloaded = false

  @Option(help: "Show at most N episodes.")
  var limit = FindEpisodes.defaultLimit

  @Flag(help: "Build the index again from the kept feeds and the files on disk.")
  var rebuild = false

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Print private feeds' tokens and passwords instead of masking them.")
  var showSecrets = false

  func validate() throws {
    if rebuild {
      guard query.isEmpty else { throw ValidationError("--rebuild takes no query") }
      return
    }
    guard !query.isEmpty else {
      throw ValidationError("give the words to find, or --rebuild")
    }
    do {
      try FindEpisodes.check(query: query, limit: limit)
      _ = try fieldSet()
      let now = Date()
      _ = try since.map { try DateBound.resolve($0, setting: "since", now: now) }
      _ = try until.map { try DateBound.end($0, setting: "until", now: now) }
    } catch let error as ValidationError {
      throw error
    } catch {
      throw ValidationError(CommandFailure.message(for: error))
    }
  }

  /// `--in` as fields; nil when not given.
  private func fieldSet() throws -> Set<FindField>? {
    guard let fields else { return nil }
    var set = Set<FindField>()
    for name in fields.split(separator: ",", omittingEmptySubsequences: false) {
      let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
      guard let field = FindField(rawValue: trimmed) ?? Self.aliases[trimmed] else {
        throw ValidationError(
          "--in \(fields): \"\(trimmed)\" is none of "
            + FindField.allCases.map(\.rawValue).joined(separator: ", "))
      }
      set.insert(field)
    }
    return set
  }

  /// The singular of each field, as people type it.
  private static let aliases: [String: FindField] = [
    "chapter": .chapters, "note": .notes, "transcript": .transcripts, "titles": .title,
    "description": .notes, "shownotes": .notes,
  ]

  func run() async throws {
    Console.showsSecrets = showSecrets
    let paths = libraryOptions.paths
    if rebuild {
      let summary = try RebuildFindIndex(paths: paths).run(progress: IndexProgress.report)
      IndexProgress.finish()
      FindResults.printRebuilt(summary, json: json)
      return
    }
    let options = FindEpisodes.Options(
      podcast: podcast, fields: try fieldSet(), since: since, until: until,
      downloaded: downloaded, limit: limit)
    let found = try FindEpisodes(paths: paths).run(
      query, options: options, building: IndexProgress.report)
    IndexProgress.finish()
    if json {
      Console.print(FindResults.json(found).rendered())
    } else if found.isEmpty {
      Console.error("no episode has \(query.joined(separator: " "))")
    } else {
      FindResults.print(found)
    }
  }
}

/// The index's first build, on a terminal: one line on stderr, rewritten as it goes.
enum IndexProgress {
  nonisolated(unsafe) private static var shown = false

  @Sendable static func report(done: Int, total: Int) {
    guard Console.stderrIsTerminal, total > 0 else { return }
    shown = true
    Console.write(
      "\rIndexing the library for find: \(done) of \(total) podcasts", to: STDERR_FILENO)
  }

  static func finish() {
    if shown { Console.write("\n", to: STDERR_FILENO) }
    shown = false
  }
}
