// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "podcast",
  products: [
    .library(name: "PodcastKit", targets: ["PodcastKit"]),
    .executable(name: "podcast", targets: ["podcast"]),
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
    // pkg-config; CTagLib is the C++ shim with a C interface, used only by the Tags target.
    .systemLibrary(
      name: "CTagLibSystem",
      pkgConfig: "taglib",
      providers: [.apt(["libtag1-dev"])]
    ),
    .target(name: "CTagLib", dependencies: ["CTagLibSystem"]),
    // zlib: the library's copies of feeds are kept gzip-compressed (and the loopback server
    // gzips bodies on request).
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // The layers, bottom to top. A target depends only on targets above it in this list, so
    // an upward import does not compile. PodcastKit, the one library product, is the top.
    .target(name: "Basics"),
    .target(name: "Privacy", dependencies: ["Basics"]),
    // The only code that touches libcurl.
    .target(name: "Transfer", dependencies: ["Basics", "Privacy", "CCurl"]),
    // The only code that touches libxml2: feeds and OPML read into values (and written as
    // JSON, their secrets masked).
    .target(name: "Feeds", dependencies: ["Basics", "Privacy", "CLibXML2"]),
    // What the full-text index reads and asks, pure and a leaf: transcripts and chapters into
    // timed passages (which the archive pages show too), HTML into text (show notes for the
    // index and for tags), a person's query into FTS5's syntax, matches into moments with
    // snippets.
    .target(name: "FullText"),
    // The only code that touches TagLib: tags read and written in a file on disk.
    .target(name: "Tags", dependencies: ["Basics", "Feeds", "FullText", "CTagLib"]),
    .target(name: "Selection", dependencies: ["Basics", "Feeds"]),
    .target(name: "Search", dependencies: ["Basics", "Transfer"]),
    .target(name: "Source", dependencies: ["Basics", "Feeds", "Privacy", "Search", "Transfer"]),
    // The client of the account's server (gpodder.net API v2, Nextcloud gPodder Sync): login,
    // devices, subscription changes and episode actions, values in and out, over Transfer.
    .target(name: "AccountServer", dependencies: ["Basics", "Privacy", "Transfer"]),
    // The domain's values and rules, without a database: episode identity, file names,
    // subscription names and settings, the download state machine's table, OPML values.
    .target(name: "Model", dependencies: ["Basics", "Feeds", "Selection"]),
    // The SQLite store: schema, rows, the kept copies of feeds, the sweep and the lock. GRDB
    // stays inside.
    .target(
      name: "Store",
      dependencies: [
        "Basics", "Feeds", "FullText", "Model", "CZlib",
        .product(name: "GRDB", package: "GRDB.swift"),
        // SQLite's own calls, for the statements every feed and download runs (`SQLValue`).
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    // One remote file fetched to disk: partial files, resumable sinks, retries, body checks,
    // per-host turns and the progress buffer keyed by remote URL.
    .target(name: "Fetching", dependencies: ["Basics", "Model", "Transfer", "CWriteback"]),
    .target(
      name: "SideFiles",
      dependencies: [
        "Basics", "Feeds", "Fetching", "FullText", "Model", "Privacy", "Store", "Tags",
        "Transfer",
      ]
    ),
    // The per-episode state machine: fetch, check, tag, finish, record.
    .target(
      name: "Downloads",
      dependencies: [
        "Basics", "Feeds", "Fetching", "Model", "Privacy", "Selection", "SideFiles", "Source",
        "Store", "Tags", "Transfer",
      ]
    ),
    .target(
      name: "Sync",
      dependencies: [
        "Basics", "Downloads", "Feeds", "Fetching", "Model", "Selection", "SideFiles", "Source",
        "Store", "Tags", "Transfer",
      ]
    ),
    // The exchange with the library's account: the rules of reconciling subscriptions, of
    // the outbox of episode actions and of taking in plays, run against its server.
    .target(
      name: "Exchange",
      dependencies: ["AccountServer", "Basics", "Model", "Privacy", "Store", "Transfer"]
    ),
    // What the user's own files say: config.toml (read into the flags it gives defaults for,
    // each value checked as its flag would be) and ~/.netrc.
    .target(
      name: "Config",
      dependencies: ["Basics", "Model", "Search", "Selection", "SideFiles", "Transfer"]),
    // The use cases: one type per thing a user does.
    .target(
      name: "PodcastKit",
      dependencies: [
        "AccountServer", "Basics", "Config", "Downloads", "Exchange", "Feeds", "Fetching",
        "FullText", "Model", "Privacy", "Search", "Selection", "SideFiles", "Source", "Store",
        "Sync", "Tags", "Transfer",
      ]
    ),
    .executableTarget(
      name: "podcast",
      dependencies: [
        "PodcastKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Test tooling, kept beside the tests and declared as no product (SwiftPM still builds
    // each executable by its name: `swift build --product podcast-testserver`). Not shipped.
    // The loopback HTTP server the tests, `make demo` and `make bench` use, and its command.
    .target(name: "LoopbackServer", dependencies: ["CZlib"], path: "Tests/LoopbackServer"),
    .executableTarget(
      name: "podcast-testserver", dependencies: ["LoopbackServer"],
      path: "Tests/podcast-testserver"),
    // The libFuzzer target for the feed parser: `make fuzz` builds it with `-sanitize=fuzzer
    // -D FUZZING`; the ordinary build makes a replayer for saved inputs instead.
    .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
    .executableTarget(
      name: "FeedFuzzer", dependencies: ["Feeds", "CLibFuzzer"], path: "Fuzz/FeedFuzzer"),
    // Helpers that more than one test target uses, each as high as what it needs, so the
    // tests of a layer can use it only when it stands below that layer. Not shipped.
    .target(name: "FeedsTestSupport", dependencies: ["Feeds"], path: "Tests/FeedsTestSupport"),
    // Real audio files made by ffmpeg, for the tags and every layer that tags.
    .target(name: "TagsTestSupport", path: "Tests/TagsTestSupport"),
    // A library in a temporary directory, and downloads put in it through their moves.
    .target(
      name: "StoreTestSupport",
      dependencies: [
        "Basics", "Model", "Store", .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Tests/StoreTestSupport"
    ),
    // The real account server (oPodSync), the phone (mygpoclient), a recording proxy and a
    // loopback imitation of a gpodder.net-API server that misbehaves on request, for the
    // server client's tests, the exchange's and the binary's.
    .target(
      name: "AccountServerTestSupport", dependencies: ["LoopbackServer"],
      path: "Tests/AccountServerTestSupport"),
    // The four podcast directories on loopback, answering in their real services' shapes, with
    // Podcast Index's signature checked the way the service checks it.
    .target(
      name: "DirectoryTestSupport", dependencies: ["LoopbackServer"],
      path: "Tests/DirectoryTestSupport"),
    // One test target per layer, named after it, depending only on that layer and those below
    // it. An undeclared import can still compile (every module lands in one build folder), so
    // Tests/podcastTests/PackageLayoutTests checks both this and that imports are declared.
    .testTarget(name: "BasicsTests", dependencies: ["Basics"]),
    .testTarget(name: "PrivacyTests", dependencies: ["Privacy"]),
    .testTarget(
      name: "TransferTests", dependencies: ["Basics", "Privacy", "Transfer", "LoopbackServer"]),
    .testTarget(
      name: "FeedsTests", dependencies: ["Feeds", "FeedsTestSupport"],
      resources: [.copy("Fixtures")]),
    .testTarget(name: "TagsTests", dependencies: ["Feeds", "Tags", "TagsTestSupport"]),
    .testTarget(name: "SelectionTests", dependencies: ["Feeds", "Selection"]),
    .testTarget(
      name: "SearchTests", dependencies: ["Transfer", "Search"], resources: [.copy("Fixtures")]),
    .testTarget(
      name: "SourceTests",
      dependencies: [
        "Basics", "Transfer", "Feeds", "Search", "Source", "LoopbackServer", "FeedsTestSupport",
      ]),
    .testTarget(
      name: "AccountServerTests",
      dependencies: [
        "Basics", "Transfer", "AccountServer", "LoopbackServer", "AccountServerTestSupport",
      ]),
    .testTarget(name: "ModelTests", dependencies: ["Basics", "Feeds", "Model"]),
    .testTarget(name: "FullTextTests", dependencies: ["FullText"]),
    // GRDB directly too: the store's tests open the database themselves (old schemas,
    // migrations), and Store imports GRDB only internally.
    .testTarget(
      name: "StoreTests",
      dependencies: [
        "Basics", "Feeds", "FullText", "Model", "Store", "StoreTestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]),
    .testTarget(name: "FetchingTests", dependencies: ["Transfer", "Fetching"]),
    .testTarget(
      name: "SideFilesTests",
      dependencies: [
        "Basics", "Feeds", "Model", "Store", "Fetching", "SideFiles", "LoopbackServer",
        "StoreTestSupport",
        "TagsTestSupport",
      ]),
    .testTarget(
      name: "DownloadsTests",
      dependencies: [
        "Basics", "Transfer", "Feeds", "Tags", "Source", "Model", "Store", "Fetching", "SideFiles",
        "Downloads", "LoopbackServer", "StoreTestSupport", "TagsTestSupport",
      ]),
    .testTarget(
      name: "SyncTests",
      dependencies: [
        "Transfer", "Feeds", "Selection", "Source", "Model", "Store", "Fetching", "SideFiles",
        "Downloads", "Sync", "LoopbackServer", "StoreTestSupport",
      ]),
    .testTarget(
      name: "ExchangeTests",
      dependencies: [
        "AccountServer", "Basics", "Model", "Store", "Exchange", "Transfer", "LoopbackServer",
        "StoreTestSupport", "AccountServerTestSupport",
      ]),
    // The use cases, and what the core's errors say.
    .testTarget(
      name: "PodcastKitTests",
      dependencies: [
        "Privacy", "Transfer", "Feeds", "Selection", "Search", "Source", "Model", "Store",
        "Fetching", "SideFiles", "Downloads", "Sync", "PodcastKit", "LoopbackServer",
        "StoreTestSupport",
        "DirectoryTestSupport",
      ]),
    .testTarget(
      name: "ConfigTests", dependencies: ["Config"]),
    .testTarget(name: "LoopbackServerTests", dependencies: ["LoopbackServer"]),
    // The end-to-end tests: the real binary, run as a user runs it.
    .testTarget(
      name: "podcastTests",
      dependencies: ["LoopbackServer", "AccountServerTestSupport", "DirectoryTestSupport"]),
  ]
)
