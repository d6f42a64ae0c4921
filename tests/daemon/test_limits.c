/*
 * test_limits.c — the pure parts of the limits for a public server: the token buckets of base/rate.h with an
 * injected time (burst, refill, Retry-After, refusals that take nothing, a spray of keys that leaves memory
 * fixed and evicts full buckets before debtors), the CARCD_RATE_* values, and base/netaddr.h (addresses,
 * ranges, and X-Forwarded-For read from the right as far as trusted proxies wrote it), and the buckets' keyed
 * hash (base/crypto.h: cd_siphash against the reference vectors of SipHash-2-4).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"
#include "base/netaddr.h"
#include "base/rate.h"

START_TEST(bucket_burst_refill_retry_after)
{
    cd_rate_table *t = cd_rate_table_new((cd_rate_spec){3, 60}, 64);   /* 3 at most, one a second */
    double wait;
    for (int i = 0; i < 3; i++)
        ck_assert(cd_rate_take(t, 42, 100.0, &wait));
    ck_assert(!cd_rate_take(t, 42, 100.0, &wait));
    ck_assert_msg(wait > 0.99 && wait <= 1.0, "retry after %f", wait);
    ck_assert(!cd_rate_take(t, 42, 100.5, &wait));   /* half a token: still refused, and nothing taken */
    ck_assert_msg(wait > 0.49 && wait < 0.51, "retry after %f", wait);
    ck_assert(cd_rate_take(t, 42, 101.0, &wait));    /* one second later: one token */
    ck_assert(!cd_rate_take(t, 42, 101.0, &wait));
    ck_assert(cd_rate_take(t, 7, 101.0, &wait));     /* another key has its own bucket */
    for (int i = 0; i < 3; i++)   /* a long pause refills to the burst, not beyond */
        ck_assert(cd_rate_take(t, 42, 1000.0, &wait));
    ck_assert(!cd_rate_take(t, 42, 1000.0, &wait));
    ck_assert(cd_rate_take(NULL, 42, 0, &wait));      /* no table: no limit */
    ck_assert(!cd_rate_take(t, 42, 999.0, &wait));    /* time going back gives nothing */
    cd_rate_table_free(t);
}
END_TEST

/* The reference implementation's vectors (key 00..0f, message 00..len-1), whichever way the message is split
 * between prefix and data. */
START_TEST(siphash_vectors)
{
    static const uint64_t want[] = {0x726fdb47dd0e0e31ull, 0x74f839c593dc67fdull, 0x0d6c8009d9a94f5aull,
                                    0x85676696d7fb7e2dull, 0xcf2794e0277187b7ull, 0x18765564cd99a68dull,
                                    0xcbc9466e58fee3ceull, 0xab0200f58b01d137ull, 0x93f5f5799a932462ull};
    uint8_t key[16], msg[16];
    for (int i = 0; i < 16; i++)
        key[i] = msg[i] = (uint8_t)i;
    for (size_t len = 0; len < sizeof want / sizeof want[0]; len++)
        for (size_t cut = 0; cut <= len; cut++)
            ck_assert_msg(cd_siphash(key, msg, cut, msg + cut, len - cut) == want[len], "length %zu split at %zu",
                          len, cut);
    /* 15 bytes: the vector the SipHash paper prints */
    ck_assert(cd_siphash(key, msg, 7, msg + 7, 8) == 0xa129ca6149be45e5ull);
}
END_TEST

START_TEST(spray_keeps_memory_and_debtors)
{
    cd_rate_table *t = cd_rate_table_new((cd_rate_spec){2, 1}, 1024);
    size_t bytes = cd_rate_table_bytes(t);
    double wait;
    /* a debtor: key 5 uses its burst */
    ck_assert(cd_rate_take(t, 5, 0, &wait) && cd_rate_take(t, 5, 0, &wait));
    ck_assert(!cd_rate_take(t, 5, 0, &wait));
    /* a spray of a million keys, each taking one token (their buckets stay half full, fuller than key 5's) */
    for (uint64_t k = 1000; k < 1001000; k++)
        cd_rate_take(t, k * 0x9e3779b97f4a7c15ull, 1.0, &wait);
    ck_assert_uint_eq(cd_rate_table_bytes(t), bytes);
    /* the sprayed buckets were evicted before the debtor: it is still refused */
    ck_assert(!cd_rate_take(t, 5, 1.0, &wait));
    cd_rate_table_free(t);
}
END_TEST

START_TEST(rate_values)
{
    cd_rate_spec a, k;
    char err[200];
    ck_assert(cd_rate_pair_parse("20/120", &a, &k, err, sizeof err));
    ck_assert(a.burst == 20 && a.per_minute == 120 && k.burst == 20 && k.per_minute == 120);
    ck_assert(cd_rate_pair_parse("300/3000,5/10", &a, &k, err, sizeof err));
    ck_assert(a.burst == 300 && a.per_minute == 3000 && k.burst == 5 && k.per_minute == 10);
    ck_assert(cd_rate_pair_parse("0,5/10", &a, &k, err, sizeof err));
    ck_assert(a.burst == 0 && k.burst == 5);
    ck_assert(cd_rate_table_new(a, 64) == NULL);
    static const char *const bad[] = {"", "5", "5/", "/5", "0/5", "5/0", "-1/5", "5/5,", "a/b", "5/5/5", "1.5/3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!cd_rate_pair_parse(bad[i], &a, &k, err, sizeof err), "\"%s\" accepted", bad[i]);
}
END_TEST

START_TEST(ranges)
{
    cd_net_ranges r;
    char err[200];
    unsigned char a[16];
    ck_assert(cd_ranges_parse("10.0.0.0/8, 127.0.0.1 ,fd00::/8,::1,unix", &r, err, sizeof err));
    ck_assert_int_eq(r.n, 4);
    ck_assert(r.unix_socket);
    const struct {
        const char *addr;
        bool in;
    } cases[] = {{"10.1.2.3", true}, {"11.0.0.1", false}, {"127.0.0.1", true}, {"127.0.0.2", false},
                 {"fd12::5", true}, {"fe80::1", false}, {"::1", true}, {"::2", false}, {"[::1]", true}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_msg(cd_addr_parse(cases[i].addr, strlen(cases[i].addr), a), "%s", cases[i].addr);
        ck_assert_msg(cd_ranges_match(&r, a) == cases[i].in, "%s", cases[i].addr);
    }
    ck_assert(cd_ranges_parse("", &r, err, sizeof err) && r.n == 0 && !r.unix_socket);
    static const char *const bad[] = {"10.0.0.0/33", "::/129", "10.0.0/8", "host.example", "1.2.3.4/", "1.2.3.4/x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!cd_ranges_parse(bad[i], &r, err, sizeof err), "\"%s\" accepted", bad[i]);
}
END_TEST

START_TEST(forwarded_for)
{
    cd_net_ranges r;
    char err[200], out[CD_ADDR_TEXT];
    ck_assert(cd_ranges_parse("127.0.0.1, 10.0.0.0/8, unix", &r, err, sizeof err));
    /* the peer is no trusted proxy: the header is the client's own say, ignored */
    cd_client_resolve("192.0.2.9", "203.0.113.7", &r, out);
    ck_assert_str_eq(out, "192.0.2.9");
    /* from a trusted proxy: what it saw */
    cd_client_resolve("127.0.0.1", "203.0.113.7", &r, out);
    ck_assert_str_eq(out, "203.0.113.7");
    /* a client's forged entry left of what the proxies wrote is never used: the right-most untrusted */
    cd_client_resolve("127.0.0.1", "198.51.100.1, 203.0.113.7, 10.0.0.5", &r, out);
    ck_assert_str_eq(out, "203.0.113.7");
    /* every entry trusted: the left-most */
    cd_client_resolve("127.0.0.1", "10.0.0.9,10.0.0.5", &r, out);
    ck_assert_str_eq(out, "10.0.0.9");
    /* a malformed entry ends the walk at the proxy that passed it on */
    cd_client_resolve("127.0.0.1", "203.0.113.7, junk, 10.0.0.5", &r, out);
    ck_assert_str_eq(out, "10.0.0.5");
    /* IPv6 and brackets; no header */
    cd_client_resolve("127.0.0.1", "[2001:db8::1]", &r, out);
    ck_assert_str_eq(out, "2001:db8::1");
    cd_client_resolve("127.0.0.1", NULL, &r, out);
    ck_assert_str_eq(out, "127.0.0.1");
    /* the unix socket's peer, trusted by "unix" */
    cd_client_resolve("unix", "203.0.113.8", &r, out);
    ck_assert_str_eq(out, "203.0.113.8");
    cd_net_ranges none;
    ck_assert(cd_ranges_parse("", &none, err, sizeof err));
    cd_client_resolve("unix", "203.0.113.8", &none, out);
    ck_assert_str_eq(out, "unix");
    /* an IPv4-mapped peer is shown as IPv4 */
    cd_client_resolve("::ffff:127.0.0.1", "203.0.113.9", &r, out);
    ck_assert_str_eq(out, "203.0.113.9");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("limits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, bucket_burst_refill_retry_after);
    tcase_add_test(tc, spray_keeps_memory_and_debtors);
    tcase_add_test(tc, rate_values);
    tcase_add_test(tc, ranges);
    tcase_add_test(tc, forwarded_for);
    tcase_add_test(tc, siphash_vectors);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
