#!/usr/bin/env python3
"""Writes po/transit.pot from the host's Swift sources (docs/translating.md).

xgettext reads no Swift: `--language=C` takes `"` … `"` but breaks Swift's multi-line literals
(`\"\"\"`, their indentation, a `\\` at a line's end), which --help's texts are. So this script
finds the msgids itself: the string literals passed to `L10n.tr`, `L10n.words`, `L10n.mark`,
`L10n.trn` and `L10n.wordsn` (singular and plural) and a style's `say`, all `StaticString`s (no
interpolation). A `// TRANSLATORS:` comment just above the call goes to the translator; `%1$s` marks the entry
c-format, so `msgfmt --check` holds a translation to the same placeholders. No date in the
header: the same sources give the same file (the suite checks the committed one is current).

    scripts/extract-pot.py            writes po/transit.pot
    scripts/extract-pot.py --stdout   prints it
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CALL = re.compile(r'\b(?:L10n\.(tr|trn|words|wordsn|mark)|style\.(say))\(\s*')
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


def entries():
    found = {}  # (msgid, plural) -> [refs, comments]
    host = os.path.join(ROOT, 'Sources', 'Host')
    for folder, dirs, files in sorted(os.walk(host)):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith('.swift'):
                continue
            path = os.path.join(folder, name)
            text = open(path, encoding='utf-8').read()
            for m in CALL.finditer(text):
                if m.group(1) is None and m.group(2) is None:
                    continue
                first = literal(text, m.end())
                if first is None:
                    continue  # L10n.tr(variable): not a msgid (L10n.translated is for those)
                msgid, end = first
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


def pot():
    out = ['# The messages of transit, the card reader (docs/translating.md). Written by',
           '# scripts/extract-pot.py from the sources: do not edit.',
           'msgid ""', 'msgstr ""',
           '"Project-Id-Version: transit\\n"',
           '"Content-Type: text/plain; charset=UTF-8\\n"',
           '"Content-Transfer-Encoding: 8bit\\n"',
           '"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"', '']
    for (msgid, plural), (refs, notes) in entries().items():
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
    text = pot()
    if '--stdout' in sys.argv:
        sys.stdout.write(text)
    else:
        open(os.path.join(ROOT, 'po', 'transit.pot'), 'w', encoding='utf-8').write(text)
