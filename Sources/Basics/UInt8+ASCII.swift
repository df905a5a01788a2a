extension UInt8 {
  /// This byte with an ASCII capital letter made small, every other byte as it is. For the
  /// byte-level comparisons of URLs, parameter names and document heads: `| 0x20` on every
  /// byte would also turn 0x0F into "/" and 0x1A into ":". Public and inlinable so the
  /// parsers in other targets compile it in place.
  @inlinable public var asciiLowercased: UInt8 {
    self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") ? self | 0x20 : self
  }
}

extension UInt8 {
  /// An ASCII letter or digit.
  @inlinable public var isASCIILetterOrDigit: Bool {
    let lower = asciiLowercased
    return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
      || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
  }
}
