/// The release, as `--version`, the log bundle and the installed files (install.sh, make-deb.sh) give it.
package enum Version {
    package static let number = "0.1.0"
    /// `transit 0.1.0 (plugin ABI 1)`.
    package static let banner = "transit \(number) (plugin ABI 1)"
}
