#!/usr/bin/env bash
# End to end with the real kubectl against `examples --bin apiserver` on a
# free loopback port, over TLS with the kubeconfig the server writes.
# Usage: .ci/e2e_kubectl.sh PATH/TO/kubectl PATH/TO/apiserver
# Bounded: every kubectl call has a request timeout; the server is stopped
# on exit.
set -euo pipefail

kubectl_bin=$1
server_bin=$2
e2e_name="e2e"
# shellcheck source=.ci/e2e_lib.sh
. "$(dirname "$0")/e2e_lib.sh"

printf '%s\n' 'reader-token,reader,uid-reader,"readers,auditors"' > "$work/tokens.csv"
start_server --token-auth-file "$work/tokens.csv" \
  --audit-log-path "$work/audit.log"

# Authentication: the admin token, a token-file user, a bad token.
expect "auth whoami (admin)" "system:masters" "$(k auth whoami)"
out=$(k --token=reader-token auth whoami)
expect "auth whoami (token file)" "reader" "$out"
expect "auth whoami (groups)" "auditors" "$out"
out=$(k --token=not-a-token get --raw /version 2>&1 || true)
expect "bad token" "Unauthorized" "$out"

expect "api-resources" "memcacheds" "$(k api-resources)"
expect "api-resources (core)" "namespaces" "$(k api-resources)"
expect "api-versions" "stable.example.com/v1alpha1" "$(k api-versions)"
expect "get --raw /version" '"gitVersion"' "$(k get --raw /version)"
expect "create namespace" "namespace/demo created" "$(k create namespace demo)"
# Namespaces answer as every kind does (issue 27): a table for one, a
# label selector on the list, a watch.
expect "get namespace (table)" "demo *Active" "$(k get namespace demo)"
k label namespace demo team=red > /dev/null
out=$(k get namespaces -l team=red)
expect "get namespaces -l" "demo" "$out"
refute "get namespaces -l" "kube-system" "$out"
expect "get namespaces -w" "demo" "$(timeout 5 "$kubectl_bin" --kubeconfig "$work/kubeconfig.yaml" get namespaces -w 2>&1 | head -3 || true)"
expect "explain" "size" "$(k explain memcacheds.spec)"

cat > "$work/mc.yaml" <<'EOF'
apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata:
  name: mc1
  labels:
    app: cache
spec:
  size: 2
EOF
expect "apply (create)" "memcached.cache.example.com/mc1 created" "$(k apply -n demo -f "$work/mc.yaml")"
expect "apply (again)" "memcached.cache.example.com/mc1 unchanged" "$(k apply -n demo -f "$work/mc.yaml")"
expect "get (table)" "SIZE" "$(k get -n demo memcacheds)"
expect "get -o yaml" "size: 2" "$(k get -n demo mc mc1 -o yaml)"
[ "$(k get -n demo mc mc1 -o jsonpath='{.spec.size}')" = "2" ] || fail "get -o jsonpath"
expect "get -l" "mc1" "$(k get -n demo mc -l app=cache)"
expect "get -A" "demo" "$(k get mc -A)"
expect "patch (merge)" "patched" "$(k patch -n demo mc mc1 --type merge -p '{"spec":{"size":3}}')"
expect "patch (json)" "patched" "$(k patch -n demo mc mc1 --type json -p '[{"op":"replace","path":"/spec/size","value":1}]')"
expect "patch (strategic)" "patched" "$(k patch -n demo mc mc1 --type strategic -p '{"metadata":{"labels":{"tier":"a"}}}')"
expect "label" "labeled" "$(k label -n demo mc mc1 team=x)"
out=$(k patch -n demo mc mc1 --type merge -p '{"spec":{"bogus":1}}' 2>&1 || true)
expect "strict field validation of a patch" 'unknown field "spec.bogus"' "$out"

# An invalid object: every cause is shown.
cat > "$work/bad.yaml" <<'EOF'
apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata:
  name: bad
spec:
  size: 99
EOF
out=$(k apply -n demo -f "$work/bad.yaml" 2>&1 || true)
expect "invalid apply" "spec.size" "$out"
expect "invalid apply" "is invalid" "$out"
# An unknown field: kubectl validates with the server (fieldValidation=Strict).
sed 's/  size: 99/  size: 1\n  bogus: 1/' "$work/bad.yaml" > "$work/unknown.yaml"
out=$(k apply -n demo -f "$work/unknown.yaml" 2>&1 || true)
expect "strict field validation" 'unknown field "spec.bogus"' "$out"
# A write into a missing namespace.
out=$(k apply -n nowhere -f "$work/mc.yaml" 2>&1 || true)
expect "namespace lifecycle" 'namespaces "nowhere" not found' "$out"

# A CEL rule of the schema (x-kubernetes-validations, here Tenant's
# at_least_one_of union): breaking it is a 422 with the rule's message.
cat > "$work/tenant.yaml" <<'EOF'
apiVersion: tenancy.example.com/v1beta1
kind: Tenant
metadata:
  name: tn1
spec:
  displayName: Team One
  quota: {}
EOF
out=$(k apply -f "$work/tenant.yaml" 2>&1 || true)
expect "CEL rule (create)" 'The Tenant "tn1" is invalid: spec.quota: Invalid value: at least one of the fields in ' "$out"
expect "CEL rule (message)" 'maxNamespaces maxPods] must be set' "$out"
sed 's/  quota: {}/  quota:\n    maxPods: 10/' "$work/tenant.yaml" > "$work/tenant-ok.yaml"
expect "CEL rule (valid)" "tenant.tenancy.example.com/tn1 created" "$(k apply -f "$work/tenant-ok.yaml")"

# The scale subresource (CronTab's .spec.replicas), server-side dry run,
# and kubectl wait on a condition written through /status.
cat > "$work/ct.yaml" <<'EOF'
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ct1
spec:
  schedule: "*/5 * * * *"
  image: busybox:1.36
  replicas: 1
EOF
expect "apply crontab" "crontab.stable.example.com/ct1 created" "$(k apply -n demo -f "$work/ct.yaml")"
expect "scale" "crontab.stable.example.com/ct1 scaled" "$(k scale -n demo crontab ct1 --replicas=3)"
[ "$(k get -n demo crontab ct1 -o jsonpath='{.spec.replicas}')" = "3" ] || fail "scale did not write .spec.replicas"
expect "scale (precondition)" "scaled" "$(k scale -n demo crontab ct1 --current-replicas=3 --replicas=2)"
out=$(k scale -n demo crontab ct1 --replicas=11 2>&1 || true)
expect "scale past the maximum" "spec.replicas" "$out"
expect "create --dry-run=server" "created (server dry run)" \
  "$(sed 's/name: mc1/name: dry/' "$work/mc.yaml" | k create -n demo --dry-run=server -f -)"
out=$(k get -n demo mc dry 2>&1 || true)
expect "a dry run stores nothing" "NotFound" "$out"
expect "delete --dry-run=server" "deleted from demo namespace (server dry run)" "$(k delete -n demo mc mc1 --dry-run=server)"
k get -n demo mc mc1 > /dev/null || fail "a dry-run delete deleted"
k wait -n demo crontab/ct1 --for=condition=Ready --timeout=20s > "$work/wait.out" 2>&1 &
wait_pid=$!
sleep 1
expect "patch --subresource=status" "patched" "$(k patch -n demo crontab ct1 --subresource=status --type merge \
  -p '{"status":{"replicas":2,"conditions":[{"type":"Ready","status":"True","reason":"Running","message":"all replicas up","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}')"
wait "$wait_pid" || fail "wait --for=condition=Ready: $(cat "$work/wait.out")"
expect "wait" "condition met" "$(cat "$work/wait.out")"

# A watch sees a change, then ends by its timeout.
k get -n demo mc -w --request-timeout=3s > "$work/watch.out" 2>&1 &
watch_pid=$!
sleep 1
k patch -n demo mc mc1 --type merge -p '{"spec":{"size":2}}' > /dev/null
wait "$watch_pid" || true
[ "$(grep -c mc1 "$work/watch.out")" -ge 2 ] || fail "get -w: $(cat "$work/watch.out")"

expect "delete --wait" 'deleted' "$(k delete -n demo mc mc1 --wait --timeout=20s)"
out=$(k get -n demo mc mc1 2>&1 || true)
expect "gone" "NotFound" "$out"
# A namespace goes through Terminating: kubectl waits until the namespace
# controller has emptied it and it is gone.
k create -n demo configmap leftover --from-literal=a=b > /dev/null 2>&1 || true
expect "delete namespace" 'namespace "demo" deleted' "$(k delete namespace demo --timeout=30s)"
out=$(k get namespace demo 2>&1 || true)
expect "namespace gone" "NotFound" "$out"
out=$(k delete namespace default 2>&1 || true)
expect "immortal namespace" 'namespaces "default" is forbidden: this namespace may not be deleted' "$out"
# The audit log has a Metadata event for the create of mc1, by admin.
grep '"verb":"create"' "$work/audit.log" | grep '"name":"mc1"' | grep '"username":"admin"' >/dev/null \
  || fail "audit log: no create of mc1 by admin in $(head -c 2000 "$work/audit.log")"
grep -q '"code":401' "$work/audit.log" || fail "audit log: the bad token's 401 is missing"
echo "kubectl e2e: all steps passed ($("$kubectl_bin" version --client 2>/dev/null | sed -n 1p))"
