import PodcastKit

/// `sync --dry-run`: what would be downloaded and where, and what would be pruned, as lines
/// or as `{wouldDownload: [{url, title, file}], wouldPrune: [path]}`.
struct SyncPreview {
  /// Each planned episode with the path it would get.
  let planned: [(job: DownloadJob, file: String)]
  let prunable: [String]

  init(batches: [SyncBatch], prunable: [String]) {
    // One the library has already would be skipped, not downloaded.
    planned = batches.flatMap { batch in
      batch.downloads.filter { !$0.alreadyHad }.map {
        (job: $0.job, file: batch.episodesDirectory + "/" + $0.job.relativePath)
      }
    }
    self.prunable = prunable
  }

  /// `quiet` leaves out only "Nothing new.": a plan is what was asked for.
  func lines(quiet: Bool) -> [String] {
    var lines: [String] = []
    if planned.isEmpty && prunable.isEmpty && !quiet { lines.append("Nothing new.") }
    for planned in planned {
      lines.append("would download  \(Format.singleLine(planned.job.title ?? planned.job.url))")
      lines.append("                -> \(planned.file)")
    }
    return lines + prunable.map { "would prune     \($0)" }
  }

  var document: JSONValue {
    let items = planned.map { planned -> JSONValue in
      .object([
        ("url", .string(planned.job.url)), ("title", .string(planned.job.title)),
        ("file", .string(planned.file)),
      ])
    }
    return .object([
      ("wouldDownload", .array(items)), ("wouldPrune", .array(prunable.map { .string($0) })),
    ])
  }
}
