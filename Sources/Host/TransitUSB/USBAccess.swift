import TransitModel
import Foundation

/// What decides whether this user may open a Sony reader's device node: transit's udev rule
/// (installed or not, and where), the group it names, and whether this user is in it. The rule
/// also gives the person at the desktop's seat access (`TAG+="uaccess"`), without the group.
package struct USBAccess: Equatable, Sendable {
    /// The rule's file name (packaging/udev): Sony's PaSoRi readers, the RC-S380 and RC-S330/360/370.
    package static let ruleName = "60-transit-pasori.rules"
    /// Its name until issue 46 (it already had the RC-S330/360/370's line): a machine not upgraded
    /// yet has it, and it gives the same access.
    package static let formerRuleName = "60-transit-rcs380.rules"
    /// Where udev reads rules, in its order: make install puts the rule in /etc/udev/rules.d (or
    /// /usr/lib/udev/rules.d for PREFIX=/usr), the .deb in /usr/lib/udev/rules.d (udev(7)).
    package static let ruleFolders = ["/etc/udev/rules.d", "/run/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d"]

    /// The installed rule's path; nil when none of `ruleFolders` has it.
    package let rulePath: String?
    /// The group the rule names (`GROUP="transit"`); nil without a rule, or when it names none.
    package let group: String?
    package let groupExists: Bool
    /// True when this process has the group (the user logged in after being added to it).
    package let inGroup: Bool
    /// True when the group lists the user, though this process lacks it (added, not logged in again).
    package let addedNotLoggedIn: Bool
    package let user: String

    package init(rulePath: String?, group: String?, groupExists: Bool, inGroup: Bool, addedNotLoggedIn: Bool = false, user: String) {
        self.rulePath = rulePath; self.group = group; self.groupExists = groupExists; self.inGroup = inGroup
        self.addedNotLoggedIn = addedNotLoggedIn; self.user = user
    }

    /// This machine and this process, as they are now.
    package static func here() -> USBAccess {
        let path = [ruleName, formerRuleName].lazy.flatMap { name in ruleFolders.map { $0 + "/" + name } }
            .first { FileManager.default.fileExists(atPath: $0) }
        let text = path.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
        let group = path == nil ? nil : Self.group(inRule: text)
        let user = getpwuid(geteuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? String(geteuid())
        guard let group, let entry = getgrnam(group) else {
            return USBAccess(rulePath: path, group: group, groupExists: false, inGroup: false, user: user)
        }
        let gid = entry.pointee.gr_gid
        var members = [String]()
        if var member = entry.pointee.gr_mem {
            while let name = member.pointee { members.append(String(cString: name)); member += 1 }
        }
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(0, count)))
        let got = getgroups(count, &groups)
        let has = getegid() == gid || groups.prefix(Int(max(0, got))).contains(gid)
        return USBAccess(rulePath: path, group: group, groupExists: true, inGroup: has, addedNotLoggedIn: !has && members.contains(user), user: user)
    }

    /// The first `GROUP="…"` of a rule's lines that are not comments.
    package static func group(inRule text: String) -> String? {
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            guard let start = line.range(of: "GROUP=\"") else { continue }
            let rest = line[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { continue }
            return String(rest[..<end])
        }
        return nil
    }

    /// "installed: /etc/udev/rules.d/60-transit-pasori.rules" (or the former name's path) or "not installed".
    package var ruleDetail: String { ruleWords.english }
    package var ruleWords: L10n.Words {
        guard let rulePath else {
            return L10n.words("%1$s not installed (looked in %2$s)", .init(Self.ruleName), .init(Self.ruleFolders.joined(separator: ", ")))
        }
        return L10n.words("installed: %1$s (group %2$s and the person at the desktop's seat get the reader)", .init(rulePath), .init(group ?? "none"))
    }

    /// "group transit exists; root is in it".
    package var groupDetail: String { groupWords.english }
    package var groupWords: L10n.Words {
        guard let group else { return L10n.words("no rule, so no group") }
        guard groupExists else { return L10n.words("group %1$s does not exist", .init(group)) }
        if inGroup { return L10n.words("group %1$s exists; %2$s is in it", .init(group), .init(user)) }
        return addedNotLoggedIn ? L10n.words("group %1$s exists; %2$s is not in it yet (added: log in again)", .init(group), .init(user))
            : L10n.words("group %1$s exists; %2$s is not in it", .init(group), .init(user))
    }

    /// What to do about a reader this user may not open, the one step that applies: install the
    /// rule; create its group; join it (or use the reader at the seat); log in again; replug.
    package var fix: String { fixWords.english }
    package var fixWords: L10n.Words {
        guard rulePath != nil else {
            return L10n.words("install transit's udev rule %1$s (make install or the .deb; or copy packaging/udev/%1$s to /etc/udev/rules.d), then replug the reader",
                              .init(Self.ruleName))
        }
        guard let group else {
            return L10n.words("replug the reader, or run sudo udevadm trigger (the rule names no group: only the person at the desktop's seat gets it)")
        }
        guard groupExists else {
            return L10n.words("create the group the rule names: sudo groupadd --system %1$s (make install and the .deb create it), then replug the reader", .init(group))
        }
        if addedNotLoggedIn {
            return L10n.words("log out and in again: %1$s was added to group %2$s, this session does not have it yet", .init(user), .init(group))
        }
        guard inGroup else {
            return L10n.words("sudo usermod -aG %1$s %2$s, then log in again — or read at the desktop's seat, where the rule gives the person there the reader",
                              .init(group), .init(user))
        }
        return L10n.words("replug the reader, or run sudo udevadm control --reload && sudo udevadm trigger: the rule applies when the reader is plugged in")
    }
}
