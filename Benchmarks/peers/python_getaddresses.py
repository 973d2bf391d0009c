#!/usr/bin/env python3
"""Peer baseline: parse a chipify-bench corpus with Python's own address parsers.

Usage: python_getaddresses.py [--headerregistry] CORPUS

Each line of CORPUS is one address list. By default every line goes through
email.utils.getaddresses; with --headerregistry it is parsed as a To: header by
the modern parser (HeaderRegistry, the header factory of email.policy.default).
Prints one line of counts:

    records=N addresses=N with_at=N            (getaddresses)
    records=N addresses=N with_at=N failed=N   (--headerregistry)

with_at counts addresses whose address part is non-empty and contains '@'.
"""

import sys
from email.headerregistry import HeaderRegistry
from email.utils import getaddresses

USAGE = "usage: python_getaddresses.py [--headerregistry] CORPUS"


def read_records(path):
    """Yields each line as str. The corpus deliberately holds a few invalid UTF-8
    bytes; surrogateescape keeps them (as lone surrogates) instead of failing."""
    with open(path, "rb") as corpus:
        for raw in corpus:
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            yield raw.decode("utf-8", errors="surrogateescape")


def count_getaddresses(path):
    records = addresses = with_at = 0
    for line in read_records(path):
        records += 1
        for _name, address in getaddresses([line]):
            addresses += 1
            if address and "@" in address:
                with_at += 1
    return f"records={records} addresses={addresses} with_at={with_at}"


def count_headerregistry(path):
    registry = HeaderRegistry()
    records = addresses = with_at = failed = 0
    for line in read_records(path):
        records += 1
        # Count a line only once it parsed completely, so a failure midway
        # does not leave half its addresses in the totals.
        try:
            specs = [address.addr_spec for address in registry("To", line).addresses]
        except Exception:
            failed += 1
            continue
        addresses += len(specs)
        with_at += sum(1 for spec in specs if spec and "@" in spec)
    return f"records={records} addresses={addresses} with_at={with_at} failed={failed}"


def main(argv):
    args = argv[1:]
    use_registry = "--headerregistry" in args
    paths = [arg for arg in args if arg != "--headerregistry"]
    if len(paths) != 1 or paths[0].startswith("--"):
        print(USAGE, file=sys.stderr)
        return 64
    counter = count_headerregistry if use_registry else count_getaddresses
    print(counter(paths[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
