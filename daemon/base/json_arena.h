/*
 * json_arena.h — jansson's memory for the length of one request, taken from a per-thread bump arena.
 *
 * A move builds and drops thousands of small jansson values (the snapshot tree, the legal moves, the
 * events, the answer); glibc's malloc and free of them were a fifth of carcd's CPU under load (perf, and
 * bench/move-cpu: 110-130 us of a move's JSON work, 60-80 us from an arena). Between cd_json_arena_begin and
 * cd_json_arena_end, every jansson allocation of the calling thread is a pointer bump in that thread's arena,
 * every free of one is a count, and the end takes the whole arena back at once. SQLite's lookaside
 * allocator does the same for its per-connection objects.
 *
 * The rule that makes it safe: no jansson value allocated inside the scope outlives it. The hot routes keep
 * to it (routes.c marks them; they answer before they return and never suspend), and the end checks it:
 * values still counted live mean a leak or an escape. In a build with AddressSanitizer that aborts, and the
 * arena is ordinary malloc memory with a header, so that a use after the end, or a libc free() of jansson
 * memory, is a sanitizer error too. Otherwise the end says so on stderr once and abandons that arena's
 * memory to whatever still points into it, rather than reuse it.
 *
 * Corollary: daemon code never frees jansson-allocated memory with free(); json_dumps, which returns such
 * memory, is poisoned for the daemon (json_out.h: cd_json_dumps returns malloc memory).
 */
#ifndef CD_JSON_ARENA_H
#define CD_JSON_ARENA_H

#include <stdbool.h>
#include <stddef.h>

/* Makes jansson allocate through this file (json_set_alloc_funcs), once; values allocated before stay valid
 * (outside a scope allocations and frees go to malloc and free). */
void cd_json_arena_install(void);
/* This thread's jansson allocations come from its arena until cd_json_arena_end. Not nested. */
void cd_json_arena_begin(void);
void cd_json_arena_end(void);
/* Whether the calling thread is inside a scope. */
bool cd_json_arena_active(void);

/* For tests: jansson values of this thread's current scope not yet freed, and the bytes its arena holds. */
long cd_json_arena_live(void);
size_t cd_json_arena_bytes(void);

#endif
