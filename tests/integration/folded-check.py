#!/usr/bin/env python3
# The folded stacks of `slabacct report --folded --sort KEY` against the
# report's call-site rows (`slabacct report --json`, --by caller) of the
# same trace: the weights, summed per leaf (a line's last frame), must
# equal the rows' KEY summed per name, rows of KEY 0 left out, and every
# line must be FRAME;...;LEAF WEIGHT with a positive weight. Prints the
# number of lines and leaves; exits 1 with the differences.
#
#   folded-check.py REPORT.json FOLDED KEY     (KEY: bytes hits live slack)
import json
import re
import sys

FIELD = {"bytes": "bytes_alloc", "hits": "allocs", "live": "live_bytes",
         "slack": "slack"}
LINE = re.compile(r'^(.+) ([1-9][0-9]*)$')


def main():
    report, folded, key = sys.argv[1:4]
    rows = json.load(open(report))["sections"]["callsite"]["rows"]
    want = {}
    for r in rows:
        if r[FIELD[key]]:
            want[r["site"]] = want.get(r["site"], 0) + r[FIELD[key]]
    got, n = {}, 0
    for line in open(folded):
        m = LINE.match(line.rstrip('\n'))
        if not m:
            sys.exit("not a folded line: %r" % line)
        leaf = m.group(1).split(';')[-1]
        got[leaf] = got.get(leaf, 0) + int(m.group(2))
        n += 1
    bad = ["%s: folded %s, rows %s" % (k, got.get(k), want.get(k))
           for k in sorted(set(want) | set(got)) if got.get(k) != want.get(k)]
    if bad:
        sys.exit("%s: %d leaves differ:\n  %s" % (key, len(bad),
                                                  "\n  ".join(bad[:20])))
    print("%s: %d lines, %d leaves, sum %d" % (key, n, len(got),
                                               sum(got.values())))


if __name__ == "__main__":
    main()
