// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "podcast",
  products: [
    .library(name: "PodcastKit", targets: ["PodcastKit"]),
    .executable(name: "podcast", targets: ["podcast"]),
    .executable(name: "podcast-testserver", targets: ["podcast-testserver"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    // libcurl's headers at build time; the library itself is opened on the first transfer
    // (see CCurl/include/CurlLibrary.h), so `podcast --help` does not load it.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
    .target(name: "CWriteback"),
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]
    ),
    // TagLib for episode tags: the system library supplies the headers and -ltag through
    // pkg-config; CTagLib is the C++ shim with a C interface, used only by PodcastKit/Tags.
    .systemLibrary(
      name: "CTagLibSystem",
      pkgConfig: "taglib",
      providers: [.apt(["libtag1-dev"])]
    ),
    .target(name: "CTagLib", dependencies: ["CTagLibSystem"]),
    .target(
      name: "PodcastKit",
      dependencies: [
        "CCurl",
        "CLibXML2",
        "CTagLib",
        "CWriteback",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .executableTarget(
      name: "podcast",
      dependencies: [
        "PodcastKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The loopback HTTP server the tests, `make demo` and `make bench` use. Not shipped.
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    .target(name: "LoopbackServer", dependencies: ["CZlib"]),
    .executableTarget(name: "podcast-testserver", dependencies: ["LoopbackServer"]),
    // The libFuzzer target for the feed parser: `make fuzz` builds it with `-sanitize=fuzzer
    // -D FUZZING`; the ordinary build makes a replayer for saved inputs instead. Not shipped.
    .systemLibrary(name: "CLibFuzzer"),
    .executableTarget(name: "FeedFuzzer", dependencies: ["PodcastKit", "CLibFuzzer"]),
    // GRDB directly too: the library tests open the database themselves (old schemas,
    // migrations), and PodcastKit imports GRDB only internally.
    .testTarget(
      name: "PodcastKitTests",
      dependencies: [
        "PodcastKit", "LoopbackServer", .product(name: "GRDB", package: "GRDB.swift"),
      ],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(name: "podcastTests", dependencies: ["LoopbackServer"]),
  ]
)
