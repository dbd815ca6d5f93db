import TransitModel

/// One APDU to the reader and what came back (or the transport error instead), as a recording
/// channel keeps it and a replay answers it. The log bundle stores these as they are.
package struct RecordedExchange: Codable, Equatable, Sendable {
    package var command: String
    package var response: String?
    /// The transport error, with its exact kind (a reset card replays as one).
    package var error: TransitError?
    /// Milliseconds the exchange took.
    package var ms: Double

    package init(command: String, response: String?, error: TransitError? = nil, ms: Double) {
        self.command = command; self.response = response; self.error = error; self.ms = ms
    }
}
