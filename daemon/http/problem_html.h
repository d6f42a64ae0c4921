/*
 * problem_html.h — a problem as a page for people: what GET /problems/{slug} serves, and what a page route
 * (the game page) answers instead of application/problem+json when a browser asked for it.
 */
#ifndef CD_PROBLEM_HTML_H
#define CD_PROBLEM_HTML_H

#include <stdbool.h>

#include "base/buf.h"
#include "problem.h"

/* The Content-Security-Policy of such a page: its one inline style, nothing else. */
extern const char cd_problem_html_csp[];

/* Appends the whole HTML document for problem p: its title, what this request did wrong (detail; NULL on the
 * type's own page), what the problem means and what to do. Every text is escaped. */
void cd_problem_html(cd_buf *b, cd_problem p, const char *detail);

/* Whether the request's Accept header asks for text/html by name above JSON: a browser's navigation
 * ("text/html,...;q=0.8" and any type below it), not curl's any type or a client's "application/json". */
bool cd_accept_prefers_html(const char *accept);

#endif
