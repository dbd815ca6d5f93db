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

let v5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

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
        .target(name: "ReaderABI", path: "Sources/ReaderABI"),
        .target(name: "CPCSCLite", linkerSettings: [.linkedLibrary("pcsclite")]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CTransitShims"),
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
                path: "Tests/TestSupport", swiftSettings: v5),
        .testTarget(name: "HostTests", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "CardSimulation", "TransitReader",
                                                      "TransitStations", "TransitArchive", "TransitOutput", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "CardProtocolTests", dependencies: ["CardProtocol"], swiftSettings: v5),
        .testTarget(name: "PluginKitTests", dependencies: ["PluginKit"], swiftSettings: v5),
        .testTarget(name: "CardSimulationTests", dependencies: ["CardProtocol", "CardSimulation", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "PluginTests", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "TransitReader", "TransitStations", "TransitArchive", "TransitOutput", "CardSimulation", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "EndToEndTests", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "TransitReader", "TransitStations", "TransitArchive", "TransitOutput", "CardSimulation", "TestSupport"], swiftSettings: v5),
    ] + plugins.map {
        .target(name: $0.target, dependencies: ["PluginKit", "ReaderABI"],
                path: "Sources/Plugins/\($0.target)", swiftSettings: v5)
    }
)
