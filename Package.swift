// swift-tools-version:6.0
import PackageDescription

/// One dynamic library per card family; the host loads them at run time.
let plugins: [(product: String, target: String)] = [
    ("TransitJapanIC", "JapanIC"),
    ("TransitEdy", "Edy"),
    ("TransitWAON", "WAON"),
    ("TransitNanaco", "Nanaco"),
    ("TransitOctopus", "Octopus"),
    ("TransitCEPAS", "CEPAS"),
    ("TransitKSX6924", "KSX6924"),
    ("TransitTUnion", "TUnion"),
]

/// Shipped code names no build folder (README "Install", reproducible builds): paths in debug
/// info and #file are written relative to the package. Tests keep theirs (they find files by it).
/// Without incremental LLVM codegen no `.swift_modhash` section is written: its hash of each
/// module's IR differs from one build folder to another (scripts/check-reproducible.sh).
let here = Context.packageDirectory
let v5: [SwiftSetting] = [.swiftLanguageMode(.v5),
                          .unsafeFlags(["-file-prefix-map", "\(here)=.", "-Xfrontend", "-disable-incremental-llvm-codegen"])]
let v5Tests: [SwiftSetting] = [.swiftLanguageMode(.v5)]
let cRelative: [CSetting] = [.unsafeFlags(["-ffile-prefix-map=\(here)=."])]

/// The modules, each depending only on those before it (docs/ARCHITECTURE.md):
/// CardProtocol → TransitModel → TransitFiles → CardSimulation → TransitReader → TransitStations →
/// TransitArchive → TransitOutput → TransitCLI (the `transit` executable).
let package = Package(
    name: "transit",
    products: [
        .executable(name: "transit", targets: ["TransitCLI"]),
        .executable(name: "transit-sim", targets: ["Simulator"]),
        // The plugin SDK: another Swift package depends on this product to build a family of its own.
        .library(name: "PluginKit", targets: ["PluginKit", "CardProtocol", "ReaderABI"]),
    ] + plugins.map { .library(name: $0.product, type: .dynamic, targets: [$0.target]) },
    targets: [
        // C: the plugin ABI, the system libraries, what Glibc hides.
        .target(name: "ReaderABI", path: "Sources/ReaderABI", cSettings: cRelative),
        .target(name: "CPCSCLite", cSettings: cRelative, linkerSettings: [.linkedLibrary("pcsclite")]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CTransitShims", cSettings: cRelative),
        // Protocol facts, written once (no Foundation: plugins use them too).
        .target(name: "CardProtocol", swiftSettings: v5),
        .target(name: "PluginKit", dependencies: ["CardProtocol", "ReaderABI"], swiftSettings: v5),
        // The host, in layers.
        .target(name: "TransitModel", dependencies: ["CardProtocol"], swiftSettings: v5),
        .target(name: "TransitFiles", dependencies: ["TransitModel", "CTransitShims"], swiftSettings: v5),
        .target(name: "CardSimulation", dependencies: ["CardProtocol", "TransitFiles", "CZlib"], swiftSettings: v5),
        .target(name: "TransitReader", dependencies: ["ReaderABI", "CPCSCLite", "CTransitShims", "CardProtocol", "TransitModel",
                                                      "TransitFiles", "CardSimulation"], swiftSettings: v5),
        .target(name: "TransitStations", dependencies: ["TransitModel", "TransitFiles"], swiftSettings: v5),
        .target(name: "TransitArchive", dependencies: ["CSQLite", "TransitModel", "TransitFiles", "TransitStations"], swiftSettings: v5),
        .target(name: "TransitOutput", dependencies: ["CardProtocol", "TransitModel", "TransitReader", "TransitStations", "TransitArchive"],
                swiftSettings: v5),
        .executableTarget(name: "TransitCLI", dependencies: ["CTransitShims", "CardProtocol", "TransitModel", "TransitFiles", "CardSimulation", "TransitReader",
                                                            "TransitStations", "TransitArchive", "TransitOutput"], swiftSettings: v5),
        .executableTarget(name: "Simulator", dependencies: ["CardProtocol", "TransitFiles", "CardSimulation"], swiftSettings: v5),
        // Plugins are tested through the ABI: the tests load the built libraries, as the host does
        // (two plugins cannot be linked into one test binary: each exports the same entry symbol).
        .target(name: "TestSupport", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "CardSimulation", "TransitReader", "TransitStations", "TransitArchive", "TransitOutput"],
                path: "Tests/TestSupport", swiftSettings: v5Tests),
        .testTarget(name: "HostTests", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "CardSimulation", "TransitReader",
                                                      "TransitStations", "TransitArchive", "TransitOutput", "TestSupport"], swiftSettings: v5Tests),
        .testTarget(name: "CardProtocolTests", dependencies: ["CardProtocol"], swiftSettings: v5Tests),
        .testTarget(name: "PluginKitTests", dependencies: ["PluginKit"], swiftSettings: v5Tests),
        .testTarget(name: "CardSimulationTests", dependencies: ["CardProtocol", "CardSimulation", "TestSupport"], swiftSettings: v5Tests),
        .testTarget(name: "PluginTests", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "TransitReader", "TransitStations", "TransitArchive", "TransitOutput", "CardSimulation", "TestSupport"], swiftSettings: v5Tests),
        .testTarget(name: "EndToEndTests", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "TransitReader", "TransitStations", "TransitArchive", "TransitOutput", "CardSimulation", "TestSupport"], swiftSettings: v5Tests),
    ] + plugins.map {
        .target(name: $0.target, dependencies: ["PluginKit", "ReaderABI"],
                path: "Sources/Plugins/\($0.target)", swiftSettings: v5,
                // Without a soname the linker names the library's version definition after its
                // path in the build folder.
                linkerSettings: [.unsafeFlags(["-Xlinker", "-soname=lib\($0.product).so"])])
    }
)
