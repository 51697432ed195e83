// swift-tools-version:6.0
// libFuzzer harnesses for Herald's parsers. Built and run by scripts/fuzz.sh with address
// sanitizer and coverage instrumentation; never part of the normal build.
import PackageDescription

let harnesses = [
    "FuzzForm", "FuzzCookies", "FuzzIntent", "FuzzMustache", "FuzzFeeds", "FuzzMarkdown", "FuzzMultipart", "FuzzSearch",
]

let package = Package(
    name: "HeraldFuzz",
    dependencies: [.package(name: "Herald", path: "..")],
    targets: [
        .target(name: "FuzzSupport")
    ]
        + harnesses.map { name in
            .executableTarget(
                name: name,
                dependencies: ["FuzzSupport", .product(name: "HeraldCore", package: "Herald")])
        }
)
