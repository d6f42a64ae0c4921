/*
 * test_park.c — the park of held connections (daemon/http/park.c) over real sockets (socketpairs, whose
 * buffers the test sets small): bytes the socket cannot take at once wait and go out whole and in order as
 * the peer reads, the connection closes after the last bytes and `done` runs once, a peer that hangs up is
 * noticed without any send, the limits in all and per address refuse, and a stop closes what is left.
 */
#include <check.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http/park.h"

typedef struct {
    atomic_int calls;
    atomic_bool gone;
} owner;

static void on_done(void *arg, bool client_gone)
{
    owner *o = arg;
    atomic_store(&o->gone, client_gone);
    atomic_fetch_add(&o->calls, 1);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void await_calls(owner *o, int n)
{
    for (int i = 0; i < 500 && atomic_load(&o->calls) < n; i++)
        sleep_ms(10);
}

/* A connected pair: sv[0] for the park (small send buffer), sv[1] the client's (small receive buffer). */
static void pair(int sv[2])
{
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    int small = 4096;
    setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
}

static struct sockaddr_in addr4(unsigned a)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(1234)};
    sa.sin_addr.s_addr = htonl(a);
    return sa;
}

START_TEST(slow_reader_gets_everything)
{
    cd_park *pk = cd_park_start(10, 0);
    ck_assert_ptr_nonnull(pk);
    int sv[2];
    pair(sv);
    owner o = {0};
    cd_parked *c = cd_park_add(pk, sv[0], NULL, 0, on_done, &o);
    ck_assert_ptr_nonnull(c);
    long deferred = cd_park_deferred();
    /* 1 MB in pieces, far more than the socket takes: the rest waits in the park */
    enum { PIECE = 10000, PIECES = 100 };
    char *piece = malloc(PIECE);
    for (int i = 0; i < PIECES; i++) {
        memset(piece, 'a' + i % 26, PIECE);
        ck_assert(cd_parked_send(c, piece, PIECE, i == PIECES - 1, 0));
    }
    ck_assert_int_gt(cd_park_deferred(), deferred);
    /* not finished before the owner is set up, however much is sent */
    sleep_ms(50);
    ck_assert_int_eq(atomic_load(&o.calls), 0);
    cd_parked_arm(c);
    size_t got = 0;
    char buf[3000];
    bool ok = true;
    for (;;) {
        struct pollfd pf = {.fd = sv[1], .events = POLLIN};
        if (poll(&pf, 1, 5000) <= 0)
            break;
        ssize_t k = recv(sv[1], buf, sizeof buf, 0);
        if (k <= 0)
            break;
        for (ssize_t j = 0; j < k; j++)
            ok &= buf[j] == 'a' + (int)((got + (size_t)j) / PIECE) % 26;
        got += (size_t)k;
    }
    ck_assert_uint_eq(got, (size_t)PIECE * PIECES);
    ck_assert(ok);
    await_calls(&o, 1);
    ck_assert_int_eq(atomic_load(&o.calls), 1);
    ck_assert(!atomic_load(&o.gone));
    close(sv[1]);
    free(piece);
    cd_park_stop(pk, 0);
}
END_TEST

START_TEST(unsent_bound_and_hang_up)
{
    cd_park *pk = cd_park_start(10, 0);
    int sv[2];
    pair(sv);
    owner o = {0};
    cd_parked *c = cd_park_add(pk, sv[0], NULL, 0, on_done, &o);
    cd_parked_arm(c);
    static char big[200000];
    ck_assert(cd_parked_send(c, big, sizeof big, false, 0));
    /* more than 100 000 bytes wait already: a bounded send is refused */
    ck_assert(!cd_parked_send(c, "x", 1, false, 100000));
    /* the client hangs up without reading: noticed, `done` says gone */
    close(sv[1]);
    await_calls(&o, 1);
    ck_assert_int_eq(atomic_load(&o.calls), 1);
    ck_assert(atomic_load(&o.gone));
    cd_park_stop(pk, 0);

    /* a waiting connection (nothing to send) whose client leaves */
    pk = cd_park_start(10, 0);
    pair(sv);
    owner w = {0};
    c = cd_park_add(pk, sv[0], NULL, 0, on_done, &w);
    cd_parked_arm(c);
    ck_assert_int_eq(cd_park_count(), 1);
    sleep_ms(50);
    ck_assert_int_eq(atomic_load(&w.calls), 0);
    close(sv[1]);
    await_calls(&w, 1);
    ck_assert(atomic_load(&w.gone));
    ck_assert_int_eq(cd_park_count(), 0);
    cd_park_stop(pk, 0);
}
END_TEST

START_TEST(limits_and_stop)
{
    cd_park *pk = cd_park_start(3, 2);
    struct sockaddr_in a = addr4(0x0a000001), b = addr4(0x0a000002);
    int sv[4][2];
    owner o[4] = {{0}};
    cd_parked *c[4];
    for (int i = 0; i < 4; i++)
        pair(sv[i]);
    c[0] = cd_park_add(pk, sv[0][0], (struct sockaddr *)&a, sizeof a, on_done, &o[0]);
    c[1] = cd_park_add(pk, sv[1][0], (struct sockaddr *)&a, sizeof a, on_done, &o[1]);
    ck_assert(c[0] && c[1]);
    /* a third from the same address: refused, the socket is not taken */
    ck_assert_ptr_null(cd_park_add(pk, sv[2][0], (struct sockaddr *)&a, sizeof a, on_done, &o[2]));
    c[2] = cd_park_add(pk, sv[2][0], (struct sockaddr *)&b, sizeof b, on_done, &o[2]);
    ck_assert_ptr_nonnull(c[2]);
    /* three in all */
    ck_assert_ptr_null(cd_park_add(pk, sv[3][0], (struct sockaddr *)&b, sizeof b, on_done, &o[3]));
    for (int i = 0; i < 3; i++)
        cd_parked_arm(c[i]);
    /* one ends: its address may hold another */
    ck_assert(cd_parked_send(c[0], "bye", 3, true, 0));
    await_calls(&o[0], 1);
    ck_assert(!atomic_load(&o[0].gone));
    c[3] = cd_park_add(pk, sv[3][0], (struct sockaddr *)&a, sizeof a, on_done, &o[3]);
    ck_assert_ptr_nonnull(c[3]);
    cd_parked_arm(c[3]);
    /* the stop closes the rest after the drain: their owners hear they are gone */
    cd_park_stop(pk, 100);
    for (int i = 1; i < 4; i++) {
        ck_assert_int_eq(atomic_load(&o[i].calls), 1);
        ck_assert(atomic_load(&o[i].gone));
        char ch;
        ck_assert_int_eq(recv(sv[i][1], &ch, 1, 0), 0);   /* closed */
    }
    for (int i = 0; i < 4; i++)
        close(sv[i][1]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("park");
    TCase *tc = tcase_create("park");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, slow_reader_gets_everything);
    tcase_add_test(tc, unsent_bound_and_hang_up);
    tcase_add_test(tc, limits_and_stop);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
