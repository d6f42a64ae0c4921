/*
 * pgtest.c — see pgtest.h.
 */
#include "pgtest.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base_url(void)
{
    const char *u = getenv("CARCD_TEST_DATABASE_URL");
    ck_assert_msg(u && *u, "CARCD_TEST_DATABASE_URL is not set (scripts/test.sh sets it)");
    return u;
}

void pgt_url_for(const char *dbname, char *out, size_t outlen)
{
    char *errmsg = NULL;
    PQconninfoOption *opts = PQconninfoParse(base_url(), &errmsg);
    ck_assert_msg(opts != NULL, "CARCD_TEST_DATABASE_URL does not parse: %s", errmsg ? errmsg : "?");
    size_t len = 0;
    out[0] = '\0';
    for (PQconninfoOption *o = opts; o->keyword; o++) {
        const char *v = strcmp(o->keyword, "dbname") == 0 ? dbname : o->val;
        if (!v)
            continue;
        len += (size_t)snprintf(out + len, outlen - len, "%s%s='", len ? " " : "", o->keyword);
        for (const char *p = v; *p; p++) {
            if (*p == '\'' || *p == '\\')
                out[len++] = '\\';
            out[len++] = *p;
        }
        len += (size_t)snprintf(out + len, outlen - len, "'");
        ck_assert_uint_lt(len, outlen - 8);
    }
    PQconninfoFree(opts);
}

PGconn *pgt_connect(const char *dbname, const char *app)
{
    char url[2048];
    pgt_url_for(dbname, url, sizeof url);
    const char *const keys[] = {"dbname", "application_name", NULL};
    const char *const vals[] = {url, app, NULL};
    PGconn *c = PQconnectdbParams(keys, vals, 1);
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "connecting to %s: %s", dbname, PQerrorMessage(c));
    return c;
}

static void exec_ok(PGconn *c, const char *sql)
{
    PGresult *res = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(res) == PGRES_COMMAND_OK, "%s: %s", sql, PQresultErrorMessage(res));
    PQclear(res);
}

void pgt_db_create(const char *prefix, char *name, size_t cap)
{
    unsigned char rnd[8];
    FILE *f = fopen("/dev/urandom", "rb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fread(rnd, 1, sizeof rnd, f), sizeof rnd);
    fclose(f);
    int n = snprintf(name, cap, "%s", prefix);
    for (size_t i = 0; i < sizeof rnd; i++)
        n += snprintf(name + n, cap - (size_t)n, "%02x", rnd[i]);
    ck_assert_uint_lt((size_t)n, cap);
    PGconn *c = pgt_connect("postgres", NULL);
    char sql[160];
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    exec_ok(c, sql);
    PQfinish(c);
}

void pgt_db_drop(const char *name)
{
    PGconn *c = pgt_connect("postgres", NULL);
    char sql[160];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", name);
    exec_ok(c, sql);
    PQfinish(c);
}
