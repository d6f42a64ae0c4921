/*
 * listener.h — a connection of its own that LISTENs on one channel, for a worker that sleeps in poll(2) on
 * its socket (the webhook delivery worker): open, the socket, what arrived, close.
 */
#ifndef CD_LISTENER_H
#define CD_LISTENER_H

#include <stdbool.h>

typedef struct cd_listener cd_listener;

/* Connects to url (cd_db_connect's defaults) and LISTENs on `channel` (an SQL identifier); NULL when either
 * failed. */
cd_listener *cd_listener_open(const char *url, const char *channel);
/* The socket to poll for input; -1 when there is none. */
int cd_listener_fd(const cd_listener *l);
/* Reads what arrived: true when a notification came (or the connection broke, so some may have been
 * missed); *l is closed and NULLed when it broke. */
bool cd_listener_drain(cd_listener **l);
void cd_listener_close(cd_listener *l);

#endif
