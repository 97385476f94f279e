#!/usr/bin/env python3
# The referee of `slabacct budget`: from a copied tree of the files the
# kernel wrote (proc/meminfo, zoneinfo, iomem or sys/firmware/memmap,
# dev/kmsg as dmesg printed it, vmallocinfo, tracefs
# buffer_total_size_kb), compute every owner by this script's own
# reading of the lines, and compare each with the budget's JSON of the
# same tree, exactly (kB); the kernel image's other sections from
# iomem's "Kernel data" end and "Kernel bss" start, less the log's init
# and SMP alternatives freed. Then the arithmetic: each group is the sum of
# its children, the owners (leaves) sum to the RAM, to the page, and
# "unexplained" is the sum of the unexplained leaves.
#
#   budget-referee.py TREE BUDGET.json    prints a summary; exit 1 on a
#                                         mismatch, naming it
import json
import os
import re
import subprocess
import sys

tree, path = sys.argv[1], sys.argv[2]
b = json.load(open(path))
errors = []


def read(rel):
    try:
        return open(os.path.join(tree, rel)).read()
    except OSError:
        return None


def check(what, want, got):
    if want != got:
        errors.append(f"{what}: referee {want}, budget {got}")


page_kb = b["page_size"] // 1024
mi = {}
for line in read("proc/meminfo").splitlines():
    m = re.match(r"(\S+):\s+(\d+)", line)
    if m:
        mi[m.group(1)] = int(m.group(2))

# zoneinfo: present pages, and the per-CPU lists' counts
present = pcp = 0
in_pagesets = False
zone = None
dma_present = dma_managed = None
for line in (read("proc/zoneinfo") or "").splitlines():
    f = line.split()
    if line.startswith("Node "):
        in_pagesets = False
        zone = f[-1]
    if zone == "DMA" and not in_pagesets and len(f) == 2 and f[0] in ("present", "managed"):
        if f[0] == "present":
            dma_present = (dma_present or 0) + int(f[1])
        else:
            dma_managed = (dma_managed or 0) + int(f[1])
    if line.startswith("Node "):
        pass
    elif f[:1] == ["pagesets"]:
        in_pagesets = True
    elif in_pagesets and len(f) == 2 and f[0] == "count:":
        pcp += int(f[1])
    elif not in_pagesets and len(f) == 2 and f[0] == "present":
        present += int(f[1])


def pages(start, end):
    first = -(-start // b["page_size"])
    last = (end + 1) // b["page_size"]
    return max(last - first, 0)


# RAM: iomem's top-level System RAM, else the firmware memmap, else the
# device tree's memory nodes, else the zones' present pages
ram = None
crash = 0
kdata_end = kbss_start = None
low = 0
iomem = read("proc/iomem")
if iomem and re.search(r"^0*[1-9a-f][0-9a-f]*-", iomem, re.M | re.I) is None:
    iomem = None                        # zeros: not root
if iomem:
    ram = 0
    for line in iomem.splitlines():
        m = re.match(r"^(\s*)([0-9a-f]+)-([0-9a-f]+) : (.*)$", line)
        if not m:
            continue
        s, e = int(m.group(2), 16), int(m.group(3), 16)
        if not m.group(1) and m.group(4) == "System RAM":
            ram += pages(s, e) * page_kb
            if s < 0x100000:
                low += pages(s, min(e, 0xfffff))
        elif m.group(4) == "Crash kernel":
            crash += (e - s + 1) // 1024
        elif m.group(4) == "Kernel data" and kdata_end is None:
            kdata_end = e
        elif m.group(4) == "Kernel bss" and kbss_start is None:
            kbss_start = s
    ram_source = "iomem"
else:
    mm = os.path.join(tree, "sys/firmware/memmap")
    if os.path.isdir(mm):
        ram = 0
        for d in os.listdir(mm):
            t = read(f"sys/firmware/memmap/{d}/type").strip()
            if t == "System RAM":
                ram += pages(int(read(f"sys/firmware/memmap/{d}/start"), 16),
                             int(read(f"sys/firmware/memmap/{d}/end"), 16)) * page_kb
        ram_source = "memmap"
    elif os.path.isdir(os.path.join(tree, "sys/firmware/devicetree/base")):
        base = os.path.join(tree, "sys/firmware/devicetree/base")

        def cells(name, default):
            try:
                return int.from_bytes(open(os.path.join(base, name), "rb").read(), "big")
            except OSError:
                return default
        ac, sc = cells("#address-cells", 2), cells("#size-cells", 1)
        ram = 0
        for d in os.listdir(base):
            if d != "memory" and not d.startswith("memory@"):
                continue
            st = os.path.join(base, d, "status")
            if os.path.exists(st) and open(st, "rb").read().rstrip(b"\0") not in (b"okay", b"ok"):
                continue
            reg = open(os.path.join(base, d, "reg"), "rb").read()
            step = (ac + sc) * 4
            for off in range(0, len(reg) - step + 1, step):
                s = int.from_bytes(reg[off:off + ac * 4], "big")
                n = int.from_bytes(reg[off + ac * 4:off + step], "big")
                if n:
                    ram += pages(s, s + n - 1) * page_kb
        ram_source = "devicetree"
    else:
        ram, ram_source = present * page_kb, "zoneinfo"
check("RAM source", ram_source, b["ram_source"])

# the kernel log, as dmesg prints it
log = read("dev/kmsg") or ""
mem = re.findall(r"Memory: (\d+)K/(\d+)K available \(([^)]*)\)", log)
image = {}
if mem:
    for item in mem[-1][2].split(","):
        kb, name = item.strip().split(" ", 1)
        image[name] = int(kb.rstrip("K"))
init_freed = re.search(r"Freeing unused kernel (image \(initmem\) )?memory: \d+K",
                       log) is not None
first_chunk = None
m = re.search(r"percpu: Embedded (\d+) pages/cpu", log)
if m:
    units = 0
    for um in re.finditer(r"pcpu-alloc: ((?:\[\d+\]\s*[-\d ]+)+)$", log, re.M):
        units += len([t for t in um.group(1).split() if not t.startswith("[")])
    first_chunk = int(m.group(1)) * units * page_kb

# alloc_large_system_hash's linear tables: the HASH_EARLY ones are
# memblock's (reserved at boot), the others the page allocator's
early_hash = late_hash = n_early = n_late = 0
for line in log.splitlines():
    line = re.sub(r"^(\d+,\d+,\d+,[^;]*;|\[[^]]*\] )", "", line)
    m = re.match(r"(.+?) hash table entries: \d+ "
                 r"\(order: -?\d+, (\d+) bytes, linear\)$", line)
    if not m:
        continue
    if m.group(1) in ("Dentry cache", "Inode-cache", "PV qspinlock"):
        early_hash += int(m.group(2))
        n_early += 1
    else:
        late_hash += int(m.group(2))
        n_late += 1

stack_pages = 0
for line in (read("proc/vmallocinfo") or "").splitlines():
    f = line.split()
    if len(f) > 2 and re.match(r"(alloc_thread_stack_node|dup_task_struct|copy_process|kernel_clone)\+", f[2]):
        stack_pages += sum(int(x[6:]) for x in f[3:] if x.startswith("pages="))

tracebuf = None
for top in ("sys/kernel/tracing", "sys/kernel/debug/tracing"):
    t = read(f"{top}/buffer_total_size_kb")
    if t is None:
        continue
    tracebuf = int(t.split()[0])
    inst = os.path.join(tree, top, "instances")
    if os.path.isdir(inst):
        for d in os.listdir(inst):
            t = read(f"{top}/instances/{d}/buffer_total_size_kb")
            if t:
                tracebuf += int(t.split()[0])
    break

# the dyn_ftrace records: tracefs's pages now, else the log's at boot
ftrace = None
t = read("sys/kernel/tracing/dyn_ftrace_total_info")
m = re.match(r"\d+ pages:(\d+) groups:", t or "")
if m:
    ftrace = int(m.group(1)) * page_kb
else:
    m = re.search(r"ftrace: allocated (\d+) pages with \d+ groups", log)
    if m:
        ftrace = int(m.group(1)) * page_kb
# dma-direct's atomic pools, as the log says they were made at boot
dma_pools = sum(int(x) for x in
                re.findall(r"DMA: preallocated (\d+) KiB .* pool", log))

# The sparse model's section roots, from the VMCOREINFO note of the
# tree's proc/kcore (its first pages, copied): LENGTH(mem_section)
# pointers of SIZE(list_head) / 2 bytes, when SYMBOL(mem_section) is
# outside the image [_stext, _stext + its sections + 8 MB)
section_roots = 0
core = None
try:
    core = open(os.path.join(tree, "proc/kcore"), "rb").read()
except OSError:
    pass
if core and core[:4] == b"\x7fELF" and core[4] == 2 and mem:
    import struct
    phoff, = struct.unpack_from("<Q", core, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", core, 0x36)
    info = {}
    for i in range(phnum):
        ptype, _, off, _, _, filesz = struct.unpack_from(
            "<IIQQQQ", core, phoff + i * phentsize)
        if ptype != 4:
            continue
        pos = off
        while pos + 12 <= off + filesz:
            namesz, descsz, _ = struct.unpack_from("<III", core, pos)
            name = core[pos + 12:pos + 12 + namesz].rstrip(b"\0")
            dpos = pos + 12 + (namesz + 3) // 4 * 4
            if name == b"VMCOREINFO":
                for kv in core[dpos:dpos + descsz].decode().splitlines():
                    k, _, v = kv.partition("=")
                    info[k] = v
            pos = dpos + (descsz + 3) // 4 * 4
    if all(k in info for k in ("SYMBOL(_stext)", "SYMBOL(mem_section)",
                               "LENGTH(mem_section)", "SIZE(list_head)")):
        stext = int(info["SYMBOL(_stext)"], 16)
        ms = int(info["SYMBOL(mem_section)"], 16)
        extent = sum(image[k] for k in ("kernel code", "rwdata", "rodata",
                                        "init", "bss")) * 1024 + (8 << 20)
        if not stext <= ms < stext + extent:
            section_roots = (int(info["LENGTH(mem_section)"]) *
                             int(info["SIZE(list_head)"]) // 2)

# sizeof(struct page), as bpftool reads the tree's BTF
struct_page = None
btf = os.path.join(tree, "sys/kernel/btf/vmlinux")
if os.path.exists(btf):
    raw = subprocess.run(["bpftool", "btf", "dump", "file", btf, "format", "raw"],
                         capture_output=True, text=True, check=True).stdout
    struct_page = int(re.search(r"^\[\d+\] STRUCT 'page' size=(\d+) ", raw,
                                re.M).group(1))

# every owner, by this script's reading
want = {"ram": ram, "memtotal": mi["MemTotal"],
        "reserved": ram - mi["MemTotal"]}
named_res = 0
if struct_page:
    want["reserved.struct_pages"] = present * struct_page // 1024
    named_res += want["reserved.struct_pages"]
if mem:
    # x86 frees the unused part of .bss..decrypted, inside the bss
    decrypted = sum(int(x) for x in
                    re.findall(r"Freeing unused decrypted memory: (\d+)K", log))
    image["bss"] -= decrypted
    for k, name in (("code", "kernel code"), ("rwdata", "rwdata"),
                    ("rodata", "rodata"), ("bss", "bss")):
        want[f"reserved.kernel_image.{k}"] = image[name]
        named_res += image[name]
    if not init_freed:
        want["reserved.kernel_image.init"] = image["init"]
        named_res += image["init"]
    # the rest of the image between .data and .bss (ORC and bug tables,
    # vvar, ...): iomem's gap less the init sections and .smp_locks freed
    smp_alt = sum(int(x) for x in
                  re.findall(r"Freeing SMP alternatives memory: (\d+)K", log))
    if kdata_end is not None and kbss_start is not None and kbss_start > kdata_end:
        other = (kbss_start - kdata_end - 1) // 1024 - image["init"] - smp_alt
        if other > 0:
            want["reserved.kernel_image.other"] = other
            named_res += other
if first_chunk is not None:
    want["reserved.percpu_first_chunk"] = first_chunk
    named_res += first_chunk
if n_early:
    want["reserved.hash_tables"] = early_hash // 1024
    named_res += early_hash // 1024
if crash:
    want["reserved.crash_kernel"] = crash
    named_res += crash
if section_roots:
    want["reserved.section_roots"] = section_roots // 1024
    named_res += section_roots // 1024
# each node's pglist_data, memblock's at boot, from the log
nd = [int(e, 16) - int(a, 16) + 1 for a, e in
      re.findall(r"NODE_DATA\(\d+\) allocated \[mem 0x([0-9a-f]+)-0x([0-9a-f]+)\]", log)]
if nd:
    want["reserved.node_data"] = sum(nd) // 1024
    named_res += sum(nd) // 1024
# x86's first 1 MB, reserved: iomem's RAM pages below it, when the DMA
# zone's unmanaged pages hold them all
if low and dma_present is not None and dma_present - dma_managed >= low:
    want["reserved.first_mb"] = low * page_kb
    named_res += low * page_kb
want["reserved.unexplained"] = ram - mi["MemTotal"] - named_res

g = mi.get
want["free.buddy"] = mi["MemFree"]
want["free.pcp"] = pcp * page_kb
want["slab.reclaimable"] = mi["SReclaimable"]
want["slab.unreclaimable"] = mi["SUnreclaim"]
if "KReclaimable" in mi and mi["KReclaimable"] != mi["SReclaimable"]:
    want["kreclaimable_other"] = mi["KReclaimable"] - mi["SReclaimable"]
want["page_cache.buffers"] = mi["Buffers"]
want["page_cache.files"] = mi["Cached"] - mi["Shmem"]
want["page_cache.shmem"] = mi["Shmem"]
for k, name in (("swap_cache", "SwapCached"), ("anon", "AnonPages"),
                ("hugetlb", "Hugetlb"), ("page_tables.user", "PageTables"),
                ("page_tables.secondary", "SecPageTables"),
                ("zswap", "Zswap"), ("unaccepted", "Unaccepted")):
    if name in mi:
        want[k] = mi[name]
if stack_pages:
    want["vmalloc.kernel_stacks"] = mi["KernelStack"]
    want["vmalloc.other"] = mi["VmallocUsed"] - mi["KernelStack"]
else:
    want["kernel_stacks"] = mi["KernelStack"]
    want["vmalloc"] = mi["VmallocUsed"]
want["percpu"] = mi["Percpu"] - (first_chunk or 0)
if tracebuf is not None:
    want["trace_buffers"] = tracebuf
if n_late:
    want["hash_tables"] = late_hash // 1024
if dma_pools:
    want["dma_pools"] = dma_pools
if ftrace is not None:
    want["ftrace_records"] = ftrace
leaves_mem = [k for k in want if k not in ("ram", "memtotal", "reserved")
              and not k.startswith("reserved.")]
want["memtotal.unexplained"] = mi["MemTotal"] - sum(want[k] for k in leaves_mem)

rows = b["owners"]
got = {r["key"]: r["kb"] for r in rows}
for k, v in want.items():
    check(f"owner {k}", v, got.get(k))
for k in got:
    if k not in want and not any(r["key"] == k and not r["leaf"] for r in rows):
        errors.append(f"owner {k}: in the budget, not known to the referee")

# the arithmetic: groups, leaves to the RAM, unexplained
for i, r in enumerate(rows):
    if r["leaf"]:
        continue
    kids = 0
    for s in rows[i + 1:]:
        if s["depth"] <= r["depth"]:
            break
        if s["depth"] == r["depth"] + 1:
            kids += s["kb"]
    check(f"group {r['key']} = its children", kids, r["kb"])
leaves = sum(r["kb"] for r in rows if r["leaf"])
check("owners + unexplained = RAM (kB)", ram, leaves)
check("unexplained = its leaves", sum(r["kb"] for r in rows if r["unexplained"]),
      b["unexplained_kb"])
if ram % page_kb:
    errors.append(f"RAM {ram} kB is not whole pages")

if errors:
    print("\n".join(errors), file=sys.stderr)
    sys.exit(1)
print(f"ram {ram} kB ({ram_source}), {len(want)} owners equal, "
      f"unexplained {b['unexplained_kb']} kB "
      f"({100.0 * b['unexplained_kb'] / ram:.2f}%): reserved "
      f"{got['reserved.unexplained']} + page allocator "
      f"{got['memtotal.unexplained']}")
