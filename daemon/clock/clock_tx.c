/*
 * clock_tx.c — see clock_tx.h.
 */
#include "clock_tx.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/json_out.h"
#include "db/clocks.h"

bool cd_clock_save(cd_db *db, const char *id, const cd_clock *c)
{
    json_t *j = cd_clock_to_json(c);
    char *text = cd_json_dumps(j, JSON_COMPACT);
    json_decref(j);
    bool ok = cd_clock_update(db, id, text, cd_clock_deadline(c), cd_clock_due(c)) == CD_Q_OK;
    free(text);
    return ok;
}
