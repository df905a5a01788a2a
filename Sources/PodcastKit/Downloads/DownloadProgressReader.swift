import Foundation

/// What the library holds of an episode, for listings: downloaded, partly downloaded, or new.
public struct EpisodeDownloadStatus: Sendable, Equatable {
  public enum State: String, Sendable {
    case new
    case partial
    case downloaded
  }

  public var state: State
  /// From 0 to 1 (0 when unknown).
  public var progress: Double
  /// The finished file, when downloaded.
  public var file: String?

  public static let new = EpisodeDownloadStatus(state: .new, progress: 0, file: nil)
}

/// Reads episode states from the ledger and the files on disk, so a listing shows what a
/// previous (or crashed, or concurrent) run left behind.
public struct DownloadProgressReader: Sendable {
  private let ledger: DownloadLedger?
  private let partialsDirectory: String

  public init(ledger: DownloadLedger?, partialsDirectory: String) {
    self.ledger = ledger
    self.partialsDirectory = partialsDirectory
  }

  public func status(of url: String) -> EpisodeDownloadStatus {
    let entry = (try? ledger?.entry(for: url)) ?? nil
    if let entry, entry.state == .done, let file = entry.file,
      FileManager.default.fileExists(atPath: file)
    {
      return EpisodeDownloadStatus(state: .downloaded, progress: 1, file: file)
    }
    // The partial file is the truth about bytes: the ledger is written only once a second.
    let partial = partialsDirectory + "/" + PartialName.forURL(url)
    let onDisk =
      (try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int64) ?? nil
    guard let bytes = onDisk, bytes > 0 else { return .new }
    let fraction = entry?.total.map { $0 > 0 ? min(1, Double(bytes) / Double($0)) : 0 } ?? 0
    return EpisodeDownloadStatus(state: .partial, progress: fraction, file: nil)
  }
}
