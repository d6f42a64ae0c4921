/*
 * listener.c — see listener.h.
 */
#include "listener.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

#include "db.h"
#include "exec.h"

struct cd_listener {
    PGconn *conn;
};

cd_listener *cd_listener_open(const char *url, const char *channel)
{
    PGconn *c = cd_db_connect(url);
    if (PQstatus(c) != CONNECTION_OK) {
        PQfinish(c);
        return NULL;
    }
    char sql[128];
    snprintf(sql, sizeof sql, "LISTEN %s", channel);
    PGresult *res = PQexec(c, sql);
    bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    if (!ok) {
        PQfinish(c);
        return NULL;
    }
    cd_listener *l = malloc(sizeof *l);
    if (!l)
        abort();   /* out of memory (docs/STYLE.md) */
    l->conn = c;
    return l;
}

int cd_listener_fd(const cd_listener *l)
{
    return PQsocket(l->conn);
}

bool cd_listener_drain(cd_listener **l)
{
    bool woken = false;
    PGconn *c = (*l)->conn;
    if (!PQconsumeInput(c) || PQstatus(c) != CONNECTION_OK) {
        cd_listener_close(*l);
        *l = NULL;
        return true;
    }
    PGnotify *n;
    while ((n = PQnotifies(c)) != NULL) {
        woken = true;
        PQfreemem(n);
    }
    return woken;
}

void cd_listener_close(cd_listener *l)
{
    if (!l)
        return;
    PQfinish(l->conn);
    free(l);
}
