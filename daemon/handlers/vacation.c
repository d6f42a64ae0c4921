/*
 * vacation.c — POST /v1/games/{id}/vacation {"days": N}: the seat's own clock stops for N days, taken from
 * its yearly allowance; a vacation under way is extended.
 */
#include <string.h>

#include "clock_change.h"
#include "handlers.h"

static cd_problem take(cd_clock *c, int seat, unsigned absent, double now, void *arg, const char **field,
                       char *detail, size_t detlen)
{
    (void)absent;
    if (cd_clock_vacation(c, seat, *(int *)arg, now, detail, detlen) != 0) {
        *field = "days";
        return CD_P_NO_VACATION;
    }
    return CD_NPROBLEMS;
}

enum MHD_Result h_game_vacation(cd_req *r)
{
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    static const char *const keys[] = {"days", NULL};
    if (!cd_req_only_keys(r, body, keys, "")) {
        json_decref(body);
        return MHD_YES;
    }
    json_t *d = json_object_get(body, "days");
    if (!json_is_integer(d) || json_integer_value(d) < 1 || json_integer_value(d) > 365) {
        json_decref(body);
        return cd_reply_problem(r, CD_P_INVALID, "days", "days: expected an integer from 1 to 365");
    }
    int days = (int)json_integer_value(d);
    json_decref(body);
    return cd_clock_action(r, take, &days);
}
