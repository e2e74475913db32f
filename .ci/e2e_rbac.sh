#!/usr/bin/env bash
# End to end of authorization with the real kubectl: the example server
# with --authorization-mode RBAC and a token file; RBAC objects applied by
# kubectl as the admin; a reader, a status writer and an escalation.
# Usage: .ci/e2e_rbac.sh PATH/TO/kubectl PATH/TO/apiserver
set -euo pipefail

kubectl_bin=$1
server_bin=$2
e2e_name="e2e rbac"
# shellcheck source=.ci/e2e_lib.sh
. "$(dirname "$0")/e2e_lib.sh"

cat > "$work/tokens.csv" <<'EOF'
reader-token,reader,uid-reader,"readers"
status-token,statuser,uid-statuser
EOF
start_server --token-auth-file "$work/tokens.csv" \
  --authorization-mode RBAC --v 0
expect() { # a fixed string, not a pattern
  local what=$1 needle=$2; shift 2
  grep -qF -- "$needle" <<< "$*" || fail "$what: expected '$needle' in: $*"
}

k create namespace demo > /dev/null
cat > "$work/rbac.yaml" <<'EOF'
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: mc-reader
  namespace: demo
rules:
- apiGroups: ["cache.example.com"]
  resources: ["memcacheds"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["roles"]
  verbs: ["create", "get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: readers
  namespace: demo
subjects:
- kind: Group
  name: readers
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: mc-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: mc-status
  namespace: demo
rules:
- apiGroups: ["cache.example.com"]
  resources: ["memcacheds/status"]
  verbs: ["get", "patch", "update"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: statuser
  namespace: demo
subjects:
- kind: User
  name: statuser
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: mc-status
  apiGroup: rbac.authorization.k8s.io
EOF
out=$(k apply -f "$work/rbac.yaml")
expect "apply rbac" "role.rbac.authorization.k8s.io/mc-reader created" "$out"
expect "apply rbac" "rolebinding.rbac.authorization.k8s.io/statuser created" "$out"
expect "apply rbac again" "unchanged" "$(k apply -f "$work/rbac.yaml")"
# and server-side: kubectl takes over its client-side fields.
expect "apply --server-side rbac" "role.rbac.authorization.k8s.io/mc-reader serverside-applied" \
  "$(k apply --server-side -f "$work/rbac.yaml")"
expect "rbac managedFields" "operation: Apply" "$(k get role mc-reader -n demo -o yaml --show-managed-fields)"
expect "get roles" "mc-reader" "$(k get roles -n demo)"
printf 'apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata:\n  name: mc1\nspec:\n  size: 1\n' > "$work/mc.yaml"
k apply -n demo -f "$work/mc.yaml" > /dev/null

# The reader lists, and is refused a create with the apiserver's words.
expect "reader list" "mc1" "$(k --token=reader-token get mc -n demo)"
out=$(sed 's/name: mc1/name: mc2/' "$work/mc.yaml" | k --token=reader-token create -n demo -f - 2>&1 || true)
expect "reader create denied" 'memcacheds.cache.example.com is forbidden: User "reader" cannot create resource "memcacheds" in API group "cache.example.com" in the namespace "demo"' "$out"
out=$(k --token=reader-token get mc -n default 2>&1 || true)
expect "reader elsewhere" 'cannot list resource "memcacheds" in API group "cache.example.com" in the namespace "default"' "$out"
[ "$(k --token=reader-token auth can-i list memcacheds -n demo)" = "yes" ] || fail "can-i list"
[ "$(k --token=reader-token auth can-i create memcacheds -n demo 2>/dev/null || true)" = "no" ] || fail "can-i create"

# The status writer changes status and nothing else.
expect "status writer" "patched" "$(k --token=status-token patch -n demo mc mc1 --subresource=status --type merge \
  -p '{"status":{"conditions":[{"type":"Available","status":"True","reason":"Up","message":"ok","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}')"
out=$(k --token=status-token patch -n demo mc mc1 --type merge -p '{"spec":{"size":2}}' 2>&1 || true)
expect "status writer on spec" 'memcacheds.cache.example.com "mc1" is forbidden: User "statuser" cannot get resource "memcacheds" in API group "cache.example.com" in the namespace "demo"' "$out"

# Escalation: the reader may create roles, but not one granting more.
# (As YAML with apply: `kubectl create role` sends protobuf, which this
# server reads only for Namespace and the access reviews.)
role() { printf 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: %s\n  namespace: demo\nrules:\n- apiGroups: ["cache.example.com"]\n  resources: ["memcacheds"]\n  verbs: ["%s"]\n' "$1" "$2"; }
out=$(role deleter delete | k --token=reader-token apply -f - 2>&1 || true)
expect "escalation" 'roles.rbac.authorization.k8s.io "deleter" is forbidden: user "reader"' "$out"
expect "escalation" "attempting to grant RBAC permissions not currently held" "$out"
expect "no escalation" "role.rbac.authorization.k8s.io/lister created" "$(role lister list | k --token=reader-token apply -f -)"

# kubectl create role / rolebinding / clusterrole / clusterrolebinding
# (sent as protobuf).
expect "create role" "role.rbac.authorization.k8s.io/pb-role created" \
  "$(k create role pb-role -n demo --verb=get,list --resource=memcacheds.cache.example.com --resource-name=mc1)"
[ "$(k get role pb-role -n demo -o jsonpath='{.rules[0].verbs}')" = '["get","list"]' ] || fail "protobuf role rules: $(k get role pb-role -n demo -o yaml)"
[ "$(k get role pb-role -n demo -o jsonpath='{.rules[0].resourceNames}')" = '["mc1"]' ] || fail "protobuf role resourceNames"
expect "create rolebinding" "created" "$(k create rolebinding pb-binding -n demo --role=pb-role --user=carol --group=ops)"
[ "$(k get rolebinding pb-binding -n demo -o jsonpath='{.subjects[*].name}')" = "ops carol" ] \
  || [ "$(k get rolebinding pb-binding -n demo -o jsonpath='{.subjects[*].name}')" = "carol ops" ] || fail "protobuf binding subjects"
out=$(k --token=reader-token get --raw /metrics 2>&1 || true)
expect "non-resource URL not granted" "Forbidden" "$out"
expect "create clusterrole" "created" "$(k create clusterrole pb-viewer --verb=get --non-resource-url=/metrics)"
expect "create clusterrolebinding" "created" "$(k create clusterrolebinding pb-viewer --clusterrole=pb-viewer --user=reader)"
# Granted now: past authorization to the 404 of a path nothing serves.
out=$(k --token=reader-token get --raw /metrics 2>&1 || true)
expect "clusterrolebinding to a non-resource URL" "NotFound" "$out"

# Hostile names never reach a key: every one is refused, nothing stored.
long=$(printf 'a%.0s' $(seq 1 300))
for name in '..' 'a%2Fb' '%2e%2e' "$long" 'UPPER' 'a..b%00'; do
  out=$(sed "s/name: mc1/name: \"$name\"/" "$work/mc.yaml" | k apply -n demo -f - 2>&1 || true)
  grep -qE "Invalid|invalid|BadRequest|must|Error" <<< "$out" || fail "hostile name $name accepted: $out"
  out=$(k get --raw "/apis/cache.example.com/v1alpha1/namespaces/demo/memcacheds/$name" 2>&1 || true)
  grep -qE "NotFound|not found|BadRequest|invalid|Error" <<< "$out" || fail "hostile get $name: $out"
done
[ "$(k get mc -n demo -o name | wc -l)" = "1" ] || fail "a hostile name was stored: $(k get mc -n demo -o name)"

# A 4 MiB body is refused (413) and stores nothing.
{ sed 's/name: mc1/name: huge/' "$work/mc.yaml"; printf '  note: "'; head -c 4194304 /dev/zero | tr '\0' x; printf '"\n'; } > "$work/huge.yaml"
out=$(k create -n demo -f "$work/huge.yaml" 2>&1 || true)
expect "4 MiB body" "too large" "$out"
out=$(k get -n demo mc huge 2>&1 || true)
expect "4 MiB body stored nothing" "NotFound" "$out"

echo "kubectl rbac e2e: all steps passed"
