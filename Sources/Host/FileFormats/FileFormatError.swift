import TransitModel

/// A file that is not what its format says: the one error of the project's own format readers
/// (XML, zip). Values from the file are quoted in it in brief (`TerminalText.excerpt`). Its
/// `description` is the English, `words.said` the chosen language's.
package struct FileFormatError: SaidError {
    package let words: L10n.Words
    package init(_ words: L10n.Words) { self.words = words }
}
