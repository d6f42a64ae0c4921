/*
 * pgtest.h — a fresh database of the throwaway PostgreSQL (CARCD_TEST_DATABASE_URL, started by
 * scripts/test.sh) for tests that link the daemon's code in-process (tests/db, tests/http). Every call
 * ck_asserts: main thread of a Check test only. (tests/e2e has its own, for the carcd child process.)
 */
#ifndef PGTEST_H
#define PGTEST_H

#include <libpq-fe.h>
#include <stddef.h>

/* CARCD_TEST_DATABASE_URL with its database replaced by `dbname`, as a key=value connection string. */
void pgt_url_for(const char *dbname, char *out, size_t outlen);
/* A connection to `dbname` of that server, with application_name `app` (NULL: libpq's). */
PGconn *pgt_connect(const char *dbname, const char *app);
/* Creates a database named `prefix` + 16 random hex digits into name[cap]. */
void pgt_db_create(const char *prefix, char *name, size_t cap);
/* Drops it (its sessions ended by force). */
void pgt_db_drop(const char *name);

#endif
