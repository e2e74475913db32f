#!/usr/bin/env bash
# End to end of a kube-rs controller over TLS: the example server (which
# writes a kubeconfig with its CA and a token) and the example
# memcached-controller binary, the same code api-envtest's tests drive in
# process, reading that kubeconfig as kubectl does; kubectl creates,
# resizes and deletes a Memcached and watches the controller's Deployment
# follow, and the garbage collector remove it.
# Usage: .ci/e2e_controller.sh PATH/TO/kubectl PATH/TO/apiserver PATH/TO/memcached-controller
set -euo pipefail

kubectl_bin=$1
server_bin=$2
controller_bin=$3
e2e_name="e2e controller"
# shellcheck source=.ci/e2e_lib.sh
. "$(dirname "$0")/e2e_lib.sh"

start_server --v 0 --builtin-kinds deployments,configmaps
KUBECONFIG="$work/kubeconfig.yaml" "$controller_bin" > "$work/controller.out" 2>&1 &
controller_pid=$!
stop_controller() { kill "$controller_pid" 2>/dev/null || true; wait "$controller_pid" 2>/dev/null || true; cleanup; }
trap stop_controller EXIT

wait_for() { # wait_for WHAT COMMAND...: until COMMAND succeeds (20 s at most)
  local what=$1; shift
  for _ in $(seq 1 200); do
    if "$@" > /dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  cat "$work/controller.out" >&2
  fail "$what"
}
replicas_are() { [ "$(k get deployment cache -o 'jsonpath={.spec.replicas}')" = "$1" ]; }
available() { [ "$(k get memcached cache -o 'jsonpath={.status.conditions[?(@.type=="Available")].status}')" = True ]; }
gone() { ! k get "$1" cache > /dev/null 2>&1; }

cat > "$work/mc.yaml" <<'YAML'
apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata:
  name: cache
spec:
  size: 2
YAML
k apply -f "$work/mc.yaml" > /dev/null
wait_for "the Deployment with 2 replicas" replicas_are 2
owner=$(k get deployment cache -o 'jsonpath={.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}')
expect "the Deployment's owner" "Memcached/cache" "$owner"
wait_for "status Available" available
k patch memcached cache --type merge -p '{"spec":{"size":3}}' > /dev/null
wait_for "the Deployment follows the size" replicas_are 3
table=$(k get deployment cache)
expect "kubectl get deployment's columns" "NAME *READY *UP-TO-DATE *AVAILABLE *AGE" "$table"
expect "kubectl get deployment's row (no pods run here)" "cache *0/3 *0 *0" "$table"
finalizers=$(k get memcached cache -o 'jsonpath={.metadata.finalizers}')
expect "the controller's finalizer" "cache.example.com/finalizer" "$finalizers"
k delete memcached cache --timeout=20s > /dev/null
wait_for "the Memcached gone (the finalizer ran)" gone memcached
wait_for "the Deployment collected" gone deployment
echo "$e2e_name: ok"
