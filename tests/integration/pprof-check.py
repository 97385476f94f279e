#!/usr/bin/env python3
# A profile of `slabacct report --pprof` read by Go's own pprof (`go tool
# pprof`, a decoder we did not write), against the report's call-site
# rows and totals (`slabacct report --json`, --by caller) of the same
# trace:
#  - the sample types are Go's heap profile's, in its order;
#  - each sample type's sum over pprof's samples (-raw) equals the
#    report's totals: allocations, bytes, live objects, live bytes;
#  - pprof's functions by flat value (-top, every node) equal the rows
#    summed per leaf function (the row's call site's function, or the
#    wrapper of a "wrapper <- caller" row), for each sample type;
#  - a second decoder, the npm package pprof-format
#    (tests/pprof/pprof-sums.mjs, node), finds the same sample types,
#    period type, sums and values per leaf function.
# Prints what it compared; exits 1 with the differences.
#
#   pprof-check.py REPORT.json PROFILE     (go and node on PATH, offline)
import json
import os
import re
import subprocess
import sys

TYPES = [("alloc_objects", "count", "allocs"),
         ("alloc_space", "bytes", "bytes_alloc"),
         ("inuse_objects", "count", "live"),
         ("inuse_space", "bytes", "live_bytes")]


def pprof(*args):
    r = subprocess.run(["go", "tool", "pprof"] + list(args),
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("go tool pprof %s: %s" % (" ".join(args), r.stderr))
    return r.stdout


def leaf_function(site):
    leaf = site.split(" <- ")[0]
    return re.split(r"[+ ]", leaf, 1)[0]


def main():
    report, profile = sys.argv[1:3]
    cs = json.load(open(report))["sections"]["callsite"]
    raw = pprof("-raw", profile)
    lines = raw.split("\n")
    i = lines.index("Samples:")
    want_types = " ".join("%s/%s" % (t, u) for t, u, _ in TYPES)
    if lines[i + 1].strip() != want_types:
        sys.exit("sample types %r, not %r" % (lines[i + 1], want_types))
    if "PeriodType: space bytes" not in lines:
        sys.exit("no period type space/bytes")
    sums, n = [0] * 4, 0
    for line in lines[i + 2:]:
        m = re.match(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+):", line)
        if m:
            sums = [a + int(b) for a, b in zip(sums, m.groups())]
            n += 1
        elif line.startswith(("Locations", "Mappings")):
            break
    bad = []
    for (t, _, key), got in zip(TYPES, sums):
        want = sum(tot[key] for tot in cs["totals"].values()
                   if isinstance(tot, dict))
        if got != want:
            bad.append("%s: pprof's samples sum to %d, the report's "
                       "totals to %d" % (t, got, want))
    for t, _, key in TYPES:
        want = {}
        for r in cs["rows"]:
            if r[key]:
                f = leaf_function(r["site"])
                want[f] = want.get(f, 0) + r[key]
        top = pprof("-top", "-nodecount=1000000", "-nodefraction=0",
                    "-edgefraction=0", "-unit=B", "-sample_index=" + t,
                    profile)
        got = {}
        for line in top.split("\n"):
            m = re.match(r"^\s*(\d+)B\s+\S+%\s+\S+%\s+\d+B\s+\S+%\s+(.+)$",
                         line)
            if m and int(m.group(1)):
                got[m.group(2)] = int(m.group(1))
        diff = ["%s: pprof %s, rows %s" % (k, got.get(k), want.get(k))
                for k in sorted(set(want) | set(got))
                if got.get(k) != want.get(k)]
        if diff:
            bad.append("%s: %d functions differ:\n  %s" %
                       (t, len(diff), "\n  ".join(diff[:20])))
        elif not got:
            bad.append("%s: no function in pprof -top" % t)
    # the second decoder
    mjs = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "..", "pprof", "pprof-sums.mjs")
    r = subprocess.run(["node", mjs, profile], capture_output=True,
                       text=True)
    if r.returncode:
        sys.exit("pprof-format: %s" % r.stderr)
    js = json.loads(r.stdout)
    if js["types"] != want_types.split() or js["period_type"] != "space/bytes":
        bad.append("pprof-format: types %s, period %s" %
                   (js["types"], js["period_type"]))
    if js["sums"] != sums or js["samples"] != n:
        bad.append("pprof-format: %d samples summing to %s, go tool "
                   "pprof %d to %s" % (js["samples"], js["sums"], n, sums))
    want = {}
    for r in cs["rows"]:
        if r["allocs"] or r["live"]:
            f = leaf_function(r["site"])
            w = want.setdefault(f, [0] * 4)
            for i, (_, _, key) in enumerate(TYPES):
                w[i] += r[key]
    diff = ["%s: pprof-format %s, rows %s" % (k, js["leaves"].get(k),
                                              want.get(k))
            for k in sorted(set(want) | set(js["leaves"]))
            if js["leaves"].get(k) != want.get(k)]
    if diff:
        bad.append("pprof-format: %d leaf functions differ:\n  %s" %
                   (len(diff), "\n  ".join(diff[:20])))
    if bad:
        sys.exit("\n".join(bad))
    print("%d samples, sums %s, %d functions; pprof-format: %d leaves" %
          (n, "/".join(map(str, sums)), len(got), len(js["leaves"])))


if __name__ == "__main__":
    main()
