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

# A restore under a running server loses what it acknowledges afterwards: refused even when the
# shell that runs it has another PORT (the server is found by its mark in DATA_DIR).
refusal=$(PORT=1 DATA_DIR=$data_dir npm run --silent restore -- "$data_dir/bloodbank.db" 2>&1)
if [[ "$refusal" != *"A server is running as process"* ]]; then
  echo "npm run restore with another PORT beside the running server was not refused: $refusal"
  kill -KILL "$npm_pid" 2> /dev/null
  exit 1
fi
echo "npm run restore beside the running server (another PORT) was refused"

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
if compgen -G "$data_dir/server-*.pid" > /dev/null; then
  echo "the stopped server left its mark in DATA_DIR: $(ls "$data_dir")"
  exit 1
fi
echo "SIGTERM to npm run start:built: the server closed port $port, removed its mark and exited"

# Ctrl+C in the terminal: SIGINT to the whole process group (npm and the server), which npm also
# forwards to the server, so the server hears it twice at once. It must still finish the request in
# flight (one whose body is still arriving), not take the repeat as "exit now".
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
PORT=$port DATA_DIR=$data_dir LOG_LEVEL=warn setsid npm run start:built > "$data_dir/server2.log" 2>&1 &
group=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/api/health" > /dev/null && break
  sleep 0.3
done
server=$(pgrep -P "$group" -f 'apps/server/dist/server.js' | head -1)
answer=$(PORT=$port GROUP=$group SERVER=$server node -e "
const net = require('net');
const socket = net.connect(Number(process.env.PORT), '127.0.0.1', () => {
  const body = 'username=nobody&password=not-the-password';
  socket.write('POST /api/auth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nConnection: close\r\nContent-Length: ' + body.length + '\r\n\r\n' + body.slice(0, 10));
  // The terminal's SIGINT to the group, then the one npm forwards (here 100 ms later, as it can be).
  setTimeout(() => process.kill(-Number(process.env.GROUP), 'SIGINT'), 300);
  setTimeout(() => process.kill(Number(process.env.SERVER), 'SIGINT'), 400);
  setTimeout(() => socket.write(body.slice(10)), 1500);
});
let text = '';
socket.on('data', (chunk) => (text += chunk));
socket.on('close', () => console.log(text.split('\r\n')[0] || 'no answer'));
socket.on('error', (error) => console.log('no answer: ' + error.message));
")
for _ in $(seq 1 50); do
  kill -0 "$group" 2> /dev/null || break
  sleep 0.3
done
if [[ "$answer" != "HTTP/1.1 401 Unauthorized" ]] || kill -0 "$group" 2> /dev/null; then
  echo "Ctrl+C (SIGINT to npm start's process group) with a request in flight: the request got '$answer'"
  cat "$data_dir/server2.log"
  kill -KILL -- -"$group" 2> /dev/null
  exit 1
fi
echo "Ctrl+C to npm run start:built: the request in flight was answered ($answer), then the server exited"
