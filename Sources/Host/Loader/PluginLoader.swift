import Foundation
import ReaderABI

/// Loads the plugins a conf names, in its order. A library that cannot be used is reported and
/// skipped; the others still load. Libraries are never closed: unloading Swift code is unsafe.
enum PluginLoader {
    /// The smallest descriptor of ABI 1 the host can read (every field up to `read`).
    static let minimumDescriptorSize = UInt32(MemoryLayout<transit_plugin_descriptor>.size)

    static func load(_ config: PluginConfig) -> [LoadedPlugin] {
        config.entries.map { load($0, path: config.resolve($0)) }
    }

    static func load(_ entry: PluginConfig.Entry, path: String) -> LoadedPlugin {
        var offered: UInt32?
        func refuse(_ why: String) -> LoadedPlugin {
            LoadedPlugin(entry: entry, path: path, state: .refused(why), descriptor: nil, abiVersion: offered)
        }
        if let why = FileTrust.problem(path) { return refuse("is not trusted: \(why)") }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return refuse("cannot be loaded: \(dlerror().map { String(cString: $0) } ?? "unknown error")")
        }
        guard let symbol = dlsym(handle, TRANSIT_PLUGIN_ENTRY_SYMBOL) else {
            return refuse("exports no \(TRANSIT_PLUGIN_ENTRY_SYMBOL): not a transit plugin, or one built for another ABI")
        }
        let entryPoint = unsafeBitCast(symbol, to: transit_plugin_entry_fn.self)
        guard let descriptor = entryPoint(UInt32(TRANSIT_ABI_VERSION)) else {
            return refuse("does not speak ABI \(TRANSIT_ABI_VERSION) (its entry point answered NULL)")
        }
        let d = descriptor.pointee
        offered = d.abi_version
        guard d.abi_version == UInt32(TRANSIT_ABI_VERSION) else {
            return refuse("offers ABI \(d.abi_version); this host speaks ABI \(TRANSIT_ABI_VERSION)")
        }
        guard d.struct_size >= minimumDescriptorSize else {
            return refuse("descriptor of \(d.struct_size) bytes is smaller than ABI \(TRANSIT_ABI_VERSION)'s \(minimumDescriptorSize)")
        }
        guard d.read != nil, let cName = d.name else { return refuse("descriptor lacks a name or a read function") }
        guard d.technology == TRANSIT_TECHNOLOGY_FELICA || d.technology == TRANSIT_TECHNOLOGY_ISO7816 else {
            return refuse("offers unknown technology \(d.technology)")
        }
        let name = String(cString: cName)
        guard name == entry.name else { return refuse("calls itself \(name), but plugins.conf names it \(entry.name)") }
        return LoadedPlugin(entry: entry, path: path, state: .loaded, descriptor: descriptor, abiVersion: d.abi_version)
    }
}
