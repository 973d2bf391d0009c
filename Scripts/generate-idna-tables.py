#!/usr/bin/env python3
"""Generate Sources/ChipRecognition/IDNATables.swift: what IDNA reads of
every Unicode scalar, for converting domain labels on UTF-8 bytes.

Usage:
    python3 Scripts/generate-idna-tables.py [DATA_DIR] [--output FILE] [--check]

--check writes nothing and fails when the Swift file is not what the data
generates (for CI, or to see whether a new `unicode-data` changes anything).

DATA_DIR holds the Unicode Character Database as Debian's `unicode-data`
package installs it (default /usr/share/unicode); the Unicode version is read
from the files' headers.

Files read: UnicodeData.txt (general categories, simple lower-case mappings),
SpecialCasing.txt (its unconditional lower-case mappings: U+0130 is "i" and a
combining dot), auxiliary/GraphemeBreakProperty.txt (which scalars join the
one before or after them into a grapheme), DerivedNormalizationProps.txt
(NFKC_Casefold: the letters and marks it changes are unstable).

Each scalar gets one byte:
  bits 0-1: 0 a character IDNA does not allow, 1 a letter or digit it allows
            (Ll, Lo, Lm, Nd), 2 a combining mark (Mn, Mc, Me), 3 not assigned
            in this data (the Swift side asks the standard library, whose
            Unicode may be newer);
  bit 2:    it lower-cases to something else (the mapping is in the table of
            mappings, full mappings of SpecialCasing.txt first);
  bit 3:    it joins the scalar before it into one grapheme (Extend, ZWJ,
            SpacingMark), so a `.` or `-` before it is no separator or edge;
  bit 4:    it joins the scalar after it (Prepend);
  bit 5:    a letter, digit or mark that NFKC_Casefold changes (a ligature
            such as U+FB01, the long s, compatibility and presentation
            forms, mathematical digits): "Unstable", so DISALLOWED by
            IDNA2008 (RFC 5892 2.3), but for its exceptions ß and ς
            (RFC 5892 2.6, PVALID). UTS #46 would map them; this engine
            refuses them, as it refuses the symbols UTS #46 maps (㎏, ℌ).
These are what `IDNA`'s `String` form reads through `lowercased()`,
`generalCategory` and grapheme breaking, so the byte form can answer the
same without them.

The standard library's Unicode may be newer than this data. A test compares
every scalar the tables assign with it; the few whose properties a later
version changed are listed in NEWER below and given kind 3, so that the
standard library answers for them as for the scalars this data lacks.
"""

import os
import sys

from unicode_files import code_range, data_lines, header_version, parse_arguments, swift_literal, write_or_check

MAX_SCALAR = 0x10FFFF
BLOCK_SHIFT = 7
BLOCK_SIZE = 1 << BLOCK_SHIFT

DISALLOWED, VALID, MARK, UNASSIGNED = 0, 1, 2, 3
MAPS_BIT, JOINS_BEFORE_BIT, JOINS_AFTER_BIT, UNSTABLE_BIT = 4, 8, 16, 32
# PVALID by RFC 5892 2.6 (Exceptions) although NFKC_Casefold changes them.
STABLE_EXCEPTIONS = {0x00DF, 0x03C2}
# Scalars whose properties read here changed after Unicode 15.0, as the
# standard library of the toolchain has them (found by IDNABytesTests).
NEWER = {
    0x11A3A: "Grapheme_Cluster_Break Prepend in 15.0, Other in 16.0",
}
VALID_CATEGORIES = {"Ll", "Lo", "Lm", "Nd"}
MARK_CATEGORIES = {"Mn", "Mc", "Me"}


def build(directory):
    path = lambda *name: os.path.join(directory, *name)
    files = {
        "UnicodeData.txt": path("UnicodeData.txt"),
        "SpecialCasing.txt": path("SpecialCasing.txt"),
        "GraphemeBreakProperty.txt": path("auxiliary", "GraphemeBreakProperty.txt"),
        "DerivedNormalizationProps.txt": path("DerivedNormalizationProps.txt"),
    }
    versions = {header_version(p) for name, p in files.items() if name != "UnicodeData.txt"}
    if len(versions) != 1:
        sys.exit(f"error: the data files are of several Unicode versions: {sorted(versions)}")
    version = versions.pop()

    category = {}
    lower = {}
    first = None
    for fields in data_lines(files["UnicodeData.txt"]):
        cp, name, gc = int(fields[0], 16), fields[1], fields[2]
        if name.endswith(", First>"):
            first = cp
            continue
        if name.endswith(", Last>"):
            for c in range(first, cp + 1):
                category[c] = gc
            continue
        category[cp] = gc
        if fields[13]:
            lower[cp] = [int(fields[13], 16)]
    for fields in data_lines(files["SpecialCasing.txt"]):
        # code; lower; title; upper; (condition;)
        if len(fields) > 4 and fields[4]:
            continue  # conditional (Final_Sigma, a language): lowercased() ignores them
        cp = int(fields[0], 16)
        mapped = [int(x, 16) for x in fields[1].split()]
        if mapped == [cp]:
            lower.pop(cp, None)
        else:
            lower[cp] = mapped

    joins_before, joins_after = set(), set()
    for fields in data_lines(files["GraphemeBreakProperty.txt"]):
        if fields[1] in ("Extend", "ZWJ", "SpacingMark"):
            joins_before.update(code_range(fields[0]))
        elif fields[1] == "Prepend":
            joins_after.update(code_range(fields[0]))

    unstable = set()
    for fields in data_lines(files["DerivedNormalizationProps.txt"]):
        if len(fields) >= 2 and fields[1] == "NFKC_CF":
            unstable.update(code_range(fields[0]))
    unstable -= STABLE_EXCEPTIONS

    info = bytearray(MAX_SCALAR + 1)
    for cp in range(MAX_SCALAR + 1):
        gc = category.get(cp)
        if gc is None or cp in NEWER:
            kind = UNASSIGNED
        elif gc == "Cs":
            kind = DISALLOWED
        elif gc in VALID_CATEGORIES:
            kind = VALID
        elif gc in MARK_CATEGORIES:
            kind = MARK
        else:
            kind = DISALLOWED
        value = kind
        if cp in lower:
            value |= MAPS_BIT
        if cp in joins_before:
            value |= JOINS_BEFORE_BIT
        if cp in joins_after:
            value |= JOINS_AFTER_BIT
        if cp in unstable and kind in (VALID, MARK):
            value |= UNSTABLE_BIT
        info[cp] = value
    # What a mapping yields is itself assigned, and maps to nothing more;
    # IDNABytes keeps room for three scalars of each one a piece holds.
    for cp, mapped in lower.items():
        if len(mapped) > 3:
            sys.exit(f"error: U+{cp:04X} lower-cases to {len(mapped)} scalars, more than the Swift side keeps room for")
        for m in mapped:
            if info[m] & 3 == UNASSIGNED or info[m] & MAPS_BIT:
                sys.exit(f"error: U+{cp:04X} lower-cases to U+{m:04X}, which is unassigned or maps again")

    # Two stages: distinct blocks of BLOCK_SIZE bytes, and each block's index.
    blocks, stage1, stage2 = {}, [], bytearray()
    for start in range(0, MAX_SCALAR + 1, BLOCK_SIZE):
        block = bytes(info[start:start + BLOCK_SIZE])
        if block not in blocks:
            blocks[block] = len(blocks)
            stage2 += block
        stage1.append(blocks[block])

    keys = sorted(lower)
    pool, values = [], []
    for cp in keys:
        values.append(len(pool) << 8 | len(lower[cp]))
        pool.extend(lower[cp])
    return {
        "version": version, "stage1": stage1, "stage2": bytes(stage2), "blocks": len(blocks),
        "keys": keys, "values": values, "pool": pool,
        "unassigned": sum(1 for v in info if v & 3 == UNASSIGNED) - len(NEWER),
    }


def little(values, size):
    return b"".join(v.to_bytes(size, "little") for v in values)


def render(t, data_dir):
    return f"""\
// GENERATED FILE — DO NOT EDIT.
//
// What IDNA reads of every Unicode scalar (whether a label may hold it, its
// lower-case mapping, how it joins a grapheme), from the Unicode Character
// Database {t["version"]} (Debian package `unicode-data`): UnicodeData.txt,
// SpecialCasing.txt, auxiliary/GraphemeBreakProperty.txt and
// DerivedNormalizationProps.txt, in {data_dir}.
//
// Regenerate from the package root, after `apt-get install unicode-data`:
//     python3 Scripts/generate-idna-tables.py {data_dir}
//
// {len(t["keys"])} scalars lower-case to something else; {t["unassigned"]} are not assigned
// in this data and {len(NEWER)} changed since (the standard library answers for
// them: {", ".join(f"U+{cp:04X}" for cp in sorted(NEWER))}); {t["blocks"]} distinct
// blocks of {BLOCK_SIZE} scalars. The strings are base64 of little-endian
// arrays, decoded once by `IDNATables`.

extension IDNATables {{
    /// Unicode version of the data the tables were generated from.
    static let unicodeVersion = "{t["version"]}"

    /// log2 of the scalars per block of the two-stage table.
    static let blockShift = {BLOCK_SHIFT}

    /// UInt16 per block of {BLOCK_SIZE} scalars, U+0000 to U+10FFFF: the block's index in `stage2`.
    static let stage1Count = {len(t["stage1"])}
    static let stage1Base64: StaticString = \"\"\"
{swift_literal(little(t["stage1"], 2))}
        \"\"\"

    /// One byte per scalar of each distinct block: bits 0–1 the kind
    /// (0 disallowed, 1 valid, 2 mark, 3 unassigned), bit 2 lower-cases to
    /// something else, bit 3 joins the scalar before it into a grapheme,
    /// bit 4 joins the scalar after it, bit 5 a letter, digit or mark that
    /// NFKC_Casefold changes (IDNA2008's "Unstable", but ß and ς).
    static let stage2Count = {len(t["stage2"])}
    static let stage2Base64: StaticString = \"\"\"
{swift_literal(t["stage2"])}
        \"\"\"

    /// The scalars that lower-case to something else, ascending (UInt32).
    static let mappingCount = {len(t["keys"])}
    static let mappingKeysBase64: StaticString = \"\"\"
{swift_literal(little(t["keys"], 4))}
        \"\"\"

    /// For each of `mappingKeys` (UInt32): where its lower-case scalars
    /// start in `mappingPool`, times 256, plus how many there are.
    static let mappingValuesBase64: StaticString = \"\"\"
{swift_literal(little(t["values"], 4))}
        \"\"\"

    /// The lower-case scalars (UInt32).
    static let mappingPoolCount = {len(t["pool"])}
    static let mappingPoolBase64: StaticString = \"\"\"
{swift_literal(little(t["pool"], 4))}
        \"\"\"
}}
"""


def main():
    args = parse_arguments(__doc__.split("\n\n")[0], os.path.join("Sources", "ChipRecognition", "IDNATables.swift"),
                           "SpecialCasing.txt")
    tables = build(args.data_dir)
    write_or_check(args, render(tables, args.data_dir), tables["version"],
                   f"{tables['blocks']} blocks, {len(tables['keys'])} mappings")


if __name__ == "__main__":
    main()
