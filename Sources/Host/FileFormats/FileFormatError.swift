/// A file that is not what its format says: the one error of the project's own format readers
/// (XML, zip). Values from the file are quoted in it in brief (`TerminalText.excerpt`).
package struct FileFormatError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
