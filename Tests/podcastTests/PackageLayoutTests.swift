import Foundation
import XCTest

/// `make deb` (Scripts/deb.sh) and `make install`: the files the package holds, where, and
/// what its control file and systemd units say, and the check that what they ship starts without
/// the Swift toolchain (Scripts/check-static.sh). The tests package the debug binary
/// uncompressed (building the release binary would take minutes); lintian is not needed.
/// `make package-test` builds and tests the real package.
/// And Package.swift itself: the layers and their tests as targets that reach only downwards.
final class PackageLayoutTests: XCTestCase {
  private var work: String!
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardizedFileURL.path

  override func setUpWithError() throws {
    work = NSTemporaryDirectory() + "podcast-deb-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    if let work { try? FileManager.default.removeItem(atPath: work) }
  }

  @discardableResult
  private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    try ExternalTool.run(
      arguments[0], Array(arguments.dropFirst()), in: root, environment: environment)
  }

  func testThePackageHoldsTheBinaryManPageCompletionsUnitsAndCopyright() throws {
    try XCTSkipUnless(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb"), "needs dpkg-deb")
    let manpage = work + "/podcast.1"
    try ".TH PODCAST 1\n".write(toFile: manpage, atomically: true, encoding: .utf8)

    let deb = try run(
      ["bash", "Scripts/deb.sh", "build", PodcastBinary.url.path, manpage, work],
      environment: ["PODCAST_DEB_ALLOW_UNPACKAGED": "1", "PODCAST_DEB_COMPRESSION": "none"]
    ).trimmingCharacters(in: .whitespacesAndNewlines)

    XCTAssertTrue(deb.hasSuffix(".deb"), deb)
    let listing = try run(["dpkg-deb", "-c", deb])
    let files = listing.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("-") else { return nil }
      return line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
    }.sorted()
    XCTAssertEqual(
      files,
      [
        "./usr/bin/podcast",
        "./usr/lib/systemd/user/podcast-sync.service",
        "./usr/lib/systemd/user/podcast-sync.timer",
        "./usr/share/bash-completion/completions/podcast",
        "./usr/share/doc/podcast/changelog.gz",
        "./usr/share/doc/podcast/copyright",
        "./usr/share/fish/vendor_completions.d/podcast.fish",
        "./usr/share/man/man1/podcast.1.gz",
        "./usr/share/zsh/vendor-completions/_podcast",
      ])
    XCTAssertTrue(listing.contains("-rwxr-xr-x root/root"), "the binary, owned by root")
    XCTAssertFalse(listing.contains("-rw-rw"), "nothing group-writable")

    let depends = try run(["dpkg-deb", "-f", deb, "Depends"])
    for package in ["libcurl4 (>= 7.68.0)", "libc6", "libxml2", "libsqlite3-0", "libtag1v5"] {
      XCTAssertTrue(depends.contains(package), "\(package) in \(depends)")
    }
    XCTAssertEqual(try run(["dpkg-deb", "-f", deb, "Package"]), "podcast\n")

    // The binary is stripped, and the units say hourly, spread out and caught up.
    let unpacked = work + "/unpacked"
    _ = try run(["dpkg-deb", "-x", deb, unpacked])
    XCTAssertFalse(
      try run(["readelf", "-S", unpacked + "/usr/bin/podcast"]).contains(".symtab"), "stripped")
    let timer = try String(
      contentsOfFile: unpacked + "/usr/lib/systemd/user/podcast-sync.timer", encoding: .utf8)
    for line in [
      "OnCalendar=hourly", "RandomizedDelaySec=", "Persistent=true", "WantedBy=timers.target",
    ] {
      XCTAssertTrue(timer.contains(line), line)
    }
    let service = try String(
      contentsOfFile: unpacked + "/usr/lib/systemd/user/podcast-sync.service", encoding: .utf8)
    XCTAssertTrue(service.contains("ExecStart=/usr/bin/podcast sync --quiet"), service)
    XCTAssertTrue(
      try String(
        contentsOfFile: unpacked + "/usr/share/bash-completion/completions/podcast",
        encoding: .utf8
      ).contains("podcast"))
  }

  /// The debug binary links the Swift runtime from the toolchain, as the release binary did when
  /// SwiftPM reused a build plan made without --static-swift-stdlib: the check says so, library
  /// by library, and deb.sh packages nothing.
  func testABinaryThatNeedsTheSwiftToolchainIsRefusedAndNotPackaged() throws {
    let binary = PodcastBinary.url.path
    XCTAssertThrowsError(try run(["bash", "Scripts/check-static.sh", binary])) { error in
      let message = "\(error)"
      XCTAssertTrue(
        message.contains("needs libswiftCore.so, a library of the Swift runtime"), message)
      XCTAssertTrue(message.contains("has RUNPATH /"), message)
      XCTAssertTrue(message.contains("is not the static release build"), message)
    }

    let manpage = work + "/podcast.1"
    try ".TH PODCAST 1\n".write(toFile: manpage, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(
      try run(
        ["bash", "Scripts/deb.sh", "build", binary, manpage, work],
        environment: ["PODCAST_DEB_COMPRESSION": "none"])
    ) { error in
      XCTAssertTrue("\(error)".contains("needs libswiftCore.so"), "\(error)")
    }
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: work), ["podcast.1"],
      "no package and no staging tree left")
  }

  /// A Swift program linked as `make build` links podcast (the runtime in, RUNPATH $ORIGIN)
  /// passes; the same program with a RUNPATH to another folder does not.
  func testTheCheckPassesTheSwiftRuntimeLinkedInAndRefusesARunpathOutsideThePackage() throws {
    let source = work + "/hello.swift"
    try "print(\"hello\")\n".write(toFile: source, atomically: true, encoding: .utf8)
    for (name, runpath) in [("static", "$ORIGIN"), ("elsewhere", "/opt/elsewhere/lib")] {
      try run([
        "swiftc", "-static-stdlib", "-Xlinker", "-rpath=\(runpath)", source, "-o",
        work + "/" + name,
      ])
    }

    let passed = try run(["bash", "Scripts/check-static.sh", work + "/static"])
    XCTAssertTrue(
      passed.contains("needs no Swift runtime library and no RUNPATH but $ORIGIN"), passed)
    XCTAssertThrowsError(try run(["bash", "Scripts/check-static.sh", work + "/elsewhere"])) {
      error in
      let message = "\(error)"
      XCTAssertTrue(
        message.contains("has RUNPATH /opt/elsewhere/lib, a folder outside the package"), message)
      XCTAssertFalse(message.contains("a library of the Swift runtime"), message)
    }
  }

  /// `make install` puts the same completions and units under PREFIX. It and `make deb` ship the
  /// release binary as `make build` leaves it, checked, and neither runs a command plugin, which
  /// would build into .build without the Swift runtime linked in.
  func testMakeInstallAndDebShipTheCheckedReleaseBuildUnderThePrefix() throws {
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "needs make")
    let plan = try run(["make", "-n", "install", "PREFIX=/opt/pc", "DESTDIR=/stage"])
    let debPlan = try run(["make", "-n", "deb"])
    for steps in [plan, debPlan] {
      XCTAssertTrue(steps.contains("--static-swift-stdlib --product podcast"), steps)
      XCTAssertTrue(steps.contains("bash Scripts/check-static.sh .build/release/podcast"), steps)
      XCTAssertFalse(steps.contains("swift package"), steps)
    }
    XCTAssertTrue(plan.contains("bash Scripts/check-static.sh \"/stage/opt/pc/bin/podcast\""), plan)
    XCTAssertTrue(debPlan.contains("bash Scripts/deb.sh build .build/release/podcast"), debPlan)
    for path in [
      "/stage/opt/pc/bin/podcast", "/stage/opt/pc/share/man/man1/podcast.1",
      "/stage/opt/pc/share/bash-completion/completions/podcast",
      "/stage/opt/pc/share/zsh/site-functions/_podcast",
      "/stage/opt/pc/share/fish/vendor_completions.d/podcast.fish",
      "/stage/opt/pc/lib/systemd/user/podcast-sync.service",
      "/stage/opt/pc/lib/systemd/user/podcast-sync.timer",
    ] {
      XCTAssertTrue(plan.contains(path), "\(path) in\n\(plan)")
    }
    XCTAssertTrue(plan.contains("s|@BINDIR@|/opt/pc/bin|"), "the service runs the installed binary")
  }

  /// `make test` (and so CI) lints the whole tree, strictly, before it builds: a file
  /// `make format` would change fails the run.
  func testMakeTestLintsEveryFormattedFileBeforeItBuilds() throws {
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "needs make")
    let plan = try run(["make", "-n", "test"])
    let lint = try XCTUnwrap(
      plan.range(of: "swift format lint --strict --recursive Sources Tests Fuzz Package.swift"),
      plan)
    let build = try XCTUnwrap(plan.range(of: "swift build --build-tests"), plan)
    XCTAssertLessThan(lint.lowerBound, build.lowerBound, plan)
    XCTAssertTrue(
      try run(["make", "-n", "format"]).contains(
        "swift format --in-place --recursive Sources Tests Fuzz Package.swift"))
  }

  /// Each target imports only what Package.swift says it depends on, source targets depend
  /// only on those listed before them, and each layer's tests only on that layer and below:
  /// read from `swift package dump-package`, SwiftPM's own reading of Package.swift.
  func testEveryTargetImportsOnlyWhatItDeclaresAndTestsReachOnlyTheirLayerAndBelow() throws {
    let layout = try PackageLayout.load(root: root)
    XCTAssertTrue(layout.targets.contains { $0.name == "PodcastKit" && !$0.isTest })
    XCTAssertTrue(layout.targets.contains { $0.name == "StoreTests" && $0.isTest })
    let folders = try ["Sources", "Tests"].flatMap { top in
      try FileManager.default.contentsOfDirectory(atPath: root + "/" + top)
        .filter { !$0.hasPrefix(".") }.map { top + "/" + $0 }
    }
    let violations = try layout.violations(
      imports: { try PackageLayout.imports(of: $0, root: root) }, folders: folders)
    XCTAssertEqual(violations, [], violations.joined(separator: "\n"))
  }

  /// The rules find each kind of breach, in a made-up package.
  func testTheLayoutRulesNameEachBreach() throws {
    func target(
      _ name: String, _ type: String = "regular", _ dependencies: [String] = [],
      product: String? = nil, path: String? = nil
    ) -> String {
      let list =
        dependencies.map { #"{"byName": ["\#($0)", null]}"# }
        + (product.map { [#"{"product": ["\#($0)", "lib-package", null, null]}"#] } ?? [])
      let location = path.map { #", "path": "\#($0)""# } ?? ""
      return
        #"{"name": "\#(name)", "type": "\#(type)"\#(location), "dependencies": [\#(list.joined(separator: ","))]}"#
    }
    let targets = [
      target("Low"), target("High", "regular", ["Low"], product: "Lib"),
      target("Early", "regular", ["Late"]), target("Late"), target("LoopbackServer"),
      target("Helpers", "regular", ["High"], path: "Tests/Helpers"),
      target("LowTests", "test", ["Low", "High", "LoopbackServer", "Helpers"], product: "Lib"),
      target("HighTests", "test", ["High", "Low", "Helpers"], product: "Lib"),
      target("Checks", "test", ["Low"]),
    ]
    let layout = try PackageLayout(
      dump: Data(#"{"targets": [\#(targets.joined(separator: ","))]}"#.utf8))
    let imports: [String: [PackageLayout.Import]] = [
      "High": [
        .init(file: "Sources/High/A.swift", module: "Low"),
        .init(file: "Sources/High/A.swift", module: "Foundation"),
        .init(file: "Sources/High/A.swift", module: "Lib"),
        .init(file: "Sources/High/B.swift", module: "Late"),
      ],
      "HighTests": [.init(file: "Tests/HighTests/T.swift", module: "Low")],
      "Low": [.init(file: "Sources/Low/L.swift", module: "Lib")],
    ]
    let violations = layout.violations(
      imports: { imports[$0.name] ?? [] },
      folders: ["Sources/Low", "Sources/High", "Tests/Helpers", "Tests/HighTests", "Tests/Stray"])
    XCTAssertEqual(
      violations,
      [
        "Sources/Low/L.swift imports Lib, which Low does not declare",
        "Sources/High/B.swift imports Late, which High does not declare",
        "Early depends on Late, listed after it in Package.swift",
        "LowTests depends on High, which is neither Low nor below it, so LowTests may not use it",
        "Helpers depends on High, which is neither Low nor below it, so LowTests may not use it",
        "LowTests depends on Lib, which nothing at or below Low uses, so LowTests may not use it",
        "Checks is not named after a target it tests (<Target>Tests)",
        "Tests/Stray is no target's folder: nothing compiles its files",
      ])
  }

  /// The front end names no type of a layer PodcastKit keeps to itself; and the rule is found
  /// from the sources, not listed: a file naming any public type of any hidden layer (a store
  /// front, a directory or sync-server client written tomorrow) is caught.
  func testTheFrontEndNamesNothingOfTheLayersPodcastKitKeepsToItself() throws {
    let layout = try PackageLayout.load(root: root)
    XCTAssertEqual(layout.frontEnds.map(\.name), ["podcast"])
    let root = root
    let sources = { (target: PackageLayout.Target) in
      try PackageLayout.sources(of: target, root: root)
    }
    let violations = try layout.frontEndViolations(sources: sources)
    XCTAssertEqual(violations, [], violations.joined(separator: "\n"))

    var probed: [String] = []
    let reexports = try sources(try XCTUnwrap(layout.target("PodcastKit")))
      .map { PackageLayout.reexports(in: $0.text).types }.joined()
    for layer in ["Store", "Transfer", "Search", "AccountServer", "Source", "Fetching", "Sync"] {
      let target = try XCTUnwrap(layout.target(layer))
      // Those PodcastKit re-exports one by one are the front end's to name.
      let hidden = try sources(target).flatMap {
        PackageLayout.declaredTypes(in: $0.text, topLevelPublicOnly: true)
      }.sorted().filter { !reexports.contains($0) }
      guard let name = hidden.first else { continue }
      let probe = PackageLayout.SourceFile(
        path: "Sources/podcast/Probe.swift", text: "func probe(_ value: \(name)?) {}\n")
      let caught = try layout.frontEndViolations { target in
        try sources(target) + (target.name == "podcast" ? [probe] : [])
      }
      XCTAssertEqual(caught.count, 1, "\(layer).\(name): \(caught)")
      XCTAssertTrue(
        caught.first?.hasPrefix("Sources/podcast/Probe.swift names \(name), a public type of ")
          == true, "\(caught)")
      probed.append(layer)
    }
    XCTAssertEqual(probed.count, 7, "every hidden layer has a public type to probe: \(probed)")
  }

  /// The front-end rule in a made-up package: names in code are caught, wherever they stand
  /// (an interpolation is code); names in comments and text are not; what the library
  /// re-exports, whole or one by one, and what the front end declares itself are its own.
  func testTheFrontEndRuleCatchesNamesInCodeAndADependencyOnAHiddenLayer() throws {
    let dump = #"""
      {"targets": [
        {"name": "Low", "type": "regular", "dependencies": []},
        {"name": "Hidden", "type": "regular", "dependencies": [{"byName": ["Low", null]}]},
        {"name": "Lib", "type": "regular",
         "dependencies": [{"byName": ["Low", null]}, {"byName": ["Hidden", null]}]},
        {"name": "app", "type": "executable", "dependencies": [{"byName": ["Lib", null]}]},
        {"name": "tool", "type": "executable",
         "dependencies": [{"byName": ["Lib", null]}, {"byName": ["Hidden", null]}]},
        {"name": "server", "type": "executable", "dependencies": [{"byName": ["Low", null]}]}
      ],
      "products": [{"name": "Lib", "type": {"library": ["automatic"]}, "targets": ["Lib"]}]}
      """#
    let layout = try PackageLayout(dump: Data(dump.utf8))
    XCTAssertEqual(layout.frontEnds.map(\.name), ["app", "tool"])
    let files: [String: [PackageLayout.SourceFile]] = [
      "Low": [.init(path: "Sources/Low/V.swift", text: "public struct Value {}\n")],
      "Hidden": [
        .init(
          path: "Sources/Hidden/H.swift",
          text: """
            public final class Front {}
            public struct Client {
              public struct Nested {}
            }
            public enum Shown {}
            struct Internal {}
            package actor Keeper {}
            public struct Value {}
            public struct Mine {}
            """)
      ],
      "Lib": [
        .init(
          path: "Sources/Lib/L.swift",
          text:
            "@_exported import Low\n@_exported import enum Hidden.Shown\npublic struct UseCase {}\n"
        )
      ],
      "app": [
        .init(
          path: "Sources/app/A.swift",
          text: #"""
            import Lib
            // Front and Client in a comment, /* Keeper */ too
            let text = "Client \(UseCase()) Keeper"
            let shown: Shown? = nil, value = Value(), nested = Nested()
            struct Mine {}
            let mine = Mine()
            """#),
        .init(
          path: "Sources/app/B.swift",
          text: ##"""
            let front = Front()
            let raw = #"\(Client) \#(Keeper())"#
            let block = """
              \(Internal()) Front
              """
            """##),
      ],
      "tool": [],
    ]
    let violations = layout.frontEndViolations { files[$0.name] ?? [] }
    let tail = "that Lib does not re-export: a front end reaches it only through a use case"
    XCTAssertEqual(
      violations,
      [
        "Sources/app/B.swift names Front, a public type of Hidden \(tail)",
        "Sources/app/B.swift names Keeper, a public type of Hidden \(tail)",
        "tool depends on Hidden, a layer Lib does not re-export: a front end reaches it only through a use case",
      ])
  }

  /// What a line imports, however it is written.
  func testAnImportIsReadWhateverItsAttributesAndKind() {
    let lines = [
      "import Feeds": "Feeds", "@testable import Store": "Store",
      "  @_exported import Model": "Model", "internal import GRDB": "GRDB",
      "import struct Basics.Validators": "Basics", "\timport Glibc  // the C library": "Glibc",
    ]
    for (line, module) in lines {
      XCTAssertEqual(PackageLayout.importedModule(Substring(line)), module, line)
    }
    for line in ["// import Feeds", "let important = 1", "imports Feeds", "import"] {
      XCTAssertNil(PackageLayout.importedModule(Substring(line)), line)
    }
  }
}
