/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbols for the BPF tools' stacks: user addresses through the ELF symbol
 * tables of the objects a process has mapped (libdwfl), kernel addresses
 * through /proc/kallsyms.
 */
#ifndef SLABACCT_BPF_SYMS_H
#define SLABACCT_BPF_SYMS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <glib.h>

/* The deepest stack a BPF stack map keeps (PERF_MAX_STACK_DEPTH). */
#define SA_STACK_DEPTH	127

/* A stack id that was not asked for (a failed one is a negative errno). */
#define SA_NO_STACK	INT32_MIN

struct sa_stacks;

/*
 * Stack symbolisation over the stack map stack_fd. Kernel symbols are
 * loaded on first use; user symbols per process, read when first asked
 * for (the process must still be there). NULL with errno on error.
 */
struct sa_stacks *sa_stacks_new(int stack_fd);
void sa_stacks_free(struct sa_stacks *st);

/* Forget the cached symbols of pid (its mappings may have changed). */
void sa_stacks_forget(struct sa_stacks *st, pid_t pid);

/*
 * The frames of one sample, innermost first: the kernel stack kid, then
 * the user stack uid of process pid (SA_NO_STACK: none asked for; a
 * negative errno: the stack was lost, shown as "[stack lost]").
 * Each frame is "symbol+0xoff [object]" or "0xaddr" if unknown. Returns
 * a new GPtrArray of strings (g_ptr_array_unref it).
 */
GPtrArray *sa_stacks_frames(struct sa_stacks *st, pid_t pid, int kid,
			    int uid);

/* One user address as "symbol+0xoff [object]", into buf. */
const char *sa_stacks_usym(struct sa_stacks *st, pid_t pid, uint64_t addr,
			   char *buf, size_t len);

/* One kernel address as "symbol+0xoff", into buf. */
const char *sa_stacks_ksym(struct sa_stacks *st, uint64_t addr, char *buf,
			   size_t len);

/*
 * Whether a user stack's frames (sa_stacks_frames, innermost first) were
 * cut: a stack map keeps SA_STACK_DEPTH frames at most, and a frame-
 * pointer walk stops early in code built without frame pointers. A
 * whole stack ends at a process's or a thread's first function
 * (__libc_start_call_main, __libc_start_main, _start, start_thread,
 * clone, clone3; musl's libc_start_main); one that ends elsewhere was
 * cut. A lost stack ("[stack lost]") is not called cut.
 */
bool sa_frames_cut(const GPtrArray *frames);

/* Whether any frame's symbol is exactly func (the part before '+'). */
bool sa_frames_have(const GPtrArray *frames, const char *func);

#endif /* SLABACCT_BPF_SYMS_H */
