/*
 * e2e.c — the end-to-end tests' harness: a fresh database per daemon, `carcd migrate` and `carcd serve` as
 * child processes, libcurl requests with every answer checked against the OpenAPI document, the throwaway
 * cluster's pg_ctl, and game helpers.
 *
 * A daemon must not outlive its test: the child asks the kernel for SIGKILL when the test process dies
 * (PR_SET_PDEATHSIG, which also covers Check killing a test on timeout), and an exit handler kills it, drops
 * its database and starts the cluster again if a test stopped it, when the test ends by a failed assertion.
 */
#include "e2e.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "openapi.h"

#ifndef CARCD_BIN
#error "CARCD_BIN must name the carcd binary (set by CMake)"
#endif

extern char **environ;

#define READY_TIMEOUT_S 30.0
#define STOP_TIMEOUT_S 10.0

/* ---- small things ----------------------------------------------------------------------------------------- */
void e2e_db_text(const e2e_daemon *d, const char *sql, char *out, size_t n)
{
    PGconn *c = PQconnectdb(d->dburl);
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
    PGresult *res = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1, "%s: %s", sql, PQerrorMessage(c));
    snprintf(out, n, "%s", PQgetisnull(res, 0, 0) ? "" : PQgetvalue(res, 0, 0));
    PQclear(res);
    PQfinish(c);
}

long e2e_db_long(const e2e_daemon *d, const char *sql)
{
    char v[64];
    e2e_db_text(d, sql, v, sizeof v);
    return v[0] ? atol(v) : -1;
}

int e2e_count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

double e2e_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void e2e_sha256_hex(const uint8_t *data, size_t n, char out[65])
{
    static const char digits[] = "0123456789abcdef";
    uint8_t md[32];
    unsigned int len = 0;
    EVP_Digest(data, n, md, &len, EVP_sha256(), NULL);
    for (int i = 0; i < 32; i++) {
        out[2 * i] = digits[md[i] >> 4];
        out[2 * i + 1] = digits[md[i] & 15];
    }
    out[64] = 0;
}

uint64_t e2e_rng_next(e2e_rng *r)
{
    /* splitmix64: enough for picking moves, and the same sequence on every machine */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint32_t e2e_rng_below(e2e_rng *r, uint32_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;   /* reject the top partial range: no modulo bias */
    uint64_t x;
    do
        x = e2e_rng_next(r);
    while (x >= limit);
    return (uint32_t)(x % n);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t k;
    while ((k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += k;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    buf[len] = 0;
    return buf;
}

/* ---- PostgreSQL: the server the tests were given -------------------------------------------------------- */
static const char *test_db_url(void)
{
    const char *url = getenv("CARCD_TEST_DATABASE_URL");
    if (!url || !*url) {
        fprintf(stderr, "e2e: CARCD_TEST_DATABASE_URL is not set (scripts/test.sh starts a PostgreSQL); "
                        "skipping\n");
        exit(77);
    }
    return url;
}

/* Runs one statement on the test server's own database; asserts it worked. */
static void admin_sql(const char *sql)
{
    PGconn *c = PQconnectdb(test_db_url());
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "e2e: cannot connect to CARCD_TEST_DATABASE_URL: %s",
                  PQerrorMessage(c));
    PGresult *res = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK,
                  "e2e: %s: %s", sql, PQerrorMessage(c));
    PQclear(res);
    PQfinish(c);
}

/* Appends key='value' (libpq quoting) to out. */
static void conninfo_add(char *out, size_t cap, const char *key, const char *val)
{
    size_t n = strlen(out);
    n += (size_t)snprintf(out + n, cap - n, "%s%s='", n ? " " : "", key);
    for (const char *p = val; *p && n + 3 < cap; p++) {
        if (*p == '\'' || *p == '\\')
            out[n++] = '\\';
        out[n++] = *p;
    }
    snprintf(out + n, cap - n, "'");
}

/* The test URL with its database replaced by `dbname`, as a key/value connection string. */
static void url_with_db(const char *dbname, char *out, size_t cap)
{
    char *err = NULL;
    PQconninfoOption *opts = PQconninfoParse(test_db_url(), &err);
    ck_assert_msg(opts != NULL, "e2e: CARCD_TEST_DATABASE_URL does not parse: %s", err ? err : "?");
    out[0] = 0;
    for (PQconninfoOption *o = opts; o->keyword; o++)
        if (o->val && *o->val && strcmp(o->keyword, "dbname") != 0)
            conninfo_add(out, cap, o->keyword, o->val);
    conninfo_add(out, cap, "dbname", dbname);
    PQconninfoFree(opts);
}

/* ---- clean-up when a test ends early -------------------------------------------------------------------- */
static e2e_daemon *live_daemon;     /* the daemon this test process started (one at a time) */
static bool pg_stopped_by_us;
static bool exit_handler_set;
static pid_t owner;                 /* the process that started them: forked test children inherit the handler */

static void kill_child(pid_t pid)
{
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
}

static void on_exit_cleanup(void)
{
    if (getpid() != owner)
        return;
    if (pg_stopped_by_us)
        e2e_pg_start();
    e2e_pg_standby_stop();
    if (live_daemon) {
        e2e_daemon *d = live_daemon;
        live_daemon = NULL;
        kill_child(d->pid);
        d->pid = 0;
        char sql[200];
        snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS \"%s\" WITH (FORCE)", d->dbname);
        PGconn *c = PQconnectdb(test_db_url());
        if (PQstatus(c) == CONNECTION_OK)
            PQclear(PQexec(c, sql));
        PQfinish(c);
    }
}

static void ensure_exit_handler(void)
{
    if (!exit_handler_set) {
        atexit(on_exit_cleanup);
        exit_handler_set = true;
    }
    owner = getpid();
}

/* ---- child processes ------------------------------------------------------------------------------------- */
/* environ without CARCD_* settings, plus ours; a NULL-terminated malloc'd array of malloc'd strings. */
static char **child_env(const e2e_daemon *d)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 16, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "CARCD_", 6) != 0)
            env[k++] = strdup(environ[i]);
    char buf[1400];
    snprintf(buf, sizeof buf, "CARCD_DATABASE_URL=%s", d->dburl);
    env[k++] = strdup(buf);
    snprintf(buf, sizeof buf, "CARCD_LISTEN=127.0.0.1:%d", d->port);
    env[k++] = strdup(buf);
    snprintf(buf, sizeof buf, "CARCD_ADMIN_TOKEN=%s", d->admin);
    env[k++] = strdup(buf);
    for (int i = 0; i < 12 && d->extra_env[i]; i++)
        env[k++] = strdup(d->extra_env[i]);
    env[k] = NULL;
    return env;
}

static void free_env(char **env)
{
    for (size_t i = 0; env[i]; i++)
        free(env[i]);
    free(env);
}

/* Forks and execs argv[0] with env; stdout and stderr appended to the given files. */
static pid_t spawn(char *const argv[], char **env, const char *out_path, const char *err_path)
{
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_msg(pid >= 0, "e2e: fork: %s", strerror(errno));
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        int fo = open(out_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        int fe = open(err_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fo < 0 || fe < 0)
            _exit(126);
        dup2(fo, 1);
        dup2(fe, 2);
        close(fo);
        close(fe);
        int fn = open("/dev/null", O_RDONLY);
        if (fn >= 0) {
            dup2(fn, 0);
            close(fn);
        }
        execve(argv[0], argv, env);
        _exit(127);
    }
    return pid;
}

static int free_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(s, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    ck_assert_int_eq(getsockname(s, (struct sockaddr *)&a, &len), 0);
    close(s);
    return ntohs(a.sin_port);
}

static void run_migrate(e2e_daemon *d)
{
    char **env = child_env(d);
    char *argv[] = {(char *)CARCD_BIN, (char *)"migrate", NULL};
    char out[320];
    snprintf(out, sizeof out, "%s/migrate.out", d->dir);
    pid_t pid = spawn(argv, env, out, d->log_path);
    free_env(env);
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
        char *log = e2e_daemon_log(d);
        ck_abort_msg("e2e: carcd migrate failed (status %d):\n%s", st, log);
    }
}

void e2e_daemon_migrate(e2e_daemon *d)
{
    run_migrate(d);
}

int e2e_carcd_stdin(const e2e_daemon *d, const char *command, const char *const *env, const char *in, size_t len)
{
    char log[400];
    snprintf(log, sizeof log, "%s/%s.log", d->dir, command);
    int fds[2];
    ck_assert(pipe(fds) == 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(fds[0], 0);
        close(fds[0]);
        close(fds[1]);
        for (int i = 0; env && env[i]; i++) {   /* the child's own environment: it execs at once */
            const char *eq = strchr(env[i], '=');
            char name[128];
            if (eq && (size_t)(eq - env[i]) < sizeof name) {
                snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
                setenv(name, eq + 1, 1);
            }
        }
        if (!freopen(log, "a", stderr))
            _exit(126);
        execl(CARCD_BIN, CARCD_BIN, command, (char *)NULL);
        _exit(127);
    }
    close(fds[0]);
    signal(SIGPIPE, SIG_IGN);   /* a carcd that stops reading early is its answer, not the test's death */
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fds[1], in + off, len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(fds[1]);
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

bool e2e_daemon_alive(e2e_daemon *d, int *status)
{
    if (d->pid <= 0)
        return false;
    int st = 0;
    pid_t w = waitpid(d->pid, &st, WNOHANG);
    if (w == 0)
        return true;
    if (status)
        *status = st;
    d->pid = 0;
    return false;
}

char *e2e_daemon_log(const e2e_daemon *d)
{
    /* a running carcd gathers its requests' lines and writes them at most CARCD_LOG_FLUSH_MS after the request
     * (log.c), in the order they were gathered. So a request to a path of its own, made now, marks the point:
     * once its line is in the file, so are the lines of every request answered before the call (but for a
     * worker preempted between its answer and its line for the mark's whole round trip), and a test looking for
     * a line, or for its absence, reads them all. A carcd that has stopped wrote everything at exit. */
    if (d->pid <= 0 || kill(d->pid, 0) != 0)
        return read_file(d->log_path);
    static atomic_int marks;
    char mark[64];
    snprintf(mark, sizeof mark, "/e2e-log-mark/%d-%d", (int)getpid(), atomic_fetch_add(&marks, 1));
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    long st = e2e_req(c, "GET", mark, NULL, NULL, NULL, &r);
    e2e_resp_free(&r);
    e2e_client_free(c);
    ck_assert_msg(st > 0, "e2e: the log's mark %s was not answered", mark);   /* whatever it answers is logged */
    char *log = NULL;
    for (double t0 = e2e_now(); e2e_now() - t0 < 10.0 * E2E_SLACK; nap_ms(10)) {
        free(log);
        log = read_file(d->log_path);
        if (log && strstr(log, mark))
            return log;
    }
    ck_abort_msg("e2e: carcd did not log the mark %s within %g s", mark, 10.0 * E2E_SLACK);
    return log;
}

/* A quick GET /readyz; true on 200. */
static bool ready(const e2e_daemon *d)
{
    e2e_client *c = e2e_client_new(d);
    e2e_client_timeout(c, 2000);
    e2e_resp r;
    long st = e2e_req(c, "GET", "/readyz", NULL, NULL, NULL, &r);
    e2e_resp_free(&r);
    e2e_client_free(c);
    return st == 200;
}

void e2e_daemon_start(e2e_daemon *d)
{
    ck_assert_msg(d->pid == 0, "e2e: daemon already running");
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attempt > 0 || d->port == 0)
            d->port = free_port();
        snprintf(d->base, sizeof d->base, "http://127.0.0.1:%d", d->port);
        char **env = child_env(d);
        char *argv[] = {(char *)CARCD_BIN, (char *)"serve", NULL};
        char out[320];
        snprintf(out, sizeof out, "%s/carcd.out", d->dir);
        d->pid = spawn(argv, env, out, d->log_path);
        free_env(env);
        live_daemon = d;
        double t0 = e2e_now();
        int st = 0;
        while (e2e_now() - t0 < READY_TIMEOUT_S) {
            if (!e2e_daemon_alive(d, &st))
                break;
            if (ready(d))
                return;
            nap_ms(20);
        }
        if (d->pid == 0)
            continue;   /* it exited: most likely the port was taken meanwhile; try another */
        kill_child(d->pid);
        d->pid = 0;
        break;
    }
    char *log = e2e_daemon_log(d);
    ck_abort_msg("e2e: carcd serve did not become ready on port %d; its log:\n%s", d->port, log);
}

/* Runs a file of SQL statements (plain pg_dump output without COPY) on database url; asserts it worked. */
static void load_sql(const char *url, const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "e2e: cannot read %s: %s", path, strerror(errno));
    fclose(f);
    char *sql = read_file(path);
    PGconn *c = PQconnectdb(url);
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "e2e: %s", PQerrorMessage(c));
    PGresult *res = PQexec(c, sql);   /* every statement in one go: libpq stops at the first that fails */
    ck_assert_msg(PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK,
                  "e2e: loading %s: %s", path, PQerrorMessage(c));
    PQclear(res);
    PQfinish(c);
    free(sql);
}

static e2e_daemon *daemon_up(const char *sql_path, const char *const *extra_env)
{
    static int counter;
    test_db_url();   /* skips (exit 77) without a database */
    ensure_exit_handler();
    e2e_daemon *d = calloc(1, sizeof *d);
    for (int i = 0; extra_env && extra_env[i] && i < 11; i++)
        d->extra_env[i] = extra_env[i];
    uint8_t rnd[12];
    FILE *ur = fopen("/dev/urandom", "rb");
    ck_assert(ur && fread(rnd, 1, sizeof rnd, ur) == sizeof rnd);
    fclose(ur);
    char hex[25];
    for (int i = 0; i < 12; i++)
        snprintf(hex + 2 * i, 3, "%02x", rnd[i]);
    snprintf(d->admin, sizeof d->admin, "e2e-admin-%s", hex);
    snprintf(d->dbname, sizeof d->dbname, "e2e_%d_%d_%.8s", (int)getpid(), counter++, hex);
    const char *tmp = getenv("TMPDIR");
    snprintf(d->dir, sizeof d->dir, "%s/carcd-e2e.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_msg(mkdtemp(d->dir) != NULL, "e2e: mkdtemp: %s", strerror(errno));
    snprintf(d->log_path, sizeof d->log_path, "%s/carcd.log", d->dir);

    char sql[200];
    snprintf(sql, sizeof sql, "CREATE DATABASE \"%s\"", d->dbname);
    admin_sql(sql);
    url_with_db(d->dbname, d->dburl, sizeof d->dburl);
    live_daemon = d;   /* from here the exit handler drops the database */
    if (sql_path)
        load_sql(d->dburl, sql_path);
    run_migrate(d);
    e2e_daemon_start(d);
    return d;
}

e2e_daemon *e2e_daemon_up(const char *const *extra_env)
{
    return daemon_up(NULL, extra_env);
}

e2e_daemon *e2e_daemon_up_from(const char *sql_path, const char *const *extra_env)
{
    return daemon_up(sql_path, extra_env);
}

int e2e_daemon_stop(e2e_daemon *d)
{
    if (d->pid <= 0)
        return 0;
    kill(d->pid, SIGTERM);
    double t0 = e2e_now();
    int st = 0;
    while (e2e_now() - t0 < STOP_TIMEOUT_S) {
        pid_t w = waitpid(d->pid, &st, WNOHANG);
        if (w == d->pid) {
            d->pid = 0;
            return st;
        }
        nap_ms(10);
    }
    fprintf(stderr, "e2e: carcd did not stop within %.0f s of SIGTERM; killing it\n", STOP_TIMEOUT_S);
    kill(d->pid, SIGKILL);
    waitpid(d->pid, &st, 0);
    d->pid = 0;
    return st;
}

void e2e_daemon_kill9(e2e_daemon *d)
{
    kill_child(d->pid);
    d->pid = 0;
}

int e2e_daemon_down(e2e_daemon *d)
{
    int st = e2e_daemon_stop(d);
    if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
        char *log = e2e_daemon_log(d);
        size_t n = strlen(log);
        ck_abort_msg("carcd did not exit 0 on SIGTERM (wait status %d); the end of its log:\n%s", st,
                     log + (n > 4000 ? n - 4000 : 0));
    }
    char sql[200];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS \"%s\" WITH (FORCE)", d->dbname);
    admin_sql(sql);
    live_daemon = NULL;
    /* the folder is this daemon's (mkdtemp): its logs and whatever a test wrote there (mail-in's log, carcctl's
     * exports) go with it, so that no run leaves folders behind in TMPDIR */
    DIR *dir = opendir(d->dir);
    for (struct dirent *e; dir && (e = readdir(dir));) {
        char path[600];
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            snprintf(path, sizeof path, "%s/%s", d->dir, e->d_name) < (int)sizeof path)
            unlink(path);
    }
    if (dir)
        closedir(dir);
    ck_assert_msg(rmdir(d->dir) == 0, "e2e: the daemon's folder %s is left: %s", d->dir, strerror(errno));
    free(d);
    e2e_check_answers();
    return st;
}

void e2e_check_answers(void)
{
    ck_assert_msg(e2e_openapi_failures() == 0, "%d answers did not match api-docs/openapi.json; the first:\n%s",
                  e2e_openapi_failures(), e2e_openapi_first_failures());
}

/* ---- the throwaway cluster -------------------------------------------------------------------------------- */
static struct {
    bool known;
    char datadir[512], bindir[512], sockdir[512], port[16], listen[256];
    char fsync[16], sync_commit[16], fpw[16];
} pg;

void e2e_pg_discover(void)
{
    PGconn *c = PQconnectdb(test_db_url());
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "e2e: %s", PQerrorMessage(c));
    PGresult *res = PQexec(c, "SELECT current_setting('data_directory'), "
                              "(SELECT setting FROM pg_config WHERE name = 'BINDIR'), "
                              "current_setting('unix_socket_directories'), current_setting('port'), "
                              "current_setting('listen_addresses'), current_setting('fsync'), "
                              "current_setting('synchronous_commit'), current_setting('full_page_writes')");
    ck_assert_msg(PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1,
                  "e2e: cannot read the cluster's settings (superuser needed): %s", PQerrorMessage(c));
    snprintf(pg.datadir, sizeof pg.datadir, "%s", PQgetvalue(res, 0, 0));
    snprintf(pg.bindir, sizeof pg.bindir, "%s", PQgetvalue(res, 0, 1));
    snprintf(pg.sockdir, sizeof pg.sockdir, "%s", PQgetvalue(res, 0, 2));
    snprintf(pg.port, sizeof pg.port, "%s", PQgetvalue(res, 0, 3));
    snprintf(pg.listen, sizeof pg.listen, "%s", PQgetvalue(res, 0, 4));
    snprintf(pg.fsync, sizeof pg.fsync, "%s", PQgetvalue(res, 0, 5));
    snprintf(pg.sync_commit, sizeof pg.sync_commit, "%s", PQgetvalue(res, 0, 6));
    snprintf(pg.fpw, sizeof pg.fpw, "%s", PQgetvalue(res, 0, 7));
    PQclear(res);
    PQfinish(c);
    ck_assert_msg(strchr(pg.sockdir, ',') == NULL && strchr(pg.sockdir, ' ') == NULL,
                  "e2e: unexpected unix_socket_directories '%s'", pg.sockdir);
    pg.known = true;
}

#define PG_PROG_PATH 600
/* argv for the cluster's program `prog` (pg_ctl, pg_basebackup) with args, as the cluster's owner (postgres
 * when we are root), into out[24]; the program's path is written into path[PG_PROG_PATH], which out points to. */
static void pg_prog_argv(const char *prog, char path[PG_PROG_PATH], const char *const *args, const char **out)
{
    snprintf(path, PG_PROG_PATH, "%s/%s", pg.bindir, prog);
    int n = 0;
    if (geteuid() == 0) {
        out[n++] = "/usr/sbin/runuser";
        out[n++] = "-u";
        out[n++] = "postgres";
        out[n++] = "--";
    }
    out[n++] = path;
    for (int i = 0; args[i] && n < 23; i++)
        out[n++] = args[i];
    out[n] = NULL;
}

/* pg_prog_argv for pg_ctl, its path kept for as long as the argv is (start_cmd's) */
static void pg_ctl_argv(const char *const *args, const char **out)
{
    static char path[PG_PROG_PATH];
    pg_prog_argv("pg_ctl", path, args, out);
}

/* Runs the cluster's program `prog` with args as its owner; returns its exit status. */
static int pg_prog(const char *prog, const char *const *args)
{
    char path[PG_PROG_PATH];
    const char *argv[24];
    pg_prog_argv(prog, path, args, argv);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fn = open("/dev/null", O_RDWR);
        if (fn >= 0) {
            dup2(fn, 0);
            dup2(fn, 1);
            close(fn);
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int pg_ctl(const char *const *args)
{
    return pg_prog("pg_ctl", args);
}

/* The command that starts the cluster again with the settings it had. */
static struct {
    char opts[1600], log[600];
    const char *args[12];
    const char *argv[24];
} start_cmd;

static void build_start_cmd(void)
{
    snprintf(start_cmd.opts, sizeof start_cmd.opts,
             "-c listen_addresses='%s' -k %s -p %s -c fsync=%s -c synchronous_commit=%s -c full_page_writes=%s",
             pg.listen, pg.sockdir, pg.port, pg.fsync, pg.sync_commit, pg.fpw);
    /* the log beside the data dir, where scripts/pg-temp.sh puts server.log */
    snprintf(start_cmd.log, sizeof start_cmd.log, "%s", pg.datadir);
    char *slash = strrchr(start_cmd.log, '/');
    if (slash)
        snprintf(slash, sizeof start_cmd.log - (size_t)(slash - start_cmd.log), "/server.log");
    const char *args[] = {"-D", pg.datadir, "-l", start_cmd.log, "-w", "-t", "60", "-o", start_cmd.opts, "start",
                          NULL};
    memcpy(start_cmd.args, args, sizeof args);
    pg_ctl_argv(start_cmd.args, start_cmd.argv);
}

/* While the cluster is down, a guardian process (in a session of its own, so that Check killing the test's
 * process group on a timeout spares it) waits on a pipe: a byte means the test started the cluster again;
 * end of file without one means the test died, and the guardian starts the cluster itself, so one test's
 * death does not take the database away from the rest of the suite. */
static int guardian_fd = -1;
static pid_t guardian_pid;

static void guardian_spawn(void)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);   /* no daemon or postmaster keeps the test's end open */
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setsid();
        close(fds[1]);
        char b;
        ssize_t k;
        do
            k = read(fds[0], &b, 1);
        while (k < 0 && errno == EINTR);
        if (k == 1)
            _exit(0);
        int fn = open("/dev/null", O_RDWR);
        if (fn >= 0) {
            dup2(fn, 0);
            dup2(fn, 1);
            dup2(fn, 2);
            close(fn);
        }
        execv(start_cmd.argv[0], (char *const *)start_cmd.argv);
        _exit(127);
    }
    close(fds[0]);
    guardian_fd = fds[1];
    guardian_pid = pid;
}

static void guardian_dismiss(void)
{
    if (guardian_fd < 0)
        return;
    ssize_t k = write(guardian_fd, "k", 1);
    (void)k;
    close(guardian_fd);
    waitpid(guardian_pid, NULL, 0);
    guardian_fd = -1;
}

void e2e_pg_stop(void)
{
    e2e_pg_stop_mode("fast");
}

void e2e_pg_stop_mode(const char *mode)
{
    ck_assert_msg(pg.known, "e2e: e2e_pg_discover first");
    ensure_exit_handler();
    build_start_cmd();
    guardian_spawn();
    pg_stopped_by_us = true;
    const char *args[] = {"-D", pg.datadir, "-m", mode, "-w", "-t", "60", "stop", NULL};
    int rc = pg_ctl(args);
    ck_assert_msg(rc == 0, "e2e: pg_ctl stop failed (%d)", rc);
}

void e2e_pg_start(void)
{
    if (!pg.known)
        return;
    int rc = pg_ctl(start_cmd.args);
    if (rc == 0) {
        pg_stopped_by_us = false;
        guardian_dismiss();
    } else {
        fprintf(stderr, "e2e: pg_ctl start failed (%d)\n", rc);
    }
}

/* ---- HTTP ------------------------------------------------------------------------------------------------- */
struct e2e_client {
    CURL *h;
    char base[64];
    char source[64];   /* the local address to connect from ("" = the system's choice) */
    long timeout_ms;
    e2e_observer observer;
    void *observer_arg;
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static void curl_init_once(void)
{
    curl_global_init(CURL_GLOBAL_ALL);
    e2e_openapi_load();
}

e2e_client *e2e_client_new(const e2e_daemon *d)
{
    pthread_once(&curl_once, curl_init_once);
    e2e_client *c = calloc(1, sizeof *c);
    c->h = curl_easy_init();
    c->timeout_ms = 20000;
    snprintf(c->base, sizeof c->base, "%s", d->base);
    return c;
}

void e2e_client_free(e2e_client *c)
{
    if (c) {
        curl_easy_cleanup(c->h);
        free(c);
    }
}

void e2e_client_retarget(e2e_client *c, const e2e_daemon *d)
{
    snprintf(c->base, sizeof c->base, "%s", d->base);
}

void e2e_client_source(e2e_client *c, const char *addr)
{
    snprintf(c->source, sizeof c->source, "%s", addr ? addr : "");
}

void e2e_client_timeout(e2e_client *c, long ms)
{
    c->timeout_ms = ms;
}

void e2e_client_observe(e2e_client *c, e2e_observer fn, void *arg)
{
    c->observer = fn;
    c->observer_arg = arg;
}

typedef struct {
    char *p;
    size_t len, cap;
} buf_t;

static void buf_add(buf_t *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    buf_add(arg, data, size * n);
    return size * n;
}

static size_t on_header(char *data, size_t size, size_t n, void *arg)
{
    buf_t *b = arg;
    if (size * n >= 5 && strncmp(data, "HTTP/", 5) == 0)
        b->len = 0;   /* a new response (after 100 Continue): keep only the last block */
    buf_add(b, data, size * n);
    return size * n;
}

long e2e_reqn(e2e_client *c, const char *method, const char *path, const char *token, const char *body,
              size_t body_len, const char *const *headers, e2e_resp *r)
{
    memset(r, 0, sizeof *r);
    buf_t bb = {0}, hb = {0};
    buf_add(&bb, "", 0);
    buf_add(&hb, "", 0);
    CURL *h = c->h;
    curl_easy_reset(h);
    char url[1200];
    snprintf(url, sizeof url, "%s%s", c->base, path);
    curl_easy_setopt(h, CURLOPT_URL, url);
    if (c->source[0])
        curl_easy_setopt(h, CURLOPT_INTERFACE, c->source);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, c->timeout_ms);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &bb);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &hb);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, r->curl_error);
    struct curl_slist *hl = NULL;
    bool has_ct = false;
    for (int i = 0; headers && headers[i]; i++) {
        hl = curl_slist_append(hl, headers[i]);
        if (strncasecmp(headers[i], "Content-Type:", 13) == 0)
            has_ct = true;
    }
    if (body && !has_ct)
        hl = curl_slist_append(hl, "Content-Type: application/json");
    hl = curl_slist_append(hl, "Expect:");   /* no 100-continue round trip */
    char auth[200];
    if (token) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
        hl = curl_slist_append(hl, auth);
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
    if (strcmp(method, "GET") == 0) {
        curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else if (strcmp(method, "HEAD") == 0) {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
        if (body || strcmp(method, "POST") == 0) {
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(body ? body_len : 0));
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, body ? body : "");
        }
    }
    double t0 = e2e_now();
    CURLcode rc = curl_easy_perform(h);
    r->seconds = e2e_now() - t0;
    curl_slist_free_all(hl);
    r->body = bb.p;
    r->len = bb.len;
    r->headers = hb.p;
    if (rc != CURLE_OK) {
        if (!r->curl_error[0])
            snprintf(r->curl_error, sizeof r->curl_error, "%s", curl_easy_strerror(rc));
        r->status = 0;
        if (c->observer)
            c->observer(c->observer_arg, method, path, t0, t0 + r->seconds, r);
        return 0;
    }
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
    char *ct = NULL;
    curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &ct);
    snprintf(r->content_type, sizeof r->content_type, "%s", ct ? ct : "");
    if (r->len > 0)
        r->json = json_loadb(r->body, r->len, 0, NULL);
    if (e2e_openapi_loaded()) {
        char why[600];
        if (!e2e_openapi_check(method, path, r->status, r->content_type, r->json, r->len, why, sizeof why)) {
            char msg[1200];
            snprintf(msg, sizeof msg, "%s %s -> %ld: %s\n  body: %.300s", method, path, r->status, why, r->body);
            e2e_openapi_record(msg);
        }
    }
    if (c->observer)
        c->observer(c->observer_arg, method, path, t0, t0 + r->seconds, r);
    return r->status;
}

long e2e_req(e2e_client *c, const char *method, const char *path, const char *token, const char *body,
             const char *const *headers, e2e_resp *r)
{
    return e2e_reqn(c, method, path, token, body, body ? strlen(body) : 0, headers, r);
}

static void *async_run(void *arg)
{
    e2e_async *a = arg;
    e2e_client *c = e2e_client_new(a->d);
    e2e_req(c, a->method, a->path, a->token, a->body, NULL, &a->r);
    e2e_client_free(c);
    return NULL;
}

void e2e_async_start(e2e_async *a)
{
    memset(&a->r, 0, sizeof a->r);
    pthread_create(&a->thread, NULL, async_run, a);
}

long e2e_async_join(e2e_async *a)
{
    pthread_join(a->thread, NULL);
    return a->r.status;
}

void e2e_resp_free(e2e_resp *r)
{
    free(r->body);
    free(r->headers);
    json_decref(r->json);
    memset(r, 0, sizeof *r);
}

const char *e2e_header(const e2e_resp *r, const char *name, char *buf, size_t n)
{
    size_t nl = strlen(name);
    for (const char *line = r->headers; line && *line;) {
        const char *end = strstr(line, "\r\n");
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > nl && strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            const char *v = line + nl + 1;
            while (*v == ' ' || *v == '\t')
                v++;
            size_t vl = len - (size_t)(v - line);
            while (vl > 0 && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
                vl--;
            snprintf(buf, n, "%.*s", (int)vl, v);
            return buf;
        }
        if (!end)
            break;
        line = end + 2;
    }
    return NULL;
}

long e2e_db_long_until(const e2e_daemon *d, const char *sql, long want, double seconds)
{
    long n;
    for (double t0 = e2e_now(); (n = e2e_db_long(d, sql)) != want && e2e_now() - t0 < seconds * E2E_SLACK;)
        nap_ms(50);
    return n;
}

json_t *e2e_wait_status(e2e_client *c, const char *path, const char *want, double seconds)
{
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    for (double t0 = e2e_now(); e2e_now() - t0 < seconds * E2E_SLACK && strcmp(e2e_jstr(v, "status"), want) != 0;) {
        nap_ms(50);
        json_decref(v);
        v = e2e_get_ok(c, path, NULL, 200);
    }
    return v;
}

json_t *e2e_get_ok(e2e_client *c, const char *path, const char *token, long want)
{
    e2e_resp r;
    long st = e2e_req(c, "GET", path, token, NULL, NULL, &r);
    ck_assert_msg(st == want, "GET %s: status %ld (want %ld) %s %.400s", path, st, want, r.curl_error, r.body);
    ck_assert_msg(r.json != NULL, "GET %s: the body is not JSON: %.200s", path, r.body);
    json_t *j = json_incref(r.json);
    e2e_resp_free(&r);
    return j;
}

/* ---- JSON ------------------------------------------------------------------------------------------------- */
json_t *e2e_jget(const json_t *j, const char *path)
{
    char key[128];
    const char *p = path;
    json_t *cur = (json_t *)j;
    while (cur && *p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        snprintf(key, sizeof key, "%.*s", (int)n, p);
        if (json_is_array(cur)) {
            char *end;
            long i = strtol(key, &end, 10);
            cur = (*end || i < 0) ? NULL : json_array_get(cur, (size_t)i);
        } else {
            cur = json_object_get(cur, key);
        }
        p += n + (dot ? 1 : 0);
    }
    return cur;
}

long long e2e_jint(const json_t *j, const char *path)
{
    json_t *v = e2e_jget(j, path);
    return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

const char *e2e_jstr(const json_t *j, const char *path)
{
    const char *s = json_string_value(e2e_jget(j, path));
    return s ? s : "";
}

void e2e_assert_problem(const e2e_resp *r, long status, const char *want_field, const char *what)
{
    ck_assert_msg(r->status == status, "%s: status %ld, want %ld: %s %.400s", what, r->status, status,
                  r->curl_error, r->body);
    ck_assert_msg(strncasecmp(r->content_type, "application/problem+json", 24) == 0,
                  "%s: content type '%s', want application/problem+json", what, r->content_type);
    ck_assert_msg(json_is_object(r->json), "%s: the body is not a JSON object: %.200s", what, r->body);
    ck_assert_msg(json_is_string(json_object_get(r->json, "type")), "%s: no type: %s", what, r->body);
    ck_assert_msg(json_is_string(json_object_get(r->json, "title")), "%s: no title: %s", what, r->body);
    ck_assert_msg(json_is_string(json_object_get(r->json, "detail")), "%s: no detail: %s", what, r->body);
    ck_assert_msg(e2e_jint(r->json, "status") == status, "%s: body status differs: %s", what, r->body);
    if (want_field)
        ck_assert_msg(strcmp(e2e_jstr(r->json, "field"), want_field) == 0, "%s: field '%s', want '%s': %s", what,
                      e2e_jstr(r->json, "field"), want_field, r->body);
}

bool e2e_problem_is(const e2e_resp *r, const char *slug)
{
    const char *type = json_string_value(json_object_get(r->json, "type"));
    char want[80];
    snprintf(want, sizeof want, "/problems/%s", slug);
    size_t n = type ? strlen(type) : 0, w = strlen(want);
    return n >= w && strcmp(type + n - w, want) == 0;
}

/* ---- games ------------------------------------------------------------------------------------------------ */
long e2e_game_create_raw(e2e_client *c, const e2e_daemon *d, int nplayers, const char *expansions,
                         const char *extra, bool admin, e2e_game *g)
{
    memset(g, 0, sizeof *g);
    json_t *req = json_object();
    json_t *players = json_array();
    for (int i = 0; i < nplayers; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        json_array_append_new(players, json_pack("{s:s}", "name", name));
    }
    json_object_set_new(req, "players", players);
    if (expansions)
        json_object_set_new(req, "expansions", json_loads(expansions, 0, NULL));
    if (extra) {
        json_t *x = json_loads(extra, 0, NULL);
        json_object_update(req, x);
        json_decref(x);
    }
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    e2e_resp r;
    long st = e2e_req(c, "POST", "/v1/games", admin ? d->admin : NULL, body, NULL, &r);
    free(body);
    if (st == 201 && r.json) {
        snprintf(g->id, sizeof g->id, "%s", e2e_jstr(r.json, "id"));
        snprintf(g->seed_sha256, sizeof g->seed_sha256, "%s", e2e_jstr(r.json, "seed_sha256"));
        json_t *ps = json_object_get(r.json, "players");
        g->nplayers = (int)json_array_size(ps);
        for (int i = 0; i < g->nplayers && i < 6; i++)
            snprintf(g->token[i], sizeof g->token[i], "%s", e2e_jstr(json_array_get(ps, (size_t)i), "token"));
    }
    e2e_resp_free(&r);
    return st;
}

void e2e_game_create(e2e_client *c, int nplayers, const char *expansions, e2e_game *g)
{
    e2e_resp r;
    json_t *req = json_object();
    json_t *players = json_array();
    for (int i = 0; i < nplayers; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        json_array_append_new(players, json_pack("{s:s}", "name", name));
    }
    json_object_set_new(req, "players", players);
    if (expansions)
        json_object_set_new(req, "expansions", json_loads(expansions, 0, NULL));
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    long st = e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r);
    free(body);
    ck_assert_msg(st == 201, "POST /v1/games: %ld %s %.400s", st, r.curl_error, r.body);
    char loc[200];
    ck_assert_msg(e2e_header(&r, "Location", loc, sizeof loc) != NULL, "POST /v1/games: no Location");
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", e2e_jstr(r.json, "id"));
    ck_assert_int_eq(strlen(g->id), 36);
    char want_loc[80];
    snprintf(want_loc, sizeof want_loc, "/v1/games/%s", g->id);
    ck_assert_msg(strstr(loc, want_loc) != NULL, "Location %s, want %s", loc, want_loc);
    ck_assert_int_eq(e2e_jint(r.json, "seq"), 0);
    snprintf(g->seed_sha256, sizeof g->seed_sha256, "%s", e2e_jstr(r.json, "seed_sha256"));
    ck_assert_int_eq(strlen(g->seed_sha256), 64);
    json_t *ps = json_object_get(r.json, "players");
    ck_assert_int_eq(json_array_size(ps), nplayers);
    g->nplayers = nplayers;
    for (int i = 0; i < nplayers; i++) {
        json_t *p = json_array_get(ps, (size_t)i);
        ck_assert_int_eq(e2e_jint(p, "seat"), i);
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        ck_assert_str_eq(e2e_jstr(p, "name"), name);
        snprintf(g->token[i], sizeof g->token[i], "%s", e2e_jstr(p, "token"));
        ck_assert_msg(strlen(g->token[i]) >= 16, "seat %d: token '%s' too short", i, g->token[i]);
        for (int k = 0; k < i; k++)
            ck_assert_str_ne(g->token[k], g->token[i]);
    }
    e2e_resp_free(&r);
}

int e2e_join_by_code(e2e_client *c, const char *id, const char *name, const char *code, char token[80])
{
    char path[120], body[400];
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"invite\":\"%s\"}", name, code);
    e2e_resp r;
    ck_assert_msg(e2e_req(c, "POST", path, NULL, body, NULL, &r) == 201, "%s joining %s: %ld %s", name, id, r.status,
                  r.body ? r.body : "");
    int seat = (int)e2e_jint(r.json, "seat");
    snprintf(token, 80, "%s", e2e_jstr(r.json, "token"));
    e2e_resp_free(&r);
    return seat;
}

void e2e_invite_codes(const json_t *created, int n, char codes[][80])
{
    for (int i = 0; i < n; i++) {
        char k[40];
        snprintf(k, sizeof k, "invites.%d.invite", i);
        snprintf(codes[i], 80, "%s", e2e_jstr(created, k));
    }
}

json_t *e2e_admin_view(e2e_client *c, const e2e_daemon *d, const char *id)
{
    char path[100];
    snprintf(path, sizeof path, "/v1/admin/games/%s", id);
    return e2e_get_ok(c, path, d->admin, 200);
}

int e2e_verify_ok(e2e_client *c, const e2e_daemon *d, const char *id)
{
    char path[120];
    snprintf(path, sizeof path, "/v1/admin/games/%s/verify", id);
    e2e_resp r;
    long st = e2e_req(c, "POST", path, d->admin, NULL, NULL, &r);
    ck_assert_msg(st == 200, "verify %s: %ld %s %.300s", id, st, r.curl_error, r.body);
    ck_assert_msg(json_is_true(json_object_get(r.json, "ok")), "verify %s: not ok: %s", id, r.body);
    int seq = (int)e2e_jint(r.json, "seq");
    e2e_resp_free(&r);
    return seq;
}

void e2e_play_free(e2e_play *p)
{
    json_decref(p->move);
    e2e_resp_free(&p->post);
    memset(p, 0, sizeof *p);
}

int e2e_play_to_end(e2e_client *c, const e2e_game *g, e2e_rng *rng)
{
    int moves = 0;
    for (;;) {
        e2e_play p;
        long st = e2e_play_random(c, g, rng, NULL, &p);
        if (st == E2E_FINISHED) {
            e2e_play_free(&p);
            return moves;
        }
        ck_assert_msg(st == 200, "move %d of %s: %ld: %s", moves, g->id, st, p.post.body ? p.post.body : "");
        e2e_play_free(&p);
        ck_assert_int_lt(++moves, 2000);
    }
}

long e2e_play_random(e2e_client *c, const e2e_game *g, e2e_rng *rng, const char *idem, e2e_play *p)
{
    memset(p, 0, sizeof *p);
    char path[120];
    for (int attempt = 0; attempt < 20; attempt++) {
        e2e_resp r;
        snprintf(path, sizeof path, "/v1/games/%s", g->id);
        long st = e2e_req(c, "GET", path, NULL, NULL, NULL, &r);
        if (st != 200 || !r.json) {
            e2e_resp_free(&r);
            return p->status = -(st ? st : 1);
        }
        if (strcmp(e2e_jstr(r.json, "status"), "finished") == 0) {
            e2e_resp_free(&r);
            return p->status = E2E_FINISHED;
        }
        int seat = (int)e2e_jint(r.json, "pending.seat");
        e2e_resp_free(&r);
        if (seat < 0 || seat >= g->nplayers)
            return p->status = -2;
        snprintf(path, sizeof path, "/v1/games/%s/legal-moves", g->id);
        st = e2e_req(c, "GET", path, g->token[seat], NULL, NULL, &r);
        if (st != 200 || !r.json) {
            e2e_resp_free(&r);
            return p->status = -(st ? st : 1);
        }
        json_t *moves = json_object_get(r.json, "moves");
        size_t n = json_array_size(moves);
        if (n == 0) {   /* someone moved in between: another seat's turn now */
            e2e_resp_free(&r);
            continue;
        }
        p->seat = seat;
        p->expected_seq = (int)e2e_jint(r.json, "seq");
        p->nlegal = (int)n;
        p->move = json_deep_copy(json_array_get(moves, e2e_rng_below(rng, (uint32_t)n)));
        e2e_resp_free(&r);
        json_t *body = json_pack("{s:i, s:O}", "expected_seq", p->expected_seq, "move", p->move);
        char *text = json_dumps(body, JSON_COMPACT);
        json_decref(body);
        char idem_h[260];
        const char *hdrs[] = {idem_h, NULL};
        if (idem)
            snprintf(idem_h, sizeof idem_h, "Idempotency-Key: %s", idem);
        snprintf(path, sizeof path, "/v1/games/%s/moves", g->id);
        st = e2e_req(c, "POST", path, g->token[seat], text, idem ? hdrs : NULL, &p->post);
        free(text);
        return p->status = st;
    }
    return p->status = -3;
}

json_t *e2e_events_log(e2e_client *c, const char *id, const char *token, long *status)
{
    json_t *log = json_array();
    long after = -1;
    for (int page = 0; page < 1000; page++) {
        char path[200];
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%ld", id, after);
        e2e_resp r;
        long st = e2e_req(c, "GET", path, token, NULL, NULL, &r);
        *status = st;
        json_t *entries = json_object_get(r.json, "entries");
        if (st != 200 || !json_is_array(entries)) {
            e2e_resp_free(&r);
            json_decref(log);
            return NULL;
        }
        long next = (long)e2e_jint(r.json, "seq");
        size_t n = json_array_size(entries);
        json_array_extend(log, entries);
        e2e_resp_free(&r);
        if (n == 0 || next <= after)
            break;
        after = next;
    }
    return log;
}

void e2e_assert_log_complete(const json_t *log, int last, const char *what)
{
    ck_assert_msg(json_array_size(log) == (size_t)last + 1, "%s: the log has %zu entries, want seq 0..%d", what,
                  json_array_size(log), last);
    for (size_t i = 0; i < json_array_size(log); i++) {
        long long seq = e2e_jint(json_array_get(log, i), "seq");
        ck_assert_msg(seq == (long long)i, "%s: log entry %zu has seq %lld (a gap or a duplicate)", what, i, seq);
    }
}

/* ---- Check ------------------------------------------------------------------------------------------------ */
int e2e_run(Suite *s)
{
    const char *url = getenv("CARCD_TEST_DATABASE_URL");
    if (!url || !*url) {
        fprintf(stderr, "e2e: CARCD_TEST_DATABASE_URL is not set (scripts/test.sh starts a PostgreSQL); "
                        "skipping\n");
        (void)s;   /* Check has no public way to free a suite that never ran */
        return 77;
    }
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}

TCase *e2e_tcase(const char *name, double seconds)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, seconds * E2E_SLACK);
    return tc;
}

void e2e_player_key(e2e_client *c, const char *name, char *key, size_t n)
{
    char body[160];
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, body, NULL, &r), 201);
    snprintf(key, n, "%s", e2e_jstr(r.json, "key"));
    e2e_resp_free(&r);
}

json_t *e2e_me_events_all(e2e_client *c, const char *key)
{
    json_t *all = json_array();
    long n = 0;
    for (;;) {
        char path[80];
        snprintf(path, sizeof path, "/v1/me/events?after=%ld", n);
        json_t *a = e2e_get_ok(c, path, key, 200);
        json_t *es = json_object_get(a, "entries");
        size_t k = json_array_size(es);
        json_array_extend(all, es);
        n = e2e_jint(a, "n");
        json_decref(a);
        if (k == 0)
            return all;
    }
}

/* ---- a hot standby of the cluster ------------------------------------------------------------------------- */
static struct {
    char dir[700], port[16];
} standby;

void e2e_pg_standby_start(const char *dbname, char *url, size_t cap)
{
    if (!pg.known)
        e2e_pg_discover();
    ck_assert_msg(!standby.dir[0], "e2e: a standby is running already");
    snprintf(standby.dir, sizeof standby.dir, "%s-standby-%d", pg.datadir, (int)getpid());
    snprintf(standby.port, sizeof standby.port, "%d", atoi(pg.port) + 1000);
    /* the data directory's parent belongs to the cluster's owner, so the owner can write the copy there */
    /* -c fast: a checkpoint now, not one spread over minutes */
    const char *bb[] = {"-h", pg.sockdir, "-p", pg.port, "-U", "postgres", "-D", standby.dir,
                        "-R", "-X", "stream", "-c", "fast", NULL};
    int rc = pg_prog("pg_basebackup", bb);
    ck_assert_msg(rc == 0, "e2e: pg_basebackup into %s failed (%d)", standby.dir, rc);
    char opts[1200], log[800];
    snprintf(opts, sizeof opts, "-c listen_addresses='' -k %s -p %s -c hot_standby=on -c fsync=off", pg.sockdir,
             standby.port);
    snprintf(log, sizeof log, "%s.log", standby.dir);
    const char *start[] = {"-D", standby.dir, "-l", log, "-w", "-t", "30", "-o", opts, "start", NULL};
    rc = pg_ctl(start);
    ck_assert_msg(rc == 0, "e2e: the standby did not start (%d): see %s", rc, log);
    snprintf(url, cap, "host=%s port=%s user=postgres dbname=%s", pg.sockdir, standby.port, dbname);
}

void e2e_pg_standby_stop(void)
{
    if (!standby.dir[0])
        return;
    const char *stop[] = {"-D", standby.dir, "-m", "immediate", "-w", "stop", NULL};
    pg_ctl(stop);
    char cmd[sizeof standby.dir * 2 + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s.log'", standby.dir, standby.dir);
    if (system(cmd) != 0)
        fprintf(stderr, "e2e: could not remove %s\n", standby.dir);
    standby.dir[0] = 0;
}
