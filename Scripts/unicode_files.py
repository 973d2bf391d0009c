"""What the table generators share: reading the Unicode Character Database's
text files (as Debian's unicode-data installs them under /usr/share/unicode)
and writing bytes as a Swift base64 literal. Not run by itself."""

import argparse
import base64
import os
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


def parse_arguments(description, output_path, required_file):
    """The generators' command line: the data directory (default
    /usr/share/unicode), --output (default `output_path` under the
    repository), --check; exits when `required_file` is not in the data."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("data_dir", nargs="?", default="/usr/share/unicode",
                        help="the Unicode data files (default: /usr/share/unicode)")
    repository = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    parser.add_argument("--output", default=os.path.join(repository, output_path),
                        help="the Swift file to write")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the output file is not what this data generates")
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.data_dir, required_file)):
        sys.exit(f"error: no {required_file} in {args.data_dir} (apt-get install unicode-data)")
    return args


def write_or_check(args, text, version, summary):
    """Writes the generated `text` to the output, or with --check compares
    it with the file there and exits 1 when they differ."""
    output = os.path.normpath(args.output)
    if args.check:
        try:
            with open(output, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            sys.exit(f"{output} is out of date: regenerate it from Unicode {version}")
        print(f"{output} is up to date (Unicode {version})")
        return
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"Unicode {version}: {summary} -> {output}")
