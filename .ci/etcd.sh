#!/usr/bin/env bash
# The etcd storage (api-etcd): its tests against a real etcd, and clippy.
# api-etcd is not a default member of the workspace (etcd-client needs
# protoc to build), so the plain `cargo test` of .ci/run does not cover it.
# Installs etcd and protoc with apt-get when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
export CARGO_INCREMENTAL=0

step() { printf '\n=== %s\n' "$*"; }

step "etcd and protoc"
missing=()
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
command -v etcdctl >/dev/null 2>&1 || missing+=(etcd-client)
command -v protoc >/dev/null 2>&1 || [[ -n "${PROTOC:-}" ]] || missing+=(protobuf-compiler)
if ((${#missing[@]})); then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"
fi
etcd --version | head -n 1
protoc --version 2>/dev/null || echo "protoc: ${PROTOC:-}"

step "clippy (api-etcd)"
cargo clippy -p api-etcd --all-targets -- -D warnings

step "rustdoc (api-etcd, with the testing feature)"
RUSTDOCFLAGS="-D warnings" cargo doc --quiet -p api-etcd --no-deps --features testing

step "tests (api-etcd, against a real etcd: a missing etcd fails them)"
API_ETCD_REQUIRE=1 cargo test -p api-etcd
