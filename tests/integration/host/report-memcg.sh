# Memory cgroup charges per call site, on a recording made here: the
# report's accounted allocations and bytes of every site equal the
# accounted= that trace-cmd report prints for each allocation of the
# same file (the kernel's field, or its print format's computation from
# gfp_flags), and a site of a SLAB_ACCOUNT cache (vm_area_struct: every
# allocation charged) is charged for each of its allocations. The
# workload's programs are copied under one name and recorded with
# --comm, so that other users of the machine do not matter.
. "$(dirname "$0")/../../lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
mkdir -p "$TEST_TMP/a" "$TEST_TMP/b"
cp "$(command -v cat)" "$TEST_TMP/a/sa-memcg-load"
cp "$(command -v sh)" "$TEST_TMP/b/sa-memcg-load"
"$SLABACCT" record --no-snapshot --comm sa-memcg-load -o "$TEST_TMP/m.dat" -- \
	"$TEST_TMP/b/sa-memcg-load" -c \
	"for i in \$(seq 50); do $TEST_TMP/a/sa-memcg-load /proc/self/status >/dev/null; done" \
	>"$TEST_TMP/rec" 2>&1 || fail "record failed: $(cat "$TEST_TMP/rec")"
trace-cmd report "$TEST_TMP/m.dat" 2>/dev/null | python3 -c '
import json, re, subprocess, sys
want, allocs = {}, {}
for l in sys.stdin:
    m = re.search(r" (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): .*call_site=(\S+) ptr=(\S+).* bytes_alloc=(\d+).* accounted=(\w+)", l)
    if not m or m.group(3) == "(nil)":
        continue
    kind = "kmalloc" if m.group(1).startswith("kmalloc") else "cache"
    k = kind + " " + m.group(2).split("/")[0]
    n = want.setdefault(k, [0, 0])
    allocs[k] = allocs.get(k, 0) + 1
    if m.group(5) == "true":
        n[0] += 1
        n[1] += int(m.group(4))
out = subprocess.run([sys.argv[1], "report", "--json", "--by", "wrapper",
                      sys.argv[2]], check=True, capture_output=True).stdout
j = json.loads(out)
c = j["sections"]["callsite"]
got = {r["kind"] + " " + re.sub(r" \[.*\]$", "", r["site"]):
       [r["accounted"], r["accounted_bytes"]] for r in c["rows"]}
# a large kmalloc traced twice is one allocation, at its caller: compare
# the kmalloc sites only where none was
kinds = ("cache",) if j["records"].get("kmalloc_repeats") else ("kmalloc", "cache")
keys = [k for k in want if k.split()[0] in kinds]
bad = [(k, want[k], got.get(k)) for k in keys if want[k] != got.get(k)]
assert not bad, bad
n = sum(want[k][0] for k in keys)
assert n > 0, "no allocation charged to a memcg"
vma = [k for k in keys if k.startswith("cache vm_area_alloc+")]
assert vma, "no vm_area_alloc site"
for k in vma:
    assert want[k][0] == allocs[k] > 0, (k, want[k], allocs[k])
print("# memcg charges = trace-cmd at %d sites (%d allocations; %s: %d of %d)"
      % (len(keys), n, vma[0], want[vma[0]][0], allocs[vma[0]]))' \
	"$SLABACCT" "$TEST_TMP/m.dat" || fail "memcg charges differ from trace-cmd"
