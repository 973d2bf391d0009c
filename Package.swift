// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Chipify",
    products: [
        .library(name: "ChipKit", targets: ["ChipKit"]),
        .executable(name: "chipify", targets: ["chipify"]),
        .executable(name: "chipify-bench", targets: ["chipify-bench"]),
    ],
    dependencies: [],
    targets: [
        // The layers, one target each: a layer imports only those below it.
        // Syntax → Recognition → Directory → Output → Editing → Presentation,
        // with Groups (choice, filter and action chips) beside Editing.
        .target(name: "ChipSyntax"),
        .target(name: "ChipRecognition", dependencies: ["ChipSyntax"]),
        .target(name: "ChipDirectory", dependencies: ["ChipSyntax", "ChipRecognition"]),
        // Header values and the record formats: what a send and the CLI
        // write, knowing chips as parsed, not as edited.
        .target(name: "ChipOutput", dependencies: ["ChipSyntax", "ChipRecognition", "ChipDirectory"]),
        // Debug builds check the composer's invariants after every
        // operation (`_checkInvariants()`, on drafts of up to 256 chips).
        .target(
            name: "ChipEditing", dependencies: ["ChipSyntax", "ChipRecognition", "ChipDirectory", "ChipOutput"],
            swiftSettings: [.define("CHIPIFY_INTERNAL_CHECKS", .when(configuration: .debug))]),
        // A selection model needs none of the mail layers: only the
        // reasons' idiom (`ChipReason`) from Syntax, itself stdlib-only.
        .target(name: "ChipGroups", dependencies: ["ChipSyntax"]),
        // What a UI draws for editor chips and group chips: accessibility
        // labels and layout.
        .target(
            name: "ChipPresentation",
            dependencies: ["ChipSyntax", "ChipRecognition", "ChipOutput", "ChipEditing", "ChipGroups"]),
        .target(
            name: "ChipKit",
            dependencies: [
                "ChipSyntax", "ChipRecognition", "ChipDirectory", "ChipOutput", "ChipEditing", "ChipGroups",
                "ChipPresentation",
            ]),
        // The command line, one target and no public product: the
        // streaming engine (`Streaming/`: record and parallel processors,
        // reading and writing descriptors) and the commands (options, the
        // filter, contacts, suggest, replay, group, compose), in `package`
        // access. The only target of the package besides the executable
        // and test support that calls the C library and Dispatch.
        .target(name: "ChipifyCLI", dependencies: ["ChipKit"]),
        .executableTarget(name: "chipify", dependencies: ["ChipifyCLI"]),
        .executableTarget(
            name: "chipify-bench",
            dependencies: [
                "ChipKit", "ChipifyCLI", "ChipTestSupport", "ChipDirectoryTestSupport",
            ],
            path: "Benchmarks/chipify-bench"
        ),
        // Shared by the tests, the fuzzer and the benchmark, one target per
        // layer they need, so a layer's tests build only that layer: the
        // seeded generator and file reading (Syntax), the recognition
        // tables (Recognition), the address-book generator (Directory),
        // the simple lane's differential check (Output), and the engine's
        // invariant verifier (all of ChipKit).
        .target(name: "ChipTestSupport", dependencies: ["ChipSyntax"]),
        .target(name: "ChipRecognitionTestSupport", dependencies: ["ChipRecognition"]),
        .target(name: "ChipDirectoryTestSupport", dependencies: ["ChipDirectory", "ChipTestSupport"]),
        .target(name: "ChipOutputTestSupport", dependencies: ["ChipOutput"]),
        .target(name: "ChipKitTestSupport", dependencies: ["ChipKit", "ChipTestSupport", "ChipOutputTestSupport"]),
        // Each layer's tests depend on their layer only; what crosses
        // layers is tested in ChipKitTests.
        .testTarget(name: "ChipSyntaxTests", dependencies: ["ChipSyntax", "ChipTestSupport"]),
        .testTarget(
            name: "ChipRecognitionTests",
            dependencies: ["ChipRecognition", "ChipRecognitionTestSupport", "ChipTestSupport"]),
        .testTarget(
            name: "ChipDirectoryTests", dependencies: ["ChipDirectory", "ChipDirectoryTestSupport", "ChipTestSupport"]),
        .testTarget(name: "ChipOutputTests", dependencies: ["ChipOutput", "ChipOutputTestSupport", "ChipTestSupport"]),
        .testTarget(name: "ChipEditingTests", dependencies: ["ChipEditing", "ChipTestSupport"]),
        .testTarget(name: "ChipGroupsTests", dependencies: ["ChipGroups", "ChipTestSupport"]),
        .testTarget(name: "ChipPresentationTests", dependencies: ["ChipPresentation", "ChipTestSupport"]),
        .testTarget(
            name: "ChipKitTests",
            dependencies: [
                "ChipKit", "ChipKitTestSupport", "ChipRecognitionTestSupport", "ChipDirectoryTestSupport",
                "ChipTestSupport",
            ]),
        .testTarget(
            name: "ChipifyCLITests",
            dependencies: ["ChipifyCLI", "ChipKit", "ChipTestSupport", "chipify"]),
        .testTarget(name: "ChipifyBenchTests", dependencies: ["chipify-bench", "ChipTestSupport", "ChipDirectoryTestSupport"]),
    ]
)
