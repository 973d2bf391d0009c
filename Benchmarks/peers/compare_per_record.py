#!/usr/bin/env python3
"""Compares per-record valid-address counts of peers with chipify's.

Usage: compare_per_record.py [--examples N] CORPUS CHIPIFY_TSV PEER=COUNTS_FILE...

CORPUS is the input (one address list per line); CHIPIFY_TSV is the output of
`chipify --format tsv CORPUS`; each COUNTS_FILE holds a peer's `--per-record`
output, one valid count per line of CORPUS. chipify's count for a record is
its number of valid mailbox chips (kind mailbox, state valid; an empty group
such as `undisclosed-recipients:;` is not counted, as no peer reports one).

For each peer it prints the number of records whose counts differ (split by
which side found more), how those records break down by the chipify error
reasons they contain, and the first N (default 10) of them: record number,
chipify's count, the peer's count, chipify's error reasons, and the line.
"""

import collections
import sys

USAGE = "usage: compare_per_record.py [--examples N] CORPUS CHIPIFY_TSV PEER=COUNTS_FILE..."
MAX_LINE = 240  # characters of a line shown; longer ones end with "…"


def read_lines(path):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def read_chipify(path):
    """Returns ({record: valid mailbox chips}, {record: [error reasons]})."""
    valid = collections.Counter()
    errors = collections.defaultdict(list)
    with open(path, "rb") as f:
        for raw in f:
            cols = raw.rstrip(b"\n").split(b"\t")
            if len(cols) < 12:
                raise SystemExit(f"compare_per_record.py: unexpected chipify TSV line: {raw[:200]!r}")
            record, kind, state, error = int(cols[0]), cols[2], cols[3], cols[7]
            if kind == b"mailbox" and state == b"valid":
                valid[record] += 1
            elif state == b"error":
                errors[record].append(error.decode("utf-8", "replace") or "?")
    return valid, errors


def read_counts(path, peer, records):
    with open(path) as f:
        counts = [int(line) for line in f]
    if len(counts) != records:
        raise SystemExit(
            f"compare_per_record.py: {peer} printed {len(counts)} counts for {records} records ({path})"
        )
    return counts


def show(line):
    text = line.decode("utf-8", "backslashreplace")
    text = "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)
    return text if len(text) <= MAX_LINE else text[:MAX_LINE] + "…"


def main(argv):
    args = argv[1:]
    examples = 10
    if len(args) >= 2 and args[0] == "--examples":
        examples = int(args[1])
        args = args[2:]
    if len(args) < 3 or any("=" not in a for a in args[2:]):
        print(USAGE, file=sys.stderr)
        return 64
    corpus, tsv, peers = args[0], args[1], [a.split("=", 1) for a in args[2:]]
    lines = read_lines(corpus)
    chip_valid, chip_errors = read_chipify(tsv)
    records = len(lines)
    print(f"{records} records in {corpus}; chipify finds {sum(chip_valid.values())} valid mailboxes.")

    for peer, path in peers:
        counts = read_counts(path, peer, records)
        differ = [r for r in range(1, records + 1) if counts[r - 1] != chip_valid[r]]
        more_chipify = sum(1 for r in differ if chip_valid[r] > counts[r - 1])
        print()
        print(f"## {peer}: {len(differ)} of {records} records differ "
              f"(chipify more: {more_chipify}, {peer} more: {len(differ) - more_chipify}); "
              f"{peer} total valid {sum(counts)}")
        reasons = collections.Counter()
        for r in differ:
            for reason in set(chip_errors.get(r, ["(no chipify error)"])):
                reasons[reason] += 1
        if reasons:
            print("records by chipify error reason they hold: " +
                  ", ".join(f"{reason} {n}" for reason, n in reasons.most_common()))
        for r in differ[:examples]:
            why = ",".join(chip_errors.get(r, [])) or "-"
            print(f"  record {r}: chipify {chip_valid[r]}, {peer} {counts[r - 1]} "
                  f"[chipify errors: {why}]\n      {show(lines[r - 1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
