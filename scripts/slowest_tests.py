#!/usr/bin/env python3
"""Print the slowest tests of the last `meson test` run, so that creep in
the suite's time is seen when it happens (scripts/dlayout.sh test).

usage: slowest_tests.py TESTLOG_JSON [COUNT]

TESTLOG_JSON is meson's log, one JSON object per test
(BUILD/meson-logs/testlog.json, testlog-SETUP.json for --setup SETUP).
COUNT defaults to 10.
"""
import json
import sys


def read_log(path):
    """The (seconds, name, result) of every test in a meson test log."""
    rows = []
    with open(path, encoding="utf-8") as log:
        for line in log:
            if line.strip():
                test = json.loads(line)
                rows.append((test["duration"], test["name"], test["result"]))
    return rows


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__.strip().split("\n\n")[1])
    count = int(argv[2]) if len(argv) == 3 else 10
    rows = read_log(argv[1])
    total = sum(seconds for seconds, _, _ in rows)
    print(f"{min(count, len(rows))} slowest of {len(rows)} tests "
          f"({total:.0f} s of test time in all):")
    for seconds, name, result in sorted(rows, reverse=True)[:count]:
        print(f"{seconds:8.1f} s  {name}  {result}")


if __name__ == "__main__":
    main(sys.argv)
