#!/usr/bin/env bash
# End to end with real kubectl (issue 31): the real CRDs of ../shared/corpus
# served at run time. controller-tools' CRDs are installed at start
# (`--crd-dir`, envtest's CRDDirectoryPaths); Gateway API's and the
# kubebuilder CronJob are applied with kubectl (client-side and
# server-side), waited for with `kubectl wait --for condition=established`;
# then objects of each are applied, listed as tables (printer columns),
# defaulted, refused with the apiserver's causes, explained (OpenAPI), and
# a CRD deleted takes its objects with it.
# Usage: .ci/e2e_crds.sh PATH/TO/kubectl PATH/TO/apiserver
set -euo pipefail

kubectl_bin=$1
server_bin=$2
e2e_name="e2e crds"
corpus="$(cd "$(dirname "$0")/.." && pwd)/../shared/corpus"
[ -d "$corpus" ] || { echo "$e2e_name: $corpus is missing (CI needs ../shared)" >&2; exit 1; }
# shellcheck source=.ci/e2e_lib.sh
. "$(dirname "$0")/e2e_lib.sh"

mkdir -p "$work/crds"
cp "$corpus"/controller-tools/*.yaml "$work/crds/"
start_server --crd-dir "$work/crds" --v 0

out=$(k get crds)
for crd in foos.bar.example.com testquotas.plural.example.com jobs.testdata.kubebuilder.io \
  versionedresources.testdata.kubebuilder.io; do
  expect "crds from --crd-dir" "$crd" "$out"
  k wait --for condition=established --timeout=20s "crd/$crd" > /dev/null
done

# At run time: client-side apply, and server-side apply.
k apply -f "$corpus/kubebuilder/batch.tutorial.kubebuilder.io_cronjobs.yaml" > /dev/null
k apply --server-side -f "$corpus/gateway-api/gateway.networking.k8s.io_gateways.yaml" > /dev/null
k apply --server-side -f "$corpus/gateway-api/gateway.networking.k8s.io_grpcroutes.yaml" > /dev/null
k wait --for condition=established --timeout=20s crd/cronjobs.batch.tutorial.kubebuilder.io \
  crd/gateways.gateway.networking.k8s.io crd/grpcroutes.gateway.networking.k8s.io > /dev/null
approval=$(k get crd gateways.gateway.networking.k8s.io \
  -o jsonpath='{.status.conditions[?(@.type=="KubernetesAPIApprovalPolicyConformant")].reason}')
[ "$approval" = ApprovedAnnotation ] || fail "Gateway API's approval: $approval"

# A Gateway: applied, defaulted by its schema, listed with its columns.
cat > "$work/gateway.yaml" <<'YAML'
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - name: http
    protocol: HTTP
    port: 80
YAML
k apply -f "$work/gateway.yaml" > /dev/null
out=$(k get gateways)
expect "gateway table" "PROGRAMMED" "$out"
expect "gateway table" "example" "$out"
from=$(k get gateway gw -o jsonpath='{.spec.listeners[0].allowedRoutes.namespaces.from}')
[ "$from" = Same ] || fail "the schema's default: allowedRoutes.namespaces.from=$from"
# The status default shows on read, as on a cluster (the status
# subresource drops it on create; defaults apply to what is read too).
pending=$(k get gateway gw -o jsonpath='{.status.conditions[?(@.type=="Accepted")].reason}')
[ "$pending" = Pending ] || fail "the status default on read: Accepted reason=$pending"
# Refused with the apiserver's cause.
sed 's/port: 80/port: 0/; s/name: gw/name: bad/' "$work/gateway.yaml" > "$work/bad.yaml"
if out=$(k apply -f "$work/bad.yaml" 2>&1); then fail "an invalid gateway was accepted"; fi
expect "invalid gateway" "spec.listeners\[0\].port: Invalid value: 0" "$out"
out=$(k explain gateway.spec.listeners.port)
expect "explain" "Port is the network port" "$out"

# A CronJob of the kubebuilder book: defaulted, patched, scaled by nothing.
cat > "$work/cronjob.yaml" <<'YAML'
apiVersion: batch.tutorial.kubebuilder.io/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: main
            image: busybox
YAML
k apply -f "$work/cronjob.yaml" > /dev/null
policy=$(k get cronjob.batch.tutorial.kubebuilder.io nightly -o jsonpath='{.spec.concurrencyPolicy}')
[ "$policy" = Allow ] || fail "the CronJob's default concurrencyPolicy: $policy"
k patch cronjob.batch.tutorial.kubebuilder.io nightly --type merge -p '{"spec":{"suspend":true}}' > /dev/null
if out=$(k patch cronjob.batch.tutorial.kubebuilder.io nightly --type merge \
  -p '{"spec":{"concurrencyPolicy":"Sometimes"}}' 2>&1); then fail "a bad enum was accepted"; fi
expect "enum" 'Unsupported value: "Sometimes"' "$out"

# Deleting the CRD deletes its objects, then the CRD.
k delete crd gateways.gateway.networking.k8s.io --timeout=30s > /dev/null
if out=$(k get gateways 2>&1); then fail "gateways still served: $out"; fi
out=$(k get crds)
refute "deleted crd" "gateways.gateway.networking.k8s.io" "$out"
echo "$e2e_name: ok"
