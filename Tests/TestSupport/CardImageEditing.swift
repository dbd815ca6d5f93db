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
