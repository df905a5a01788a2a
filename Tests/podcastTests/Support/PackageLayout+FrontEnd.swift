import Foundation

/// The front-end rule: a front end (an executable standing on the library product) parses
/// flags, calls a use case and prints. It names nothing of the layers the library keeps to
/// itself (a store front, a directory or sync-server client, the transfer engine): every public
/// type of a layer below the library that the library does not re-export is off limits, found
/// from the sources, so a new front or client is covered the day it is written.
extension PackageLayout {
  struct SourceFile {
    /// Relative to the package root.
    var path: String
    var text: String
  }

  /// The executables that stand on a library product: `podcast`.
  var frontEnds: [Target] {
    targets.filter { target in
      target.isExecutable && !target.isTestSupport
        && target.targets.contains { libraries.contains($0) }
    }
  }

  /// One sentence per breach: a front end that depends on a layer the library hides, or a
  /// file of it that names a public type of one.
  func frontEndViolations(sources: (Target) throws -> [SourceFile]) rethrows -> [String] {
    var found: [String] = []
    for frontEnd in frontEnds {
      let library = frontEnd.targets.filter { libraries.contains($0) }
      let layers = Set(library.flatMap { standingOn(target($0)!) }).subtracting(library)
      var reexported = (modules: Set<String>(), types: Set<String>())
      var allowed = Set<String>()
      for name in library {
        let files = try sources(target(name)!)
        let exports = files.map { Self.reexports(in: $0.text) }
        reexported.modules.formUnion(exports.flatMap(\.modules))
        reexported.types.formUnion(exports.flatMap(\.types))
        allowed.formUnion(
          files.flatMap { Self.declaredTypes(in: $0.text, topLevelPublicOnly: true) })
      }
      for module in reexported.modules {
        if let layer = target(module) {
          allowed.formUnion(
            try sources(layer).flatMap { Self.declaredTypes(in: $0.text, topLevelPublicOnly: true) }
          )
        }
      }
      allowed.formUnion(reexported.types)
      for dependency in frontEnd.targets where layers.contains(dependency) {
        if !reexported.modules.contains(dependency) {
          found.append(
            "\(frontEnd.name) depends on \(dependency), a layer \(library.joined(separator: ", ")) "
              + "does not re-export: a front end reaches it only through a use case")
        }
      }
      var hidden: [String: String] = [:]
      for layer in layers.sorted() where !reexported.modules.contains(layer) {
        guard let layerTarget = target(layer), !layerTarget.isTest else { continue }
        for file in try sources(layerTarget) {
          for name in Self.declaredTypes(in: file.text, topLevelPublicOnly: true)
          where !allowed.contains(name) {
            hidden[name] = hidden[name] ?? layer
          }
        }
      }
      let files = try sources(frontEnd)
      let ownNames = Set(
        files.flatMap { Self.declaredTypes(in: $0.text, topLevelPublicOnly: false) })
      for file in files.sorted(by: { $0.path < $1.path }) {
        for name in SwiftNames.identifiers(in: file.text).sorted() where !ownNames.contains(name) {
          guard let layer = hidden[name] else { continue }
          found.append(
            "\(file.path) names \(name), a public type of \(layer) that "
              + "\(library.joined(separator: ", ")) does not re-export: "
              + "a front end reaches it only through a use case")
        }
      }
    }
    return found
  }

  /// The Swift files of `target` under `root`.
  static func sources(of target: Target, root: String) throws -> [SourceFile] {
    let directory = root + "/" + target.directory
    guard let files = FileManager.default.enumerator(atPath: directory) else { return [] }
    var sources: [SourceFile] = []
    for case let file as String in files where file.hasSuffix(".swift") {
      sources.append(
        SourceFile(
          path: target.directory + "/" + file,
          text: try String(contentsOfFile: directory + "/" + file, encoding: .utf8)))
    }
    return sources
  }

  /// `@_exported import Model` (a whole module) and `@_exported import struct Sync.SyncPlan`
  /// (one type).
  static func reexports(in text: String) -> (modules: [String], types: [String]) {
    var modules: [String] = []
    var types: [String] = []
    for line in text.split(separator: "\n") {
      let words = line.split(whereSeparator: \.isWhitespace)
      guard words.first == "@_exported", let module = importedModule(line) else { continue }
      if let last = words.last, last.contains(".") {
        types.append(String(last.split(separator: ".").last!))
      } else {
        modules.append(module)
      }
    }
    return (modules, types)
  }

  /// The types a file declares: with `topLevelPublicOnly`, those a module shows others
  /// (`public`, `open` or `package`, not nested); else every one, at any depth.
  static func declaredTypes(in text: String, topLevelPublicOnly: Bool) -> [String] {
    var names: [String] = []
    for line in text.split(separator: "\n") {
      if topLevelPublicOnly && line.first?.isWhitespace == true { continue }
      var words = line.split(whereSeparator: \.isWhitespace)[...]
      var shown = false
      while let word = words.first, Self.modifiers.contains(String(word)) || word.hasPrefix("@") {
        if ["public", "open", "package"].contains(word) { shown = true }
        words = words.dropFirst()
      }
      guard words.count >= 2, let kind = words.first, Self.typeKinds.contains(String(kind)),
        !topLevelPublicOnly || shown
      else { continue }
      let name = words.dropFirst().first!.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      if !name.isEmpty { names.append(String(name)) }
    }
    return names
  }

  private static let modifiers: Set = [
    "public", "open", "package", "internal", "fileprivate", "private", "final", "indirect",
    "nonisolated",
  ]
  private static let typeKinds: Set = ["struct", "class", "enum", "actor", "protocol", "typealias"]
}

/// The names a Swift file uses in its code: identifiers outside comments and string literals
/// (interpolations inside strings are code, and are read).
enum SwiftNames {
  static func identifiers(in text: String) -> Set<String> {
    var names = Set<String>()
    let scalars = Array(text.unicodeScalars)
    var index = 0
    // Open string literals, innermost last: its quote count (1 or 3), its `#` count, and
    // the parentheses open in the interpolation being read inside it, if one is.
    var strings: [(quotes: Int, hashes: Int, depth: Int?)] = []

    func at(_ offset: Int) -> Unicode.Scalar? {
      index + offset < scalars.count ? scalars[index + offset] : nil
    }
    func matches(_ text: String, from offset: Int = 0) -> Bool {
      for (position, scalar) in text.unicodeScalars.enumerated()
      where at(offset + position) != scalar {
        return false
      }
      return true
    }
    while index < scalars.count {
      if let open = strings.last, open.depth == nil {
        // Inside a literal: look for its end or an interpolation.
        let hashes = String(repeating: "#", count: open.hashes)
        let end = String(repeating: "\"", count: open.quotes) + hashes
        if scalars[index] == "\\" && matches(hashes + "(", from: 1) {
          strings[strings.count - 1].depth = 0
          index += 2 + open.hashes
        } else if scalars[index] == "\\" && open.hashes == 0 {
          index += 2
        } else if matches(end) {
          strings.removeLast()
          index += end.unicodeScalars.count
        } else {
          index += 1
        }
        continue
      }
      let scalar = scalars[index]
      if matches("//") {
        while index < scalars.count, scalars[index] != "\n" { index += 1 }
      } else if matches("/*") {
        var depth = 0
        repeat {
          if matches("/*") {
            depth += 1
            index += 2
          } else if matches("*/") {
            depth -= 1
            index += 2
          } else {
            index += 1
          }
        } while depth > 0 && index < scalars.count
      } else if scalar == "#" || scalar == "\"" {
        var hashes = 0
        while at(hashes) == "#" { hashes += 1 }
        guard at(hashes) == "\"" else {
          index += max(1, hashes)
          continue
        }
        let quotes = matches("\"\"\"", from: hashes) ? 3 : 1
        strings.append((quotes, hashes, nil))
        index += hashes + quotes
      } else if scalar == "(" || scalar == ")" {
        if let open = strings.last, let depth = open.depth {
          if scalar == ")" && depth == 0 {
            strings[strings.count - 1].depth = nil
          } else {
            strings[strings.count - 1].depth = depth + (scalar == "(" ? 1 : -1)
          }
        }
        index += 1
      } else if scalar == "_" || scalar.properties.isAlphabetic {
        var name = String.UnicodeScalarView()
        while let next = at(0),
          next == "_" || next.properties.isAlphabetic
            || ("0"..."9").contains(next)
        {
          name.append(next)
          index += 1
        }
        names.insert(String(name))
      } else {
        index += 1
      }
    }
    return names
  }
}
