#!/usr/bin/env bash
# Installs Debian's etcd (server and etcdctl) and protoc (etcd-client's
# build needs it) when they are missing, and says which versions there are.
set -euo pipefail
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
# sed reads all of the output: `head` would exit after one line and, under
# pipefail, a later write of etcd would fail the step with SIGPIPE (141).
etcd --version | sed -n 1p
protoc --version 2>/dev/null || echo "protoc: ${PROTOC:-}"
