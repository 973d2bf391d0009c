// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Chipify",
    products: [
        .library(name: "ChipKit", targets: ["ChipKit"]),
        .library(name: "ChipifyCLI", targets: ["ChipifyCLI"]),
        .executable(name: "chipify", targets: ["chipify"]),
        .executable(name: "chipify-bench", targets: ["chipify-bench"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "ChipKit"),
        .target(name: "ChipifyCLI", dependencies: ["ChipKit"]),
        .executableTarget(name: "chipify", dependencies: ["ChipifyCLI"]),
        .executableTarget(
            name: "chipify-bench",
            dependencies: ["ChipKit", "ChipifyCLI"],
            path: "Benchmarks/chipify-bench"
        ),
        .testTarget(name: "ChipKitTests", dependencies: ["ChipKit"]),
        .testTarget(name: "ChipifyCLITests", dependencies: ["ChipifyCLI", "ChipKit", "chipify"]),
        .testTarget(name: "ChipifyBenchTests", dependencies: ["chipify-bench"]),
    ]
)
