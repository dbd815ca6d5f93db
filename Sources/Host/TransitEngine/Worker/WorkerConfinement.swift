import CTransitShims
import Foundation
import TransitModel

/// What the plugin worker gives up once its plugins are loaded (`dlopen` needs files; a read does
/// not): started as root it becomes the `transit` system user, or `nobody` where there is none, with
/// no supplementary groups; it can gain no privilege again (`PR_SET_NO_NEW_PRIVS`); a seccomp filter
/// on every thread lets it read and write its descriptors, manage memory, read clocks, sleep and
/// exit, and answers EPERM to everything else (open, socket, execve, setuid…); and it may hold at
/// most `maxFiles` descriptors and `maxMemory` bytes of address space.
package enum WorkerConfinement {
    package static let maxFiles: rlim_t = 64
    /// A worker with every plugin loaded maps about 250 MB (mostly the Swift and Foundation
    /// libraries); a read adds little.
    package static let maxMemory: rlim_t = 1 << 30

    /// Confines this process; what could not be done, or nil.
    package static func apply() -> L10n.Words? {
        var files = rlimit(rlim_cur: maxFiles, rlim_max: maxFiles), memory = rlimit(rlim_cur: maxMemory, rlim_max: maxMemory)
        guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &files) == 0,
              setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &memory) == 0 else { return .init("limits: ") + L10n.system(errno) }
        if geteuid() == 0 {
            guard let user = getpwnam("transit") ?? getpwnam("nobody") else { return L10n.words("neither a transit nor a nobody user exists") }
            guard transit_drop_privileges(user.pointee.pw_uid, user.pointee.pw_gid) == 0 else { return L10n.words("dropping root: %1$s", L10n.system(errno)) }
            guard geteuid() != 0, getuid() != 0 else { return L10n.words("dropping root: still root") }
        }
        guard transit_no_new_privs() == 0 else { return .init("no_new_privs: ") + L10n.system(errno) }
        guard transit_seccomp_worker() == 0 else { return .init("seccomp: ") + L10n.system(errno) }
        return nil
    }
}
