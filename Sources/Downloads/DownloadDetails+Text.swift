import Foundation

extension DownloadDetails {
  /// `encoded`'s text, written here as `JSONEncoder` with sorted keys writes it, for the
  /// details every queued download has: the encoder's generic machinery was 1.9% of a first
  /// sync's CPU. Nil for what this does not write (the info file's details, text with a
  /// control character): `encoded` asks `JSONEncoder` then. `DownloadDetailsTests` holds the
  /// two to the same text.
  var directText: String? {
    guard info == nil else { return nil }
    var object = JSONObjectText()
    object.add("d", number: published?.timeIntervalSinceReferenceDate)
    object.add("f", string: folderCoverURL)
    object.add("h", string: chaptersURL)
    object.add("l", integer: declaredLength)
    object.add("m", string: mimeType)
    object.add("p", string: relativePath)
    object.add("s", objects: transcripts?.map(\.directText))
    object.add("t", object: tagging.map(\.directText))
    return object.text
  }
}

extension DownloadDetails.Tagging {
  fileprivate var directText: String? {
    var object = JSONObjectText()
    object.add("a", string: podcast)
    object.add("c", string: comment)
    object.add("g", string: genre)
    object.add("n", integer: number.map(Int64.init))
    object.add("r", string: author)
    object.add("s", integer: season.map(Int64.init))
    object.add("t", string: title)
    object.add("u", objects: coverURLs?.map(JSONObjectText.string))
    return object.text
  }
}

extension DownloadDetails.TranscriptLink {
  fileprivate var directText: String? {
    var object = JSONObjectText()
    object.add("g", string: language)
    object.add("u", string: url)
    object.add("y", string: type)
    return object.text
  }
}

/// One JSON object's text, its members added in key order, an absent (nil) value left out;
/// nil once a value could not be written (a string with a control character, which
/// `JSONEncoder` escapes its own way).
private struct JSONObjectText {
  private var members: [String] = []
  private var failed = false

  var text: String? { failed ? nil : "{" + members.joined(separator: ",") + "}" }

  mutating func add(_ key: String, string value: String?) {
    guard let value else { return }
    add(key, text: Self.string(value))
  }

  mutating func add(_ key: String, integer value: Int64?) {
    guard let value else { return }
    add(key, text: String(value))
  }

  mutating func add(_ key: String, number value: Double?) {
    guard let value else { return }
    add(key, text: Self.number(value))
  }

  /// `value`: each element's text, nil for one that could not be written.
  mutating func add(_ key: String, objects value: [String?]?) {
    guard let value else { return }
    add(
      key,
      text: value.contains(nil) ? nil : "[" + value.compactMap { $0 }.joined(separator: ",") + "]")
  }

  /// `value`: the object's text, `.some(nil)` for one that could not be written.
  mutating func add(_ key: String, object value: String??) {
    guard let value else { return }
    add(key, text: value)
  }

  private mutating func add(_ key: String, text: String?) {
    guard let text else {
      failed = true
      return
    }
    members.append("\"\(key)\":\(text)")
  }

  /// As `JSONEncoder` writes a string by default: quotes, backslashes and slashes escaped.
  static func string(_ value: String) -> String? {
    var text = "\""
    text.reserveCapacity(value.utf8.count + 2)
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "/": text += "\\/"
      default:
        if scalar.value < 0x20 { return nil }
        text.unicodeScalars.append(scalar)
      }
    }
    return text + "\""
  }

  /// As `JSONEncoder` writes a `Double`: its shortest form, a whole number without ".0".
  static func number(_ value: Double) -> String? {
    guard value.isFinite else { return nil }
    let text = value.description
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
}
