#!/usr/bin/env python3
"""Generate Sources/ChipOutput/WidthTables.swift: the terminal width of every
Unicode scalar, and the two facts about it that labels need (emoji, strong
right-to-left), for laying chips out.

Usage:
    python3 Scripts/generate-width-tables.py [DATA_DIR] [--output FILE] [--check]

--check writes nothing and fails when the Swift file is not what the data
generates (for CI, or to see whether a new `unicode-data` changes anything).

DATA_DIR holds the Unicode Character Database as Debian's `unicode-data`
package installs it (default /usr/share/unicode). The Unicode version is read
from the files' headers, never from Python's `unicodedata` module.

Files read: EastAsianWidth.txt, extracted/DerivedGeneralCategory.txt,
extracted/DerivedBidiClass.txt, DerivedCoreProperties.txt
(Default_Ignorable_Code_Point), emoji/emoji-data.txt (Emoji,
Emoji_Presentation).

The width of one scalar, in terminal columns:
  0  nonspacing and enclosing marks (Mn, Me), format characters (Cf),
     controls (Cc), line and paragraph separators (Zl, Zp), the medial
     vowels and final consonants of conjoining Hangul jamo (they join the
     initial consonant's two columns), and unassigned default-ignorable
     code points;
  2  East_Asian_Width W or F, or Emoji_Presentation (so an emoji is two
     columns whatever its East Asian width says);
  1  everything else, including ambiguous (A) characters, which are
     flagged (when they take a column at all) so that a host in a CJK
     locale can count them as 2.
What depends on the neighbours (a ZWJ sequence, a flag's second regional
indicator, a skin-tone modifier, VS16 after a text-style emoji) is the Swift
side's, in `TerminalWidth`.

One byte per scalar: bits 0-1 the width, bit 2 ambiguous, bit 3 Emoji=Yes
(VS16 after it asks for emoji presentation), bit 4 strong right-to-left
(Bidi_Class R or AL).
"""

import os
import re
import sys

from unicode_files import code_range, data_lines, header_version, parse_arguments, swift_literal, write_or_check

MAX_SCALAR = 0x10FFFF
BLOCK_SHIFT = 7
BLOCK_SIZE = 1 << BLOCK_SHIFT

AMBIGUOUS_BIT, EMOJI_BIT, RTL_BIT = 4, 8, 16
ZERO_CATEGORIES = {"Mn", "Me", "Cf", "Cc", "Zl", "Zp"}
# Conjoining jamo that join the syllable an initial consonant starts.
HANGUL_JOINING = [range(0x1160, 0x1200), range(0xD7B0, 0xD800)]
# EastAsianWidth.txt's own defaults for the code points it does not list.
WIDE_DEFAULTS = [range(0x3400, 0x4DC0), range(0x4E00, 0xA000), range(0xF900, 0xFB00),
                 range(0x20000, 0x2FFFE), range(0x30000, 0x3FFFE)]
# Above the first stage, the Swift side answers by rule: tags and variation
# selectors are zero width, the private use planes narrow and ambiguous
# (but for their last two code points, noncharacters), everything else narrow.
HIGH_ZERO = range(0xE0000, 0xE1000)
HIGH_AMBIGUOUS = {cp for cp in range(0xF0000, MAX_SCALAR + 1) if cp & 0xFFFF < 0xFFFE}


def emoji_version(path):
    with open(path, encoding="utf-8") as f:
        text = f.read(4096)
    m = re.search(r"Emoji Version (\d+\.\d+)", text)
    return m.group(1) if m else None


def build(directory):
    path = lambda *name: os.path.join(directory, *name)
    versioned = {
        "EastAsianWidth.txt": path("EastAsianWidth.txt"),
        "DerivedGeneralCategory.txt": path("extracted", "DerivedGeneralCategory.txt"),
        "DerivedBidiClass.txt": path("extracted", "DerivedBidiClass.txt"),
        "DerivedCoreProperties.txt": path("DerivedCoreProperties.txt"),
    }
    versions = {name: header_version(p) for name, p in versioned.items()}
    if len(set(versions.values())) != 1:
        sys.exit(f"error: the data files disagree on the Unicode version: {versions}")
    version = versions["EastAsianWidth.txt"]

    eaw = {}
    for fields in data_lines(path("EastAsianWidth.txt")):
        for cp in code_range(fields[0]):
            eaw[cp] = fields[1]
    for r in WIDE_DEFAULTS:
        for cp in r:
            eaw.setdefault(cp, "W")

    category = {}
    for fields in data_lines(versioned["DerivedGeneralCategory.txt"]):
        for cp in code_range(fields[0]):
            category[cp] = fields[1]

    rtl = set()
    for fields in data_lines(versioned["DerivedBidiClass.txt"]):
        if fields[1] in ("R", "AL"):
            rtl.update(code_range(fields[0]))

    ignorable = set()
    for fields in data_lines(versioned["DerivedCoreProperties.txt"]):
        if fields[1] == "Default_Ignorable_Code_Point":
            ignorable.update(code_range(fields[0]))

    emoji, presentation = set(), set()
    for fields in data_lines(path("emoji", "emoji-data.txt")):
        if fields[1] == "Emoji":
            emoji.update(code_range(fields[0]))
        elif fields[1] == "Emoji_Presentation":
            presentation.update(code_range(fields[0]))

    joining = set()
    for r in HANGUL_JOINING:
        joining.update(r)

    values = []
    counts = [0, 0, 0]
    for cp in range(MAX_SCALAR + 1):
        gc = category.get(cp, "Cn")
        east = eaw.get(cp, "N")
        wide = east in ("W", "F") or cp in presentation
        if gc in ZERO_CATEGORIES or cp in joining or (cp in ignorable and not wide and gc == "Cn"):
            width = 0
        elif wide:
            width = 2
        else:
            width = 1
        if 0xD800 <= cp <= 0xDFFF:
            width = 1  # not scalars: never looked up, kept plain
        value = width
        if east == "A" and width == 1:  # ambiguity matters only to what takes a column
            value |= AMBIGUOUS_BIT
        if cp in emoji:
            value |= EMOJI_BIT
        if cp in rtl:
            value |= RTL_BIT
        counts[width] += 1
        values.append(value)

    # Checks of what the Swift side and the tests rely on.
    for cp, expected in [(0x41, 1), (0x301, 0), (0x200D, 0), (0xFE0F, 0), (0x4E00, 2), (0x1F600, 2),
                         (0x1F1E6, 2), (0x1F3FB, 2), (0x1100, 2), (0x1161, 0), (0xAC00, 2), (0xFF21, 2),
                         (0x0600, 0), (0x05D0, 1), (0xE0041, 0)]:
        if values[cp] & 3 != expected:
            sys.exit(f"error: U+{cp:04X} has width {values[cp] & 3}, expected {expected}")
    if not values[0x05D0] & RTL_BIT or not values[0x0627] & RTL_BIT or values[0x41] & RTL_BIT:
        sys.exit("error: the right-to-left bit is wrong for Hebrew, Arabic or Latin")
    if not values[0x2764] & EMOJI_BIT or values[0x2764] & 3 != 1:
        sys.exit("error: U+2764 (heavy black heart) should be a narrow emoji")

    narrow, zero, ambiguous = 1, 0, 1 | AMBIGUOUS_BIT
    last = max(cp for cp in range(MAX_SCALAR + 1)
               if values[cp] != narrow and cp not in HIGH_ZERO and cp not in HIGH_AMBIGUOUS)
    limit = (last // BLOCK_SIZE + 1) * BLOCK_SIZE
    for cp in range(limit, MAX_SCALAR + 1):
        expected = zero if cp in HIGH_ZERO else ambiguous if cp in HIGH_AMBIGUOUS else narrow
        if values[cp] != expected:
            sys.exit(f"error: U+{cp:04X} is above the first stage but is not answered by the rule for it")

    blocks, block_index, stage1 = [], {}, []
    for start in range(0, limit, BLOCK_SIZE):
        block = bytes(values[start:start + BLOCK_SIZE])
        if block not in block_index:
            block_index[block] = len(blocks)
            blocks.append(block)
        stage1.append(block_index[block])
    assert len(blocks) < (1 << 16)
    return {
        "version": version,
        "emoji_version": emoji_version(path("emoji", "emoji-data.txt")),
        "limit": limit,
        "stage1": stage1,
        "stage2": b"".join(blocks),
        "blocks": len(blocks),
        "counts": counts,
    }


def render(t, data_dir):
    stage1 = b"".join(v.to_bytes(2, "little") for v in t["stage1"])
    zero, narrow, wide = t["counts"]
    return f"""\
// GENERATED FILE — DO NOT EDIT.
//
// Terminal width of every Unicode scalar, with its ambiguous, emoji and
// right-to-left bits, from the Unicode Character Database {t["version"]} (Debian
// package `unicode-data`): EastAsianWidth.txt, extracted/DerivedGeneralCategory.txt,
// extracted/DerivedBidiClass.txt, DerivedCoreProperties.txt and
// emoji/emoji-data.txt (emoji {t["emoji_version"]}), in {data_dir}.
//
// Regenerate from the package root, after `apt-get install unicode-data`:
//     python3 Scripts/generate-width-tables.py {data_dir}
//
// {zero} scalars of width 0, {narrow} of width 1, {wide} of width 2;
// {t["blocks"]} distinct blocks of {BLOCK_SIZE} scalars.
// The strings are base64 of little-endian arrays, decoded once by `WidthTables`.

extension WidthTables {{
    /// Unicode version of the data the tables were generated from.
    static let unicodeVersion = "{t["version"]}"

    /// log2 of the scalars per block of the two-stage table.
    static let blockShift = {BLOCK_SHIFT}

    /// The first stage covers the scalars below this; above it U+E0000..<U+E1000
    /// (tags, variation selectors) are zero width, U+F0000 and up (private
    /// use) narrow and ambiguous but for the last two of each plane
    /// (noncharacters), everything else narrow.
    static let stage1Limit: UInt32 = 0x{t["limit"]:X}

    /// UInt16 per block of {BLOCK_SIZE} scalars below `stage1Limit`: the block's index in `stage2`.
    static let stage1Count = {len(t["stage1"])}
    static let stage1Base64: StaticString = \"\"\"
{swift_literal(stage1)}
        \"\"\"

    /// One byte per scalar of each distinct block: bits 0–1 the width,
    /// bit 2 ambiguous, bit 3 Emoji, bit 4 strong right-to-left.
    static let stage2Count = {len(t["stage2"])}
    static let stage2Base64: StaticString = \"\"\"
{swift_literal(t["stage2"])}
        \"\"\"
}}
"""


def main():
    args = parse_arguments(__doc__.split("\n\n")[0], os.path.join("Sources", "ChipOutput", "WidthTables.swift"),
                           "EastAsianWidth.txt")
    tables = build(args.data_dir)
    write_or_check(args, render(tables, args.data_dir), tables["version"],
                   f"{tables['blocks']} blocks, limit U+{tables['limit']:X}")


if __name__ == "__main__":
    main()
