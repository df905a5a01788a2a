import Foundation
import XCTest

/// `make deb` (Scripts/deb.sh) and `make install`: the files the package holds, where, and
/// what its control file and systemd units say, and the check that what they ship starts without
/// the Swift toolchain (Scripts/check-static.sh). The tests package the debug binary
/// uncompressed (building the release binary would take minutes); lintian is not needed.
/// `make package-test` builds and tests the real package.
final class PackageLayoutTests: XCTestCase {
  private var work: String!
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardizedFileURL.path

  override func setUpWithError() throws {
    try XCTSkipUnless(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb"), "needs dpkg-deb")
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
}
