/*
 * clock.c — the turn clock's arithmetic (clock.h). Everything here is a function of the time passed in.
 */
#include "clock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *const timeout_names[] = {"none", "skip", "forfeit", "bot"};

static double max2(double a, double b)
{
    return a > b ? a : b;
}

static bool number_in(const json_t *v, double lo, double hi, bool lo_open, double *out)
{
    if (!json_is_number(v))
        return false;
    double x = json_number_value(v);
    if (!isfinite(x) || x > hi || x < lo || (lo_open && x == lo))
        return false;
    *out = x;
    return true;
}

bool cd_clock_from_request(const json_t *j, cd_clock *c, char *field, size_t fieldlen, char *detail, size_t detlen)
{
    memset(c, 0, sizeof *c);
    c->remind_at = 0.8;
    c->vacation_days = CD_CLOCK_VACATION_DEFAULT;
    c->seat = -1;
#define BAD(key, ...)                                                                                        \
    do {                                                                                                     \
        snprintf(field, fieldlen, "clock.%s", key);                                                          \
        snprintf(detail, detlen, __VA_ARGS__);                                                               \
        return false;                                                                                        \
    } while (0)
    if (!json_is_object(j)) {
        snprintf(field, fieldlen, "clock");
        snprintf(detail, detlen, "clock: expected an object");
        return false;
    }
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)j, key, v) {
        if (strcmp(key, "per_move_s") == 0) {
            if (!number_in(v, 0, CD_CLOCK_MAX_S, true, &c->per_move_s))
                BAD(key, "clock.per_move_s: expected seconds, more than 0 and at most %.0f", CD_CLOCK_MAX_S);
        } else if (strcmp(key, "reserve_s") == 0) {
            if (!number_in(v, 0, CD_CLOCK_MAX_S, false, &c->reserve_s))
                BAD(key, "clock.reserve_s: expected seconds, 0 to %.0f", CD_CLOCK_MAX_S);
        } else if (strcmp(key, "timeout") == 0) {
            const char *s = json_string_value(v);
            int k = -1;
            for (int i = 0; s && i < 4; i++)
                if (strcmp(s, timeout_names[i]) == 0)
                    k = i;
            if (k < 0)
                BAD(key, "clock.timeout: expected \"skip\", \"forfeit\", \"bot\" or \"none\"");
            c->timeout = (cd_timeout)k;
        } else if (strcmp(key, "remind_at") == 0) {
            if (json_is_null(v))
                c->remind_at = 0;
            else if (!number_in(v, 0, 1, true, &c->remind_at))
                BAD(key, "clock.remind_at: expected a share of the time, more than 0 and at most 1, or null");
        } else if (strcmp(key, "vacation_days") == 0) {
            if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 365)
                BAD(key, "clock.vacation_days: expected an integer from 0 to 365");
            c->vacation_days = (int)json_integer_value(v);
        } else {
            BAD(key, "unknown field clock.%s", key);
        }
    }
    if (c->per_move_s <= 0)
        BAD("per_move_s", "clock.per_move_s is required");
#undef BAD
    return true;
}

static void begin_turn(cd_clock *c, int seat, int seq, double now)
{
    c->version++;
    c->seat = seat;
    c->turn_seq = seq;
    c->used = 0;
    c->reminded = false;
    c->allowed = c->per_move_s + (seat >= 0 ? c->reserve[seat] : 0);
    c->since = seat >= 0 ? max2(now, c->vacation_until[seat]) : now;
}

void cd_clock_start(cd_clock *c, const carc_state *st, int seq, double now)
{
    c->nseats = st->nplayers;
    c->year_start = now;
    for (int s = 0; s < c->nseats; s++)
        c->reserve[s] = c->reserve_s;
    begin_turn(c, st->status == CARC_ACTIVE ? st->pending.seat : -1, seq, now);
}

/* Seconds the running turn has used by `now`. */
static double used_by(const cd_clock *c, double now)
{
    return c->used + (c->paused ? 0 : max2(0, now - c->since));
}

void cd_clock_after_move(cd_clock *c, const carc_state *st, int seq, double now)
{
    int next = st->status == CARC_ACTIVE ? st->pending.seat : -1;
    if (next == c->seat)
        return;
    if (c->seat >= 0) {
        double over = used_by(c, now) - c->per_move_s;
        if (over > 0)
            c->reserve[c->seat] = max2(0, c->reserve[c->seat] - over);
    }
    begin_turn(c, next, seq, now);
    if (next < 0) {   /* the end: no clock to stop or to ask to stop */
        c->paused = false;
        c->pause_votes = 0;
    }
}

double cd_clock_deadline(const cd_clock *c)
{
    if (c->seat < 0 || c->paused)
        return -1;
    return c->since + c->allowed - c->used;
}

double cd_clock_reminder_at(const cd_clock *c)
{
    if (c->seat < 0 || c->paused || c->reminded || c->remind_at <= 0)
        return -1;
    return max2(c->since, c->since + c->remind_at * c->allowed - c->used);
}

double cd_clock_due(const cd_clock *c)
{
    /* a "bot" timeout is the bot worker's (bot_worker.h finds it by clock_deadline), not the clock worker's */
    double r = cd_clock_reminder_at(c);
    double d = c->timeout != CD_TIMEOUT_NONE && c->timeout != CD_TIMEOUT_BOT ? cd_clock_deadline(c) : -1;
    if (r < 0)
        return d;
    if (d < 0)
        return r;
    return r < d ? r : d;
}

double cd_clock_time_left(const cd_clock *c, int seat, double now)
{
    if (seat == c->seat)   /* to its deadline, which a vacation pushes back; a pause holds what is left */
        return c->paused ? c->allowed - c->used : cd_clock_deadline(c) - now;
    return c->per_move_s + c->reserve[seat];
}

bool cd_clock_running(const cd_clock *c, double now)
{
    return c->seat >= 0 && !c->paused && now >= c->since;
}

bool cd_clock_pause_settle(cd_clock *c, unsigned absent, double now)
{
    if (c->paused || c->seat < 0 || !c->pause_votes)
        return false;
    for (int s = 0; s < c->nseats; s++)
        if (!(absent >> s & 1) && !(c->pause_votes >> s & 1))
            return false;
    c->used = used_by(c, now);
    c->paused = true;
    c->pause_votes = 0;
    c->version++;
    return true;
}

bool cd_clock_pause_vote(cd_clock *c, int seat, unsigned absent, double now)
{
    if (c->paused || c->seat < 0)
        return c->paused;
    c->version += !(c->pause_votes >> seat & 1);
    c->pause_votes |= 1u << seat;
    cd_clock_pause_settle(c, absent, now);
    return c->paused;
}

void cd_clock_resume(cd_clock *c, double now)
{
    c->version += c->paused || c->pause_votes;
    c->pause_votes = 0;
    if (!c->paused)
        return;
    c->paused = false;
    c->since = c->seat >= 0 ? max2(now, c->vacation_until[c->seat]) : now;
}

/* The allowance year rolls over on the game's creation day. */
static double year_of(const cd_clock *c, double now)
{
    double y = c->year_start;
    if (now > y)
        y += floor((now - y) / CD_YEAR_S) * CD_YEAR_S;
    return y;
}

int cd_clock_vacation_left(const cd_clock *c, double now, int seat)
{
    if (year_of(c, now) != c->year_start)
        return c->vacation_days;
    int left = c->vacation_days - c->vacation_taken[seat];
    return left > 0 ? left : 0;
}

int cd_clock_vacation(cd_clock *c, int seat, int days, double now, char *detail, size_t detlen)
{
    double y = year_of(c, now);
    if (y != c->year_start) {
        c->year_start = y;
        memset(c->vacation_taken, 0, sizeof c->vacation_taken);
    }
    int left = cd_clock_vacation_left(c, now, seat);
    if (days > left) {
        snprintf(detail, detlen, "days: %d asked but %d vacation day%s left this year", days, left, left == 1 ? "" : "s");
        return -1;
    }
    c->vacation_taken[seat] += days;
    c->version++;
    double until = max2(now, c->vacation_until[seat]) + days * CD_DAY_S;
    if (seat == c->seat && !c->paused) {   /* its running clock waits for the vacation's end */
        c->used = used_by(c, now);
        c->since = until;
    }
    c->vacation_until[seat] = until;
    return 0;
}

/* ---- JSON ----------------------------------------------------------------------------------------------- */

static json_t *doubles(const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    return a;
}

json_t *cd_clock_to_json(const cd_clock *c)
{
    json_t *taken = json_array();
    for (int s = 0; s < c->nseats; s++)
        json_array_append_new(taken, json_integer(c->vacation_taken[s]));
    return json_pack("{s:f, s:f, s:s, s:f, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:b, s:b, s:i, s:f, s:o, s:o, s:o, s:i}",
                     "per_move_s", c->per_move_s, "reserve_s", c->reserve_s, "timeout", timeout_names[c->timeout],
                     "remind_at", c->remind_at, "vacation_days", c->vacation_days, "nseats", c->nseats, "seat",
                     c->seat, "turn_seq", c->turn_seq, "since", c->since, "used", c->used, "allowed", c->allowed,
                     "reminded", c->reminded, "paused", c->paused, "pause_votes", (int)c->pause_votes,
                     "year_start", c->year_start, "reserve", doubles(c->reserve, c->nseats), "vacation_until",
                     doubles(c->vacation_until, c->nseats), "vacation_taken", taken, "version", c->version);
}

json_t *cd_clock_settings_json(const cd_clock *c)
{
    return json_pack("{s:f, s:f, s:s, s:o, s:i}", "per_move_s", c->per_move_s, "reserve_s", c->reserve_s, "timeout",
                     timeout_names[c->timeout], "remind_at", c->remind_at > 0 ? json_real(c->remind_at) : json_null(),
                     "vacation_days", c->vacation_days);
}

static bool get_num(const json_t *j, const char *key, double *out)
{
    json_t *v = json_object_get(j, key);
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return true;
}

static bool get_int(const json_t *j, const char *key, int *out)
{
    json_t *v = json_object_get(j, key);
    if (!json_is_integer(v))
        return false;
    *out = (int)json_integer_value(v);
    return true;
}

bool cd_clock_from_json(const json_t *j, cd_clock *c)
{
    memset(c, 0, sizeof *c);
    const char *t = json_string_value(json_object_get(j, "timeout"));
    int votes = 0;
    if (!t || !get_num(j, "per_move_s", &c->per_move_s) || !get_num(j, "reserve_s", &c->reserve_s) ||
        !get_num(j, "remind_at", &c->remind_at) || !get_int(j, "vacation_days", &c->vacation_days) ||
        !get_int(j, "nseats", &c->nseats) || !get_int(j, "seat", &c->seat) || !get_int(j, "turn_seq", &c->turn_seq) ||
        !get_num(j, "since", &c->since) || !get_num(j, "used", &c->used) || !get_num(j, "allowed", &c->allowed) ||
        !get_int(j, "pause_votes", &votes) || !get_num(j, "year_start", &c->year_start))
        return false;
    if (c->nseats < 1 || c->nseats > CARC_MAX_PLAYERS || c->seat < -1 || c->seat >= c->nseats)
        return false;
    c->timeout = strcmp(t, "skip") == 0      ? CD_TIMEOUT_SKIP
                 : strcmp(t, "forfeit") == 0 ? CD_TIMEOUT_FORFEIT
                 : strcmp(t, "bot") == 0     ? CD_TIMEOUT_BOT
                                             : CD_TIMEOUT_NONE;
    c->reminded = json_is_true(json_object_get(j, "reminded"));
    c->version = (int)json_integer_value(json_object_get(j, "version"));
    c->paused = json_is_true(json_object_get(j, "paused"));
    c->pause_votes = (unsigned)votes;
    json_t *res = json_object_get(j, "reserve"), *vac = json_object_get(j, "vacation_until"),
           *taken = json_object_get(j, "vacation_taken");
    if (json_array_size(res) != (size_t)c->nseats || json_array_size(vac) != (size_t)c->nseats ||
        json_array_size(taken) != (size_t)c->nseats)
        return false;
    for (int s = 0; s < c->nseats; s++) {
        c->reserve[s] = json_number_value(json_array_get(res, (size_t)s));
        c->vacation_until[s] = json_number_value(json_array_get(vac, (size_t)s));
        c->vacation_taken[s] = (int)json_integer_value(json_array_get(taken, (size_t)s));
    }
    return true;
}

void cd_iso_time(double epoch, char out[32])
{
    time_t secs = (time_t)floor(epoch);
    unsigned ms = (unsigned)((epoch - (double)secs) * 1000.0) % 1000u;
    struct tm tm;
    gmtime_r(&secs, &tm);
    size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, 32 - n, ".%03uZ", ms);
}

static json_t *iso_or_null(double epoch)
{
    if (epoch <= 0)
        return json_null();
    char s[32];
    cd_iso_time(epoch, s);
    return json_string(s);
}

/* Seconds as an integer when whole: most clocks are set in whole seconds, and clients compare them. */
static json_t *seconds(double s)
{
    double r = round(s * 1000.0) / 1000.0;
    return r == floor(r) && fabs(r) < 9e15 ? json_integer((json_int_t)r) : json_real(r);
}

json_t *cd_clock_view(const cd_clock *c, double now)
{
    double deadline = cd_clock_deadline(c);
    json_t *votes = json_array(), *seats = json_array();
    for (int s = 0; s < c->nseats; s++) {
        if (c->pause_votes >> s & 1)
            json_array_append_new(votes, json_integer(s));
        json_array_append_new(seats, json_pack("{s:i, s:o, s:o, s:o, s:o, s:i}", "seat", s, "reserve_s",
                                               seconds(c->reserve[s]), "time_left_s",
                                               seconds(cd_clock_time_left(c, s, now)), "deadline",
                                               iso_or_null(s == c->seat ? deadline : -1), "vacation_until",
                                               iso_or_null(c->vacation_until[s] > now ? c->vacation_until[s] : -1),
                                               "vacation_days_left", cd_clock_vacation_left(c, now, s)));
    }
    return json_pack("{s:o, s:o, s:s, s:o, s:i, s:o, s:b, s:o, s:o, s:b, s:o, s:o}", "per_move_s",
                     seconds(c->per_move_s), "reserve_s", seconds(c->reserve_s), "timeout",
                     timeout_names[c->timeout], "remind_at", c->remind_at > 0 ? json_real(c->remind_at) : json_null(),
                     "vacation_days", c->vacation_days, "now", iso_or_null(now), "paused", c->paused,
                     "pause_requested_by", votes, "seat", c->seat >= 0 ? json_integer(c->seat) : json_null(),
                     "running", cd_clock_running(c, now), "deadline", iso_or_null(deadline), "seats", seats);
}
