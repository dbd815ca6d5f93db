import CTransitShims
import Glibc

/// The process's standard output and error as C streams. Swift sees C's `stdout` and `stderr` as
/// mutable globals, which Swift 6 refuses to read; glibc sets them once and transit never assigns
/// them, so CTransitShims hands them over by a function.
package enum StandardStream {
    package static var output: UnsafeMutablePointer<FILE> { transit_stdout() }
    package static var error: UnsafeMutablePointer<FILE> { transit_stderr() }
}
