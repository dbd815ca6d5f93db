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

let package = Package(
    name: "transit",
    products: [
        .executable(name: "transit", targets: ["Host"]),
        .executable(name: "transit-sim", targets: ["Simulator"]),
        // The plugin SDK: another Swift package depends on this product to build a family of its own.
        .library(name: "PluginKit", targets: ["PluginKit", "ReaderABI"]),
    ] + plugins.map { .library(name: $0.product, type: .dynamic, targets: [$0.target]) },
    targets: [
        .target(name: "ReaderABI", path: "Sources/ReaderABI"),
        .systemLibrary(name: "CPCSCLite", path: "Sources/CPCSCLite", pkgConfig: "libpcsclite",
                       providers: [.apt(["libpcsclite-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .target(name: "PluginKit", dependencies: ["ReaderABI"], swiftSettings: v5),
        .target(name: "CardSimulation", dependencies: ["CZlib"], swiftSettings: v5),
        .executableTarget(name: "Host", dependencies: ["ReaderABI", "CPCSCLite", "CSQLite", "CardSimulation"],
                          swiftSettings: v5),
        .executableTarget(name: "Simulator", dependencies: ["CardSimulation"], swiftSettings: v5),
        // Plugins are tested through the ABI: the tests load the built libraries, as the host does
        // (two plugins cannot be linked into one test binary: each exports the same entry symbol).
        .target(name: "TestSupport", dependencies: ["Host", "CardSimulation"], path: "Tests/TestSupport",
                swiftSettings: v5),
        .testTarget(name: "HostTests", dependencies: ["Host", "CardSimulation", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "PluginKitTests", dependencies: ["PluginKit"], swiftSettings: v5),
        .testTarget(name: "CardSimulationTests", dependencies: ["CardSimulation", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "PluginTests", dependencies: ["Host", "CardSimulation", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "EndToEndTests", dependencies: ["CardSimulation", "TestSupport"], swiftSettings: v5),
    ] + plugins.map {
        .target(name: $0.target, dependencies: ["PluginKit", "ReaderABI"],
                path: "Sources/Plugins/\($0.target)", swiftSettings: v5)
    }
)
