#!/usr/bin/env bash
# Server-side apply end to end with the real kubectl against
# `examples --bin apiserver` on a free loopback port: apply --server-side
# (create, unchanged), managedFields as kubectl shows them, a conflict in
# the apiserver's words, --force-conflicts, --field-manager, status
# applies, the client-side <-> server-side migration kubectl performs, and
# Namespaces (RBAC manifests: .ci/e2e_rbac.sh, which serves them).
# Usage: .ci/e2e_apply.sh PATH/TO/kubectl PATH/TO/apiserver
# Bounded: every kubectl call has a request timeout; the server is stopped
# on exit.
set -euo pipefail

kubectl_bin=$1
server_bin=$2
e2e_name="e2e-apply"
# shellcheck source=.ci/e2e_lib.sh
. "$(dirname "$0")/e2e_lib.sh"

start_server

mc() { # mc NAME SIZE: a Memcached manifest
  printf 'apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata:\n  name: %s\n  labels:\n    app: cache\nspec:\n  size: %s\n' "$1" "$2"
}

k create namespace ssa > /dev/null
expect "namespace managedFields" "manager: kubectl-create" "$(k get namespace ssa -o yaml --show-managed-fields)"

# Create on apply, then an apply that changes nothing.
mc a 2 > "$work/a.yaml"
expect "apply --server-side (create)" "memcached.cache.example.com/a serverside-applied" \
  "$(k apply -n ssa --server-side -f "$work/a.yaml")"
rv1=$(k get -n ssa mc a -o jsonpath='{.metadata.resourceVersion}')
expect "apply --server-side (again)" "serverside-applied" "$(k apply -n ssa --server-side -f "$work/a.yaml")"
rv2=$(k get -n ssa mc a -o jsonpath='{.metadata.resourceVersion}')
[ "$rv1" = "$rv2" ] || fail "a no-op apply wrote a new resourceVersion ($rv1 -> $rv2)"

out=$(k get -n ssa mc a -o yaml --show-managed-fields)
expect "managedFields: manager" "manager: kubectl" "$out"
expect "managedFields: operation" "operation: Apply" "$out"
expect "managedFields: fields" "f:size: {}" "$out"
expect "managedFields: labels" "f:app: {}" "$out"
refute "managedFields hidden by default" "managedFields" "$(k get -n ssa mc a -o yaml)"

# Another writer takes spec.size; applying the old value conflicts.
expect "patch by another manager" "patched" \
  "$(k patch -n ssa mc a --type merge -p '{"spec":{"size":3}}' --field-manager=operator)"
out=$(k apply -n ssa --server-side -f "$work/a.yaml" 2>&1 || true)
expect "conflict" 'Apply failed with 1 conflict: conflict with "operator" using cache.example.com/v1alpha1: .spec.size' "$out"
expect "conflict (stored value kept)" "3" "$(k get -n ssa mc a -o jsonpath='{.spec.size}')"
expect "--force-conflicts" "serverside-applied" \
  "$(k apply -n ssa --server-side --force-conflicts -f "$work/a.yaml")"
expect "--force-conflicts (value)" "2" "$(k get -n ssa mc a -o jsonpath='{.spec.size}')"

# A second applier with its own manager shares what it sends the same.
expect "--field-manager" "serverside-applied" \
  "$(k apply -n ssa --server-side --field-manager=ci -f "$work/a.yaml")"
out=$(k get -n ssa mc a -o yaml --show-managed-fields)
expect "two appliers" "manager: ci" "$out"
expect "two appliers" "manager: kubectl" "$out"

# Status by apply (--subresource=status).
cat > "$work/status.yaml" <<'EOF'
apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata:
  name: a
status:
  conditions:
  - type: Available
    status: "True"
    reason: Ready
    message: up
    lastTransitionTime: "2026-01-01T00:00:00Z"
EOF
expect "apply --subresource=status" "serverside-applied" \
  "$(k apply -n ssa --server-side --field-manager=controller --subresource=status -f "$work/status.yaml")"
expect "status applied" "Available" "$(k get -n ssa mc a -o jsonpath="{.status.conditions[0].type}")"
expect "status manager" "subresource: status" "$(k get -n ssa mc a -o yaml --show-managed-fields)"

# Dry run.
mc a 1 > "$work/a9.yaml"
expect "apply --server-side --dry-run=server" "(server dry run)" \
  "$(k apply -n ssa --server-side --force-conflicts --dry-run=server -f "$work/a9.yaml")"
expect "dry run stored nothing" "2" "$(k get -n ssa mc a -o jsonpath='{.spec.size}')"

# Client-side apply, then server-side: kubectl migrates the client-side
# manager's fields to its server-side manager, and no conflict stops it.
mc b 1 > "$work/b.yaml"
expect "client-side apply" "created" "$(k apply -n ssa -f "$work/b.yaml")"
expect "client-side manager" "kubectl-client-side-apply" "$(k get -n ssa mc b -o yaml --show-managed-fields)"
mc b 3 > "$work/b3.yaml"
expect "server-side after client-side" "serverside-applied" "$(k apply -n ssa --server-side -f "$work/b3.yaml")"
expect "migrated value" "3" "$(k get -n ssa mc b -o jsonpath='{.spec.size}')"
out=$(k get -n ssa mc b -o yaml --show-managed-fields)
expect "migrated manager" "manager: kubectl" "$out"
expect "last-applied kept current" '"size":3' "$(k get -n ssa mc b -o jsonpath='{.metadata.annotations.kubectl\.kubernetes\.io/last-applied-configuration}')"
# and back: a server-side applier that stops sending a field removes it.
printf 'apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata:\n  name: b\nspec:\n  size: 3\n' > "$work/b-nolabel.yaml"
k apply -n ssa --server-side -f "$work/b-nolabel.yaml" > /dev/null
refute "label removed with the applier's last mention" "cache" "$(k get -n ssa mc b -o jsonpath='{.metadata.labels}')"

# ... and down again ("Downgrading from server-side apply to client-side
# apply"): kubectl's server-side applies kept last-applied current, so a
# client-side apply just works.
mc b 2 > "$work/b2.yaml"
expect "client-side after server-side" "configured" "$(k apply -n ssa -f "$work/b2.yaml")"
expect "downgraded value" "2" "$(k get -n ssa mc b -o jsonpath='{.spec.size}')"

# Namespaces: labelled, and applied server-side.
expect "label namespace" "namespace/ssa labeled" "$(k label namespace ssa tier=web)"
expect "namespace label" "web" "$(k get namespace ssa -o jsonpath='{.metadata.labels.tier}')"
printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ssa-applied\n  labels:\n    tier: web\n' > "$work/ns.yaml"
expect "apply --server-side (Namespace)" "namespace/ssa-applied serverside-applied" \
  "$(k apply --server-side -f "$work/ns.yaml")"
expect "applied namespace" "Active" "$(k get namespace ssa-applied -o jsonpath='{.status.phase}')"

echo "e2e apply: ok"
