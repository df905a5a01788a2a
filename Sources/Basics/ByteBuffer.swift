/// A growable run of bytes for the hot loops of a large listing: the parser's text captures
/// and the JSON writer. `[UInt8].append(contentsOf:)` goes through generic copying and a
/// uniqueness check on every call, and libxml2 hands over text in hundreds of thousands of
/// small pieces per 20,000-episode feed; here an append is a capacity check and a `memcpy`.
/// Non-copyable, so the storage has exactly one owner and no copy-on-write is needed.
/// Public, not `package`, only so the appends inline into the JSON writer of the `podcast`
/// module: `@inlinable package` ones stayed calls (2,000-episode listing 496M -> 490M
/// instructions with them inlined).
public struct ByteBuffer: ~Copyable {
  // Visible to inlined code: the JSON writer appends keys and brackets a million times per
  // large listing.
  @usableFromInline package var base: UnsafeMutablePointer<UInt8>
  @usableFromInline package var used = 0
  @usableFromInline package var capacity: Int

  public init(capacity: Int = 256) {
    self.capacity = max(capacity, 16)
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  public var count: Int { used }

  public var isEmpty: Bool { used == 0 }

  @inlinable @inline(__always)
  public mutating func append(_ byte: UInt8) {
    if used == capacity { grow(toAtLeast: used + 1) }
    base[used] = byte
    used += 1
  }

  @inlinable @inline(__always)
  public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    append(source, count: bytes.count)
  }

  @inlinable @inline(__always)
  public mutating func append(_ source: UnsafePointer<UInt8>, count added: Int) {
    if capacity - used < added { grow(toAtLeast: used + added) }
    (base + used).initialize(from: source, count: added)
    used += added
  }

  /// A literal's bytes (brackets, keys): no `String` is made for them.
  @inlinable @inline(__always)
  public mutating func append(_ text: StaticString) {
    append(text.utf8Start, count: text.utf8CodeUnitCount)
  }

  public mutating func append(utf8Of text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// `byte` `times` times (indentation).
  @inlinable @inline(__always)
  public mutating func append(repeating byte: UInt8, times: Int) {
    guard times > 0 else { return }
    if capacity - used < times { grow(toAtLeast: used + times) }
    (base + used).initialize(repeating: byte, count: times)
    used += times
  }

  public mutating func reserveCapacity(_ minimum: Int) {
    if minimum > capacity { grow(toAtLeast: minimum) }
  }

  /// Empties the buffer, keeping its storage for the next use.
  public mutating func removeAll() {
    used = 0
  }

  public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R)
    rethrows -> R
  {
    try body(UnsafeBufferPointer(start: base, count: used))
  }

  /// Exchanges contents with `other` without copying bytes.
  public mutating func swapContents(with other: inout ByteBuffer) {
    swap(&base, &other.base)
    swap(&used, &other.used)
    swap(&capacity, &other.capacity)
  }

  @usableFromInline
  package mutating func grow(toAtLeast minimum: Int) {
    var newCapacity = capacity * 2
    while newCapacity < minimum { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.initialize(from: base, count: used)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }
}
