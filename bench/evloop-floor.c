/*
 * evloop-floor.c — what HTTP and one PostgreSQL round trip a request cost a server on this machine, in the
 * design carcd has and in the one issue 21's last goal (carcd's CPU a move at 0.10 ms) would need; no game,
 * so the figure is the floor under each design, not carcd's.
 *
 *   evloop-floor --db URL --port P [--mode blocking|evloop] [--threads 4] [--body 1200] [--work 1]
 *
 * Serves GET /q: one round trip to PostgreSQL (a prepared statement that counts --work rows of
 * generate_series: PostgreSQL's time for it, so that a worker waits as for a move), then 200 with --body bytes
 * (about a move's answer), until SIGINT or SIGTERM; then prints `name: value` lines (requests, round trips,
 * and for evloop the reads of the database socket that brought results and the requests a read completed).
 *
 * --mode blocking is carcd's design: libmicrohttpd's thread pool, each worker with its own connection,
 * waiting in libpq for every request's result (daemon/http/server.c, daemon/db/db.c).
 *
 * --mode evloop is the design docs/PERFORMANCE.md §12 estimates: per thread, a libmicrohttpd daemon driven
 * from the thread's own epoll set, which also holds the thread's one database connection in pipeline mode. A
 * request sends its statement and a sync and is suspended; the results come back in order, so the request at
 * the head of the queue owns the next sync; it is resumed and answered. Requests that arrive while others'
 * statements are out go out behind them, and one read of the socket can complete several: the batching an
 * event loop gets for free. (libpq 15's PQpipelineSync flushes, so each request still costs one send.)
 *
 * bench/run-evloop-floor.sh runs both against a throwaway PostgreSQL and prints CPU per request. A benchmark,
 * not part of carcd: it reads no config, logs nothing, and stops on the first database error.
 */
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_THREADS 64
#define CONN_MEMORY (32 * 1024) /* carcd's CD_CONN_MEMORY: the same pool zeroing a request */

static const char *db_url;
static char work_rows[24] = "1";   /* --work: the rows the statement counts */
static char *body;
static size_t body_len;
static volatile sig_atomic_t stopping;
static atomic_ullong n_requests, n_round_trips, n_reads, n_read_syncs;

static void on_signal(int sig)
{
    (void)sig;
    stopping = 1;
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "evloop-floor: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static PGconn *db_connect(void)
{
    PGconn *c = PQconnectdb(db_url);
    if (PQstatus(c) != CONNECTION_OK)
        die("cannot connect", PQerrorMessage(c));
    /* $2 rows counted: PostgreSQL's time for the statement, so that a worker waits for it as for a move */
    PGresult *r = PQprepare(c, "q", "SELECT $1::int + count(*)::int FROM generate_series(1, $2::int)", 2, NULL);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        die("cannot prepare", PQerrorMessage(c));
    PQclear(r);
    return c;
}

static enum MHD_Result answer(struct MHD_Connection *con)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(body_len, body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(resp, "Content-Type", "application/json");
    enum MHD_Result ok = MHD_queue_response(con, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    atomic_fetch_add(&n_requests, 1);
    return ok;
}

/* ---- blocking: carcd's design ------------------------------------------------------------------------ */

static _Thread_local PGconn *worker_db;   /* a worker's own connection, as carcd's cd_db_thread */

static enum MHD_Result on_blocking(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                   const char *version, const char *upload, size_t *upload_size, void **req)
{
    (void)cls, (void)url, (void)method, (void)version, (void)upload, (void)upload_size;
    if (!*req) {   /* the headers: the request is answered on the next call, as carcd's on_request */
        *req = con;
        return MHD_YES;
    }
    if (!worker_db)
        worker_db = db_connect();
    const char *v[2] = {"41", work_rows};
    PGresult *r = PQexecPrepared(worker_db, "q", 2, v, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        die("query failed", PQerrorMessage(worker_db));
    PQclear(r);
    atomic_fetch_add(&n_round_trips, 1);
    return answer(con);
}

/* ---- evloop: a loop per thread, libmicrohttpd and the database in one epoll set ------------------------ */

typedef enum { REQ_NEW, REQ_WAITING, REQ_DONE } req_state;

typedef struct req {
    struct MHD_Connection *con;
    req_state state;
    struct req *next;   /* the thread's queue of requests whose statements are out */
} req;

typedef struct {
    struct MHD_Daemon *mhd;
    PGconn *db;
    req *head, *tail;   /* in the order their syncs come back */
} loop;

static enum MHD_Result on_evloop(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                 const char *version, const char *upload, size_t *upload_size, void **reqp)
{
    (void)url, (void)method, (void)version, (void)upload, (void)upload_size;
    loop *l = cls;
    req *q = *reqp;
    if (!q) {
        q = calloc(1, sizeof *q);
        if (!q)
            abort();
        q->con = con;
        *reqp = q;
        return MHD_YES;
    }
    if (q->state == REQ_DONE)
        return answer(con);
    if (q->state == REQ_WAITING)
        return MHD_YES;
    const char *v[2] = {"41", work_rows};
    if (!PQsendQueryPrepared(l->db, "q", 2, v, NULL, NULL, 0) || !PQpipelineSync(l->db))
        die("cannot send", PQerrorMessage(l->db));
    q->state = REQ_WAITING;
    if (l->tail)
        l->tail->next = q;
    else
        l->head = q;
    l->tail = q;
    MHD_suspend_connection(con);
    return MHD_YES;
}

static void on_completed(void *cls, struct MHD_Connection *con, void **reqp, enum MHD_RequestTerminationCode toe)
{
    (void)con, (void)toe;
    if (cls && *reqp)   /* evloop's requests only; a request still queued cannot end (it is suspended) */
        free(*reqp);
    *reqp = NULL;
}

/* Reads what the database sent and resumes every request whose sync came back. */
static void drain_results(loop *l)
{
    if (!PQconsumeInput(l->db))
        die("cannot read", PQerrorMessage(l->db));
    unsigned syncs = 0;
    while (l->head && !PQisBusy(l->db)) {
        PGresult *r = PQgetResult(l->db);
        if (!r)
            continue;   /* the end of one statement's results */
        ExecStatusType st = PQresultStatus(r);
        PQclear(r);
        if (st == PGRES_TUPLES_OK)
            continue;
        if (st != PGRES_PIPELINE_SYNC)
            die("query failed", PQerrorMessage(l->db));
        req *q = l->head;
        l->head = q->next;
        if (!l->head)
            l->tail = NULL;
        q->next = NULL;
        q->state = REQ_DONE;
        MHD_resume_connection(q->con);
        syncs++;
        atomic_fetch_add(&n_round_trips, 1);
    }
    if (syncs) {
        atomic_fetch_add(&n_reads, 1);
        atomic_fetch_add(&n_read_syncs, syncs);
    }
}

static void *loop_thread(void *arg)
{
    int listen_fd = (int)(intptr_t)arg;
    loop l = {0};
    l.db = db_connect();
    if (!PQenterPipelineMode(l.db) || PQsetnonblocking(l.db, 1) != 0)
        die("cannot pipeline", PQerrorMessage(l.db));
    l.mhd = MHD_start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_TURBO | MHD_USE_ERROR_LOG, 0, NULL,
                             NULL, on_evloop, &l, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY, MHD_OPTION_NOTIFY_COMPLETED,
                             on_completed, (void *)&l, MHD_OPTION_END);
    if (!l.mhd)
        die("cannot start libmicrohttpd", NULL);
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(l.mhd, MHD_DAEMON_INFO_EPOLL_FD);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event e = {.events = EPOLLIN, .data.u32 = 0};
    if (ep < 0 || !info || epoll_ctl(ep, EPOLL_CTL_ADD, info->epoll_fd, &e) != 0)
        die("cannot watch libmicrohttpd", strerror(errno));
    e.data.u32 = 1;
    if (epoll_ctl(ep, EPOLL_CTL_ADD, PQsocket(l.db), &e) != 0)
        die("cannot watch the database", strerror(errno));
    while (!stopping) {
        /* what a request sent that did not fit the socket goes out before the loop waits */
        if (PQflush(l.db) < 0)
            die("cannot send", PQerrorMessage(l.db));
        struct epoll_event ev[8];
        int n = epoll_wait(ep, ev, 8, 100);
        bool db_ready = false;
        for (int i = 0; i < n; i++)
            db_ready |= ev[i].data.u32 == 1;
        if (db_ready)
            drain_results(&l);
        MHD_run(l.mhd);   /* new requests, and the resumed ones answered */
    }
    MHD_stop_daemon(l.mhd);
    PQfinish(l.db);
    close(ep);
    return NULL;
}

/* ---- main ----------------------------------------------------------------------------------------------- */

static int listen_on(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 1024) != 0)
        die("cannot listen", strerror(errno));
    return fd;
}

int main(int argc, char **argv)
{
    const char *mode = "blocking";
    int port = 0, threads = 4;
    body_len = 1200;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--db"))
            db_url = argv[i + 1];
        else if (!strcmp(argv[i], "--port"))
            port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--mode"))
            mode = argv[i + 1];
        else if (!strcmp(argv[i], "--threads"))
            threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--work"))
            snprintf(work_rows, sizeof work_rows, "%d", atoi(argv[i + 1]));
        else if (!strcmp(argv[i], "--body"))
            body_len = (size_t)atol(argv[i + 1]);
        else
            die("unknown option", argv[i]);
    }
    bool evloop = !strcmp(mode, "evloop");
    if (!db_url || port <= 0 || threads < 1 || threads > MAX_THREADS || (!evloop && strcmp(mode, "blocking")))
        die("usage: evloop-floor --db URL --port P [--mode blocking|evloop] [--threads N] [--body BYTES] [--work ROWS]", NULL);
    body = malloc(body_len + 1);
    if (!body)
        abort();
    memset(body, 'x', body_len);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);

    int fd = listen_on(port);
    pthread_t t[MAX_THREADS];
    struct MHD_Daemon *pool = NULL;
    if (evloop) {
        /* each daemon gets its own descriptor of the one socket: MHD_stop_daemon closes it */
        for (int i = 0; i < threads; i++)
            if (pthread_create(&t[i], NULL, loop_thread, (void *)(intptr_t)(i ? dup(fd) : fd)) != 0)
                die("cannot start a thread", NULL);
    } else {
        pool = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO | MHD_USE_ERROR_LOG,
                                0, NULL, NULL, on_blocking, NULL, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
                                MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)threads, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
                                (size_t)CONN_MEMORY, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_END);
        if (!pool)
            die("cannot start libmicrohttpd", NULL);
    }
    printf("ready\n");
    fflush(stdout);
    while (!stopping)
        pause();
    if (evloop)
        for (int i = 0; i < threads; i++)
            pthread_join(t[i], NULL);
    else
        MHD_stop_daemon(pool);
    unsigned long long reads = atomic_load(&n_reads), syncs = atomic_load(&n_read_syncs);
    printf("mode: %s\nthreads: %d\nrequests: %llu\nround_trips: %llu\n", mode, threads, atomic_load(&n_requests),
           atomic_load(&n_round_trips));
    if (evloop)
        printf("result_reads: %llu\nrequests_per_result_read: %.2f\n", reads, reads ? (double)syncs / reads : 0.0);
    free(body);
    return 0;
}
