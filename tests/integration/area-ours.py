#!/usr/bin/env python3
# slabacct's side of a comparison with area-referee.py: the vmalloc and
# percpu rows of a `slabacct report --json`, summed the way the referee
# prints them:
#   {"vmalloc": {ROW: [allocs, bytes, frees, freed_bytes, live,
#                      live_bytes, failed]}, "percpu": {...},
#    "unmatched": {"vmalloc": N, "percpu": N}}
# ROW is "VIA <- CALLER_FUNC" for a row attributed through a stack, else
# the row's site without its module ("func+0x1b", as trace-cmd prints a
# call site; the module is a field of its own).
#
#   area-ours.py [REPORT.json]   (default: standard input)
import json
import sys

FIELDS = ("allocs", "bytes", "frees", "freed_bytes", "live", "live_bytes",
          "failed")


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    s = json.load(src)["sections"]
    out = {"unmatched": {}}
    for k in ("vmalloc", "percpu"):
        rows = {}
        for r in s[k]["rows"]:
            if r["how"] == "caller":
                key = r["via"] + " <- " + r["function"]
            elif r.get("module"):
                key = r["site"].removesuffix(" [%s]" % r["module"])
            else:
                key = r["site"]
            n = rows.setdefault(key, [0] * len(FIELDS))
            for i, f in enumerate(FIELDS):
                n[i] += r[f]
        out[k] = rows
        out["unmatched"][k] = s[k]["totals"]["unmatched_frees"]
    json.dump(out, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
