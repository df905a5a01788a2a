import Basics

/// Where a response goes as it arrives. Called on the transfer thread, in order: `receive(head:)`
/// once, then `receive(_:)` for each chunk, with `flush()` after each burst of chunks (libcurl
/// hands them over 16 KiB at a time). Throwing stops the transfer with that error.
package protocol TransferSink: AnyObject {
  func receive(head: ResponseHead) throws
  func receive(_ bytes: UnsafeRawBufferPointer) throws
  func flush() throws
}

extension TransferSink {
  package func flush() throws {}
}
