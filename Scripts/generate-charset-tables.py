#!/usr/bin/env python3
"""Writes Sources/ChipSyntax/CharsetTables.swift: the labels, names and
indexes of the WHATWG Encoding Standard, in the form the decoders of
Sources/ChipSyntax/Charset+Decoders.swift read.

The data comes from the Debian package libjs-text-encoding, which ships the
standard's indexes and label table as JavaScript:

    apt-get install -y libjs-text-encoding
    python3 Scripts/generate-charset-tables.py

    (or, without installing: apt-get download libjs-text-encoding &&
     dpkg -x libjs-text-encoding_*.deb /tmp/tenc, then pass
     /tmp/tenc/usr/share/javascript/text-encoding/encoding-indexes.js)

The package's copy predates two later edits of the standard, which this
script applies on top (see UPDATES_SINCE_PACKAGE below): labels added for
UTF-8, UTF-16 and replacement, and the GB18030-2022 alignment of eighteen
two-byte gb18030 pointers. Each edit is checked against what the package
holds, so a newer package that already has it passes through unchanged, and
one that holds something else stops the script.

`--check` compares instead of writing, and exits 1 if the committed file is
not what the script would write.

Python 3 standard library only.
"""

import argparse
import hashlib
import json
import os
import sys
import textwrap

DEFAULT_INDEXES = "/usr/share/javascript/text-encoding/encoding-indexes.js"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(REPO, "Sources", "ChipSyntax", "CharsetTables.swift")

# The standard's encoding names, in its order, and the Swift case of each.
CASES = [
    ("UTF-8", "utf8"),
    ("IBM866", "ibm866"),
    ("ISO-8859-2", "iso8859_2"),
    ("ISO-8859-3", "iso8859_3"),
    ("ISO-8859-4", "iso8859_4"),
    ("ISO-8859-5", "iso8859_5"),
    ("ISO-8859-6", "iso8859_6"),
    ("ISO-8859-7", "iso8859_7"),
    ("ISO-8859-8", "iso8859_8"),
    ("ISO-8859-8-I", "iso8859_8i"),
    ("ISO-8859-10", "iso8859_10"),
    ("ISO-8859-13", "iso8859_13"),
    ("ISO-8859-14", "iso8859_14"),
    ("ISO-8859-15", "iso8859_15"),
    ("ISO-8859-16", "iso8859_16"),
    ("KOI8-R", "koi8R"),
    ("KOI8-U", "koi8U"),
    ("macintosh", "macintosh"),
    ("windows-874", "windows874"),
    ("windows-1250", "windows1250"),
    ("windows-1251", "windows1251"),
    ("windows-1252", "windows1252"),
    ("windows-1253", "windows1253"),
    ("windows-1254", "windows1254"),
    ("windows-1255", "windows1255"),
    ("windows-1256", "windows1256"),
    ("windows-1257", "windows1257"),
    ("windows-1258", "windows1258"),
    ("x-mac-cyrillic", "xMacCyrillic"),
    ("GBK", "gbk"),
    ("gb18030", "gb18030"),
    ("Big5", "big5"),
    ("EUC-JP", "eucJP"),
    ("ISO-2022-JP", "iso2022JP"),
    ("Shift_JIS", "shiftJIS"),
    ("EUC-KR", "eucKR"),
    ("replacement", "replacement"),
    ("UTF-16BE", "utf16BE"),
    ("UTF-16LE", "utf16LE"),
    ("x-user-defined", "xUserDefined"),
]

# Single-byte encodings whose index is another's (the standard: "All but two
# single-byte encodings have a unique index").
SHARED_INDEX = {"ISO-8859-8-I": "ISO-8859-8"}

# The multi-byte indexes, by the name the package gives them.
MULTI_BYTE = [
    ("big5", "big5", "index Big5: pointer (lead − 0x81) × 157 + trail offset"),
    ("euc-kr", "eucKR", "index EUC-KR: pointer (lead − 0x81) × 190 + (trail − 0x41)"),
    ("gb18030", "gb18030", "index gb18030: pointer (lead − 0x81) × 190 + trail offset"),
    ("jis0208", "jis0208", "index jis0208: pointer row × 94 + cell (EUC-JP, ISO-2022-JP, Shift_JIS)"),
    ("jis0212", "jis0212", "index jis0212: pointer row × 94 + cell (EUC-JP after 0x8F)"),
]

# Edits of the standard made after the package's copy was taken.
UPDATES_SINCE_PACKAGE = {
    # Labels the label table gained (UTF-8 and UTF-16 labels that browsers
    # already honoured, and "replacement" itself).
    "labels": {
        "UTF-8": ["unicode11utf8", "unicode20utf8", "x-unicode20utf8"],
        "UTF-16BE": ["unicodefffe"],
        "UTF-16LE": ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff"],
        "replacement": ["replacement"],
    },
    # index gb18030 now follows GB18030-2022 for two-byte sequences: these
    # pointers left Private Use for the code points the 2005 edition could
    # only reach through it (vertical forms and eight CJK ideographs).
    # pointer: (code point in the package's copy, code point now)
    "gb18030": {
        7182: (0xE78D, 0xFE10), 7183: (0xE78E, 0xFE12), 7184: (0xE78F, 0xFE11),
        7185: (0xE790, 0xFE13), 7186: (0xE791, 0xFE14), 7187: (0xE792, 0xFE15),
        7188: (0xE793, 0xFE16), 7201: (0xE794, 0xFE17), 7202: (0xE795, 0xFE18),
        7208: (0xE796, 0xFE19), 23775: (0xE81E, 0x9FB4), 23783: (0xE826, 0x9FB5),
        23788: (0xE82B, 0x9FB6), 23789: (0xE82C, 0x9FB7), 23795: (0xE832, 0x9FB8),
        23812: (0xE843, 0x9FB9), 23829: (0xE854, 0x9FBA), 23845: (0xE864, 0x9FBB),
    },
}

# The compact form of a multi-byte index (decoded by CompactIndex in
# Sources/ChipSyntax/Charset+Indexes.swift): one number per pointer, or per
# run of unmapped pointers, each written in base64 digits of which the low
# five bits are data (least significant group first) and 0x20 says that
# another digit follows. A number n ≥ 1 is a mapped pointer whose code point
# differs from the previous mapped one by zigzag⁻¹(n − 1); 0 is followed by
# the length of a run of unmapped pointers. Consecutive code points, the
# common case in these indexes, cost one digit.
DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def fail(message):
    sys.exit("generate-charset-tables: " + message)


def read_json_after(path, marker):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    at = text.find(marker)
    if at < 0:
        fail(f"{path}: no {marker!r}")
    start = at + len(marker)
    while text[start] not in "[{":
        start += 1
    value, _ = json.JSONDecoder().raw_decode(text, start)
    return value


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def load(indexes_path, labels_path):
    indexes = read_json_after(indexes_path, 'global["encoding-indexes"] =')
    groups = read_json_after(labels_path, "var encodings =")
    labels = {}
    for group in groups:
        for encoding in group["encodings"]:
            labels[encoding["name"]] = list(encoding["labels"])
    names = [name for name, _ in CASES]
    if sorted(labels) != sorted(names):
        fail(f"encodings differ from the known list: {sorted(set(labels) ^ set(names))}")
    for name, added in UPDATES_SINCE_PACKAGE["labels"].items():
        for label in added:
            if label not in labels[name]:
                labels[name].append(label)
    seen = {}
    for name in names:
        for label in labels[name]:
            if label != label.strip().lower() or not label.isascii() or not label:
                fail(f"label {label!r} of {name} is not a lowercase ASCII word")
            if label in seen:
                fail(f"label {label!r} names both {seen[label]} and {name}")
            seen[label] = name
    gb = indexes["gb18030"]
    for pointer, (old, new) in UPDATES_SINCE_PACKAGE["gb18030"].items():
        if gb[pointer] == old:
            gb[pointer] = new
        elif gb[pointer] != new:
            fail(f"index gb18030 pointer {pointer} is U+{gb[pointer]:04X}, expected U+{old:04X} or U+{new:04X}")
    return indexes, labels


def swift_string(s):
    assert all(c.isascii() and c not in '"\\' for c in s)
    return '"' + s + '"'


def single_byte_literal(index):
    if len(index) != 128:
        fail("a single-byte index does not have 128 pointers")
    cells = []
    for cp in index:
        if cp is not None and not (0x80 <= cp <= 0xFFFF):
            fail(f"single-byte code point {cp} out of range")
        cells.append("0000" if cp is None else f"{cp:04X}")
    rows = [" ".join(cells[i:i + 16]) for i in range(0, 128, 16)]
    return rows


def put_number(n, out):
    while True:
        group = n & 0x1F
        n >>= 5
        if n:
            out.append(DIGITS[group | 0x20])
        else:
            out.append(DIGITS[group])
            return


def compact(values):
    out = []
    previous = 0
    i = 0
    while i < len(values):
        if values[i] is None:
            j = i
            while j < len(values) and values[j] is None:
                j += 1
            put_number(0, out)
            put_number(j - i, out)
            i = j
            continue
        delta = values[i] - previous
        put_number(((delta << 1) if delta >= 0 else ((-delta << 1) - 1)) + 1, out)
        previous = values[i]
        i += 1
    return "".join(out)


def expand(text, count):
    """The inverse of compact(), as the Swift side does it: a self-check."""
    numbers = []
    value = shift = 0
    for ch in text:
        d = DIGITS.index(ch)
        value |= (d & 0x1F) << shift
        shift += 5
        if not d & 0x20:
            numbers.append(value)
            value = shift = 0
    values = []
    previous = 0
    k = 0
    while k < len(numbers):
        n = numbers[k]
        k += 1
        if n == 0:
            values.extend([None] * numbers[k])
            k += 1
            continue
        z = n - 1
        previous += (z >> 1) if z & 1 == 0 else -((z + 1) >> 1)
        values.append(previous)
    if len(values) != count:
        fail("compact form does not round-trip")
    return values


def lines_of(text, width):
    return [text[i:i + width] for i in range(0, len(text), width)]


def generate(indexes_path, labels_path):
    indexes, labels = load(indexes_path, labels_path)
    case_of = dict(CASES)
    out = []
    w = out.append
    w("// Generated by Scripts/generate-charset-tables.py: do not edit.")
    w("//")
    w("// From the WHATWG Encoding Standard's label table and indexes as the Debian")
    w("// package libjs-text-encoding ships them, with the standard's later edits")
    w("// that the script lists (UPDATES_SINCE_PACKAGE):")
    w(f"//   encoding-indexes.js  sha256 {sha256(indexes_path)}")
    w(f"//   encoding.js          sha256 {sha256(labels_path)}")
    w("// Regenerate, from the repository root:")
    w("//   apt-get install -y libjs-text-encoding")
    w(f"//   python3 Scripts/generate-charset-tables.py {DEFAULT_INDEXES}")
    w("")
    w("extension Charset {")
    longest = max(len(label) for ls in labels.values() for label in ls)
    w("    /// The length of the longest label, in bytes.")
    w(f"    static let longestLabel = {longest}")
    w("")
    w("    /// The encoding an ASCII-lowercased, trimmed label names.")
    w("    static func byLabel(_ label: String) -> Charset? {")
    w("        switch label {")
    for name, case in CASES:
        quoted = ", ".join(swift_string(label) for label in sorted(labels[name])) + ":"
        out.extend(textwrap.wrap(quoted, width=108, initial_indent="        case ",
                                 subsequent_indent="             ", break_on_hyphens=False,
                                 break_long_words=False))
        w(f"            .{case}")
    w("        default: nil")
    w("        }")
    w("    }")
    w("")
    w("    /// The standard's name for the encoding.")
    w("    package var name: String {")
    w("        switch self {")
    for name, case in CASES:
        w(f"        case .{case}: {swift_string(name)}")
    w("        }")
    w("    }")
    w("")
    single = [name for name, _ in CASES if name.lower() in indexes and len(indexes[name.lower()]) == 128]
    slots = single
    w("    /// Where a single-byte encoding's index is in ``CharsetTables/singleByte``.")
    w("    var singleByteSlot: Int? {")
    w("        switch self {")
    for slot, name in enumerate(slots):
        sharing = [n for n, s in SHARED_INDEX.items() if s == name]
        cases = ", ".join("." + case_of[n] for n in [name] + sharing)
        w(f"        case {cases}: {slot}")
    w("        default: nil")
    w("        }")
    w("    }")
    w("}")
    w("")
    w("/// The indexes of the standard, in the compact forms that")
    w("/// `Charset+Indexes.swift` expands once, on first use.")
    w("enum CharsetTables {")
    w("    /// Index single-byte of each single-byte encoding, by slot: the code")
    w("    /// points of bytes 0x80–0xFF in hexadecimal, 0000 where the index has none.")
    w("    static let singleByte: [StaticString] = [")
    for slot, name in enumerate(slots):
        w(f"        // {slot}: {name}" + "".join(f", {n}" for n, s in SHARED_INDEX.items() if s == name))
        w('        """')
        for row in single_byte_literal(indexes[name.lower()]):
            w("        " + row)
        w('        """,')
    w("    ]")
    for key, field, doc in MULTI_BYTE:
        index = indexes[key]
        mapped = [p for p, cp in enumerate(index) if cp is not None]
        first, last = mapped[0], mapped[-1]
        values = index[first:last + 1]
        text = compact(values)
        if expand(text, len(values)) != values:
            fail(f"{key}: compact form does not round-trip")
        w("")
        w(f"    /// {doc}; pointers {first}…{last}.")
        w(f"    static let {field} = CompactIndex(first: {first}, count: {len(values)}, digits: \"\"\"")
        for line in lines_of(text, 100):
            w("        " + line)
        w('        """)')
    ranges = indexes["gb18030-ranges"]
    bmp = [r for r in ranges if r[0] <= 39419]
    rest = [r for r in ranges if r[0] > 39419]
    if rest != [[189000, 0x10000]] or any(cp > 0xFFFF for _, cp in bmp) or ranges != sorted(ranges):
        fail("index gb18030 ranges no longer has the shape the decoder assumes")
    w("")
    w("    /// index gb18030 ranges below pointer 39420, as pairs of a pointer")
    w("    /// (decimal) and the code point (hexadecimal) it and the pointers after it")
    w("    /// start from. Pointers 189000 and up are U+10000 onwards, in order.")
    w('    static let gb18030Ranges: StaticString = """')
    pairs = [f"{p} {cp:04X}" for p, cp in bmp]
    for i in range(0, len(pairs), 8):
        w("        " + "  ".join(pairs[i:i + 8]))
    w('        """')
    w("}")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("indexes", nargs="?", default=DEFAULT_INDEXES,
                        help=f"encoding-indexes.js (default {DEFAULT_INDEXES})")
    parser.add_argument("--labels", help="encoding.js (default: beside the indexes)")
    parser.add_argument("--output", default=OUTPUT, help="the Swift file to write")
    parser.add_argument("--check", action="store_true",
                        help="compare with the output file instead of writing it")
    args = parser.parse_args()
    labels = args.labels or os.path.join(os.path.dirname(args.indexes), "encoding.js")
    for path in (args.indexes, labels):
        if not os.path.exists(path):
            fail(f"{path} not found (apt-get install -y libjs-text-encoding)")
    text = generate(args.indexes, labels)
    if args.check:
        with open(args.output, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{args.output} is out of date: run {sys.argv[0]}", file=sys.stderr)
                sys.exit(1)
        return
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
