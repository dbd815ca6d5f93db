/// One answer of a read changed as a damaged radio frame would: a byte replaced, the data cut short
/// before the status word, or the whole answer cut anywhere (into its status word too).
public struct AnswerMutation {
    public let target: Int, mode: Int, position: UInt64, value: UInt8

    /// A mutation of one of the first `exchanges` answers after the host's first.
    public init(_ random: inout SplitMix64, exchanges: Int) {
        target = 1 + random.below(exchanges); mode = random.below(3); position = random.next(); value = random.byte()
    }

    /// A `PluginRead.Fault` that applies it.
    public var fault: PluginRead.Fault {
        { [self] i, _, answer in
            guard i == target, answer.count > 2 else { return answer }
            var a = answer
            switch mode {
            case 0: a[Int(position % UInt64(a.count - 2))] = value
            case 1: a = Array(a.prefix(Int(position % UInt64(a.count - 2)))) + a.suffix(2)
            default: a = Array(a.prefix(Int(position % UInt64(a.count))))
            }
            return a
        }
    }
}
