import ReaderABI

/// Builds the static descriptor and runs reads behind the ABI. A plugin's whole entry point:
///
///     @_cdecl("transit_plugin_entry_v1")
///     public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(MyPlugin.self, hostVersion) }
public enum PluginExport {
    /// The descriptor of `plugin` when the host speaks this ABI version, else nil. A library holds
    /// one plugin: the descriptor is built at the first call and kept for as long as the library
    /// is loaded (the host calls the entry once, from one thread, when it loads the library).
    public static func entry<P: CardFamilyPlugin>(_ plugin: P.Type, _ hostVersion: UInt32) -> UnsafeRawPointer? {
        guard accepts(hostVersion) else { return nil }
        if exported == nil {
            exported = (descriptor(plugin, read: readThunk), { run($0, P.self) })
        }
        return exported.map { UnsafeRawPointer($0.descriptor) }
    }

    /// True when the plugin speaks the ABI version the host asked for.
    static func accepts(_ hostVersion: UInt32) -> Bool { hostVersion == UInt32(TRANSIT_ABI_VERSION) }

    /// The library's descriptor and the read its C thunk calls.
    // Safe: written once, by the host's first `entry` call (one thread, at load), before any read.
    nonisolated(unsafe) private static var exported: (descriptor: UnsafePointer<transit_plugin_descriptor>,
                                                      run: (UnsafePointer<transit_host_api>?) -> transit_status)?
    /// The C function the descriptor names: the exported plugin's read.
    private static let readThunk: @convention(c) (UnsafePointer<transit_host_api>?) -> transit_status = { api in
        PluginExport.exported?.run(api) ?? TRANSIT_STATUS_INTERNAL
    }

    /// The descriptor for `plugin`, allocated once and never freed (the host reads it for as long as
    /// the library is loaded); `read` is the C thunk the host calls.
    static func descriptor<P: CardFamilyPlugin>(
        _ plugin: P.Type, read: @escaping @convention(c) (UnsafePointer<transit_host_api>?) -> transit_status
    ) -> UnsafePointer<transit_plugin_descriptor> {
        let codes = UnsafeMutablePointer<UInt16>.allocate(capacity: max(1, P.systemCodes.count))
        codes.initialize(from: P.systemCodes, count: P.systemCodes.count)
        let options = UnsafeMutablePointer<transit_option_spec>.allocate(capacity: max(1, P.options.count))
        options.initialize(from: P.options.map { transit_option_spec(name: cString($0.name), type: $0.abiType) }, count: P.options.count)
        let d = UnsafeMutablePointer<transit_plugin_descriptor>.allocate(capacity: 1)
        d.initialize(to: transit_plugin_descriptor(
            struct_size: UInt32(MemoryLayout<transit_plugin_descriptor>.size),
            abi_version: UInt32(TRANSIT_ABI_VERSION),
            name: cString(P.name),
            family: cString(P.family),
            technology: P.technologies.reduce(P.technology.abiValue) { $0 | $1.abiValue },
            system_codes: P.systemCodes.isEmpty ? nil : UnsafePointer(codes),
            system_code_count: P.systemCodes.count,
            read: read,
            options: P.options.isEmpty ? nil : UnsafePointer(options),
            option_count: P.options.count))
        return UnsafePointer(d)
    }

    /// Runs one read: errors become statuses, a result is published to the host's builder. A card's
    /// refusal the plugin did not catch (`FeliCaStatus`) is the card's refusal, never a plugin fault.
    static func run<P: CardFamilyPlugin>(_ api: UnsafePointer<transit_host_api>?, _ plugin: P.Type) -> transit_status {
        // The fields of the first release; later ones are checked where used (TRANSIT_HOST_HAS).
        guard let api, api.pointee.struct_size >= UInt32(MemoryLayout<transit_host_api>.offset(of: \.atr) ?? Int.max) else {
            return TRANSIT_STATUS_INTERNAL
        }
        let link = HostCardLink(api)
        do {
            let result = try P.read(link)
            try link.publish(result)
            return TRANSIT_STATUS_OK
        } catch let error as PluginError {
            if error != .notThisCard { link.log(error.message) }
            return error.status
        } catch let status as FeliCaStatus {
            let error = PluginError(status)
            link.log(error.message)
            return error.status
        } catch {
            link.log("\(error)")
            return TRANSIT_STATUS_INTERNAL
        }
    }

    private static func cString(_ s: String) -> UnsafePointer<CChar> {
        let bytes = Array(s.utf8CString)
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        p.initialize(from: bytes, count: bytes.count)
        return UnsafePointer(p)
    }
}
