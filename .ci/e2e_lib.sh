# Sourced by the kubectl end-to-end scripts (.ci/e2e_*.sh): a work
# directory removed on exit, the example server started on a free loopback
# port with the kubeconfig it writes (`start_server EXTRA_FLAGS...`, stopped
# on exit), and `k` (kubectl with a request timeout), `fail`, `expect`
# (needle as a grep pattern) and `refute`.
# Set before sourcing: kubectl_bin, server_bin, e2e_name. E2E_SERVER_FLAGS
# adds flags to every server started (CI runs the kubectl suite on etcd
# too: --storage etcd --etcd-servers URL).

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

start_server() {
  # shellcheck disable=SC2086 # E2E_SERVER_FLAGS is a list of flags
  "$server_bin" --listen 127.0.0.1:0 --kubeconfig "$work/kubeconfig.yaml" "$@" ${E2E_SERVER_FLAGS:-} \
    > "$work/server.out" 2> "$work/server.err" &
  server_pid=$!
  for _ in $(seq 1 100); do
    grep -q '^listening on ' "$work/server.out" 2>/dev/null && break
    sleep 0.1
  done
  grep -q '^listening on https://127.0.0.1:' "$work/server.out" || { cat "$work/server.err"; echo "server did not start" >&2; exit 1; }
}

k() { "$kubectl_bin" --kubeconfig "$work/kubeconfig.yaml" --request-timeout=20s "$@"; }
fail() { echo "$e2e_name: $*" >&2; exit 1; }
expect() { # expect "what" "needle" output...
  local what=$1 needle=$2; shift 2
  grep -q -- "$needle" <<< "$*" || fail "$what: expected '$needle' in: $*"
}
refute() { # refute "what" "needle" output...
  local what=$1 needle=$2; shift 2
  if grep -q -- "$needle" <<< "$*"; then fail "$what: did not expect '$needle' in: $*"; fi
}
