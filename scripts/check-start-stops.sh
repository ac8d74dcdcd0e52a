#!/usr/bin/env bash
# `npm start` stops when its npm process is told to (issue 24 item 7): a SIGTERM to the npm
# process that serves the built app must reach the server, which closes its port and exits.
# `npm start` builds and then runs the same `npm run start:built` (both scripts `exec`), so this
# runs start:built alone, after the build tier, on a free port and a fresh DATA_DIR.
set -uo pipefail
cd "$(dirname "$0")/.."
data_dir=$(mktemp -d)
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
trap 'rm -rf "$data_dir"' EXIT

PORT=$port DATA_DIR=$data_dir LOG_LEVEL=warn npm run start:built > "$data_dir/server.log" 2>&1 &
npm_pid=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/api/health" > /dev/null && break
  sleep 0.3
done
if ! curl -sf "http://127.0.0.1:$port/api/health" > /dev/null; then
  echo "the server did not start on port $port:"; cat "$data_dir/server.log"
  kill -KILL "$npm_pid" 2> /dev/null
  exit 1
fi

kill -TERM "$npm_pid"
for _ in $(seq 1 50); do
  kill -0 "$npm_pid" 2> /dev/null || break
  sleep 0.3
done
if kill -0 "$npm_pid" 2> /dev/null || curl -s -o /dev/null "http://127.0.0.1:$port/api/health"; then
  echo "after SIGTERM to npm (pid $npm_pid) the server still answers on port $port or npm still runs"
  kill -KILL "$npm_pid" 2> /dev/null
  exit 1
fi
echo "SIGTERM to npm run start:built: the server closed port $port and exited"
