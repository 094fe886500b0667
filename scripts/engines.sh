#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL cluster and a throwaway redis-server, both
# on 127.0.0.1 and free ports, with their data in a temp dir; stops both and removes the
# dir when the command ends (also on failure or Ctrl-C) and exits with its code.
#
#   scripts/engines.sh npx vitest run --project e2e-pg
#
# The command sees TEST_DATABASE_URL=postgres://postgres@127.0.0.1:<port>/postgres (a
# superuser, trust auth) and TEST_REDIS_URL=redis://127.0.0.1:<port>. An engine whose
# variable is already set is not started, so nested calls (.ci/run → npm test) share one.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: scripts/engines.sh <command> [args...]" >&2
  exit 2
fi

fail() {
  echo "scripts/engines.sh: $*" >&2
  exit 1
}

free_port() {
  if command -v node >/dev/null; then
    node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })"
  elif command -v python3 >/dev/null; then
    python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1]); s.close()"
  else
    fail "need node or python3 to find a free port"
  fi
}

tmp=''
pg_bin=''
pg_dir=''
redis_pid_file=''

# Runs a PostgreSQL binary as the postgres user when we are root (PostgreSQL refuses
# root), from / so that an unreadable working directory does not bother it.
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && "$@")
  fi
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -n "$redis_pid_file" ] && [ -s "$redis_pid_file" ]; then
    local pid
    pid=$(cat "$redis_pid_file")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  if [ -n "$pg_dir" ] && [ -f "$pg_dir/data/postmaster.pid" ]; then
    as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
  fi
  if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

find_pg_bin() {
  local dir
  if command -v pg_config >/dev/null; then
    dir=$(pg_config --bindir 2>/dev/null || true)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return
    fi
  fi
  # Debian keeps the server binaries out of PATH; take the newest installed major.
  dir=$(find /usr/lib/postgresql -mindepth 3 -maxdepth 3 -path '*/bin/initdb' 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$dir" ]; then dirname "$dir"; fi
}

start_postgres() {
  pg_bin=$(find_pg_bin)
  [ -n "$pg_bin" ] || fail "PostgreSQL's initdb not found: install Debian's postgresql package (apt-get install postgresql)"
  local major
  major=$("$pg_bin/initdb" --version | awk '{ split($3, v, "."); print v[1] }')
  [ "$major" -ge 15 ] || fail "PostgreSQL 15 or later needed, found $major in $pg_bin"
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || fail "running as root needs the postgres user: install Debian's postgresql package (apt-get install postgresql)"
    command -v runuser >/dev/null || fail "running as root needs runuser: install Debian's util-linux package"
  fi

  pg_dir="$tmp/postgres"
  mkdir "$pg_dir"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$pg_dir"; fi
  as_postgres "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$pg_dir/initdb.log" 2>&1 \
    || { cat "$pg_dir/initdb.log" >&2; fail "initdb failed"; }
  # A free port can be taken between asking and binding: try a few.
  local port attempt
  for attempt in 1 2 3; do
    port=$(free_port)
    if as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -t 30 -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$pg_dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null; then
      break
    fi
    if [ "$attempt" -eq 3 ]; then cat "$pg_dir/server.log" >&2; fail "PostgreSQL did not start on 127.0.0.1"; fi
  done
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "scripts/engines.sh: PostgreSQL $major at $TEST_DATABASE_URL" >&2
}

# Up to 5 s for a daemonized redis-server to answer PING on 127.0.0.1:$1.
redis_answers() {
  for _ in $(seq 100); do
    if [ "$(timeout 2 redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = PONG ]; then return 0; fi
    sleep 0.05
  done
  return 1
}

start_redis() {
  local dir="$tmp/redis" port attempt
  mkdir "$dir"
  redis_pid_file="$dir/redis.pid"
  for attempt in 1 2 3; do
    port=$(free_port)
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --daemonize yes \
      --pidfile "$redis_pid_file" --dir "$dir" --logfile "$dir/redis.log" >/dev/null || true
    # It daemonizes at once, even when it then fails to bind: wait until it answers.
    if redis_answers "$port"; then break; fi
    if [ "$attempt" -eq 3 ]; then cat "$dir/redis.log" >&2 || true; fail "redis-server did not start on 127.0.0.1"; fi
  done
  export TEST_REDIS_URL="redis://127.0.0.1:$port"
  echo "scripts/engines.sh: Redis at $TEST_REDIS_URL" >&2
}

if [ -z "${TEST_REDIS_URL:-}" ]; then
  # Checked before anything starts, so a missing package is named at once.
  command -v redis-server >/dev/null || fail "redis-server not found: install Debian's redis-server package (apt-get install redis-server)"
  command -v redis-cli >/dev/null || fail "redis-cli not found: install Debian's redis-tools package (apt-get install redis-tools)"
fi
if [ -z "${TEST_DATABASE_URL:-}" ] || [ -z "${TEST_REDIS_URL:-}" ]; then
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/dif-engines.XXXXXX")
  # The postgres user must be able to reach its folder inside.
  chmod 755 "$tmp"
  if [ -z "${TEST_DATABASE_URL:-}" ]; then start_postgres; fi
  if [ -z "${TEST_REDIS_URL:-}" ]; then start_redis; fi
fi

# Not `exec`: the trap above must outlive the command to stop the engines.
set +e
"$@"
status=$?
set -e
exit "$status"
