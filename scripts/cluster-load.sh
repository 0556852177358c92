#!/usr/bin/env bash
# Load run on a cluster: three `bashni serve` instances on one throw-away PostgreSQL database,
# HAProxy in front of them, and the load example's clients going through it.
#
# Usage:
#   scripts/cluster-load.sh --server target/release/bashni --games 1000 --plies 40 \
#       --think-ms 1000 --kill-instance-after-ms 15000 --bind-seat
#
# Every argument goes to the load example as it is (see crates/server/examples/load.rs);
# the script adds `--instances 3 --balancer --db URL` (INSTANCES=1: one server on
# PostgreSQL, without the balancer) and names PostgreSQL's main process in
# BASHNI_LOAD_DATABASE_PID, so that the CPU time the load example reports counts the
# servers, HAProxy and PostgreSQL. The load example is the one built
# next to the --server binary (target/release/examples/load for target/release/bashni),
# or set LOAD=PATH. Build both first, e.g.
#   cargo build --release -p bashni -p bashni-server --examples --bins
# PostgreSQL (initdb, pg_ctl, createdb) is taken from BASHNI_PG_BIN or the newest
# /usr/lib/postgresql/*/bin. It is made in a temporary folder, listens on a Unix socket there
# only, and is stopped and removed when the script ends, however it ends.
# To look inside it: BASHNI_PG_OPTIONS adds options to the database server's command line
# (e.g. "-c shared_preload_libraries=pg_stat_statements"), and BASHNI_PG_KEEP_LOG=FILE keeps a
# copy of its log there when it stops. Run as root, the database server runs as the postgres
# user (PostgreSQL refuses root).
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
    echo "scripts/cluster-load.sh: $*" >&2
    exit 1
}

# The load example: $LOAD, or the one next to the --server binary.
load="${LOAD:-}"
if [[ -z "$load" ]]; then
    server=""
    previous=""
    for arg in "$@"; do
        if [[ "$previous" == "--server" ]]; then
            server="$arg"
        fi
        previous="$arg"
    done
    [[ -n "$server" ]] || die "give --server PATH (a bashni binary), e.g. --server target/release/bashni"
    load="$(dirname "$server")/examples/load"
fi
[[ -x "$load" ]] || die "no load example at $load: build it (cargo build --release -p bashni -p bashni-server --examples --bins) or set LOAD=PATH"

pg_bin="${BASHNI_PG_BIN:-}"
if [[ -z "$pg_bin" ]]; then
    pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
fi
[[ -n "$pg_bin" && -x "$pg_bin/initdb" ]] || die "PostgreSQL is missing: run 'sudo apt-get install postgresql' or set BASHNI_PG_BIN to the folder of initdb"
command -v haproxy >/dev/null || [[ -x /usr/sbin/haproxy ]] || die "HAProxy is missing: run 'sudo apt-get install haproxy'"

# As root, PostgreSQL's programs run as the postgres user.
as_pg=()
if [[ "$(id -u)" == 0 ]]; then
    as_pg=(runuser -u postgres --)
fi

dir="$(mktemp -d "${TMPDIR:-/tmp}/bashni-cluster-pg.XXXXXX")"
# The socket is a file in $dir, so any port number will do: nothing else listens there.
port=5432
load_pid=""
cleanup() {
    local status=$?
    if [[ -n "$load_pid" ]] && kill -0 "$load_pid" 2>/dev/null; then
        # The load example stops its servers and HAProxy on SIGTERM.
        kill -TERM "$load_pid" 2>/dev/null || true
        wait "$load_pid" 2>/dev/null || true
    fi
    if [[ -f "$dir/data/postmaster.pid" ]]; then
        "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 ||
            "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    if [[ -n "${BASHNI_PG_KEEP_LOG:-}" && -f "$dir/log" ]]; then
        cp "$dir/log" "$BASHNI_PG_KEEP_LOG" || true
    fi
    rm -rf "$dir"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

if [[ ${#as_pg[@]} -gt 0 ]]; then
    chown postgres:postgres "$dir"
fi
"${as_pg[@]}" "$pg_bin/initdb" -D "$dir/data" -U bashni --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; die "initdb failed"; }
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/log" \
    -o "-k $dir -c listen_addresses='' -p $port -c max_connections=200 ${BASHNI_PG_OPTIONS:-}" -w start >/dev/null ||
    { cat "$dir/log" >&2; die "PostgreSQL did not start"; }
"$pg_bin/createdb" -h "$dir" -p "$port" -U bashni bashni
url="postgresql://bashni@localhost/bashni?host=$dir&port=$port"
echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') at $dir (socket only), database bashni"

instances="${INSTANCES:-3}"
spread=(--instances "$instances")
if [[ "$instances" -gt 1 ]]; then
    spread+=(--balancer)
fi
BASHNI_LOAD_DATABASE_PID="$(head -n 1 "$dir/data/postmaster.pid")"
export BASHNI_LOAD_DATABASE_PID

# In the background, so that a signal reaches the trap at once (which stops the run).
"$load" "${spread[@]}" --db "$url" "$@" &
load_pid=$!
status=0
wait "$load_pid" || status=$?
load_pid=""
exit "$status"
