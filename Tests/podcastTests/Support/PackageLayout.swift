import Foundation

/// The package's targets as SwiftPM reads Package.swift (`swift package dump-package`), and the
/// rules that keep its layers honest. A transitive import compiles, so only these rules notice
/// a file reaching past what its target declares.
struct PackageLayout {
  struct Target {
    var name: String
    var isTest: Bool
    var isExecutable = false
    /// Relative to the package root.
    var directory: String
    /// Targets of this package it depends on.
    var targets: [String]
    /// Products of other packages it depends on.
    var products: [String]

    /// Code under Tests/ that is no test target: a helper for the tests, as high as what it needs.
    var isTestSupport: Bool { !isTest && directory.hasPrefix("Tests/") }
  }

  struct Import: Equatable {
    var file: String
    var module: String
  }

  /// In Package.swift's order.
  var targets: [Target]
  /// The targets of the library products: the top of the layers, what a front end stands on.
  var libraries: Set<String> = []
  /// What any test target may use beside its layer: the loopback server stands in for the
  /// network, and is no layer.
  var testTools: Set<String> = ["LoopbackServer"]

  init(dump: Data) throws {
    let object = try JSONSerialization.jsonObject(with: dump) as? [String: Any]
    let entries = object?["targets"] as? [[String: Any]] ?? []
    let names = Set(entries.compactMap { $0["name"] as? String })
    targets = try entries.map { entry in
      guard let name = entry["name"] as? String, let type = entry["type"] as? String else {
        throw PackageLayoutError(description: "a target without a name or type: \(entry)")
      }
      var target = Target(
        name: name, isTest: type == "test", isExecutable: type == "executable",
        directory: entry["path"] as? String ?? (type == "test" ? "Tests/" : "Sources/") + name,
        targets: [], products: [])
      // Each dependency is one of {"byName": [name, condition]}, {"target": [...]} or
      // {"product": [name, package, ...]}; a name given alone may be a product too.
      for dependency in entry["dependencies"] as? [[String: [Any]]] ?? [] {
        for (kind, value) in dependency {
          guard let dependencyName = value.first as? String else { continue }
          if kind != "product" && names.contains(dependencyName) {
            target.targets.append(dependencyName)
          } else {
            target.products.append(dependencyName)
          }
        }
      }
      return target
    }
    if targets.isEmpty {
      throw PackageLayoutError(description: "dump-package listed no targets")
    }
    for product in object?["products"] as? [[String: Any]] ?? [] {
      guard let type = product["type"] as? [String: Any], type["library"] != nil else { continue }
      libraries.formUnion(product["targets"] as? [String] ?? [])
    }
  }

  /// Reads Package.swift in `root`. `swift test` holds the lock of the package's own .build
  /// while the tests run, so the manifest is read with a scratch directory of its own.
  static func load(root: String) throws -> PackageLayout {
    let scratch = NSTemporaryDirectory() + "podcast-dump-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let dump = try ExternalTool.run(
      "swift", ["package", "--scratch-path", scratch, "dump-package"], in: root)
    return try PackageLayout(dump: Data(dump.utf8))
  }

  /// Every module the Swift files of `target` import, found under `root`.
  static func imports(of target: Target, root: String) throws -> [Import] {
    let directory = root + "/" + target.directory
    guard let files = FileManager.default.enumerator(atPath: directory) else { return [] }
    var imports: [Import] = []
    for case let file as String in files where file.hasSuffix(".swift") {
      let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
      for line in text.split(separator: "\n") {
        if let module = importedModule(line) {
          imports.append(Import(file: target.directory + "/" + file, module: module))
        }
      }
    }
    return imports
  }

  /// `import X`, `@testable import X`, `internal import X`, `import struct X.Y`: X.
  static func importedModule(_ line: Substring) -> String? {
    var words = line.split(whereSeparator: \.isWhitespace)
    while let first = words.first, first.hasPrefix("@") || accessLevels.contains(String(first)) {
      words.removeFirst()
    }
    guard words.first == "import", words.count >= 2 else { return nil }
    let path = importKinds.contains(String(words[1])) && words.count >= 3 ? words[2] : words[1]
    return path.split(separator: ".").first.map(String.init)
  }

  private static let accessLevels: Set = [
    "public", "package", "internal", "fileprivate", "private",
  ]
  private static let importKinds: Set = [
    "struct", "class", "enum", "protocol", "typealias", "func", "let", "var",
  ]

  /// One sentence for each broken rule, nothing when the layout holds:
  /// - a file imports only modules of this package its target declares (no transitive reach);
  /// - a source target depends only on targets listed before it;
  /// - a test target is named after the target it tests, `<Layer>Tests`, and depends only on
  ///   that layer and what it stands on (plus the test tools, and test support that itself
  ///   stands no higher);
  /// - every folder in Sources/ and Tests/ is a target's (a stray one is never compiled).
  func violations(imports: (Target) throws -> [Import], folders: [String]) rethrows -> [String] {
    var found: [String] = []
    let modules = Set(targets.map(\.name) + targets.flatMap(\.products))
    for target in targets {
      let declared = Set(target.targets + target.products)
      for used in try imports(target)
      where modules.contains(used.module) && used.module != target.name
        && !declared.contains(used.module)
      {
        found.append("\(used.file) imports \(used.module), which \(target.name) does not declare")
      }
    }
    let order = Dictionary(
      targets.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
    for (index, target) in targets.enumerated() where !target.isTest {
      for dependency in target.targets where order[dependency, default: .max] > index {
        found.append("\(target.name) depends on \(dependency), listed after it in Package.swift")
      }
    }
    for target in targets where target.isTest {
      found += testViolations(target)
    }
    let directories = Set(targets.map(\.directory))
    for folder in folders where !directories.contains(folder) {
      found.append("\(folder) is no target's folder: nothing compiles its files")
    }
    return found
  }

  func target(_ name: String) -> Target? { targets.first { $0.name == name } }

  private func testViolations(_ test: Target) -> [String] {
    let layerName = test.name.hasSuffix("Tests") ? String(test.name.dropLast(5)) : ""
    guard let layer = target(layerName), !layer.isTest else {
      return ["\(test.name) is not named after a target it tests (<Target>Tests)"]
    }
    let below = standingOn(layer)
    let productsBelow = Set(below.compactMap(target).flatMap(\.products))
    var found: [String] = []
    func check(_ user: Target) {
      for dependency in user.targets where !below.contains(dependency) {
        guard !testTools.contains(dependency) else { continue }
        if let support = target(dependency), support.isTestSupport {
          check(support)
        } else {
          found.append(
            "\(user.name) depends on \(dependency), which is neither \(layer.name) nor below it, "
              + "so \(test.name) may not use it")
        }
      }
      for product in user.products where !productsBelow.contains(product) {
        found.append(
          "\(user.name) depends on \(product), which nothing at or below \(layer.name) uses, "
            + "so \(test.name) may not use it")
      }
    }
    check(test)
    return found
  }

  /// `target` and every target it depends on, directly or not.
  func standingOn(_ target: Target) -> Set<String> {
    var reached: Set = [target.name]
    var pending = target.targets
    while let name = pending.popLast() {
      guard reached.insert(name).inserted, let next = self.target(name) else { continue }
      pending += next.targets
    }
    return reached
  }
}

struct PackageLayoutError: Error, CustomStringConvertible {
  let description: String
}
