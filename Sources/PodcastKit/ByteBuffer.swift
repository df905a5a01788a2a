/// A growable run of bytes for the hot loops of a large listing: the parser's text captures
/// and the JSON writer. `[UInt8].append(contentsOf:)` goes through generic copying and a
/// uniqueness check on every call, and libxml2 hands over text in hundreds of thousands of
/// small pieces per 20,000-episode feed; here an append is a capacity check and a `memcpy`.
/// Non-copyable, so the storage has exactly one owner and no copy-on-write is needed.
package struct ByteBuffer: ~Copyable {
  // Visible to inlined code: the JSON writer in the `podcast` module appends keys and
  // brackets a million times per large listing, and a call for each was 2% of it.
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @usableFromInline package internal(set) var count = 0
  @usableFromInline var capacity: Int

  package init(capacity: Int = 256) {
    self.capacity = max(capacity, 16)
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  package var isEmpty: Bool { count == 0 }

  @inlinable @inline(__always)
  package mutating func append(_ byte: UInt8) {
    if count == capacity { grow(toAtLeast: count + 1) }
    base[count] = byte
    count += 1
  }

  @inlinable @inline(__always)
  package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    append(source, count: bytes.count)
  }

  @inlinable @inline(__always)
  package mutating func append(_ source: UnsafePointer<UInt8>, count added: Int) {
    if capacity - count < added { grow(toAtLeast: count + added) }
    (base + count).initialize(from: source, count: added)
    count += added
  }

  /// A literal's bytes (brackets, keys): no `String` is made for them.
  @inlinable @inline(__always)
  package mutating func append(_ text: StaticString) {
    append(text.utf8Start, count: text.utf8CodeUnitCount)
  }

  package mutating func append(utf8Of text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  package mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// `byte` `times` times (indentation).
  package mutating func append(repeating byte: UInt8, times: Int) {
    guard times > 0 else { return }
    if capacity - count < times { grow(toAtLeast: count + times) }
    (base + count).initialize(repeating: byte, count: times)
    count += times
  }

  package mutating func reserveCapacity(_ minimum: Int) {
    if minimum > capacity { grow(toAtLeast: minimum) }
  }

  /// Empties the buffer, keeping its storage for the next use.
  package mutating func removeAll() {
    count = 0
  }

  /// Drops the last `k` bytes.
  package mutating func removeLast(_ k: Int) {
    count -= min(k, count)
  }

  package func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R)
    rethrows -> R
  {
    try body(UnsafeBufferPointer(start: base, count: count))
  }

  /// The bytes in an array of their own size.
  package var array: [UInt8] {
    Array(UnsafeBufferPointer(start: base, count: count))
  }

  /// Exchanges contents with `other` without copying bytes.
  package mutating func swapContents(with other: inout ByteBuffer) {
    swap(&base, &other.base)
    swap(&count, &other.count)
    swap(&capacity, &other.capacity)
  }

  @usableFromInline
  mutating func grow(toAtLeast minimum: Int) {
    var newCapacity = capacity * 2
    while newCapacity < minimum { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.initialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }
}
