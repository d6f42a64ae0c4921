/*
 * carcctl.c — the admins' command-line client of carcd (being written: see the next commits).
 */
#include <stdio.h>

int main(void)
{
    fprintf(stderr, "carcctl: not written yet\n");
    return 2;
}
