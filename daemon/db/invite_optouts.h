/*
 * invite_optouts.h — addresses that asked carcd not to mail them invitations (sql/020: invite_optouts), and
 * the stop links of the invitation mails that lead there (invite_stop_links). Both hold only hashes: the
 * SHA-256 of the address folded to lower case, and of the link's random token, so that the list of people
 * who wanted to be left alone is not a list of their addresses.
 */
#ifndef CD_DB_INVITE_OPTOUTS_H
#define CD_DB_INVITE_OPTOUTS_H

#include <stdbool.h>

#include "db.h"

/* ST_INVITE_STOP_LINK: an invitation mail's stop link (token_hash) for the address email_hash. */
cd_q cd_invite_stop_link_add(cd_db *db, const char *token_hash, const char *email_hash);
/* ST_INVITE_STOP: the link's address opted out (again is no change); *found false for a link nobody has. */
cd_q cd_invite_stop(cd_db *db, const char *token_hash, bool *found);
/* ST_INVITE_OPTED_OUT: whether the address opted out. */
cd_q cd_invite_opted_out(cd_db *db, const char *email_hash, bool *out);

#endif
