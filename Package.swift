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
    ("TransitCalypso", "Calypso"),
    ("TransitChinaCity", "ChinaCity"),
    ("TransitDESFire", "DESFire"),
    ("TransitEasyCard", "EasyCard"),
    ("TransitCharlieCard", "CharlieCard"),
    ("TransitTroika", "Troika"),
    ("TransitPodorozhnik", "Podorozhnik"),
    ("TransitBilheteUnico", "BilheteUnico"),
    ("TransitNextfareUltralight", "NextfareUltralight"),
    ("TransitHSLUltralight", "HSLUltralight"),
]

/// Shipped code names no build folder (README "Install", reproducible builds): the Makefile's
/// release build passes the prefix maps (`-file-prefix-map`) and turns incremental LLVM codegen
/// off, not this manifest. A target with `unsafeFlags` cannot be used from a package that depends
/// on this one by version (`.package(url:from:)`), and PluginKit is such a dependency (docs/plugins.md).
///
/// Every target is in Swift 6 language mode, with complete data-race checking (issue 48); the
/// setting is a target's own, so a target can be held back alone (`.swiftLanguageMode(.v5)`).
let v6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

/// One test target a host module, in Tests/Host/<name>, with the modules its files import (and no
/// other: ManifestTests compares them with the imports); the CLI's has a second, its reports and
/// exports, so neither holds more than 2,500 lines (issue 48).
let hostTests: [(name: String, dependencies: [Target.Dependency])] = [
    ("TransitModelTests", ["CardProtocol", "TransitArchive", "TransitFiles", "TransitModel", "TransitOutput", "TransitStations"]),
    ("TransitFilesTests", ["TestSupport", "TransitFiles"]),
    ("TransitTransportTests", ["CardProtocol", "TestSupport", "TransitArchive", "TransitFiles", "TransitModel", "TransitOutput", "TransitPCSC",
                               "TransitStations", "TransitTransport"]),
    ("TransitPCSCTests", ["CPCSCLite", "CardProtocol", "TransitArchive", "TransitFiles", "TransitModel", "TransitOutput", "TransitPCSC",
                          "TransitStations", "TransitTransport"]),
    ("TransitUSBTests", ["CardProtocol", "TestSupport", "TransitModel", "TransitTransport", "TransitUSB"]),
    ("TransitPluginHostTests", ["CardProtocol", "CardSimulation", "TestSupport", "TransitArchive", "TransitFiles", "TransitModel", "TransitOutput",
                                "TransitPluginHost", "TransitStations"]),
    ("CardSimulationTests", ["CardProtocol", "CardSimulation", "TestSupport", "TransitArchive", "TransitEngine", "TransitFiles", "TransitModel",
                             "TransitOutput", "TransitStations"]),
    ("TransitEngineTests", ["CardProtocol", "CardSimulation", "TestSupport", "TransitArchive", "TransitEngine", "TransitFiles", "TransitModel",
                            "TransitOutput", "TransitPluginHost", "TransitStations", "TransitTransport"]),
    ("TransitStationsTests", ["CardProtocol", "TestSupport", "TransitArchive", "TransitFiles", "TransitModel", "TransitOutput", "TransitStations"]),
    ("TransitArchiveTests", ["CardProtocol", "CardSimulation", "TestSupport", "TransitArchive", "TransitFiles", "TransitModel", "TransitOutput",
                             "TransitStations"]),
    ("TransitOutputTests", ["CardProtocol", "CardSimulation", "TestSupport", "TransitArchive", "TransitEngine", "TransitFiles", "TransitModel",
                            "TransitOutput", "TransitStations", "TransitTransport"]),
    ("TransitCLITests", ["CardSimulation", "TestSupport"]),
    ("TransitCLIReportTests", ["CardSimulation", "TestSupport"]),
]

/// The host's modules, each in the folder of its name in Sources/Host and depending only on the
/// modules of the layers before it (docs/ARCHITECTURE.md; ManifestTests checks both): 01 system
/// libraries → 02 model → 03 files → 04 transport (TransitTransport: the core every reader shares;
/// beside it, as swift-nio puts NIOPosix beside NIOCore, TransitPCSC: pcscd's readers, the one
/// module that links libpcsclite, and TransitUSB: readers driven over USB) → 05 plugin host →
/// 06 card simulation → 07 engine → 08 stations → 09 archive → 10 output → 11 the `transit`
/// executable, 12 the `transit-sim` executable.
let host = "Sources/Host"
let package = Package(
    name: "transit",
    products: [
        .executable(name: "transit", targets: ["TransitCLI"]),
        .executable(name: "transit-sim", targets: ["Simulator"]),
        // The plugin SDK: another Swift package depends on this product to build a family of its own.
        .library(name: "PluginKit", targets: ["PluginKit", "CardProtocol", "ReaderABI"]),
    ] + plugins.map { .library(name: $0.product, type: .dynamic, targets: [$0.target]) },
    targets: [
        // The contract: the plugin ABI's C header, and the protocol facts both sides compile in
        // (no Foundation: plugins use them too).
        .target(name: "ReaderABI", path: "Sources/ReaderABI", exclude: ["CardProtocol"]),
        .target(name: "CardProtocol", dependencies: ["ReaderABI"], path: "Sources/ReaderABI/CardProtocol", swiftSettings: v6),
        // The plugins' SDK; each family is a target below.
        .target(name: "PluginKit", dependencies: ["CardProtocol", "ReaderABI"], path: "Sources/Plugins/PluginKit", swiftSettings: v6),
        // The host. 01: Debian's C libraries, and what Glibc hides.
        .target(name: "CPCSCLite", path: "\(host)/CPCSCLite", linkerSettings: [.linkedLibrary("pcsclite")]),
        .systemLibrary(name: "CSQLite", path: "\(host)/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "\(host)/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibUSB", path: "\(host)/CLibUSB", pkgConfig: "libusb-1.0", providers: [.apt(["libusb-1.0-0-dev"])]),
        .target(name: "CTransitShims", path: "\(host)/CTransitShims"),
        .target(name: "TransitModel", dependencies: ["ReaderABI", "CardProtocol", "CTransitShims"], path: "\(host)/TransitModel", swiftSettings: v6),
        .target(name: "TransitFiles", dependencies: ["TransitModel"], path: "\(host)/TransitFiles", swiftSettings: v6),
        // The project's own readers of XML and zip: small, bounded, in one place.
        .target(name: "FileFormats", dependencies: ["TransitModel", "CZlib"], path: "\(host)/FileFormats", swiftSettings: v6),
        // The transport's core: a card on a reader as APDUs (ReaderChannel), the card session and
        // FeliCa pass-through, the reader table, recording and replay. No reader library.
        .target(name: "TransitTransport", dependencies: ["CardProtocol", "TransitModel"],
                path: "\(host)/TransitTransport", swiftSettings: v6),
        // pcscd's readers (libpcsclite).
        .target(name: "TransitPCSC", dependencies: ["CPCSCLite", "TransitModel", "TransitTransport"],
                path: "\(host)/TransitPCSC", swiftSettings: v6),
        // The Sony RC-S380 over USB (libusb-1.0), made to look like a PC/SC reader of the bare-frame dialect.
        .target(name: "TransitUSB", dependencies: ["CLibUSB", "CardProtocol", "TransitModel", "TransitTransport"],
                path: "\(host)/TransitUSB", swiftSettings: v6),
        .target(name: "TransitPluginHost", dependencies: ["ReaderABI", "CardProtocol", "TransitModel", "TransitFiles", "TransitTransport"],
                path: "\(host)/TransitPluginHost", swiftSettings: v6),
        .target(name: "CardSimulation", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "FileFormats"], path: "\(host)/CardSimulation", swiftSettings: v6),
        .target(name: "TransitEngine", dependencies: ["ReaderABI", "CTransitShims", "CardProtocol", "TransitModel", "TransitFiles",
                                                      "TransitTransport", "TransitPluginHost", "CardSimulation"],
                path: "\(host)/TransitEngine", swiftSettings: v6),
        // Finding the card a command reads on any reader, and watching readers for taps.
        .target(name: "TransitWatch", dependencies: ["CTransitShims", "TransitModel", "TransitFiles", "TransitTransport", "TransitPCSC", "TransitUSB",
                                                     "TransitEngine"],
                path: "\(host)/TransitWatch", swiftSettings: v6),
        .target(name: "TransitStations", dependencies: ["CardProtocol", "TransitModel", "TransitFiles"], path: "\(host)/TransitStations", swiftSettings: v6),
        .target(name: "TransitArchive", dependencies: ["CSQLite", "CardProtocol", "TransitModel", "TransitFiles"],
                path: "\(host)/TransitArchive", swiftSettings: v6),
        .target(name: "TransitOutput", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "TransitTransport", "TransitStations",
                                                      "TransitArchive"],
                path: "\(host)/TransitOutput", swiftSettings: v6),
        .executableTarget(name: "TransitCLI", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "TransitTransport", "TransitPluginHost",
                                                            "CardSimulation", "TransitEngine", "TransitWatch", "TransitStations", "TransitArchive",
                                                            "TransitOutput"],
                          path: "\(host)/TransitCLI", swiftSettings: v6),
        .executableTarget(name: "Simulator", dependencies: ["CardProtocol", "TransitModel", "TransitFiles", "CardSimulation"], path: "\(host)/Simulator",
                          swiftSettings: v6),
        // Tests mirror Sources. Plugins are tested through the ABI: the tests load the built
        // libraries, as the host does (two plugins cannot be linked into one test binary: each
        // exports the same entry symbol).
        .target(name: "TestSupport", dependencies: ["CardProtocol", "CardSimulation", "TransitArchive", "TransitEngine", "TransitFiles", "TransitModel",
                                                    "TransitOutput", "TransitPluginHost", "TransitStations", "TransitTransport"],
                path: "Tests/TestSupport", swiftSettings: v6),
        .testTarget(name: "CardProtocolTests", dependencies: ["CardProtocol"], path: "Tests/ReaderABI/CardProtocolTests", swiftSettings: v6),
        .testTarget(name: "PluginKitTests", dependencies: ["PluginKit", "ReaderABI"], path: "Tests/Plugins/PluginKitTests", swiftSettings: v6),
        .testTarget(name: "PluginTests", dependencies: ["CardProtocol", "CardSimulation", "TestSupport", "TransitModel"],
                    path: "Tests/Plugins/PluginTests", swiftSettings: v6),
        // The MIFARE Classic and Ultralight families, read through the host's storage-card calls.
        .testTarget(name: "StoragePluginTests", dependencies: ["CardSimulation", "TestSupport"],
                    path: "Tests/Plugins/StoragePluginTests", swiftSettings: v6),
        .testTarget(name: "EndToEndTests", dependencies: ["CardProtocol", "CardSimulation", "TestSupport", "TransitWatch"],
                    swiftSettings: v6),
        // The project's files beside the code: the manifest and the layering, the docs, the man page
        // and completions written from the command table, the install, the package, the scripts.
        .testTarget(name: "ProjectTests", dependencies: ["TestSupport"], swiftSettings: v6),
    ] + hostTests.map {
        .testTarget(name: $0.name, dependencies: $0.dependencies, path: "Tests/Host/\($0.name)", swiftSettings: v6)
    } + plugins.map {
        // FAMILY.md: what the documents that list every family say of this one
        // (scripts/generate-family-docs.py writes them; docs/plugins.md).
        .target(name: $0.target, dependencies: ["PluginKit"],
                path: "Sources/Plugins/\($0.target)", exclude: ["FAMILY.md"], swiftSettings: v6,
                // Without a soname the linker names the library's version definition after its
                // path in the build folder.
                linkerSettings: [.unsafeFlags(["-Xlinker", "-soname=lib\($0.product).so"])])
    }
)
