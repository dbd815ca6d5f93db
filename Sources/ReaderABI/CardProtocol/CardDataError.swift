/// Bytes from a card (or a file of a card's bytes) that do not follow the protocol's rules. Each
/// layer says what that means for it: the host a malformedResponse, PluginKit a plugin status.
package struct CardDataError: Error, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
