#!/usr/bin/env bash
# End to end on etcd (issue 30): a real etcd on free loopback ports with a
# temporary data directory, and two example servers over it
# (`--storage etcd`). What kubectl writes through one is read and watched
# through the other; a server restarted finds everything (RBAC objects
# and namespaces too); `/readyz` reports etcd, goes unready while etcd is
# down (the server answers, it does not hang) and ready again after.
# Usage: .ci/e2e_etcd.sh PATH/TO/kubectl PATH/TO/apiserver (built with --features etcd)
set -euo pipefail

kubectl_bin=$1
server_bin=$2
e2e_name="e2e etcd"
# shellcheck source=.ci/e2e_lib.sh
. "$(dirname "$0")/e2e_lib.sh"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
client_port=$(free_port)
peer_port=$(free_port)
etcd_url="http://127.0.0.1:$client_port"
etcd_pid=
start_etcd() {
  etcd --name e2e --data-dir "$work/etcd" \
    --listen-client-urls "$etcd_url" --advertise-client-urls "$etcd_url" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "e2e=http://127.0.0.1:$peer_port" > "$work/etcd.log" 2>&1 &
  etcd_pid=$!
  for _ in $(seq 1 100); do
    if etcdctl --endpoints "$etcd_url" endpoint health > /dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  cat "$work/etcd.log" >&2
  fail "etcd did not start"
}
stop_etcd() { if [ -n "$etcd_pid" ]; then kill "$etcd_pid" 2>/dev/null || true; wait "$etcd_pid" 2>/dev/null || true; etcd_pid=; fi; }

second_pid=
finish() {
  if [ -n "$second_pid" ]; then kill "$second_pid" 2>/dev/null || true; wait "$second_pid" 2>/dev/null || true; fi
  stop_etcd
  cleanup
}
trap finish EXIT

start_etcd
storage=(--storage etcd --etcd-servers "$etcd_url" --etcd-prefix /e2e --authorization-mode RBAC --v 0)

# Server one, through $work/kubeconfig.yaml (`k`).
start_server "${storage[@]}"
one_pid=$server_pid
# Server two, through its own kubeconfig (`k2`).
mkdir -p "$work/two"
"$server_bin" --listen 127.0.0.1:0 --kubeconfig "$work/two/kubeconfig.yaml" "${storage[@]}" \
  > "$work/two/server.out" 2> "$work/two/server.err" &
second_pid=$!
for _ in $(seq 1 100); do
  grep -q '^listening on ' "$work/two/server.out" 2>/dev/null && break
  sleep 0.1
done
grep -q '^listening on https://' "$work/two/server.out" || { cat "$work/two/server.err"; fail "server two did not start"; }
k2() { "$kubectl_bin" --kubeconfig "$work/two/kubeconfig.yaml" --request-timeout=20s "$@"; }

expect "readyz lists etcd" "\[+\]etcd ok" "$(k get --raw '/readyz?verbose')"

cat > "$work/mc.yaml" <<'YAML'
apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata:
  name: shared
  namespace: team
spec:
  size: 2
YAML
k create namespace team > /dev/null
k apply -f "$work/mc.yaml" > /dev/null
expect "server two reads what server one wrote" "shared" "$(k2 get memcached -n team)"
k create -n team role reader --verb=get --resource=memcacheds > /dev/null

# A watch through server two sees a change made through server one.
k2 get memcached shared -n team -w --request-timeout=10s -o 'jsonpath={.spec.size}{"\n"}' > "$work/watch.out" 2>&1 &
watch_pid=$!
sleep 1
k patch memcached shared -n team --type merge -p '{"spec":{"size":3}}' > /dev/null
for _ in $(seq 1 100); do grep -q "^3$" "$work/watch.out" && break; sleep 0.1; done
kill "$watch_pid" 2>/dev/null || true
wait "$watch_pid" 2>/dev/null || true
grep -q "^3$" "$work/watch.out" || fail "server two's watch: $(cat "$work/watch.out")"

# A CRD applied through server one is established and served by server
# two too (each runs the CRD controller over the CRDs in etcd), and its
# objects are shared.
cat > "$work/crd.yaml" <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: notes.shared.example.com
spec:
  group: shared.example.com
  scope: Namespaced
  names: {plural: notes, kind: Note}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {text: {type: string}}}
YAML
k apply -f "$work/crd.yaml" > /dev/null
k2 wait --for condition=established --timeout=20s crd/notes.shared.example.com > /dev/null
for _ in $(seq 1 100); do k2 get notes -n team > /dev/null 2>&1 && break; sleep 0.1; done
printf 'apiVersion: shared.example.com/v1\nkind: Note\nmetadata: {name: n1, namespace: team}\nspec: {text: hi}\n' \
  | k2 apply -f - > /dev/null
expect "server one reads a Note made through server two" "hi" \
  "$(k get note n1 -n team -o 'jsonpath={.spec.text}')"

# Compaction: a continue token and a watch from before a compaction are
# 410 (the continue's answer carries a token to go on with); a new list
# works. What etcd holds: the object under the prefix, its mod_revision
# the resourceVersion.
url=$(sed -n 's/^ *server: //p' "$work/kubeconfig.yaml" | sed -n 1p)
token=$(sed -n 's/^ *token: //p' "$work/kubeconfig.yaml" | sed -n 1p)
raw() { curl -sk --max-time 15 -H "Authorization: Bearer $token" -H 'User-Agent: e2e' "$url$1"; }
collection=/apis/cache.example.com/v1alpha1/namespaces/team/memcacheds
for name in b c; do
  sed "s/name: shared/name: $name/" "$work/mc.yaml" | k apply -f - > /dev/null
done
first=$(raw "$collection?limit=1")
continue_token=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["continue"])' <<< "$first")
old_rv=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])' <<< "$first")
rv=$(k get memcached shared -n team -o 'jsonpath={.metadata.resourceVersion}')
mod=$(etcdctl --endpoints "$etcd_url" get /e2e/cache.example.com/memcacheds/team/shared -w json \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["kvs"][0]["mod_revision"])')
[ "$mod" = "$rv" ] || fail "etcd's mod_revision $mod is not the resourceVersion $rv"
# Two changes, so that the compaction passes the list's revision + 1.
k patch memcached b -n team --type merge -p '{"spec":{"size":1}}' > /dev/null
k patch memcached c -n team --type merge -p '{"spec":{"size":1}}' > /dev/null
now=$(etcdctl --endpoints "$etcd_url" endpoint status -w json \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Status"]["header"]["revision"])')
etcdctl --endpoints "$etcd_url" compact "$now" > /dev/null
expired=$(raw "$collection?limit=1&continue=$continue_token")
expect "a continue from before the compaction is 410" '"code": *410' "$expired"
expect "with the apiserver's message" 'The provided continue parameter is too old' "$expired"
expect "and a token to go on with" '"continue": *"' "$expired"
watch=$(raw "$collection?watch=1&resourceVersion=$old_rv&timeoutSeconds=3")
expect "a watch from before the compaction ends in a 410 ERROR" '"type": *"ERROR"' "$watch"
expect "a watch from before the compaction: 410" '410' "$watch"
expect "a new list works" '"name": *"shared"' "$(raw "$collection")"

# Server one restarted: everything is still there.
kill "$one_pid"; wait "$one_pid" 2>/dev/null || true; server_pid=
start_server "${storage[@]}"
expect "the Memcached survives a restart" "3" "$(k get memcached shared -n team -o 'jsonpath={.spec.size}')"
expect "the namespace survives" "Active" "$(k get namespace team -o 'jsonpath={.status.phase}')"
expect "the Role survives" "reader" "$(k get role -n team)"
# The CRD too: the restarted server's CRD controller serves it again.
k wait --for condition=established --timeout=20s crd/notes.shared.example.com > /dev/null
for _ in $(seq 1 100); do k get note n1 -n team > /dev/null 2>&1 && break; sleep 0.1; done
expect "a CRD's object survives a restart" "hi" "$(k get note n1 -n team -o 'jsonpath={.spec.text}')"

# etcd down: readyz fails at once, a read is a Status, not a hang.
stop_etcd
readyz=$(k get --raw '/readyz' 2>&1 || true)
expect "readyz unready without etcd" "etcd failed" "$readyz"
# One request, without client-go's retries (it retries a ServerTimeout
# with Retry-After, as against a cluster whose etcd is down): the server
# answers within its etcd timeout (5 s) with the apiserver's Status.
url=$(sed -n 's/^ *server: //p' "$work/kubeconfig.yaml" | sed -n 1p)
token=$(sed -n 's/^ *token: //p' "$work/kubeconfig.yaml" | sed -n 1p)
answer=$(curl -sk --max-time 15 -H "Authorization: Bearer $token" \
  -w '\n%{http_code} %{time_total}' "$url/apis/cache.example.com/v1alpha1/namespaces/team/memcacheds" || true)
expect "a read without etcd is a ServerTimeout" '"reason": *"ServerTimeout"' "$answer"
read -r code seconds <<< "$(tail -n 1 <<< "$answer")"
[ "$code" = 500 ] || fail "a read without etcd: HTTP $code: $answer"
[ "${seconds%%.*}" -lt 10 ] || fail "a read without etcd took ${seconds}s"

# etcd back on the same data: ready, and the data is there.
start_etcd
for _ in $(seq 1 100); do
  if k get --raw '/readyz' > /dev/null 2>&1; then break; fi
  sleep 0.1
done
expect "readyz ready again" "ok" "$(k get --raw '/readyz')"
expect "the data after etcd's restart" "shared" "$(k2 get memcached -n team)"
k delete namespace team --timeout=30s > /dev/null
refute "the namespace is gone for server two" "team" "$(k2 get namespaces)"
echo "$e2e_name: ok"
