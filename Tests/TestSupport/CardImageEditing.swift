import CardSimulation

extension CardImage {
    /// Makes a FeliCa service of the first system that holds it exist but refuse reads.
    public mutating func lock(_ service: String) {
        guard var f = felica, let i = f.systems.firstIndex(where: { $0.services[service] != nil }) else { return }
        f.systems[i].services.removeValue(forKey: service)
        f.systems[i].lockedServices = (f.systems[i].lockedServices ?? []) + [service]
        felica = f
    }

    /// Keeps only the first `count` blocks of a FeliCa service; reads past them are refused.
    public mutating func truncate(_ service: String, to count: Int) {
        guard var f = felica, let i = f.systems.firstIndex(where: { $0.services[service] != nil }) else { return }
        f.systems[i].services[service] = Array(f.systems[i].services[service]?.prefix(count) ?? [])
        felica = f
    }
}

extension CardImage {
    /// The ISO application entered by `select` (hex APDU), for edits.
    public mutating func editApplication(select: String, _ edit: (inout ApplicationImage) -> Void) {
        guard var iso = iso7816, let i = iso.applications.firstIndex(where: { $0.select == select }) else { return }
        edit(&iso.applications[i])
        iso7816 = iso
    }

    /// Adds the applications of another ISO image (a card carrying two families).
    public mutating func addApplications(of other: CardImage) {
        guard var iso = iso7816, let more = other.iso7816?.applications else { return }
        iso.applications += more
        iso7816 = iso
    }
}
