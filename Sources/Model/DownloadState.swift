import Basics

/// Where one download stands; stored and shown as the raw value.
public enum DownloadState: String, Codable, Sendable, CaseIterable {
  case queued
  case downloading
  case paused
  case failed
  case done
}
