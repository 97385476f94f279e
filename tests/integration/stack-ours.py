#!/usr/bin/env python3
# slabacct's side of a comparison with stack-referee.py: the
# "wrapper <- caller" rows of a `slabacct report --json`, summed the way
# the referee prints them:
#   {"WRAPPER <- CALLER_FUNC": [allocs, bytes_alloc], ...}
# With --no-bare, a row left at a wrapper (by the referee's list) is an
# error: with a stack on every event, each one has its caller.
#
#   stack-ours.py [--no-bare] REPORT.json
import importlib.util
import json
import os
import sys


def main():
    args = sys.argv[1:]
    no_bare = args[:1] == ["--no-bare"]
    if no_bare:
        args = args[1:]
    spec = importlib.util.spec_from_file_location(
        "ref", os.path.join(os.path.dirname(__file__), "stack-referee.py"))
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    rows = json.load(open(args[0]))["sections"]["callsite"]["rows"]
    out, bare = {}, []
    for r in rows:
        if r.get("via"):
            n = out.setdefault(r["via"] + " <- " + r["function"], [0, 0])
            n[0] += r["allocs"]
            n[1] += r["bytes_alloc"]
        elif ref.norm(r["function"]) in ref.WRAPPERS:
            bare.append(f'{r["site"]} ({r["allocs"]} allocs, '
                        f'{r["bytes_alloc"]} bytes)')
    json.dump(out, sys.stdout, sort_keys=True)
    print()
    if no_bare and bare:
        sys.exit("rows left at a wrapper with a stack on every event: " +
                 ", ".join(bare))


if __name__ == "__main__":
    main()
