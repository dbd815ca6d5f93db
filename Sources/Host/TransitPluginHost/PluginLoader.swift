import CardProtocol
import Foundation
import ReaderABI
import Synchronization
import TransitFiles
import TransitModel

/// Loads the plugins a conf names, in its order. A library that cannot be used is refused with the
/// reason and skipped; the others still load. A library is opened once, checked through that open
/// descriptor (`TrustedFile`, `ELFCheck`) and loaded from the same descriptor, so it cannot be
/// swapped between check and load. Libraries are never closed: unloading Swift code is unsafe.
package enum PluginLoader {
    /// The smallest descriptor the host reads: every field of ABI 1 up to `read`.
    package static let minimumDescriptorSize = UInt32(MemoryLayout<transit_plugin_descriptor>.offset(of: \.options) ?? 0)
    /// The descriptor with the fields appended since (the options a plugin takes).
    package static let fullDescriptorSize = UInt32(MemoryLayout<transit_plugin_descriptor>.size)
    /// Bounds on what a descriptor may claim (transit_reader.h).
    package static let maxSystemCodes = 64, maxOptions = 64, maxNameBytes = 64

    /// The open descriptors of loaded libraries, kept for the life of the process: the loader knows a
    /// library by the path it was opened with, so `/proc/self/fd/N` must never name another file.
    private static let libraries = Mutex([TrustedFile]())

    package static func load(_ config: PluginConfig) -> [LoadedPlugin] {
        config.entries.map { load($0, path: config.resolve($0), searched: config.places($0)) }
    }

    /// `searched`: every place the library was looked for; named all when it is in none.
    package static func load(_ entry: PluginConfig.Entry, path: String, searched: [String] = []) -> LoadedPlugin {
        var offered: UInt32?
        func refuse(_ why: L10n.Words) -> LoadedPlugin {
            LoadedPlugin(entry: entry, path: path, state: .refused(why), descriptor: nil, abiVersion: offered)
        }
        // `path` is the first of `searched` that exists (PluginConfig.resolve), else the last.
        if searched.count > 1, !FileManager.default.fileExists(atPath: path) {
            // The file's name: in the worker the entry carries the resolved path, not the conf's word.
            let name = (path as NSString).lastPathComponent
            return refuse(L10n.words("cannot be loaded: %1$s is in none of the places searched: %2$s", .init(name), .init(searched.joined(separator: ", "))))
        }
        let file: TrustedFile
        switch TrustedFile.open(path) {
        case .success(let f): file = f
        case .failure(let why): return refuse(why.unopenable ? L10n.words("cannot be loaded: %1$s", why.words) : L10n.words("is not trusted: %1$s", why.words))
        }
        if let why = ELFCheck.problem(fd: file.fd, size: file.size) {
            // TRANSLATORS: %1$s is the library's path, %2$s what is wrong with it ("is not an ELF shared library").
            return refuse(L10n.words("cannot be loaded: %1$s %2$s", .init(path), why))
        }
        guard let handle = dlopen(file.descriptorPath, RTLD_NOW | RTLD_LOCAL) else {
            return refuse(L10n.words("cannot be loaded: %1$s", dlerror().map { L10n.Words(String(cString: $0)) } ?? L10n.words("unknown error")))
        }
        libraries.withLock { $0.append(file) }
        guard let symbol = dlsym(handle, TRANSIT_PLUGIN_ENTRY_SYMBOL) else {
            return refuse(L10n.words("exports no %1$s: not a transit plugin, or one built for another ABI", .init(TRANSIT_PLUGIN_ENTRY_SYMBOL)))
        }
        let entryPoint = unsafeBitCast(symbol, to: transit_plugin_entry_fn.self)
        guard let descriptor = entryPoint(UInt32(TRANSIT_ABI_VERSION)) else {
            return refuse(L10n.words("does not speak ABI %1$s (its entry point answered NULL)", .init(String(TRANSIT_ABI_VERSION))))
        }
        let d = descriptor.pointee
        offered = d.abi_version
        guard d.abi_version == UInt32(TRANSIT_ABI_VERSION) else {
            return refuse(L10n.words("offers ABI %1$s; this host speaks ABI %2$s", .init(String(d.abi_version)), .init(String(TRANSIT_ABI_VERSION))))
        }
        guard d.struct_size >= minimumDescriptorSize else {
            return refuse(L10n.words("descriptor of %1$s bytes is smaller than ABI %2$s's %3$s", .init(String(d.struct_size)), .init(String(TRANSIT_ABI_VERSION)),
                                     .init(String(minimumDescriptorSize))))
        }
        guard d.read != nil, let name = boundedString(d.name) else {
            return refuse(L10n.words("descriptor lacks a read function or a name of at most %1$s bytes", .init(String(maxNameBytes))))
        }
        guard d.family == nil || boundedString(d.family) != nil else { return refuse(L10n.words("descriptor's family is longer than %1$s bytes", .init(String(maxNameBytes)))) }
        // Technologies are bits (release 5): any non-empty set of the four the header names.
        let known = CardTechnology.allCases.reduce(0 as transit_technology) { $0 | LoadedPlugin.bit($1) }
        guard d.technology != 0, d.technology & ~known == 0 else {
            return refuse(L10n.words("offers unknown technology %1$s", .init(String(d.technology))))
        }
        // size_t arrives as Int: a count past Int.max shows as negative; say it as the plugin wrote it.
        guard (0 ... maxSystemCodes).contains(d.system_code_count), d.system_code_count == 0 || d.system_codes != nil else {
            return refuse(L10n.words("descriptor claims %1$s system codes (at most %2$s)", .init(String(UInt(bitPattern: d.system_code_count))), .init(String(maxSystemCodes))))
        }
        guard name == entry.name else { return refuse(L10n.words("calls itself %1$s, but plugins.conf names it %2$s", .init(name), .init(entry.name))) }
        let options: [String: UInt32]
        switch declaredOptions(d) {
        case .success(let o): options = o
        case .failure(let why): return refuse(why.words)
        }
        var plugin = LoadedPlugin(entry: entry, path: path, state: .loaded, descriptor: descriptor, abiVersion: d.abi_version)
        if let why = PluginOptions.problem(entry.options, declared: options) {
            plugin.state = .misconfigured(L10n.Words("\(entry.file):\(entry.line): ") + L10n.words("plugin %1$s: %2$s", .init(entry.name), why))
        }
        return plugin
    }

    /// The options the descriptor declares, by name, when its size covers them.
    private static func declaredOptions(_ d: transit_plugin_descriptor) -> Result<[String: UInt32], TrustProblem> {
        guard d.struct_size >= fullDescriptorSize, d.option_count != 0 else { return .success([:]) }
        guard (0 ... maxOptions).contains(d.option_count), let list = d.options else {
            return .failure(TrustProblem(L10n.words("descriptor claims %1$s options (at most %2$s)", .init(String(UInt(bitPattern: d.option_count))), .init(String(maxOptions)))))
        }
        var out = [String: UInt32]()
        for spec in UnsafeBufferPointer(start: list, count: d.option_count) {
            guard let name = boundedString(spec.name) else { return .failure(TrustProblem(L10n.words("descriptor has an option without a name"))) }
            out[name] = spec.type
        }
        return .success(out)
    }

    /// A descriptor string of at most `maxNameBytes` bytes, read no further than that.
    private static func boundedString(_ p: UnsafePointer<CChar>?) -> String? {
        guard let p else { return nil }
        let n = strnlen(p, maxNameBytes + 1)
        guard n > 0, n <= maxNameBytes else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self)
    }
}
