#!/usr/bin/env python3
"""Peer baseline for chipify: Python's own address parsers.

Usage: python_getaddresses.py [--getaddresses | --headerregistry] [--per-record] CORPUS

Each line of CORPUS (ended by b"\\n"; a last line without one still counts) is
one address list. With --getaddresses (the default) every line goes through
email.utils.getaddresses([line]); with --headerregistry it is parsed as a To:
header by the modern parser (email.headerregistry.HeaderRegistry, the header
factory of email.policy.default), whose .addresses flattens groups.

Prints one line of counts:

    records=N addresses=N valid=N              (--getaddresses)
    records=N addresses=N valid=N failed=N     (--headerregistry)

valid counts addresses whose address part has an '@' (the last one) with
non-empty text on both sides. getaddresses never raises: it returns ('', '')
pairs for what it cannot parse, and those count as addresses, not valid ones.
Which Python runs this matters: where getaddresses has the strict=True
default (the CVE-2023-27043 fix: upstream 3.11.10+/3.12.6+/3.13, and Debian's
3.11.2-6+deb12u5 on), a line it finds malformed as a whole becomes one ('', '')
pair; older versions salvage what they can from it.
The header registry rarely raises; a line for which it does counts no
addresses and one failure. With --per-record it prints, instead, one line per
record holding that record's valid count.

The corpus deliberately holds some invalid UTF-8; lines are decoded with
surrogateescape, so such bytes survive as lone surrogates instead of failing.
"""

import sys
from email.headerregistry import HeaderRegistry
from email.utils import getaddresses

USAGE = "usage: python_getaddresses.py [--getaddresses | --headerregistry] [--per-record] CORPUS"


def read_records(path):
    """Returns the file's lines as str, split on b"\\n" as chipify does."""
    with open(path, "rb") as corpus:
        data = corpus.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the file ended with "\n": no record after it
    return [line.decode("utf-8", errors="surrogateescape") for line in lines]


def is_valid(address):
    at = address.rfind("@")
    return 0 < at < len(address) - 1


def addresses_getaddresses(line):
    return [address for _name, address in getaddresses([line])]


def make_headerregistry():
    registry = HeaderRegistry()

    def addresses_headerregistry(line):
        return [address.addr_spec for address in registry("To", line).addresses]

    return addresses_headerregistry


def main(argv):
    mode = "getaddresses"
    per_record = False
    paths = []
    for arg in argv[1:]:
        if arg == "--getaddresses":
            mode = "getaddresses"
        elif arg == "--headerregistry":
            mode = "headerregistry"
        elif arg == "--per-record":
            per_record = True
        elif arg.startswith("-") and arg != "-":
            print(USAGE, file=sys.stderr)
            return 64
        else:
            paths.append(arg)
    if len(paths) != 1:
        print(USAGE, file=sys.stderr)
        return 64
    try:
        lines = read_records(paths[0])
    except OSError as error:
        print(f"python_getaddresses.py: {error}", file=sys.stderr)
        return 1

    parse = addresses_getaddresses if mode == "getaddresses" else make_headerregistry()
    records = addresses = valid = failed = 0
    per_record_counts = []
    for line in lines:
        records += 1
        # Count a line only once it parsed completely, so a failure midway
        # does not leave half its addresses in the totals.
        try:
            found = parse(line)
        except Exception:  # noqa: BLE001 - any parser failure is a failed line
            failed += 1
            found = []
        record_valid = sum(1 for address in found if is_valid(address))
        addresses += len(found)
        valid += record_valid
        if per_record:
            per_record_counts.append(record_valid)

    if per_record:
        sys.stdout.write("".join(f"{count}\n" for count in per_record_counts))
    elif mode == "getaddresses":
        print(f"records={records} addresses={addresses} valid={valid}")
    else:
        print(f"records={records} addresses={addresses} valid={valid} failed={failed}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
