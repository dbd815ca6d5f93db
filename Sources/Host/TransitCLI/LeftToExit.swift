/// What a listing built, left for the process's exit to reclaim: `history`, `export` and `report`
/// print once and end, and freeing 10,000 records one by one after their output was a sixth of
/// `history --json` (issue 47's profile). The kernel takes the pages back at exit at once.
/// Only for a command's last values, once: a long-lived process (watch) never calls it.
enum LeftToExit {
    private final class Held<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Keeps `value` alive to the end of the process.
    static func keep<Value>(_ value: Value) {
        _ = Unmanaged.passRetained(Held(value))
    }
}
