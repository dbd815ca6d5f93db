#!/usr/bin/env python3
"""Writes po/transit.pot from the host's Swift sources, and each family's
po/plugins/FAMILY/FAMILY.pot from the plugins' (docs/translating.md, docs/ABI.md).

xgettext reads no Swift: `--language=C` takes `"` … `"` but breaks Swift's multi-line literals
(`\"\"\"`, their indentation, a `\\` at a line's end), which --help's texts are. So this script
finds the msgids itself: the string literals passed to `L10n.tr`, `L10n.words`, `L10n.mark`,
`L10n.trn` and `L10n.wordsn` (singular and plural) and a style's `say`, all `StaticString`s (no
interpolation). A plugin's words are the literals passed to `PluginWords.mark("…", in: "FAMILY")`,
msgids of the family's own text domain `transit-FAMILY`. A `// TRANSLATORS:` comment just above the call goes to the translator; `%1$s` marks the entry
c-format, so `msgfmt --check` holds a translation to the same placeholders. No date in the
header: the same sources give the same file (the suite checks the committed one is current).

    scripts/extract-pot.py                    writes po/transit.pot and po/plugins/*/*.pot
    scripts/extract-pot.py --stdout           prints po/transit.pot
    scripts/extract-pot.py --family FAMILY    prints po/plugins/FAMILY/FAMILY.pot
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CALL = re.compile(r'\b(?:L10n\.(tr|trn|words|wordsn|mark)|style\.(say))\(\s*')
PLUGIN_CALL = re.compile(r'\bPluginWords\.(mark)\(\s*')
FAMILY = re.compile(r'\s*,\s*in:\s*"([a-z0-9][a-z0-9-]*)"\s*\)')
ESCAPES = {'n': '\n', 't': '\t', 'r': '\r', '0': '\0', '"': '"', "'": "'", '\\': '\\'}


def literal(text, i):
    """The Swift string literal at text[i:]: (value, end index), or None."""
    if text.startswith('"""', i):
        start = text.index('\n', i) + 1
        end = text.index('"""', start)
        body = text[start:end]
        lines = body.split('\n')
        indent = lines[-1]  # the closing delimiter's indentation, stripped from every line
        lines = lines[:-1]
        out = ''
        for n, line in enumerate(lines):
            line = line[len(indent):] if line.startswith(indent) else line.lstrip(' ')
            if line.endswith('\\') and not line.endswith('\\\\'):
                out += unescape(line[:-1])
            else:
                out += unescape(line) + ('\n' if n < len(lines) - 1 else '')
        return out, end + 3
    if text[i] != '"':
        return None
    j = i + 1
    while text[j] != '"':
        j += 2 if text[j] == '\\' else 1
    return unescape(text[i + 1:j]), j + 1


def unescape(s):
    if '\\(' in s:
        raise ValueError('interpolation in a translated literal: ' + s)
    out, i = '', 0
    while i < len(s):
        if s[i] == '\\':
            if s[i + 1] == 'u':
                close = s.index('}', i)
                out += chr(int(s[i + 3:close], 16)); i = close + 1; continue
            out += ESCAPES[s[i + 1]]; i += 2; continue
        out += s[i]; i += 1
    return out


def po_string(s):
    q = lambda t: '"' + t.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n').replace('\t', '\\t') + '"'
    if '\n' not in s[:-1]:
        return q(s)
    parts = s.split('\n')
    chunks = [p + '\n' for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return '""\n' + '\n'.join(q(c) for c in chunks)


def entries(family=None):
    """The host's msgids, or with `family` the ones the plugins mark for that family's catalog."""
    found = {}  # (msgid, plural) -> [refs, comments]
    host = os.path.join(ROOT, 'Sources', 'Host' if family is None else 'Plugins')
    for folder, dirs, files in sorted(os.walk(host)):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith('.swift'):
                continue
            path = os.path.join(folder, name)
            text = open(path, encoding='utf-8').read()
            for m in (CALL if family is None else PLUGIN_CALL).finditer(text):
                if family is None and m.group(1) is None and m.group(2) is None:
                    continue
                first = literal(text, m.end())
                if first is None:
                    continue  # L10n.tr(variable): not a msgid (L10n.translated is for those)
                msgid, end = first
                if family is not None:
                    named = FAMILY.match(text, end)
                    if named is None:
                        raise ValueError('PluginWords.mark without in: "FAMILY" in %s' % path)
                    if named.group(1) != family:
                        continue
                plural = None
                if m.group(1) in ('trn', 'wordsn'):
                    k = end
                    while text[k] in ', \n': k += 1
                    plural, end = literal(text, k)
                line = text.count('\n', 0, m.start()) + 1
                # `// TRANSLATORS:` lines just above the call's line (or above the comment lines there).
                above = text[:text.rfind('\n', 0, m.start())].split('\n')
                notes = []
                while above and above[-1].strip().startswith('//'):
                    c = above.pop().strip()[2:].strip()
                    notes.insert(0, c)
                    if c.startswith('TRANSLATORS:'):
                        break
                else:
                    notes = []
                notes = notes if notes and notes[0].startswith('TRANSLATORS:') else []
                key = (msgid, plural)
                ref = os.path.relpath(path, ROOT) + ':' + str(line)
                if key not in found:
                    found[key] = [[], []]
                found[key][0].append(ref)
                for n in notes:
                    if n not in found[key][1]:
                        found[key][1].append(n)
    return found


def families():
    """Every family a plugin marks words for, sorted."""
    out = set()
    for folder, dirs, files in os.walk(os.path.join(ROOT, 'Sources', 'Plugins')):
        for name in files:
            if name.endswith('.swift'):
                text = open(os.path.join(folder, name), encoding='utf-8').read()
                for m in PLUGIN_CALL.finditer(text):
                    first = literal(text, m.end())
                    named = first and FAMILY.match(text, first[1])
                    if named:
                        out.add(named.group(1))
    return sorted(out)


def pot(family=None):
    title = ['# The messages of transit, the card reader (docs/translating.md). Written by'] if family is None else \
        ['# The words of the %s family\'s plugin, text domain transit-%s (docs/ABI.md). Written by' % (family, family)]
    out = title + ['# scripts/extract-pot.py from the sources: do not edit.',
           'msgid ""', 'msgstr ""',
           '"Project-Id-Version: %s\\n"' % ('transit' if family is None else 'transit-' + family),
           '"Content-Type: text/plain; charset=UTF-8\\n"',
           '"Content-Transfer-Encoding: 8bit\\n"',
           '"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"', '']
    for (msgid, plural), (refs, notes) in entries(family).items():
        out += ['#. ' + n for n in notes]
        out += ['#: ' + ' '.join(refs)]
        if re.search(r'%[0-9]+\$s', msgid):
            out.append('#, c-format')
        out.append('msgid ' + po_string(msgid))
        if plural is not None:
            out += ['msgid_plural ' + po_string(plural), 'msgstr[0] ""', 'msgstr[1] ""']
        else:
            out.append('msgstr ""')
        out.append('')
    return '\n'.join(out)


if __name__ == '__main__':
    if '--family' in sys.argv:
        sys.stdout.write(pot(sys.argv[sys.argv.index('--family') + 1]))
    elif '--stdout' in sys.argv:
        sys.stdout.write(pot())
    else:
        open(os.path.join(ROOT, 'po', 'transit.pot'), 'w', encoding='utf-8').write(pot())
        for family in families():
            folder = os.path.join(ROOT, 'po', 'plugins', family)
            os.makedirs(folder, exist_ok=True)
            open(os.path.join(folder, family + '.pot'), 'w', encoding='utf-8').write(pot(family))
