# slabacct top-level Makefile.
#
#   make              build the slabacct CLI (build/slabacct)
#   make ARCH=arm64   cross-build it for arm64 (or armhf) boards, into
#                     build/ARCH/slabacct (see "Cross-building the CLI")
#   make module       build slab_account.ko for every Debian kernel with
#                     headers in /usr/src, or for KDIR=... only, or
#                     ARCH=arm64|armhf|all: cross-built for those kernels
#   make check        install dependencies, build, run every test
#   make check-kernel build a debug kernel (KASAN, lockdep, kmemleak) and
#                     run the module's tests under it
#   make check-arm    the module's tests and boot tracing on arm64 and
#                     armhf guests, and the module's tests on PREEMPT_RT
#   make demo         boot Debian's 6.1 kernel with boot-time tracing and
#                     print a boot memory report (ARCH=arm64|armhf: on an
#                     ARM guest, with the CLI cross-built for it)
#   make bench        run the benchmarks in bench/
#   make fuzz         fuzz every reader of a file (libFuzzer, tests/fuzz/),
#                     FUZZ_SECS each (3600)
#   make install      install the CLI, its man pages and bash completion
#                     (PREFIX=/usr/local, DESTDIR)
#   make install-dkms install the module's source for DKMS (DESTDIR)
#   make dkms         register the module source with DKMS
#
# The module's own build rules live in Kbuild and module/Kbuild.

.DEFAULT_GOAL := all

VERSION := 0.1.0
PREFIX ?= /usr/local
KDIR ?=

# Cross-building the CLI: make ARCH=arm64|armhf (arm is armhf) builds
# build/ARCH/slabacct with Debian's cross compiler against the sysroot
# that scripts/fetch-foreign --dev unpacks (SYSROOT=... for another one:
# a root with the -dev packages of the target), pkg-config looking only
# there. The BPF programs are built for that target's registers
# (__TARGET_ARCH_*) against a vmlinux.h from the BTF of the target kernel
# image (KIMAGE=..., default the one of scripts/kernels --arch ARCH): a
# kernel without BTF gets a CLI without the BPF tools (slabacct --help
# says so). ARCH=all and other values are make module's alone.
CROSS_ARCH := $(filter arm64 armhf,$(if $(filter arm,$(ARCH)),armhf,$(ARCH)))
BUILD ?= $(if $(CROSS_ARCH),build/$(CROSS_ARCH),build)
ifneq ($(CROSS_ARCH),)
TRIPLET_arm64 := aarch64-linux-gnu
TRIPLET_armhf := arm-linux-gnueabihf
BPF_ARCH_arm64 := arm64
BPF_ARCH_armhf := arm
TRIPLET := $(TRIPLET_$(CROSS_ARCH))
SYSROOT ?= $(or $(SLABACCT_FOREIGN_DIR),/var/cache/slabacct/foreign)/$(CROSS_ARCH)
CROSS_COMPILE ?= $(TRIPLET)-
ifneq ($(origin CC),command line)
CC := $(CROSS_COMPILE)gcc --sysroot=$(SYSROOT)
endif
PKG_CONFIG := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(TRIPLET)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig \
	pkg-config
BPF_TARGET_ARCH := $(BPF_ARCH_$(CROSS_ARCH))
KIMAGE ?= $(word 2,$(shell scripts/kernels --arch $(CROSS_ARCH) 2>/dev/null | tail -n 1))
# the target kernel's BTF, taken out of its image when make starts
VMLINUX_BTF := $(BUILD)/bpf/vmlinux.btf
HAVE_BTF := $(shell mkdir -p $(BUILD)/bpf && [ -n "$(KIMAGE)" ] && \
	{ [ $(VMLINUX_BTF) -nt $(KIMAGE) ] || \
	  scripts/extract-btf $(KIMAGE) $(VMLINUX_BTF) 2>/dev/null; } && \
	echo yes)
ifneq ($(HAVE_BTF),yes)
NO_BPF := the $(CROSS_ARCH) kernel $(notdir $(KIMAGE)) has no BTF
endif
# the goals that install or fetch what they need first (demo, deps,
# check-arm, bench) or need no sysroot (module, clean) parse without one
ifeq ($(filter-out module clean demo deps check-arm bench,$(or $(MAKECMDGOALS),all)),)
else ifeq ($(wildcard $(SYSROOT)/usr/lib/$(TRIPLET)/pkgconfig/glib-2.0.pc),)
$(error no $(CROSS_ARCH) sysroot with the CLI's -dev packages in $(SYSROOT): run scripts/fetch-foreign --dev $(CROSS_ARCH), or give SYSROOT=)
endif
# relinked when the sysroot is fetched again
$(BUILD)/slabacct: $(wildcard $(SYSROOT)/.fetched-dev)
$(BUILD)/bpf/vmlinux.h: $(VMLINUX_BTF)
endif

CC ?= gcc
CFLAGS ?= -O2 -g
PKG_CONFIG ?= pkg-config
PKGS := glib-2.0 json-glib-1.0 libtracefs libtraceevent libtracecmd libzstd zlib
SA_CFLAGS = -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Wall -Wextra -Wshadow \
	-Wno-unused-parameter -Wmissing-prototypes -Werror=implicit \
	-DSLABACCT_VERSION='"$(VERSION)"' -Iinclude -Iuserspace/lib \
	-Iuserspace $(shell $(PKG_CONFIG) --cflags $(PKGS))
SA_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm -lpthread

# Quiet by default, as Kbuild is ("  CC      userspace/lib/trace/reader.o");
# V=1 prints the whole commands.
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif

# The library is userspace/lib/, one folder and one archive per layer.
# A layer uses only itself and the layers of its LAYER_DEPS_ line, and its
# unit tests (tests/unit/LAYER/) link only those archives: a reference
# upwards does not link. tests/integration/host/layers.sh checks the
# object graph too (no cycle, nothing upwards). Lowest first:
LAYERS := util trace symbols procfs snapshot report emit top bpf
LAYER_DEPS_util :=
LAYER_DEPS_trace := util
LAYER_DEPS_symbols := trace util
LAYER_DEPS_procfs := util
LAYER_DEPS_snapshot := procfs util
LAYER_DEPS_report := snapshot procfs symbols trace util
LAYER_DEPS_emit := report $(LAYER_DEPS_report)
LAYER_DEPS_top := report $(LAYER_DEPS_report)
LAYER_DEPS_bpf := util
LAYER_SRCS_util := $(wildcard userspace/lib/util/*.c)
LAYER_SRCS_trace := $(wildcard userspace/lib/trace/*.c)
LAYER_SRCS_symbols := $(wildcard userspace/lib/symbols/*.c)
LAYER_SRCS_procfs := $(wildcard userspace/lib/procfs/*.c)
LAYER_SRCS_snapshot := $(wildcard userspace/lib/snapshot/*.c)
LAYER_SRCS_report := $(wildcard userspace/lib/report/*.c \
	userspace/lib/report/agg/*.c)
LAYER_SRCS_emit := $(wildcard userspace/lib/emit/*.c)
LAYER_SRCS_top := $(wildcard userspace/lib/top/*.c)
layer_lib = $(BUILD)/lib/libsa-$(1).a
# "LAYER: the layers it may use", for tests/integration/layers.py
layers:
	@$(foreach l,$(LAYERS),echo '$(l): $(LAYER_DEPS_$(l))';)
# the archives a layer links: its own, then those below it
layer_link = $(foreach l,$(1) $(LAYER_DEPS_$(1)),$(call layer_lib,$(l)))

# userspace/cli/ is the command layer: cli/main.c, the command table, cli/cmd.c
# that the commands share, and one cmd-<name>.c per command.
CMD_SRCS := $(wildcard userspace/cli/*.c)
CMD_OBJS := $(CMD_SRCS:%.c=$(BUILD)/%.o)
LIB_SRCS := $(foreach l,$(filter-out bpf,$(LAYERS)),$(LAYER_SRCS_$(l)))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)

# tests/unit/LAYER/test-NAME.c mirrors the library
UNIT_SRCS := $(wildcard tests/unit/*/test-*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/unit/%)

# BPF tools (userspace/bpf/): each X.bpf.c is compiled with clang and turned
# into build/bpf/X.skel.h by bpftool; the other userspace/bpf/*.c are the
# front ends, linked into build/slabacct with libbpf and libelf/libdw.
# vmlinux.h comes from the build machine's kernel BTF; on a machine without
# /sys/kernel/btf/vmlinux, point VMLINUX_BTF at a kernel image (an ELF
# vmlinux with a .BTF section). CO-RE relocates the fields at load time, so
# the objects run on other kernels. NO_BPF=REASON builds the CLI without
# the BPF tools (the front ends of the programs, X.c), and says why in
# its --help.
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
BPF_TARGET_ARCH ?= x86
BPF_CLANG ?= clang
BPFTOOL ?= $(shell command -v bpftool || echo /usr/sbin/bpftool)
ifeq ($(NO_BPF),)
BPF_PROGS := $(wildcard userspace/bpf/*.bpf.c)
else
BPF_PROGS :=
SA_CFLAGS += -DSA_NO_BPF='"$(NO_BPF)"'
endif
BPF_SKELS := $(BPF_PROGS:userspace/bpf/%.bpf.c=$(BUILD)/bpf/%.skel.h)
# front ends of a shared program (pcount.c's engine)
BPF_SHARED_FRONTS := userspace/bpf/swapin.c userspace/bpf/hfaults.c
BPF_SRCS := $(filter-out $(wildcard userspace/bpf/*.bpf.c) \
	$(if $(NO_BPF),$(patsubst %.bpf.c,%.c,$(wildcard userspace/bpf/*.bpf.c)) \
		$(BPF_SHARED_FRONTS)),\
	$(wildcard userspace/bpf/*.c))
BPF_OBJS := $(BPF_SRCS:%.c=$(BUILD)/%.o)
BPF_TEST_BINS := $(patsubst tests/bpf/%.c,$(BUILD)/tests/bpf/%,\
	$(wildcard tests/bpf/*.c))
REFEREE_BINS := $(patsubst tests/referee/%.c,$(BUILD)/tests/referee/%,\
	$(wildcard tests/referee/*.c))
LAYER_SRCS_bpf := $(BPF_SRCS)
SA_LIBS += $(shell $(PKG_CONFIG) --libs libbpf libelf libdw)

# The HTML report's page, style sheet and script (userspace/lib/emit/html/),
# kept as real files and embedded into the emit layer with .incbin
HTML_DIR := userspace/lib/emit/html
HTML_ASSETS := $(wildcard $(HTML_DIR)/*.html $(HTML_DIR)/*.css \
	$(HTML_DIR)/*.js)
HTML_OBJ := $(BUILD)/$(HTML_DIR)/assets.o
$(HTML_OBJ): $(HTML_DIR)/assets.S $(HTML_ASSETS)
	@mkdir -p $(dir $@)
	$(call say,AS,$@)
	$(Q)$(CC) -c -I$(HTML_DIR) -o $@ $<

# report and memleak --pprof (util/pprof.c): pprof's profile.proto
# (userspace/lib/util/profile.proto), made C by protoc-c into
# build/gen/pprof/ and packed with libprotobuf-c. Without them (a
# sysroot without libprotobuf-c) the CLI is built without --pprof.
PROTOC_C ?= protoc-c
PPROF_PROTO := userspace/lib/util/profile.proto
PPROF_GEN := $(BUILD)/gen/pprof
# (quiet: a fresh machine reads this before install-deps has run)
HAVE_PPROF := $(shell { $(PKG_CONFIG) --exists libprotobuf-c && \
	command -v $(PROTOC_C); } >/dev/null 2>&1 && echo yes)
ifeq ($(HAVE_PPROF),yes)
PKGS += libprotobuf-c
PPROF_OBJ := $(PPROF_GEN)/profile.pb-c.o
$(PPROF_GEN)/profile.pb-c.c: $(PPROF_PROTO)
	@mkdir -p $(dir $@)
	$(call say,PROTOC,$@)
	$(Q)$(PROTOC_C) --c_out=$(PPROF_GEN) --proto_path=$(dir $<) $<
$(PPROF_GEN)/profile.pb-c.h: $(PPROF_GEN)/profile.pb-c.c
$(PPROF_OBJ): $(PPROF_GEN)/profile.pb-c.c
	$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(shell $(PKG_CONFIG) --cflags libprotobuf-c) \
		-I$(PPROF_GEN) -c -o $@ $<
$(BUILD)/userspace/lib/util/pprof.o build/asan/userspace/lib/util/pprof.o: \
	$(PPROF_GEN)/profile.pb-c.h
$(BUILD)/userspace/lib/util/pprof.o build/asan/userspace/lib/util/pprof.o: \
	SA_CFLAGS += -I$(PPROF_GEN)
else
PPROF_OBJ :=
SA_CFLAGS += -DSA_NO_PPROF='"built without protobuf-c (libprotobuf-c-dev, protobuf-c-compiler)"'
endif

.PHONY: all userspace layers module check check-unit check-kernel check-arm \
	demo bench man completion \
	install install-dkms dkms deps clean fuzz asan
# (the man pages and completion are generated by running the binary:
# a cross-built one does not run here)
all: userspace $(if $(CROSS_ARCH),,man completion)
userspace: $(BUILD)/slabacct

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(SA_CFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# one archive per layer
define layer_rules
$(call layer_lib,$(1)): $(LAYER_SRCS_$(1):%.c=$(BUILD)/%.o) $(if $(filter emit,$(1)),$(HTML_OBJ))$(if $(filter util,$(1)), $(PPROF_OBJ))
	@mkdir -p $$(dir $$@); rm -f $$@
	$$(call say,AR,$$@)
	$(Q)ar rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer_rules,$(l))))

# the command layer links every layer, the highest first
CLI_LIBS := $(call layer_lib,bpf) $(call layer_lib,top) $(call layer_lib,emit) \
	$(call layer_link,report)
$(BUILD)/slabacct: $(CMD_OBJS) $(CLI_LIBS)
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJS) $(CLI_LIBS) $(SA_LIBS)

# a unit test of a layer links that layer and the ones below, only
define unit_rules
$(BUILD)/tests/unit/$(1)/%: tests/unit/$(1)/%.c tests/unit/check-main.c \
		$(call layer_link,$(1))
	@mkdir -p $$(dir $$@)
	$$(call say,CCLD,$$@)
	$(Q)$(CC) $$(SA_CFLAGS) $(if $(filter bpf,$(1)),-Iuserspace/bpf) \
		$(CFLAGS) $$(shell $$(PKG_CONFIG) --cflags check) -Itests/unit \
		-o $$@ $$< tests/unit/check-main.c $(call layer_link,$(1)) \
		$$(SA_LIBS) $$(shell $$(PKG_CONFIG) --libs check)
endef
$(foreach l,$(LAYERS),$(eval $(call unit_rules,$(l))))

check-unit: $(UNIT_BINS)

# The man pages (build/man/slabacct.1, slabacct-COMMAND.1) and the bash
# completion (build/completion/slabacct), generated from the binary:
# every command's --help (and man/extra.txt: the files it reads, ...)
# and the names that slabacct --names lists from the tables that parse
# them (commands, report sections, sort keys, event groups).
MAN_DIR := $(BUILD)/man
COMPLETION := $(BUILD)/completion/slabacct
man: $(MAN_DIR)/slabacct.1
$(MAN_DIR)/slabacct.1: $(BUILD)/slabacct scripts/man-pages man/extra.txt
	$(call say,GEN,$(MAN_DIR)/*.1)
	$(Q)rm -rf $(MAN_DIR).tmp && scripts/man-pages $(BUILD)/slabacct \
		man/extra.txt $(MAN_DIR).tmp $(VERSION) && \
		rm -rf $(MAN_DIR) && mv $(MAN_DIR).tmp $(MAN_DIR)
# (its function is scripts/bash-completion.bash: with a .sh, make's
# built-in rule %: %.sh would copy it over scripts/bash-completion)
completion: $(COMPLETION)
$(COMPLETION): $(BUILD)/slabacct scripts/bash-completion \
		scripts/bash-completion.bash
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)scripts/bash-completion $(BUILD)/slabacct >$@.tmp && mv $@.tmp $@

# BPF: vmlinux.h, objects, skeletons, front ends, test programs
# (the test programs are this machine's: not cross-built)
all: $(if $(CROSS_ARCH),,$(BPF_TEST_BINS))
$(BUILD)/bpf/vmlinux.h:
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c >$@.tmp && \
		mv $@.tmp $@

$(BUILD)/bpf/%.bpf.o: userspace/bpf/%.bpf.c $(BUILD)/bpf/vmlinux.h \
		$(wildcard userspace/bpf/*.h)
	$(call say,CLANG,$@)
	$(Q)$(BPF_CLANG) -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(BPF_TARGET_ARCH) \
		-I$(BUILD)/bpf -Iuserspace/bpf -c $< -o $@

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(call say,GEN,$@)
	$(Q)$(BPFTOOL) gen skeleton $< >$@.tmp && mv $@.tmp $@

$(BPF_OBJS): SA_CFLAGS += -I$(BUILD)/bpf -Iuserspace/bpf
$(BPF_OBJS) $(BUILD)/userspace/cli/cmd-bpf.o: $(BPF_SKELS)

# the referee tests' workloads (tests/integration/referee-record.sh)
all: $(REFEREE_BINS)
$(BUILD)/tests/referee/%: tests/referee/%.c
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -o $@ $<

# small programs the BPF tools' tests trace: frame pointers, no inlining
$(BUILD)/tests/bpf/%: tests/bpf/%.c
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)
	$(Q)$(CC) -O0 -g -fno-omit-frame-pointer -fno-builtin -Wall -o $@ $<

# make module ARCH=arm64|armhf|all: the kernels of that architecture
# (scripts/fetch-foreign), cross-built; ARCH=arm means armhf. ARCH and
# MAKEFLAGS are not handed down: each kernel tree has its own ARCH.
MODULE_ARCH = $(if $(filter arm,$(ARCH)),armhf,$(ARCH))
module:
ifeq ($(KDIR),)
	@set -e; scripts/kernels $(if $(ARCH),--arch $(MODULE_ARCH)) | \
	while read -r krel img kdir _; do \
		env -u ARCH -u MAKEFLAGS scripts/build-module "$$kdir"; done
else
	env -u ARCH -u MAKEFLAGS scripts/build-module $(KDIR)
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
	scripts/install-deps --kernel-build --arm
	$(MAKE) all
	tests/run 'kernel/*'
	printf 'hash: %s\nverified: %s\n' "$$(scripts/kernel-tests-hash)" \
		"$$(date -u +%Y-%m-%dT%H:%MZ)" >tests/integration/kernel/verified

# The ARM guests (arm64, armhf) and the PREEMPT_RT kernel: the module
# and the CLI cross-built for each and their tests, and boot tracing
# checked against trace-cmd; stamped as check-kernel is
# (scripts/arm-tests-hash)
check-arm:
	scripts/install-deps --arm
	$(MAKE) all
	$(MAKE) ARCH=arm64 all
	$(MAKE) ARCH=armhf all
	$(MAKE) module ARCH=all
	tests/run 'arm/*'
	printf 'hash: %s\nverified: %s\n' "$$(scripts/arm-tests-hash)" \
		"$$(date -u +%Y-%m-%dT%H:%MZ)" >tests/integration/arm/verified

# make demo ARCH=arm64 (or armhf): the same on an ARM guest, with the
# module and the CLI cross-built for it; the report is made here. The
# module is built for the one kernel the demo boots (scripts/demo --kdir).
# make demo KERNEL=6.12-cloud boots another of scripts/kernels' flavours.
DEMO_ARGS = $(if $(CROSS_ARCH),--arch $(CROSS_ARCH)) \
	$(if $(KERNEL),--kernel $(KERNEL))
demo:
	scripts/install-deps $(if $(CROSS_ARCH),--arm)
	$(MAKE) ARCH= all
	$(MAKE) module KDIR="$$(scripts/demo $(DEMO_ARGS) --kdir)"
	$(if $(CROSS_ARCH),$(MAKE) ARCH=$(CROSS_ARCH) all)
	scripts/demo $(DEMO_ARGS)

# module-overhead.sh builds the 6.12 allocation-profiling kernel (once)
bench:
	scripts/install-deps --kernel-build --arm
	$(MAKE) all
	$(MAKE) module ARCH=all
	bench/run

# The sanitizer build (clang; ASan and UBSan, UBSan fatal) in build/asan/:
# the library, instrumented for libFuzzer's coverage too, the fuzz
# targets (tests/fuzz/) and a slabacct linked from it. tests/fuzz/run and
# the sanitizer tests (tests/integration/host/report-sanitize.sh) use it.
ASAN := build/asan
ASAN_CC ?= clang
ASAN_FLAGS := -g -O1 -fno-omit-frame-pointer -Wno-missing-field-initializers \
	-fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
ASAN_LIB_OBJS := $(LIB_SRCS:%.c=$(ASAN)/%.o) $(HTML_OBJ)
ASAN_CMD_OBJS := $(CMD_SRCS:%.c=$(ASAN)/%.o) $(BPF_SRCS:%.c=$(ASAN)/%.o)
asan_lib = $(ASAN)/lib/libsa-$(1).a
asan_link = $(foreach l,$(1) $(LAYER_DEPS_$(1)),$(call asan_lib,$(l)))
# each fuzz target (tests/fuzz/fuzz-NAME.c) links the layer it reads
# with and the ones below
FUZZ_LAYER_account := report
FUZZ_LAYER_tracedat := emit
FUZZ_LAYER_json := emit
FUZZ_LAYER_snapshot := emit
FUZZ_LAYER_proc := procfs
FUZZ_LAYER_hist := procfs
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_TARGETS := $(FUZZ_NAMES:%=$(ASAN)/fuzz-%)

$(ASAN)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(ASAN_CC) $(SA_CFLAGS) $(ASAN_FLAGS) -fsanitize=fuzzer-no-link \
		-MMD -MP -c -o $@ $<
$(BPF_SRCS:%.c=$(ASAN)/%.o) $(ASAN)/userspace/cli/cmd-bpf.o: $(BPF_SKELS)
$(BPF_SRCS:%.c=$(ASAN)/%.o): SA_CFLAGS += -I$(BUILD)/bpf -Iuserspace/bpf

define asan_layer_rules
$(call asan_lib,$(1)): $(LAYER_SRCS_$(1):%.c=$(ASAN)/%.o) $(if $(filter emit,$(1)),$(HTML_OBJ))$(if $(filter util,$(1)), $(PPROF_OBJ))
	@mkdir -p $$(dir $$@); rm -f $$@
	$$(call say,AR,$$@)
	$(Q)ar rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call asan_layer_rules,$(l))))

ASAN_CLI_LIBS := $(call asan_lib,bpf) $(call asan_lib,top) \
	$(call asan_lib,emit) $(call asan_link,report)
$(ASAN)/slabacct: $(ASAN_CMD_OBJS) $(ASAN_CLI_LIBS)
	$(call say,LD,$@)
	$(Q)$(ASAN_CC) $(ASAN_FLAGS) -o $@ $(ASAN_CMD_OBJS) $(ASAN_CLI_LIBS) \
		$(SA_LIBS)

define fuzz_rules
$(ASAN)/fuzz-$(1): tests/fuzz/fuzz-$(1).c $(call asan_link,$(FUZZ_LAYER_$(1)))
	$$(call say,CCLD,$$@)
	$(Q)$(ASAN_CC) $$(SA_CFLAGS) $(ASAN_FLAGS) -fsanitize=fuzzer -o $$@ $$< \
		$(call asan_link,$(FUZZ_LAYER_$(1))) $$(SA_LIBS)
endef
$(foreach t,$(FUZZ_NAMES),$(eval $(call fuzz_rules,$(t))))

asan: $(ASAN)/slabacct $(FUZZ_TARGETS)

# every libFuzzer target in turn, an hour each (FUZZ_SECS); make check runs
# a short pass of each (tests/integration/host/fuzz-short.sh)
FUZZ_SECS ?= 3600
fuzz: all
	tests/fuzz/run $(FUZZ_SECS)

# the CLI, its man pages and its bash completion, under DESTDIR/PREFIX
install: $(BUILD)/slabacct man completion
	install -D -m 0755 $(BUILD)/slabacct $(DESTDIR)$(PREFIX)/bin/slabacct
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0644 $(MAN_DIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -D -m 0644 $(COMPLETION) \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/slabacct

# The module's source as DKMS builds it (dkms.conf, the top-level Kbuild,
# module/, include/uapi/), into DESTDIR/usr/src/slab_account-VERSION: by make
# dkms, and by the slab-account-dkms package
DKMS_DIR := /usr/src/slab_account-$(VERSION)
DKMS_FILES := dkms.conf Kbuild module/Kbuild \
	$(wildcard module/*.[ch] include/uapi/*.h include/uapi/*/*.h)
install-dkms:
	@set -e; for f in $(DKMS_FILES); do \
		install -D -m 0644 $$f $(DESTDIR)$(DKMS_DIR)/$$f; done

dkms:
	-dkms remove -m slab_account -v $(VERSION) --all >/dev/null 2>&1
	rm -rf $(DKMS_DIR)
	$(MAKE) install-dkms DESTDIR=
	dkms add -m slab_account -v $(VERSION)

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(BPF_OBJS:.o=.d)
-include $(ASAN_LIB_OBJS:.o=.d) $(ASAN_CMD_OBJS:.o=.d)
