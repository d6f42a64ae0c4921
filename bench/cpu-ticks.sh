#!/usr/bin/env bash
# cpu-ticks.sh — CPU accounting for the benchmark scripts, sourced (run-http-bench.sh,
# run-pgbench-batching.sh): clock ticks from /proc, of one process or of the whole PostgreSQL cluster started
# by scripts/pg-temp.sh ($PGTEMP_DIR), and a wait for a pgbench run's backends to be gone (their CPU is then in
# the postmaster's reaped-children figure, so that it counts for the run that spent it).

# ticks of PID (user + system); with a second argument 1, its reaped children's too. 0 for a process gone.
# The fields after the ")" of /proc/PID/stat: utime is the 12th, stime 13th, cutime 14th, cstime 15th.
ticks_of() {
    local st
    st=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
    awk -v kids="${2:-0}" '{ sub(/.*\) /, ""); print $12 + $13 + (kids ? $14 + $15 : 0) }' <<<"$st"
}

# "user system minor_faults" of PID, its threads together (the 12th, 13th and 8th fields after the ")"): a
# page fault costs kernel time without a system call, so it shows in system time and in no strace count
ticks_faults_of() {
    awk '{ sub(/.*\) /, ""); print $12, $13, $8 }' "/proc/$1/stat" 2>/dev/null || echo 0 0 0
}

# the whole cluster: the postmaster with its reaped children, plus the live ones
pg_ticks() {
    local pm t c
    pm=$(head -n 1 "$PGTEMP_DIR/data/postmaster.pid")
    t=$(ticks_of "$pm" 1)
    for c in $(pgrep -P "$pm"); do t=$((t + $(ticks_of "$c"))); done
    echo "$t"
}

# the postmaster's live children: the server's own processes and the backends of its connections
pg_children() { pgrep -P "$(head -n 1 "$PGTEMP_DIR/data/postmaster.pid")" | wc -l; }

# until at most N ($1) children are left (a run's backends have exited and been reaped), at most 5 s
wait_backends_gone() {
    for _ in $(seq 50); do
        (($(pg_children) <= $1)) && return 0
        sleep 0.1
    done
}

# thread switches of PID, all its threads: "voluntary involuntary" (a thread that sleeps, in poll or a lock;
# a thread whose core was taken, mostly by a process its own send woke). Threads gone are not counted.
switches_of() {
    cat /proc/"$1"/task/*/status 2>/dev/null |
        awk '/^voluntary_ctxt_switches/ { v += $2 } /^nonvoluntary_ctxt_switches/ { n += $2 } END { print v + 0, n + 0 }'
}
