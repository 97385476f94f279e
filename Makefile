# slabacct top-level Makefile.
#
#   make              build the slabacct CLI (build/slabacct)
#   make module       build slab_account.ko for every Debian kernel with
#                     headers in /usr/src, or for KDIR=... only
#   make check        install dependencies, build, run every test
#   make check-kernel build a debug kernel (KASAN, lockdep, kmemleak) and
#                     run the module's tests under it
#   make demo         boot Debian's 6.1 kernel with boot-time tracing and
#                     print a boot memory report
#   make bench        run the benchmarks in bench/
#   make fuzz         fuzz the report's trace.dat and /proc/slab_account
#                     readers (libFuzzer), FUZZ_SECS each (600)
#   make install      install the CLI (PREFIX=/usr/local)
#   make dkms         register the module source with DKMS
#
# The module's own build rules live in Kbuild and module/Kbuild.

.DEFAULT_GOAL := all

VERSION := 0.1.0
PREFIX ?= /usr/local
BUILD ?= build
KDIR ?=

CC ?= gcc
CFLAGS ?= -O2 -g
PKGS := glib-2.0 json-glib-1.0 libtracefs libtraceevent libtracecmd libzstd zlib
SA_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow \
	-Wno-unused-parameter -Wmissing-prototypes -Werror=implicit \
	-DSLABACCT_VERSION='"$(VERSION)"' -Iuserspace \
	$(shell pkg-config --cflags $(PKGS))
SA_LIBS = $(shell pkg-config --libs $(PKGS)) -lm -lpthread

# main.c, cmd.c, crash.c and cmd-*.c are the command layer; everything else in
# userspace/ is library code that the unit tests link against.
CMD_SRCS := userspace/main.c userspace/cmd.c userspace/crash.c $(wildcard userspace/cmd-*.c)
LIB_SRCS := $(filter-out $(CMD_SRCS),$(wildcard userspace/*.c))
CMD_OBJS := $(CMD_SRCS:%.c=$(BUILD)/%.o)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libslabacct.a

UNIT_SRCS := $(wildcard tests/unit/test-*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/unit/%)

# BPF tools (userspace/bpf/): each X.bpf.c is compiled with clang and turned
# into build/bpf/X.skel.h by bpftool; the other userspace/bpf/*.c are the
# front ends, linked into build/slabacct with libbpf and libelf/libdw.
# vmlinux.h comes from the build machine's kernel BTF; on a machine without
# /sys/kernel/btf/vmlinux, point VMLINUX_BTF at a kernel image (an ELF
# vmlinux with a .BTF section). CO-RE relocates the fields at load time, so
# the objects run on other kernels.
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
BPF_CLANG ?= clang
BPFTOOL ?= $(shell command -v bpftool || echo /usr/sbin/bpftool)
BPF_PROGS := $(wildcard userspace/bpf/*.bpf.c)
BPF_SKELS := $(BPF_PROGS:userspace/bpf/%.bpf.c=$(BUILD)/bpf/%.skel.h)
BPF_SRCS := $(filter-out $(BPF_PROGS),$(wildcard userspace/bpf/*.c))
BPF_OBJS := $(BPF_SRCS:%.c=$(BUILD)/%.o)
BPF_TEST_BINS := $(patsubst tests/bpf/%.c,$(BUILD)/tests/bpf/%,\
	$(wildcard tests/bpf/*.c))
REFEREE_BINS := $(patsubst tests/referee/%.c,$(BUILD)/tests/referee/%,\
	$(wildcard tests/referee/*.c))
CMD_OBJS += $(BPF_OBJS)
SA_LIBS += $(shell pkg-config --libs libbpf libelf libdw)

# The HTML report's page, style sheet and script (userspace/html/), kept
# as real files and embedded into the library with .incbin
HTML_ASSETS := $(wildcard userspace/html/report.*)
LIB_OBJS += $(BUILD)/userspace/html/assets.o
$(BUILD)/userspace/html/assets.o: userspace/html/assets.S $(HTML_ASSETS)
	@mkdir -p $(dir $@)
	$(CC) -c -Iuserspace/html -o $@ $<

.PHONY: all userspace module check check-unit check-kernel demo bench \
	install dkms deps clean fuzz asan
all: userspace
userspace: $(BUILD)/slabacct

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SA_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/slabacct: $(CMD_OBJS) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(CMD_OBJS) $(LIB) $(SA_LIBS)

$(BUILD)/tests/unit/%: tests/unit/%.c tests/unit/check-main.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SA_CFLAGS) $(CFLAGS) $(shell pkg-config --cflags check) \
		-Itests/unit -o $@ $< tests/unit/check-main.c $(LIB) \
		$(SA_LIBS) $(shell pkg-config --libs check)

check-unit: $(UNIT_BINS)

# BPF: vmlinux.h, objects, skeletons, front ends, test programs
all: $(BPF_TEST_BINS)
$(BUILD)/bpf/vmlinux.h:
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c >$@.tmp && mv $@.tmp $@

$(BUILD)/bpf/%.bpf.o: userspace/bpf/%.bpf.c $(BUILD)/bpf/vmlinux.h \
		$(wildcard userspace/bpf/*.h)
	$(BPF_CLANG) -g -O2 -Wall -target bpf -D__TARGET_ARCH_x86 \
		-I$(BUILD)/bpf -Iuserspace/bpf -c $< -o $@

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< >$@.tmp && mv $@.tmp $@

$(BPF_OBJS): SA_CFLAGS += -I$(BUILD)/bpf -Iuserspace/bpf
$(BPF_OBJS) $(BUILD)/userspace/cmd-bpf.o: $(BPF_SKELS)

# pure helpers of the BPF tools that unit tests link
$(BUILD)/tests/unit/test-pmc: tests/unit/test-pmc.c tests/unit/check-main.c \
		$(BUILD)/userspace/bpf/pmc-events.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SA_CFLAGS) -Iuserspace/bpf $(CFLAGS) \
		$(shell pkg-config --cflags check) -Itests/unit -o $@ $< \
		tests/unit/check-main.c $(BUILD)/userspace/bpf/pmc-events.o \
		$(LIB) $(SA_LIBS) $(shell pkg-config --libs check)

# the referee tests' workloads (tests/integration/referee-lib.sh)
all: $(REFEREE_BINS)
$(BUILD)/tests/referee/%: tests/referee/%.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -o $@ $<

# small programs the BPF tools' tests trace: frame pointers, no inlining
$(BUILD)/tests/bpf/%: tests/bpf/%.c
	@mkdir -p $(dir $@)
	$(CC) -O0 -g -fno-omit-frame-pointer -fno-builtin -Wall -o $@ $<

module:
ifeq ($(KDIR),)
	@set -e; scripts/kernels | while read -r krel img kdir; do \
		scripts/build-module "$$kdir"; done
else
	scripts/build-module $(KDIR)
endif

deps:
	scripts/install-deps

check: deps
	$(MAKE) all check-unit module
	tests/run

# A debug kernel (KASAN, lockdep, kmemleak) from linux-source-6.1, built
# outside the repo by scripts/kernel-build, and the module's tests under it
# On success, stamp the content it verified (CI reruns it on a mismatch)
check-kernel:
	scripts/install-deps --kernel-build
	$(MAKE) all
	tests/run 'kernel/*'
	printf 'hash: %s\nverified: %s\n' "$$(scripts/kernel-tests-hash)" \
		"$$(date -u +%Y-%m-%dT%H:%MZ)" >tests/integration/kernel/verified

demo: deps
	$(MAKE) all module
	scripts/demo

bench: deps
	$(MAKE) all module
	bench/run

# The sanitizer build (clang; ASan and UBSan, UBSan fatal) in build/asan/:
# the library, instrumented for libFuzzer's coverage too, the two fuzz
# targets (tests/fuzz/) and a slabacct linked from it. tests/fuzz/run and
# the sanitizer tests (tests/integration/host/report-sanitize.sh) use it.
ASAN := build/asan
ASAN_CC ?= clang
ASAN_FLAGS := -g -O1 -fno-omit-frame-pointer -Wno-missing-field-initializers \
	-fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
ASAN_LIB_OBJS := $(LIB_SRCS:%.c=$(ASAN)/%.o) $(BUILD)/userspace/html/assets.o
ASAN_CMD_OBJS := $(CMD_SRCS:%.c=$(ASAN)/%.o) $(BPF_SRCS:%.c=$(ASAN)/%.o)
ASAN_LIB := $(ASAN)/libslabacct.a
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(ASAN)/%,\
	$(wildcard tests/fuzz/fuzz-*.c))

$(ASAN)/%.o: %.c
	@mkdir -p $(dir $@)
	$(ASAN_CC) $(SA_CFLAGS) $(ASAN_FLAGS) -fsanitize=fuzzer-no-link \
		-MMD -MP -c -o $@ $<
$(BPF_SRCS:%.c=$(ASAN)/%.o) $(ASAN)/userspace/cmd-bpf.o: $(BPF_SKELS)
$(BPF_SRCS:%.c=$(ASAN)/%.o): SA_CFLAGS += -I$(BUILD)/bpf -Iuserspace/bpf

$(ASAN_LIB): $(ASAN_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(ASAN)/slabacct: $(ASAN_CMD_OBJS) $(ASAN_LIB)
	$(ASAN_CC) $(ASAN_FLAGS) -o $@ $(ASAN_CMD_OBJS) $(ASAN_LIB) $(SA_LIBS)

$(ASAN)/fuzz-%: tests/fuzz/fuzz-%.c $(ASAN_LIB)
	$(ASAN_CC) $(SA_CFLAGS) $(ASAN_FLAGS) -fsanitize=fuzzer -o $@ $< \
		$(ASAN_LIB) $(SA_LIBS)

asan: $(ASAN)/slabacct $(FUZZ_TARGETS)

# libFuzzer targets of the report's readers, 10 minutes each (FUZZ_SECS)
FUZZ_SECS ?= 600
fuzz: all
	tests/fuzz/run $(FUZZ_SECS)

install: $(BUILD)/slabacct
	install -D -m 0755 $(BUILD)/slabacct $(DESTDIR)$(PREFIX)/bin/slabacct

dkms:
	-dkms remove -m slab_account -v $(VERSION) --all >/dev/null 2>&1
	rm -rf /usr/src/slab_account-$(VERSION)
	mkdir -p /usr/src/slab_account-$(VERSION)
	cp -a Kbuild dkms.conf module /usr/src/slab_account-$(VERSION)/
	dkms add -m slab_account -v $(VERSION)

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d)
-include $(ASAN_LIB_OBJS:.o=.d) $(ASAN_CMD_OBJS:.o=.d)
