/*
 * park.h — connections taken out of libmicrohttpd while they wait (long-polls, event streams).
 *
 * A waiting request held by libmicrohttpd keeps its connection's memory pool, connection struct and request:
 * about 5.7 KB resident a long-poll and 10 KB a stream (bench/waiters-rss), most of it libmicrohttpd's and
 * none of it needed while nothing is sent. A parked connection is a socket, its address, a buffer of unsent
 * bytes (none while waiting) and the owner's callback: some 100 bytes. The HTTP layer (hold.c) parks a
 * request's socket and lets libmicrohttpd forget the connection; the owner (handlers/events.c) writes the
 * answer, or a stream's frames, with cd_parked_send, from any thread.
 *
 * One thread per park, with an epoll set of the parked sockets: it sends what a socket did not take at once,
 * notices a client that hangs up (end of file, an error; bytes a client sends are read and dropped), and
 * closes. `done` runs on that thread exactly once per connection, once it is closed (all sent after the
 * last bytes, or the client gone, or the park stopping): the owner cancels what could still write to it and
 * frees its state there; a cd_parked_send that runs meanwhile fails harmlessly, and the cd_parked is freed
 * after `done` returns.
 */
#ifndef CD_PARK_H
#define CD_PARK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

typedef struct cd_park cd_park;
typedef struct cd_parked cd_parked;

/* client_gone: the client hung up (or the park stopped) before everything was sent */
typedef void (*cd_parked_done)(void *arg, bool client_gone);

/* At most max_total connections parked, max_per_address from one address (0: no per-address limit). */
cd_park *cd_park_start(long max_total, long max_per_address);
/* Waits up to drain_ms for the parked connections to finish (their owners were told to end them), then
 * closes the rest (their `done` says client_gone) and stops the thread. */
void cd_park_stop(cd_park *pk, int drain_ms);

/* Parks fd (a connected socket, now the park's): NULL when a limit is reached (fd is then not taken). The
 * connection does not finish, and `done` does not run, before cd_parked_arm: the owner sets up first. */
cd_parked *cd_park_add(cd_park *pk, int fd, const struct sockaddr *peer, socklen_t peer_len, cd_parked_done done,
                       void *arg);
/* The owner is set up: from now on the connection may finish and `done` run (on the park's thread). */
void cd_parked_arm(cd_parked *c);
/* Appends data to what is to be sent (and sends what the socket takes now); with last, the connection closes
 * once all is sent. False, and nothing is appended, when the connection is closing or the unsent bytes would
 * pass max_unsent (0: no bound): the owner then ends it with last. */
bool cd_parked_send(cd_parked *c, const char *data, size_t n, bool last, size_t max_unsent);
/* Parked connections now, and the sends that left bytes for the park's thread to send when the socket takes
 * them (every park in the process, since it started). */
long cd_park_count(void);
long cd_park_deferred(void);

#endif
