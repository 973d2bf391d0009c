"""What the table generators share: reading the Unicode Character Database's
text files (as Debian's unicode-data installs them under /usr/share/unicode)
and writing bytes as a Swift base64 literal. Not run by itself."""

import base64
import re
import sys


def data_lines(path):
    """The fields of each data line of a UCD file, comments dropped."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")]


def code_range(text):
    """The code points of `XXXX` or `XXXX..YYYY`."""
    if ".." in text:
        lo, hi = text.split("..")
        return range(int(lo, 16), int(hi, 16) + 1)
    return range(int(text, 16), int(text, 16) + 1)


def header_version(path):
    """The Unicode version a UCD file's first line names."""
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    m = re.match(r"#\s*\S+-(\d+\.\d+\.\d+)\.txt", first)
    if not m:
        sys.exit(f"error: no version in the first line of {path}")
    return m.group(1)


def swift_literal(data, indent="        "):
    """Bytes as base64 lines of 100 characters, for a Swift string literal."""
    text = base64.b64encode(data).decode("ascii")
    lines = [text[i:i + 100] for i in range(0, len(text), 100)]
    return "\n".join(indent + line for line in lines)
