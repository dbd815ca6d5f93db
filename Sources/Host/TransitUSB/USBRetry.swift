import TransitModel

/// How both USB channels send a card command again (`USBFeliCaChannel`: while its answer comes
/// back damaged; `RCS380TypeAChannel`: damaged or not at all): the command sent with `send`,
/// given the seconds left, and again while `again` says its reception is worth another try, up
/// to `tries` in all and never past `deadline` on `clock`. `retrying` is told the number of each
/// try about to go, after the first, and what came back before it (the channel logs and counts
/// it). Returns the last reception and how often the command went.
package func sendAgainWhile<Reception>(_ again: (Reception) -> Bool, tries: Int, by deadline: Deadline, on clock: MonotonicClock,
                                       retrying: (_ try: Int, _ before: Reception) -> Void,
                                       _ send: (Double) throws(TransitError) -> Reception) throws(TransitError) -> (reception: Reception, tries: Int) {
    var reception = try send(clock.secondsLeft(until: deadline))
    var count = 1
    while count < tries, again(reception) {
        let left = clock.secondsLeft(until: deadline)
        guard left > 0 else { break }
        count += 1
        retrying(count, reception)
        reception = try send(left)
    }
    return (reception, count)
}
