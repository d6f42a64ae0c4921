/*
 * listen.h — the listening socket carcd's HTTP server is handed (server.c passes it to libmicrohttpd as
 * MHD_OPTION_LISTEN_SOCKET): a unix socket, or TCP on a host and port. Opening it here rather than letting
 * libmicrohttpd bind lets carcd listen on a unix socket, take any address getaddrinfo knows, and tell the
 * port the kernel chose for port 0 (the tests' servers).
 */
#ifndef CD_LISTEN_H
#define CD_LISTEN_H

#include <stdbool.h>
#include <stddef.h>

/* A listening unix socket at path; a socket file already there (a previous run's) is replaced, any other
 * file is not. -1 with err. */
int cd_listen_unix(const char *path, char *err, size_t errlen);

/* A listening socket on host:port (host "" = every address): the first of getaddrinfo's IPv4 and IPv6
 * addresses that binds. Sets *ipv6 and *bound_port (the kernel's choice for port 0). -1 with err. */
int cd_listen_tcp(const char *host, int port, bool *ipv6, int *bound_port, char *err, size_t errlen);

#endif
