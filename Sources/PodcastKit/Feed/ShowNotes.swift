/// An episode's show notes as the UTF-8 bytes libxml2 produced. They are most of a feed's
/// size and most callers only copy them into JSON, so they stay bytes: building a `String`
/// validates every byte again, which was a tenth of the work of `episodes --json`.
public struct ShowNotes: Sendable, Equatable {
  /// Valid UTF-8: libxml2 only hands out UTF-8, and `init(_:)` takes a `String`.
  public let utf8: [UInt8]

  public init(_ text: String) {
    utf8 = Array(text.utf8)
  }

  init(bytes: [UInt8]) {
    utf8 = bytes
  }

  public var text: String { String(decoding: utf8, as: UTF8.self) }
}
