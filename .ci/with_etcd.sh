#!/usr/bin/env bash
# Runs a command with an etcd of its own: Debian's etcd on free loopback
# ports with a temporary data directory, its URL in ETCD_URL, stopped and
# removed afterwards whatever the command does.
# Usage: .ci/with_etcd.sh COMMAND ARGS...
set -euo pipefail
dir=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
client="http://127.0.0.1:$(free_port)"
peer="http://127.0.0.1:$(free_port)"
etcd --name ci --data-dir "$dir/data" \
  --listen-client-urls "$client" --advertise-client-urls "$client" \
  --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" \
  --initial-cluster "ci=$peer" > "$dir/etcd.log" 2>&1 &
etcd_pid=$!
stop() { kill "$etcd_pid" 2>/dev/null || true; wait "$etcd_pid" 2>/dev/null || true; rm -rf "$dir"; }
trap stop EXIT
for _ in $(seq 1 100); do
  if etcdctl --endpoints "$client" endpoint health > /dev/null 2>&1; then break; fi
  sleep 0.1
done
etcdctl --endpoints "$client" endpoint health > /dev/null 2>&1 || { cat "$dir/etcd.log" >&2; echo "etcd did not start" >&2; exit 1; }
ETCD_URL=$client "$@"
