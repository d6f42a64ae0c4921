#!/usr/bin/env bash
# mail-temp.sh — throwaway mail servers for the e2e mail tests: Postfix accepting SMTP on 127.0.0.1 and
# delivering every message for @example.org into a Maildir per local part (the part before any '+'), and
# Dovecot serving those Maildirs over IMAP on 127.0.0.1 (plain login, no TLS: loopback only). Both run from
# a fresh temp dir with their own configuration, queue, state and logs; nothing of the system's own mail
# set-up is used or touched. Postfix and Dovecot need root to start (they drop to their own users).
#
# Mailboxes: alice, bob, carol, dave, play and carcd @example.org (mail to others is refused), each an IMAP login
# with the password "secret" (MAILTEMP_PASSWORD). Mail to play+anything@example.org lands in play's mailbox.
# Mail to any address @bounce.example.net is taken, then bounced to its sender (a delivery status report).
#
# As a command:
#   tests/support/mail-temp.sh start      starts both; prints the variables below and MAILTEMP_DIR=<dir>
#   tests/support/mail-temp.sh stop DIR   stops them and deletes DIR
# Sourced (as scripts/test.sh does):
#   mail_temp_start   starts both; sets MAILTEMP_DIR and exports
#                       CARCD_TEST_SMTP_URL   smtp://127.0.0.1:<port>
#                       CARCD_TEST_IMAP_URL   imap://127.0.0.1:<port>
#                       CARCD_TEST_MAIL_DIR   the Maildirs' root (<dir>/mail/<user>/{new,cur,tmp})
#                       CARCD_TEST_MAIL_PASSWORD
#                       CARCD_TEST_POSTFIX    "postfix -c <conf>" prefix, so a test can stop and start SMTP
#                       CARCD_TEST_MAIL_PIPE_ENV  the settings file of the pipe transport: mail to
#                                             pipe@example.org (pipe+tag@) runs `$CARCD_BIN mail-in` as nobody
#                                             with the variables this file sets (CARCD_BIN among them)
#   mail_temp_stop    stops both and deletes MAILTEMP_DIR (safe to call twice, or when none was started)
#
# Environment: MAILTEMP_SMTP_PORT (default 25025), MAILTEMP_IMAP_PORT (default 25143).

MAILTEMP_USERS="alice bob carol dave play carcd pipe"

mail_temp_start() {
    local smtp_port=${MAILTEMP_SMTP_PORT:-25025} imap_port=${MAILTEMP_IMAP_PORT:-25143}
    local pw=${MAILTEMP_PASSWORD:-secret} dir u
    if ((EUID != 0)); then
        echo "mail-temp: Postfix and Dovecot need root to start" >&2
        return 1
    fi
    if [[ ! -x /usr/sbin/postfix || ! -x /usr/sbin/dovecot ]]; then
        echo "mail-temp: postfix or dovecot is not installed (run scripts/deps.sh)" >&2
        return 1
    fi
    dir=$(mktemp -d "${TMPDIR:-/tmp}/carcd-mail.XXXXXX") || return 1
    chmod 755 "$dir"   # the delivery and IMAP users must reach the Maildirs
    MAILTEMP_DIR=$dir
    mkdir -p "$dir/postfix/etc" "$dir/postfix/queue" "$dir/postfix/data" "$dir/dovecot/run" \
        "$dir/dovecot/state" "$dir/mail"
    chown postfix "$dir/postfix/data"
    # the virtual delivery agent writes as nobody, Dovecot reads as nobody
    chown nobody:nogroup "$dir/mail"

    local etc=$dir/postfix/etc
    cat >"$etc/main.cf" <<EOF
compatibility_level = 3.6
queue_directory = $dir/postfix/queue
data_directory = $dir/postfix/data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
myhostname = mail.example.org
mydomain = example.org
myorigin = example.org
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
# one sender refused (554, at RCPT TO, as Postfix delays it): a server that does not take CARCD_MAIL_FROM
smtpd_sender_restrictions = check_sender_access inline:{refused-sender@example.org=REJECT}
maillog_file = $dir/postfix/maillog
maillog_file_prefixes = $dir
virtual_mailbox_domains = example.org
virtual_mailbox_base = $dir/mail
virtual_mailbox_maps = texthash:$etc/mailboxes
virtual_uid_maps = static:65534
virtual_gid_maps = static:65534
virtual_minimum_uid = 100
virtual_mailbox_limit = 0
message_size_limit = 52428800
recipient_delimiter = +
transport_maps = texthash:$etc/transport
smtputf8_enable = no
alias_maps =
alias_database =
biff = no
# a test sees its mail in a second or less
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
EOF
    # a Maildir (trailing slash) per user; play+tag@ finds play@ through recipient_delimiter
    : >"$etc/mailboxes"
    for u in $MAILTEMP_USERS; do
        echo "$u@example.org $u/" >>"$etc/mailboxes"
    done
    # pipe@example.org (and pipe+tag@) goes to `carcd mail-in` through Postfix's pipe transport, as the README
    # wires a real domain: the wrapper takes carcd's settings from a file the test writes
    echo "pipe@example.org carcd:" >"$etc/transport"
    # mail to bounce.example.net is taken (250), then bounced to its envelope sender with a delivery status
    # report, as a remote domain's server refuses mail after carcd's own server accepted it
    # (an error: transport would be refused by smtpd already; a command that exits EX_NOUSER is found out only
    # at delivery, after the 250)
    echo "bounce.example.net nouser:" >>"$etc/transport"
    cat >"$dir/carcd-mail-in" <<'EOF'
#!/bin/sh
# Postfix's pipe(8) runs this for mail to pipe@example.org: carcd mail-in with the settings a test wrote
set -a
. "$(dirname "$0")/carcd-mail-in.env"
set +a
exec "$CARCD_BIN" mail-in 2>>"$(dirname "$0")/carcd-mail-in.log"
EOF
    chmod 755 "$dir/carcd-mail-in"
    : >"$dir/carcd-mail-in.env"
    : >"$dir/carcd-mail-in.log"
    chmod 644 "$dir/carcd-mail-in.env"
    chmod 666 "$dir/carcd-mail-in.log"
    cat >"$etc/master.cf" <<EOF
127.0.0.1:$smtp_port inet n - n - - smtpd
pickup    unix n - n 60 1 pickup
cleanup   unix n - n - 0 cleanup
qmgr      unix n - n 1 1 qmgr
rewrite   unix - - n - - trivial-rewrite
bounce    unix - - n - 0 bounce
defer     unix - - n - 0 bounce
trace     unix - - n - 0 bounce
verify    unix - - n - 1 verify
flush     unix n - n 1000? 0 flush
proxymap  unix - - n - - proxymap
smtp      unix - - n - - smtp
relay     unix - - n - - smtp
showq     unix n - n - - showq
error     unix - - n - - error
retry     unix - - n - - error
discard   unix - - n - - discard
local     unix - n n - - local
virtual   unix - n n - - virtual
lmtp      unix - - n - - lmtp
anvil     unix - - n - 1 anvil
scache    unix - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
carcd     unix - n n - 4 pipe
  flags=DRq user=nobody argv=$dir/carcd-mail-in
nouser    unix - n n - - pipe
  flags=q user=nobody argv=/bin/sh -c { exit 67 }
EOF
    # postfix prints why it refuses only to a terminal (else to syslog): script(1) gives it one
    if ! script -qec "/usr/sbin/postfix -c $etc check" /dev/null >"$dir/postfix/check.log" 2>&1 ||
        ! script -qec "/usr/sbin/postfix -c $etc start" /dev/null >"$dir/postfix/start.log" 2>&1; then
        echo "mail-temp: postfix did not start:" >&2
        cat "$dir/postfix/check.log" "$dir/postfix/start.log" "$dir/postfix/maillog" >&2 2>/dev/null
        mail_temp_stop
        return 1
    fi

    : >"$dir/dovecot/passwd"
    for u in $MAILTEMP_USERS; do
        echo "$u:{PLAIN}$pw" >>"$dir/dovecot/passwd"
    done
    cat >"$dir/dovecot/dovecot.conf" <<EOF
protocols = imap
listen = 127.0.0.1
base_dir = $dir/dovecot/run
state_dir = $dir/dovecot/state
log_path = $dir/dovecot/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 100
mail_location = maildir:$dir/mail/%n
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n $dir/dovecot/passwd
}
userdb {
  driver = static
  args = uid=65534 gid=65534 home=$dir/mail/%n
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $imap_port
  }
  inet_listener imaps {
    port = 0
  }
}
service stats {
  unix_listener stats-reader {
    mode = 0666
  }
  unix_listener stats-writer {
    mode = 0666
  }
}
EOF
    if ! /usr/sbin/dovecot -c "$dir/dovecot/dovecot.conf" >"$dir/dovecot/start.log" 2>&1; then
        echo "mail-temp: dovecot did not start:" >&2
        cat "$dir/dovecot/start.log" "$dir/dovecot/dovecot.log" >&2 2>/dev/null
        mail_temp_stop
        return 1
    fi
    # both are up when their ports answer
    local i
    for i in $(seq 1 50); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$smtp_port") 2>/dev/null &&
            (exec 3<>"/dev/tcp/127.0.0.1/$imap_port") 2>/dev/null; then
            break
        fi
        sleep 0.1
    done
    export CARCD_TEST_SMTP_URL="smtp://127.0.0.1:$smtp_port"
    export CARCD_TEST_IMAP_URL="imap://127.0.0.1:$imap_port"
    export CARCD_TEST_MAIL_DIR="$dir/mail"
    export CARCD_TEST_MAIL_PASSWORD="$pw"
    export CARCD_TEST_POSTFIX="/usr/sbin/postfix -c $etc"
    export CARCD_TEST_MAIL_PIPE_ENV="$dir/carcd-mail-in.env"
}

mail_temp_stop() {
    local dir=${1:-${MAILTEMP_DIR:-}}
    [[ -n $dir && -d $dir ]] || return 0
    if [[ -f $dir/postfix/etc/main.cf ]]; then
        /usr/sbin/postfix -c "$dir/postfix/etc" stop >/dev/null 2>&1 || true
    fi
    if [[ -f $dir/dovecot/dovecot.conf ]]; then
        /usr/sbin/doveadm -c "$dir/dovecot/dovecot.conf" stop >/dev/null 2>&1 ||
            { [[ -f $dir/dovecot/run/master.pid ]] && kill "$(cat "$dir/dovecot/run/master.pid")" 2>/dev/null; } ||
            true
    fi
    # the masters exit shortly after being told
    local i
    for i in $(seq 1 30); do
        [[ -f $dir/postfix/queue/pid/master.pid || -f $dir/dovecot/run/master.pid ]] || break
        sleep 0.1
    done
    rm -rf "$dir"
    [[ $dir != "${MAILTEMP_DIR:-}" ]] || unset MAILTEMP_DIR
    unset CARCD_TEST_SMTP_URL CARCD_TEST_IMAP_URL CARCD_TEST_MAIL_DIR CARCD_TEST_MAIL_PASSWORD CARCD_TEST_POSTFIX \
        CARCD_TEST_MAIL_PIPE_ENV
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    set -euo pipefail
    case ${1:-} in
        start)
            mail_temp_start
            echo "CARCD_TEST_SMTP_URL=$CARCD_TEST_SMTP_URL"
            echo "CARCD_TEST_IMAP_URL=$CARCD_TEST_IMAP_URL"
            echo "CARCD_TEST_MAIL_DIR=$CARCD_TEST_MAIL_DIR"
            echo "MAILTEMP_DIR=$MAILTEMP_DIR"
            ;;
        stop)
            [[ -n ${2:-} ]] || { echo "usage: $0 stop DIR" >&2; exit 2; }
            [[ $(basename "$2") == carcd-mail.* ]] || { echo "mail-temp: $2 is not a mail-temp dir" >&2; exit 2; }
            mail_temp_stop "$2"
            ;;
        *)
            echo "usage: $0 start | $0 stop DIR" >&2
            exit 2
            ;;
    esac
fi
