/*
 * problem_pages.h — what each problem type means, for people: the page GET /problems/{slug} serves, so every
 * "type" URI carcd puts in a problem resolves. One row per cd_problem (problem.h).
 */
#ifndef CD_PROBLEM_PAGES_H
#define CD_PROBLEM_PAGES_H

#include "problem.h"

typedef struct {
    const char *meaning;   /* what went wrong, one or two sentences */
    const char *todo;      /* what the client should do about it */
} cd_problem_page;

/* Indexed by cd_problem; a row left empty (meaning NULL) is a problem without a page, which tests refuse. */
extern const cd_problem_page cd_problem_pages[CD_NPROBLEMS];

/* The problem whose slug is `slug`, or -1. */
int cd_problem_by_slug(const char *slug);

#endif
