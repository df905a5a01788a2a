import Basics

/// A download a run plans, as the store queues it: its row, and every key its episode may be
/// known by (the row keeps the first), so the store can tell whether the library already has
/// the file under another link.
package struct QueuedDownload {
  package var record: DownloadRecord
  package var identityKeys: [String]

  package init(record: DownloadRecord, identityKeys: [String]) {
    self.record = record
    self.identityKeys = identityKeys
  }
}
