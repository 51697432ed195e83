// swift-tools-version:6.0
import PackageDescription

// Release builds optimise across module boundaries, so that the generic router and middleware
// in HTTP are specialised for Herald's context instead of looking up generic metadata per request.
let crossModuleOptimization: [SwiftSetting] = [
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
]

let package = Package(
    name: "Herald",
    products: [
        .executable(name: "herald", targets: ["herald"]),
        // For the fuzzing package in Fuzz/, which builds these with sanitizers.
        .library(name: "HeraldCore", targets: ["TextSupport", "HTTP", "Mustache", "Herald"]),
    ],
    targets: [
        // System libraries from Debian: a module map and one shim header each, no code.
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // libpq, for sites that share one PostgreSQL database between several Herald servers.
        .systemLibrary(
            name: "CPostgres", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        // Brotli compresses pages (HTTP) and the intent cookie's payload (it fits 2,000 characters
        // of Chinese prose in 4 KB where deflate cannot).
        .systemLibrary(
            name: "CBrotli", pkgConfig: "libbrotlienc",
            providers: [.apt(["libbrotli-dev"])]),
        // zstd, one of the three encodings pages are served in (with br and gzip).
        .systemLibrary(
            name: "CZstd", pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]),
        // libcurl speaks SMTP (STARTTLS, AUTH, dot-stuffing) for the password-reset mail.
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        // libcmark-gfm renders the articles' Markdown (CommonMark with GitHub's tables,
        // strikethrough and autolinks); its .pc file also links the extensions library.
        .systemLibrary(
            name: "CCmark", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),

        // Byte-level text helpers (ASCII trimming, hex digits, UTC dates) shared by HTTP and Herald's
        // stores and views, which must not depend on HTTP for them.
        .target(name: "TextSupport", swiftSettings: crossModuleOptimization),
        // The HTTP layer: a thin Swift wrapper over libmicrohttpd.
        .target(
            name: "HTTP", dependencies: ["CMicroHTTPD", "CZlib", "CBrotli", "CZstd", "TextSupport"],
            swiftSettings: crossModuleOptimization),
        // The template engine; knows nothing of HTTP.
        .target(name: "Mustache", swiftSettings: crossModuleOptimization),
        // The application: configuration, services, store, controllers, security.
        .target(
            name: "Herald",
            dependencies: [
                "TextSupport", "HTTP", "Mustache", "CSodium", "CSQLite", "CBrotli", "CPostgres", "CCurl", "CCmark",
            ],
            swiftSettings: crossModuleOptimization, plugins: ["BuildInfo"]),
        // Records the git commit a build is made from (for `herald --version`).
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // The command line; only parses arguments and calls into Herald.
        .executableTarget(name: "herald", dependencies: ["Herald"]),

        // Benchmarks are executables run by scripts under Benchmarks/, never timed unit tests.
        .executableTarget(
            name: "template-bench", dependencies: ["Mustache"],
            path: "Benchmarks/TemplateBench"),
        .executableTarget(
            name: "compression-bench", dependencies: ["HTTP"],
            path: "Benchmarks/CompressionBench"),

        // A raw-socket HTTP client and helpers shared by the test targets.
        .target(name: "TestSupport", dependencies: ["HTTP"], path: "Tests/TestSupport"),
        .testTarget(name: "HTTPTests", dependencies: ["TextSupport", "HTTP", "TestSupport"]),
        .testTarget(
            name: "MustacheTests", dependencies: ["Mustache"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "HeraldTests", dependencies: ["Herald", "HTTP", "Mustache", "TestSupport"],
            // Sample feeds and comments are read by path from the source tree.
            exclude: ["Feeds", "Comments"]),
    ]
)
