/*
 * clock.h — a game's turn clock: its settings (chosen at creation) and where it stands, as plain data and
 * pure functions of the time they are given (the daemon's time source, timesrc.h), so tests can drive it.
 *
 * Model. The clock runs for the pending seat; a seat's turn lasts while it stays the pending seat. A turn may
 * use `allowed` = per_move_s + the seat's reserve left when the turn began. The clock counts from `since`
 * (which lies in the future while the seat's vacation holds it) and has `used` seconds from before `since`
 * (time used before a pause or a vacation). So:
 *     deadline = since + allowed - used          (none while paused or after the end)
 *     reminder = since + remind_at * allowed - used, once per turn
 * When the turn passes, the time used over per_move_s comes off the seat's reserve (never below 0). Pause
 * sets `paused` and folds the running time into `used`; resume starts `since` again.
 *
 * Stored as JSON in games.clock; games.clock_deadline and games.clock_due are derived from it with
 * cd_clock_deadline and cd_clock_due when it is written.
 */
#ifndef CD_CLOCK_H
#define CD_CLOCK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "carc.h"

#define CD_DAY_S 86400.0
#define CD_YEAR_S (365 * CD_DAY_S)
#define CD_CLOCK_MAX_S CD_YEAR_S
#define CD_CLOCK_VACATION_DEFAULT 14

/* What happens to a seat out of time: nothing, its default moves, it forfeits, or a bot plays its turn (the
 * seat stays its player's: moving in time takes it back). */
typedef enum { CD_TIMEOUT_NONE, CD_TIMEOUT_SKIP, CD_TIMEOUT_FORFEIT, CD_TIMEOUT_BOT } cd_timeout;

typedef struct {
    /* settings */
    double per_move_s, reserve_s;
    cd_timeout timeout;
    double remind_at;            /* share of `allowed`; 0: no reminders */
    int vacation_days;           /* each seat's yearly allowance */
    /* where it stands */
    int nseats;
    int seat;                    /* whose clock runs; -1 once the game is over */
    int turn_seq;                /* the seq the turn began at */
    double since, used, allowed; /* see above; `since` is meaningless while paused */
    bool reminded;               /* this turn's reminder is out */
    bool paused;
    unsigned pause_votes;        /* bit per seat that asked to pause */
    double year_start;           /* the allowance year began (the game's creation, then yearly) */
    double reserve[CARC_MAX_PLAYERS];        /* seconds left */
    double vacation_until[CARC_MAX_PLAYERS]; /* 0: none */
    int vacation_taken[CARC_MAX_PLAYERS];    /* days taken in this allowance year */
    int version;                 /* counts the changes a view shows (the view's ETag carries it) */
} cd_clock;

/* The "clock" object of a create-game request. false with the offending field ("clock.per_move_s") and a
 * detail. The state is not started: cd_clock_start does that. */
bool cd_clock_from_request(const json_t *j, cd_clock *c, char *field, size_t fieldlen, char *detail, size_t detlen);
/* A new game's clock: every seat's reserve full, the first turn begins now. */
void cd_clock_start(cd_clock *c, const carc_state *st, int seq, double now);

json_t *cd_clock_to_json(const cd_clock *c);   /* the stored form */
/* The settings as a create-game request's "clock" takes them (an export's, so that an import keeps them). */
json_t *cd_clock_settings_json(const cd_clock *c);
bool cd_clock_from_json(const json_t *j, cd_clock *c);

/* After a move (or anything that changed the state) stored at seq: when the pending seat changed, the
 * finished turn is charged and the next begins now; when the game ended, the clock stops. */
void cd_clock_after_move(cd_clock *c, const carc_state *st, int seq, double now);

/* Epoch seconds, or -1 for none. */
double cd_clock_deadline(const cd_clock *c);
double cd_clock_reminder_at(const cd_clock *c);   /* -1 when none is owed this turn */
/* The clock worker's next action: the reminder owed, or the deadline when a timeout policy applies. */
double cd_clock_due(const cd_clock *c);
/* Seconds to the running seat's deadline (negative when overdue; while paused, what it has left); for another
 * seat what its next turn holds. */
double cd_clock_time_left(const cd_clock *c, int seat, double now);
bool cd_clock_running(const cd_clock *c, double now);

/* Pause: seat asks; the clock stops once every seat a person still plays (not in `absent`: the seats that left,
 * and those a bot plays, which cannot ask) asked. Returns whether it is paused now. */
bool cd_clock_pause_vote(cd_clock *c, int seat, unsigned absent, double now);
/* After a seat left or went to a bot: the clock stops when the seats that asked are now all the seats a person
 * still plays. Returns whether it changed the clock. */
bool cd_clock_pause_settle(cd_clock *c, unsigned absent, double now);
void cd_clock_resume(cd_clock *c, double now);
/* Vacation of `days` for seat, starting now or where its vacation ends. -1 with a detail when the
 * allowance does not hold them. */
int cd_clock_vacation(cd_clock *c, int seat, int days, double now, char *detail, size_t detlen);
int cd_clock_vacation_left(const cd_clock *c, double now, int seat);

/* The public view ("clock" in a game's view). */
json_t *cd_clock_view(const cd_clock *c, double now);

/* "2026-11-29T16:00:00.000Z" */
void cd_iso_time(double epoch, char out[32]);

#endif
