import PodcastKit

/// `sync --dry-run` shown: lines, or `{wouldDownload: [{url, title, file}], wouldPrune: [path]}`
/// (and `account` with an account).
extension SyncPreview {
  /// `quiet` leaves out only "Nothing new.": a plan is what was asked for. Titles are cut to
  /// `width`; the files stay whole, on lines of their own.
  func lines(quiet: Bool, width: Int = .max) -> [String] {
    var lines = account.map(AccountReport.previewLines) ?? []
    if planned.isEmpty && prunable.isEmpty && lines.isEmpty && !quiet {
      lines.append("Nothing new.")
    }
    for planned in planned {
      lines.append(
        "would download  "
          + TerminalText.truncatedInMiddle(
            Format.singleLine(planned.job.title ?? planned.job.url), to: max(12, width - 17)))
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
    let members: [(String, JSONValue)] = [
      ("wouldDownload", .array(items)), ("wouldPrune", .array(prunable.map { .string($0) })),
    ]
    // With an account: what the exchange would do, in `account sync --json`'s words.
    return .object(members + (account.map { [("account", AccountReport.document($0))] } ?? []))
  }
}
