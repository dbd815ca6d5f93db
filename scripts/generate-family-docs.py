#!/usr/bin/env python3
"""Writes the three documents' lists of every card family from plugins.conf and each family's
Sources/Plugins/<Target>/FAMILY.md (issue 48), so a new family is its folder, its line in
Package.swift's `plugins` table and its line in plugins.conf, then this script:

  README.md                    the "## Card families" table, a row a plugin in probe order
  docs/man/plugins.conf.5      THE DEFAULT ORDER: each plugin's reason, and plugins.conf's lines
  docs/scripting-and-watch.md  the `family` row: the names a scan's JSON says

Each is written between markers (README, the man page) or is its one row (the JSON table), and
nothing else in the file changes. A plugins.conf line's library, libTransit<X>.so, is the product
Transit<X> of Package.swift's table, whose target names the folder. FAMILY.md's format is in
docs/plugins.md ("Adding a family to this repository").

    scripts/generate-family-docs.py           writes the three documents
    scripts/generate-family-docs.py --check   changes nothing; exit 1 naming each document that is
                                              not what it would write (FamilyListTests runs it)

A changed man page also needs scripts/translate-man.sh (its Japanese translation).
"""
import os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = "scripts/generate-family-docs.py"
MAN = "docs/man/plugins.conf.5"
JA_PO = "po/man/plugins.conf.5.ja.po"


class Failure(Exception):
    pass


def read(relative):
    with open(os.path.join(ROOT, relative), encoding="utf-8") as f:
        return f.read()


def conf_lines():
    """plugins.conf's plugin lines, in order: (name, library, the line as written)."""
    lines = []
    for raw in read("plugins.conf").split("\n"):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        words = raw.split()
        if len(words) < 2:
            raise Failure(f"plugins.conf: a line without a library: {raw!r}")
        lines.append((words[0], words[1], raw))
    return lines


def package_targets():
    """Package.swift's `plugins` table: product → target."""
    manifest = read("Package.swift")
    table = re.search(r"^let plugins: \[\(product: String, target: String\)\] = \[\n(.*?)^\]", manifest, re.S | re.M)
    if not table:
        raise Failure("Package.swift: no `let plugins: [(product: String, target: String)] = [` table")
    return dict(re.findall(r'\(\s*"([^"]+)"\s*,\s*"([^"]+)"\s*\)', table.group(1)))


class Family:
    """One plugin's FAMILY.md: its README cells, its default-order reason, its JSON names."""

    def __init__(self, name, path):
        self.name, self.path = name, path
        text = re.sub(r"<!--.*?-->\n?", "", read(path), flags=re.S)
        title, *sections = re.split(r"^## ", text, flags=re.M)
        if title.strip() != f"# {name}":
            raise Failure(f"{path}: its first line is not `# {name}` (plugins.conf's name)")
        self.sections = {}
        for section in sections:
            heading, _, body = section.partition("\n")
            self.sections[heading.strip()] = body.strip("\n")
        unknown = set(self.sections) - {"Cards", "Reads", "Family names", "Default order", "Default order, in Japanese"}
        if unknown:
            raise Failure(f"{path}: unknown section(s) {', '.join(sorted(unknown))}")
        self.cards, self.reads = self.paragraph("Cards"), self.paragraph("Reads")
        names = self.sections.get("Family names")
        self.names = re.findall(r"`([^`]+)`", names) if names is not None else [name]
        if not self.names:
            raise Failure(f"{path}: `## Family names` names none in backquotes")
        order = self.sections.get("Default order")
        if order is None:
            raise Failure(f"{path}: no `## Default order` section (its reason, or `Same as `other`.`)")
        same = re.fullmatch(r"Same as `([^`]+)`\.?", order.strip())
        fenced = re.fullmatch(r"```roff\n(.*?)\n```", order.strip(), re.S)
        if same:
            self.same_as, self.reason = same.group(1), None
        elif fenced:
            self.same_as, self.reason = None, fenced.group(1)
        else:
            raise Failure(f"{path}: `## Default order` is neither a ```roff block nor `Same as `other`.`")
        japanese = self.sections.get("Default order, in Japanese")
        self.japanese = None
        if japanese is not None:
            fenced = re.fullmatch(r"```roff\n(.*?)\n```", japanese.strip(), re.S)
            if not fenced or self.reason is None:
                raise Failure(f"{path}: `## Default order, in Japanese` is not a ```roff block after one in English")
            self.japanese = fenced.group(1)

    def paragraph(self, heading):
        body = self.sections.get(heading)
        if not body or not body.strip():
            raise Failure(f"{self.path}: no `## {heading}` section")
        return " ".join(line.strip() for line in body.strip().split("\n"))


def families():
    targets = package_targets()
    found = []
    for name, library, line in conf_lines():
        product = re.fullmatch(r"lib(.+)\.so", library)
        if not product or product.group(1) not in targets:
            raise Failure(f"plugins.conf: {name}'s library {library} is no product of Package.swift's plugins table")
        path = f"Sources/Plugins/{targets[product.group(1)]}/FAMILY.md"
        if not os.path.exists(os.path.join(ROOT, path)):
            raise Failure(f"{path} is missing: {name}'s facts for the documents (docs/plugins.md)")
        found.append((Family(name, path), line))
    named = {lib for _, lib, _ in conf_lines()}
    for product in targets:
        if f"lib{product}.so" not in named:
            raise Failure(f"Package.swift's plugins table has {product}, which no plugins.conf line names")
    return found


def code(name):
    return f"`{name}`"


def readme_table(found):
    rows = ["| family | cards | reads |", "| --- | --- | --- |"]
    for family, _ in found:
        names = family.names if family.name in family.names else [family.name]
        rows.append(f"| {', '.join(map(code, names))} | {family.cards} | {family.reads} |")
    return "\n".join(rows) + "\n"


def roff(name):
    return name.replace("-", "\\-")


def groups(found):
    """The .TP paragraphs of THE DEFAULT ORDER: [names, the family whose reason it is]."""
    out = []
    for family, _ in found:
        if family.reason is not None:
            out.append([[family.name], family])
        elif out and family.same_as == out[-1][0][0]:
            out[-1][0].append(family.name)
        else:
            raise Failure(f"{family.path}: `Same as `{family.same_as}`` but the plugin before it in plugins.conf "
                          f"is not tried for {family.same_as}'s reason")
    return out


def order_paragraphs(found, japanese=False):
    """Each plugin's reason (in Japanese where its FAMILY.md gives one), then plugins.conf's lines."""
    out = []
    for names, family in groups(found):
        header = f".B {roff(names[0])}" if len(names) == 1 else ".BR " + ' ", " '.join(map(roff, names))
        out += [".TP", header, (family.japanese or family.reason) if japanese else family.reason]
    return out + [".PP", ".RS", ".EX"] + [roff(line) for _, line in found] + [".EE", ".RE"]


def default_order(found):
    return "\n".join(["The shipped file tries the plugins in this order, for these reasons:"] + order_paragraphs(found)) + "\n"


def json_row(found):
    parts = []
    for family, _ in found:
        names = ", ".join(map(code, family.names))
        parts.append(names if family.name in family.names else f"{names} (the {code(family.name)} plugin's)")
    return "| `family` | " + ", ".join(parts) + " |"


def between(text, path, begin, end, body):
    """`text` with what lies between the line `begin` and the line `end` replaced by `body`."""
    start = text.find(begin + "\n")
    stop = text.find("\n" + end + "\n", start)
    if start < 0 or stop < 0:
        raise Failure(f"{path}: the markers are missing:\n{begin}\n{end}")
    return text[:start + len(begin) + 1] + body + text[stop + 1:]


def documents(found):
    readme = between(read("README.md"), "README.md",
                     f"<!-- The table is written by {GENERATOR} from plugins.conf and each family's FAMILY.md: edit those. -->",
                     "<!-- The end of the written table. -->", readme_table(found))
    page = between(read("docs/man/plugins.conf.5"), "docs/man/plugins.conf.5",
                   f'.\\" THE DEFAULT ORDER is written by {GENERATOR} from plugins.conf and each family\'s FAMILY.md.',
                   '.\\" The end of the written section.', default_order(found))
    json = read("docs/scripting-and-watch.md")
    rows = [line for line in json.split("\n") if line.startswith("| `family` |")]
    if len(rows) != 1:
        raise Failure("docs/scripting-and-watch.md: not one `| `family` |` row")
    json = json.replace(rows[0] + "\n", json_row(found) + "\n")
    return {"README.md": readme, "docs/man/plugins.conf.5": page, "docs/scripting-and-watch.md": json}


# --- The Japanese page: THE DEFAULT ORDER's entries of po/man/plugins.conf.5.ja.po -----------------
# po4a(1) translates docs/man/plugins.conf.5 from that PO (scripts/translate-man.sh). Its entries for
# this section are written here: po4a-gettextize pairs the English paragraphs with the same
# paragraphs in Japanese (each FAMILY.md's `## Default order, in Japanese`; the names' headers and
# plugins.conf's lines are the same in both), so each msgid is exactly the one po4a extracts.

def unquote(piece):
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r'\\(.)', lambda m: escapes.get(m.group(1), "\\" + m.group(1)), piece[1:-1])


def quote(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" not in text:
        return '"' + escaped.replace("\n", "\\n") + '"'
    return '""\n' + "\n".join('"' + line + '\\n"' for line in escaped.split("\n")[:-1]) + \
        ("\n\"" + escaped.split("\n")[-1] + '"' if not text.endswith("\n") else "")


def po_entry(block):
    """A PO entry's (msgid, msgstr, fuzzy), or None for the header, an obsolete entry or no entry."""
    fields, current = {}, None
    for line in block.split("\n"):
        key = re.match(r"(msgid|msgstr) ", line)
        if key:
            current = fields.setdefault(key.group(1), [])
            current.append(line[len(key.group(0)):])
        elif line.startswith('"') and current is not None:
            current.append(line)
    if "msgid" not in fields or "msgstr" not in fields:
        return None
    msgid = "".join(map(unquote, fields["msgid"]))
    fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in block.split("\n"))
    return (msgid, "".join(map(unquote, fields["msgstr"])), fuzzy) if msgid else None


def po4a_tools():
    return all(shutil.which(tool) for tool in ("po4a", "po4a-gettextize"))


def japanese_pairs(found):
    """msgid → msgstr of THE DEFAULT ORDER's paragraphs that FAMILY.md files translate."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, japanese in (("en", False), ("ja", True)):
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                f.write("\n".join([".TH FAMILIES 5", ".SH ORDER"] + order_paragraphs(found, japanese)) + "\n")
        run = subprocess.run(["po4a-gettextize", "-f", "man", "-m", "en", "-M", "UTF-8", "-l", "ja", "-L", "UTF-8",
                              "-p", "pairs.po"], cwd=tmp, capture_output=True, text=True)
        if run.returncode != 0:
            raise Failure(f"po4a-gettextize could not pair the English and Japanese reasons:\n{run.stderr}")
        with open(os.path.join(tmp, "pairs.po"), encoding="utf-8") as f:
            entries = [po_entry(block) for block in f.read().split("\n\n")]
    pairs = {}
    for entry in entries:
        if not entry or entry[0] in ("FAMILIES", "ORDER"):
            continue
        msgid, msgstr, _ = entry
        # A reason no FAMILY.md translates stays the translator's, in the PO.
        if msgstr != msgid or "\n" in msgid or re.fullmatch(r"B<[^>]+>(, B<[^>]+>)*", msgid):
            pairs[msgid] = msgstr
    return pairs


def japanese_problems(pairs):
    """What po/man/plugins.conf.5.ja.po says otherwise than the FAMILY.md files."""
    entries = {e[0]: e for e in map(po_entry, read(JA_PO).split("\n\n")) if e}
    problems = []
    for msgid, msgstr in pairs.items():
        entry = entries.get(msgid)
        if not entry:
            problems.append(f"no entry for {msgid[:60]!r}")
        elif entry[1] != msgstr or entry[2]:
            problems.append(f"{msgid[:60]!r} is translated otherwise (or fuzzy)")
    return problems


def fill_japanese(pairs):
    """po/man/plugins.conf.5.ja.po with each paired entry translated as the FAMILY.md files say."""
    blocks = read(JA_PO).split("\n\n")
    for i, block in enumerate(blocks):
        entry = po_entry(block)
        if not entry or entry[0] not in pairs:
            continue
        lines = [line for line in block.split("\n") if not line.startswith("#|")]
        lines = [re.sub(r"^#, (.*)", lambda m: "#, " + ", ".join(f for f in m.group(1).split(", ") if f != "fuzzy"), line)
                 for line in lines]
        lines = [line for line in lines if line != "#, "]
        end = next(j for j, line in enumerate(lines) if line.startswith("msgstr "))
        blocks[i] = "\n".join(lines[:end] + ["msgstr " + quote(pairs[entry[0]])]) + ("\n" if block.endswith("\n") else "")
    with open(os.path.join(ROOT, JA_PO), "w", encoding="utf-8") as f:
        f.write("\n\n".join(blocks))


def main(argv):
    if argv not in ([], ["--check"]):
        print(f"usage: {GENERATOR} [--check]", file=sys.stderr)
        return 2
    try:
        found = families()
        written = documents(found)
        pairs = japanese_pairs(found) if po4a_tools() else None
    except Failure as failure:
        print(f"generate-family-docs: {failure}", file=sys.stderr)
        return 1
    stale = [path for path, text in written.items() if read(path) != text]
    if pairs is None:
        print("generate-family-docs: po4a is missing (scripts/test-setup.sh installs it): the Japanese "
              f"of {MAN} is left as it is", file=sys.stderr)
    if argv == ["--check"]:
        for path in stale:
            print(f"generate-family-docs: {path} is not what {GENERATOR} writes from plugins.conf and the "
                  f"families' FAMILY.md: run it and commit the result", file=sys.stderr)
        problems = japanese_problems(pairs) if pairs is not None and MAN not in stale else []
        for problem in problems:
            print(f"generate-family-docs: {JA_PO}: {problem}: run {GENERATOR} and commit the result", file=sys.stderr)
        return 1 if stale or problems else 0
    for path in stale:
        with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
            f.write(written[path])
        print(f"wrote {path}", file=sys.stderr)
    if pairs is not None and (MAN in stale or japanese_problems(pairs)):
        # po4a merges the changed page into the PO (it writes no Japanese page while an entry is
        # untranslated), the FAMILY.md files translate their entries, po4a writes the page.
        subprocess.run(["scripts/translate-man.sh"], cwd=ROOT, capture_output=True)
        fill_japanese(pairs)
        print(f"wrote {JA_PO}'s THE DEFAULT ORDER; scripts/translate-man.sh:", file=sys.stderr)
        return subprocess.run(["scripts/translate-man.sh"], cwd=ROOT).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
