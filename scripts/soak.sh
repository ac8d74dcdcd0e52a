#!/usr/bin/env bash
# A longer soak than the one in the test suite: the real server on loopback, 50 connections of mixed
# reads and writes, then the inventory invariants. SOAK_SECONDS (default 60) sets the length; with
# TEST_DATABASE_URL set it runs against a fresh PostgreSQL database instead of SQLite.
#   bash scripts/soak.sh            # 60 s on SQLite
#   SOAK_SECONDS=300 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bash scripts/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export SOAK_SECONDS="${SOAK_SECONDS:-60}"
npx vitest run --project server apps/server/test/reliability/soak.test.ts
