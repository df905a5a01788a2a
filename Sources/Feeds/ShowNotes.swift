import Basics

/// An episode's show notes as the UTF-8 bytes libxml2 produced. They are most of a feed's
/// size and most callers only copy them into JSON, so they stay bytes: building a `String`
/// validates every byte again, which was a tenth of the work of `episodes --json`. In a large
/// feed they wait in a `ShowNotesSpool` file instead of memory.
public struct ShowNotes: Sendable, Equatable {
  private enum Storage: Sendable {
    case inline([UInt8])
    case spooled(ShowNotesSpool, Range<Int>)
  }

  private let storage: Storage

  public init(_ text: String) {
    storage = .inline(Array(text.utf8))
  }

  package init(bytes: [UInt8]) {
    storage = .inline(bytes)
  }

  package init(spool: ShowNotesSpool, range: Range<Int>) {
    storage = .spooled(spool, range)
  }

  /// Valid UTF-8: libxml2 only hands out UTF-8, and `init(_:)` takes a `String`. Empty when
  /// a spooled copy can no longer be read (the temporary file is gone).
  public var utf8: [UInt8] {
    switch storage {
    case .inline(let bytes): return bytes
    case .spooled(let spool, let range): return spool.read(range) ?? []
    }
  }

  /// The same bytes as `utf8`, lent for the call: spooled notes are read where they lie
  /// instead of copied into an array first (an allocation and copy per episode of a large
  /// listing).
  public func withUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    switch storage {
    case .inline(let bytes): bytes.withUnsafeBufferPointer(body)
    case .spooled(let spool, let range):
      spool.withBytes(range) { body($0 ?? UnsafeBufferPointer(start: nil, count: 0)) }
    }
  }

  public var text: String { String(decoding: utf8, as: UTF8.self) }

  /// How many bytes these notes hold in memory; nil for notes in a spool file.
  package var inlineCount: Int? {
    guard case .inline(let bytes) = storage else { return nil }
    return bytes.count
  }

  /// The same notes in `spool` instead of memory; nil when the spool cannot take them.
  package func spooled(into spool: ShowNotesSpool) -> ShowNotes? {
    guard case .inline(let bytes) = storage else { return self }
    guard let range = bytes.withUnsafeBufferPointer({ spool.append($0) }) else { return nil }
    return ShowNotes(spool: spool, range: range)
  }

  public static func == (a: ShowNotes, b: ShowNotes) -> Bool { a.utf8 == b.utf8 }
}
