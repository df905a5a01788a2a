/// Where a download stands, as the progress buffer and `podcast status` show it.
public enum DownloadState: String, Sendable, Codable, CaseIterable {
  case queued
  case downloading
  /// Interrupted (Ctrl-C, crash, given up for now) with a partial file that the next run resumes.
  case paused
  case failed
  case done
}
