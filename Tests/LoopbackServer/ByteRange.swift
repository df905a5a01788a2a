import Foundation

/// A `Range: bytes=...` request header resolved against a body's size. Only single ranges
/// are honoured (`N-`, `N-M`, `-SUFFIX`); anything else is ignored, as RFC 9110 allows.
enum ByteRange: Equatable {
  case whole
  case partial(Range<Int>)
  case unsatisfiable

  static func resolve(_ header: String?, size: Int) -> ByteRange {
    guard let header else { return .whole }
    let spec = header.trimmingCharacters(in: .whitespaces)
    guard spec.lowercased().hasPrefix("bytes="), !spec.contains(",") else { return .whole }
    let bounds = spec.dropFirst("bytes=".count).split(
      separator: "-", omittingEmptySubsequences: false)
    guard bounds.count == 2 else { return .whole }
    let first = bounds[0].trimmingCharacters(in: .whitespaces)
    let last = bounds[1].trimmingCharacters(in: .whitespaces)

    if first.isEmpty {
      guard let suffix = Int(last) else { return .whole }
      guard suffix > 0, size > 0 else { return .unsatisfiable }
      return .partial(max(0, size - suffix)..<size)
    }
    guard let start = Int(first), start >= 0 else { return .whole }
    guard start < size else { return .unsatisfiable }
    guard !last.isEmpty else { return .partial(start..<size) }
    guard let end = Int(last), end >= start else { return .whole }
    return .partial(start..<(min(end, size - 1) + 1))
  }
}
