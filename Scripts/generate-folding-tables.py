#!/usr/bin/env python3
"""Generate Sources/ChipDirectory/FoldingTables.swift: the search folding of
every Unicode scalar, and its word class, for contact matching.

Usage:
    python3 Scripts/generate-folding-tables.py [DATA_DIR] [--output FILE] [--check]

--check writes nothing and fails when the Swift file is not what the data
generates (for CI, or to see whether a new `unicode-data` changes anything).

DATA_DIR holds the Unicode Character Database as Debian's `unicode-data`
package installs it (default /usr/share/unicode). The Unicode version is the
package's: it is read from the files' headers, never from Python's own
`unicodedata` module, so the tables and their source always agree.

Files read: UnicodeData.txt (general categories, decompositions),
CaseFolding.txt (statuses C and F), Scripts.txt and ScriptExtensions.txt
(which marks are accents, which scripts have no spaces), PropertyValueAliases.txt
(script short names), DerivedCoreProperties.txt (Default_Ignorable_Code_Point).

What folding does to one scalar, repeated until nothing changes:
  1. the project's own table (HAND below), where it has the scalar;
  2. otherwise full case folding (C and F), then full compatibility
     decomposition, applied recursively; Hangul syllables are left whole
     (their decomposition is algorithmic, not in UnicodeData.txt, and is
     not applied), and so are Hangul compatibility jamo (ㄱ, as typed);
  3. drop accents: nonspacing and enclosing marks (Mn, Me) of scripts whose
     marks are optional to a reader (Latin, Greek, Cyrillic, Hebrew points,
     Arabic harakat, ...), and default-ignorable code points;
  4. case fold again (a decomposition may yield capitals: U+2121 is "TEL").
Conjoining jamo that end up side by side are composed into syllables.
The hand table comes first so that it can overrule a decomposition (U+309B);
for the letters in it, which have none, the order makes no difference.
"""

import os
import sys

from unicode_files import code_range, data_lines, header_version, parse_arguments, swift_literal, write_or_check

# --------------------------------------------------------------------------
# The project's own additions beyond Unicode.
#
# Letters that no Unicode decomposition takes apart, but that people type
# without their stroke, bar or ligature when their keyboard lacks them
# (the Danish "Søren" typed as "Soren", the Polish "Łukasz" as "Lukasz").
# Upper-case forms are listed too, although case folding reaches the
# lower-case ones first, so the table reads complete on its own.
HAND = {
    0x00D8: "o", 0x00F8: "o",    # Ø ø  o with stroke (Danish, Norwegian, Faroese)
    0x0141: "l", 0x0142: "l",    # Ł ł  l with stroke (Polish)
    0x0110: "d", 0x0111: "d",    # Đ đ  d with stroke (Croatian, Vietnamese)
    0x0126: "h", 0x0127: "h",    # Ħ ħ  h with stroke (Maltese)
    0x0131: "i",                 # ı    dotless i (Turkish, Azerbaijani)
    0x0166: "t", 0x0167: "t",    # Ŧ ŧ  t with stroke (Northern Sami)
    0x0243: "b", 0x0180: "b",    # Ƀ ƀ  b with stroke
    0x0197: "i", 0x0268: "i",    # Ɨ ɨ  i with stroke
    0x01E4: "g", 0x01E5: "g",    # Ǥ ǥ  g with stroke (Skolt Sami)
    0x00C6: "ae", 0x00E6: "ae",  # Æ æ
    0x0152: "oe", 0x0153: "oe",  # Œ œ
    0x00DE: "th", 0x00FE: "th",  # Þ þ  thorn (Icelandic)
    0x00D0: "d", 0x00F0: "d",    # Ð ð  eth (Icelandic, Faroese)
    0x00DF: "ss", 0x1E9E: "ss",  # ß ẞ  (case folding agrees)
    0x0138: "k",                 # ĸ    kra (old Greenlandic)
    # The spacing kana voicing marks mean what the combining ones mean when
    # typed after a kana; their compatibility decomposition would put a
    # space before the mark.
    0x309B: "\u3099", 0x309C: "\u309A",
}

# Scripts whose nonspacing marks are accents or optional pointing, which
# people leave out when they type: these marks are dropped. In every other
# script (Devanagari and the other Brahmic scripts, Thai, Lao, Khmer,
# Myanmar, Tibetan, Thaana, N'Ko, the kana voicing marks, ...) a mark is a
# vowel, a tone or a virama, part of the spelling, and is kept. A mark is
# dropped when any script it is used with (Script_Extensions) is listed.
ACCENT_SCRIPTS = {
    "Inherited", "Common", "Latin", "Greek", "Coptic", "Cyrillic", "Armenian", "Georgian",
    "Hebrew", "Arabic", "Syriac",
}

# Scripts written without spaces between words, so that every character
# (letter or number) of them starts a word for the index. Hangul is here
# although Korean puts spaces between words: a Korean name is written solid,
# family name first (김민준), and people search by the given name. Tibetan
# is not: its tsheg (punctuation) already separates syllables.
SPACELESS_SCRIPTS = {
    "Han", "Hiragana", "Katakana", "Bopomofo", "Hangul", "Yi",
    "Thai", "Lao", "Khmer", "Myanmar", "Tai_Le", "New_Tai_Lue", "Tai_Tham", "Tai_Viet",
}

# General categories that separate words in a name: spaces, controls (tab,
# line breaks), punctuation, and the symbols of math, currency and
# modifiers (+ < = > | ~ $ ^ `, which join parts of addresses and
# handles). Other symbols (So: emoji, ©, ★) are word characters, so an
# emoji in a nickname can be searched for.
SEPARATOR_CATEGORIES = {
    "Zs", "Zl", "Zp", "Cc",
    "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po",
    "Sm", "Sc", "Sk",
}

HANGUL_COMPAT_JAMO = range(0x3131, 0x318F)
L_BASE, V_BASE, T_BASE, S_BASE = 0x1100, 0x1161, 0x11A7, 0xAC00
L_COUNT, V_COUNT, T_COUNT = 19, 21, 28

CLASS_WORD, CLASS_SEPARATOR, CLASS_SPACELESS = 0, 1, 2
MAX_SCALAR = 0x10FFFF
BLOCK_SHIFT = 7
BLOCK_SIZE = 1 << BLOCK_SHIFT


class Database:
    def __init__(self, directory):
        path = lambda name: os.path.join(directory, name)
        versioned = ["CaseFolding.txt", "Scripts.txt", "ScriptExtensions.txt",
                     "PropertyValueAliases.txt", "DerivedCoreProperties.txt"]
        versions = {name: header_version(path(name)) for name in versioned}
        if len(set(versions.values())) != 1:
            sys.exit(f"error: the data files disagree on the Unicode version: {versions}")
        self.version = versions["CaseFolding.txt"]

        self.category = {}
        self.decomposition = {}
        first = None
        for fields in data_lines(path("UnicodeData.txt")):
            cp, name, gc, decomposition = int(fields[0], 16), fields[1], fields[2], fields[5]
            if name.endswith(", First>"):
                first = cp
                continue
            if name.endswith(", Last>"):
                for c in range(first, cp + 1):
                    self.category[c] = gc
                continue
            self.category[cp] = gc
            if decomposition:
                parts = decomposition.split()
                if parts[0].startswith("<"):
                    parts = parts[1:]
                self.decomposition[cp] = [int(p, 16) for p in parts]

        self.case_folding = {}
        for fields in data_lines(path("CaseFolding.txt")):
            if fields[1] in ("C", "F"):
                self.case_folding[int(fields[0], 16)] = [int(p, 16) for p in fields[2].split()]

        long_name = {}
        for fields in data_lines(path("PropertyValueAliases.txt")):
            if fields[0] == "sc":
                for alias in fields[1:]:
                    long_name[alias] = fields[2]
        self.script = {}
        for fields in data_lines(path("Scripts.txt")):
            for cp in code_range(fields[0]):
                self.script[cp] = fields[1]
        self.script_extensions = {}
        for fields in data_lines(path("ScriptExtensions.txt")):
            scripts = {long_name[s] for s in fields[1].split()}
            for cp in code_range(fields[0]):
                self.script_extensions[cp] = scripts

        self.default_ignorable = set()
        for fields in data_lines(path("DerivedCoreProperties.txt")):
            if fields[1] == "Default_Ignorable_Code_Point":
                self.default_ignorable.update(code_range(fields[0]))

    def gc(self, cp):
        return self.category.get(cp, "Cn")

    def scripts(self, cp):
        return self.script_extensions.get(cp) or {self.script.get(cp, "Unknown")}


def is_surrogate(cp):
    return 0xD800 <= cp <= 0xDFFF


class Folder:
    def __init__(self, db):
        self.db = db
        self.cache = {}

    def decompose(self, cp):
        """Full compatibility decomposition, recursively; Hangul stays whole."""
        if cp in HANGUL_COMPAT_JAMO or cp not in self.db.decomposition:
            return [cp]
        out = []
        for part in self.db.decomposition[cp]:
            out.extend(self.decompose(part))
        return out

    def is_dropped(self, cp):
        if cp in self.db.default_ignorable:
            return True
        return self.db.gc(cp) in ("Mn", "Me") and bool(self.db.scripts(cp) & ACCENT_SCRIPTS)

    def step(self, cp):
        if cp in HAND:
            return [ord(c) for c in HAND[cp]]
        out = []
        for c in self.db.case_folding.get(cp, [cp]):
            for d in self.decompose(c):
                if not self.is_dropped(d):
                    out.extend(self.db.case_folding.get(d, [d]))
        return out

    def fold(self, cp):
        """The folded scalars of `cp`: the step applied until stable."""
        if cp in self.cache:
            return self.cache[cp]
        current = [cp]
        for _ in range(16):
            following = [d for c in current for d in self.step(c)]
            if following == current:
                break
            current = following
        else:
            sys.exit(f"error: folding U+{cp:04X} does not settle")
        result = compose_jamo(current)
        self.cache[cp] = result
        return result


def compose_jamo(scalars):
    """Composes conjoining jamo L V (T) into Hangul syllables, as the
    Swift side does across scalars, so that folded text never holds a
    sequence it would compose."""
    out = []
    for c in scalars:
        if out and V_BASE <= c < V_BASE + V_COUNT and L_BASE <= out[-1] < L_BASE + L_COUNT:
            out[-1] = S_BASE + ((out[-1] - L_BASE) * V_COUNT + (c - V_BASE)) * T_COUNT
        elif (out and T_BASE < c < T_BASE + T_COUNT and S_BASE <= out[-1] < S_BASE + 11172
                and (out[-1] - S_BASE) % T_COUNT == 0):
            out[-1] += c - T_BASE
        else:
            out.append(c)
    return out


def word_class(db, cp):
    gc = db.gc(cp)
    if gc in SEPARATOR_CATEGORIES:
        return CLASS_SEPARATOR
    if gc[0] in "LN" and db.scripts(cp) & SPACELESS_SCRIPTS:
        return CLASS_SPACELESS
    return CLASS_WORD


def utf8(scalars):
    return "".join(chr(c) for c in scalars).encode("utf-8")


def build(db):
    folder = Folder(db)
    entries = [(False, b"", CLASS_WORD)]   # entry 0: unchanged word character
    entry_index = {entries[0]: 0}
    pool = bytearray()
    pool_offset = {}
    per_scalar = []
    changed = 0
    for cp in range(MAX_SCALAR + 1):
        if is_surrogate(cp):
            per_scalar.append(0)
            continue
        folded = folder.fold(cp)
        cls = word_class(db, cp)
        if folded == [cp]:
            key = (False, b"", cls)
        else:
            changed += 1
            key = (True, utf8(folded), cls)
        if key not in entry_index:
            entry_index[key] = len(entries)
            entries.append(key)
        per_scalar.append(entry_index[key])

    # Check what the Swift side relies on.
    for cp in range(MAX_SCALAR + 1):
        if is_surrogate(cp):
            continue
        folded = folder.fold(cp)
        for c in folded:
            if folder.fold(c) != [c]:
                sys.exit(f"error: U+{cp:04X} folds to U+{c:04X}, which is not folded")
        if L_BASE <= cp < L_BASE + L_COUNT or V_BASE <= cp < V_BASE + V_COUNT or T_BASE < cp < T_BASE + T_COUNT:
            if folded != [cp] or word_class(db, cp) != CLASS_SPACELESS:
                sys.exit(f"error: conjoining jamo U+{cp:04X} does not stay itself")
        if folded and folded != [cp] and (
                V_BASE <= folded[0] < V_BASE + V_COUNT or T_BASE < folded[0] < T_BASE + T_COUNT):
            sys.exit(f"error: U+{cp:04X} folds to a leading vowel or trailing jamo")
    for b in range(0x80):
        expected = [b + 0x20] if 0x41 <= b <= 0x5A else [b]
        if folder.fold(b) != expected:
            sys.exit(f"error: ASCII {b:#04x} folds beyond lower-casing")

    # Mappings go into one byte pool, longest first, so that a mapping that
    # is a prefix or substring of another shares its bytes.
    for text in sorted({e[1] for e in entries if e[0]}, key=lambda t: (-len(t), t)):
        if text in pool_offset:
            continue
        found = pool.find(text)
        if found < 0:
            found = len(pool)
            pool.extend(text)
        pool_offset[text] = found

    def encode_entry(entry):
        is_changed, text, cls = entry
        if not is_changed:
            return cls
        assert len(text) < 64 and pool_offset[text] < (1 << 23)
        return cls | 4 | (len(text) << 3) | (pool_offset[text] << 9)

    encoded_entries = [encode_entry(e) for e in entries]

    # Above the last block that holds anything but unchanged word
    # characters, only tags and variation selectors (U+E0000..U+E0FFF, all
    # default-ignorable, all dropped) differ: the Swift side answers those
    # with one comparison, so the first stage stops at `limit`.
    ignorable = entry_index.get((True, b"", CLASS_WORD))
    high_ignorable = range(0xE0000, 0xE1000)
    last = max(cp for cp in range(MAX_SCALAR + 1) if per_scalar[cp] != 0 and cp not in high_ignorable)
    limit = (last // BLOCK_SIZE + 1) * BLOCK_SIZE
    for cp in range(limit, MAX_SCALAR + 1):
        expected = ignorable if cp in high_ignorable else 0
        if per_scalar[cp] != expected:
            sys.exit(f"error: U+{cp:04X} is above the first stage but is not answered by the rule for it")

    blocks = []
    block_index = {}
    stage1 = []
    for start in range(0, limit, BLOCK_SIZE):
        block = tuple(per_scalar[start:start + BLOCK_SIZE])
        if block not in block_index:
            block_index[block] = len(blocks)
            blocks.append(block)
        stage1.append(block_index[block])

    assert len(entries) < (1 << 16) and len(blocks) < (1 << 16)
    return {
        "limit": limit,
        "ignorable": ignorable,
        "max_length": max(len(e[1]) for e in entries),
        "changed": changed,
        "entries": encoded_entries,
        "pool": bytes(pool),
        "stage1": stage1,
        "stage2": [e for block in blocks for e in block],
        "blocks": len(blocks),
    }


def little_endian(values, width):
    return b"".join(v.to_bytes(width, "little") for v in values)


def render(db, tables, data_dir):
    stage1 = little_endian(tables["stage1"], 2)
    stage2 = little_endian(tables["stage2"], 2)
    entries = little_endian(tables["entries"], 4)
    pool = tables["pool"]
    return f"""\
// GENERATED FILE — DO NOT EDIT.
//
// Search folding of every Unicode scalar, and its word class, from the
// Unicode Character Database {db.version} (Debian package `unicode-data`):
// UnicodeData.txt, CaseFolding.txt, Scripts.txt, ScriptExtensions.txt,
// PropertyValueAliases.txt and DerivedCoreProperties.txt, in {data_dir}.
// The project's own additions (letters with strokes, æ, œ, þ, ...) are the
// table `HAND` in the script.
//
// Regenerate from the package root, after `apt-get install unicode-data`:
//     python3 Scripts/generate-folding-tables.py {data_dir}
//
// {tables["changed"]} scalars fold to something else; {len(tables["entries"])} distinct entries,
// {tables["blocks"]} distinct blocks of {BLOCK_SIZE} scalars, {len(pool)} bytes of folded UTF-8.
// The strings are base64 of little-endian arrays, decoded once by `FoldingTables`.

extension FoldingTables {{
    /// Unicode version of the data the tables were generated from.
    static let unicodeVersion = "{db.version}"

    /// log2 of the scalars per block of the two-stage table.
    static let blockShift = {BLOCK_SHIFT}

    /// The first stage covers the scalars below this; above it every
    /// scalar is an unchanged word character, except U+E0000..<U+E1000
    /// (tags and variation selectors), which fold to nothing.
    static let stage1Limit: UInt32 = 0x{tables["limit"]:X}

    /// The index in `entries` of a word character that folds to nothing.
    static let ignorableEntry = {tables["ignorable"]}

    /// The longest folded UTF-8 of one scalar, in bytes.
    static let maxFoldedLength = {tables["max_length"]}

    /// UInt16 per block of {BLOCK_SIZE} scalars below `stage1Limit`: the block's index in `stage2`.
    static let stage1Count = {len(tables["stage1"])}
    static let stage1Base64: StaticString = \"\"\"
{swift_literal(stage1)}
        \"\"\"

    /// UInt16 per scalar of each distinct block: an index into `entries`.
    static let stage2Count = {len(tables["stage2"])}
    static let stage2Base64: StaticString = \"\"\"
{swift_literal(stage2)}
        \"\"\"

    /// UInt32 per distinct entry: bits 0–1 the word class, bit 2 set when the
    /// scalar folds to something else, bits 3–8 the folded UTF-8 length,
    /// bits 9–31 its offset in `pool`.
    static let entryCount = {len(tables["entries"])}
    static let entriesBase64: StaticString = \"\"\"
{swift_literal(entries)}
        \"\"\"

    /// The folded UTF-8 of every changed scalar, overlapping where one is part of another.
    static let poolCount = {len(pool)}
    static let poolBase64: StaticString = \"\"\"
{swift_literal(pool)}
        \"\"\"
}}
"""


def main():
    args = parse_arguments(__doc__.split("\n\n")[0], os.path.join("Sources", "ChipDirectory", "FoldingTables.swift"),
                           "UnicodeData.txt")
    db = Database(args.data_dir)
    tables = build(db)
    write_or_check(args, render(db, tables, args.data_dir), db.version,
                   f"{tables['changed']} scalars change, {len(tables['entries'])} entries, "
                   f"{tables['blocks']} blocks, {len(tables['pool'])} pool bytes")


if __name__ == "__main__":
    main()
