//! The row printers of the built-in kinds' tables ([`super::builtin`]),
//! after the `print<Kind>` functions of kubernetes
//! `pkg/printers/internalversion/printers.go` and their helpers
//! (`formatEndpoints`, `formatLabelSelector`, ...): each takes the object
//! as JSON and gives its cells in column order.

use api_core::meta::Quantity;
use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::{age_of, human_duration, int_at, since, text_at, time_at};

/// The array at `pointer`, empty when absent or not an array.
pub(super) fn array_at<'a>(object: &'a Value, pointer: &str) -> &'a [Value] {
    object
        .pointer(pointer)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `printPod`, for what a store without a kubelet holds: ready
/// containers of all, the reason (the pod's, a container's waiting or
/// terminated reason, `Terminating` once deleted, else the phase), the
/// restarts summed, age, IP and node.
pub(super) fn print_pod(pod: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let total = array_at(pod, "/spec/containers").len();
    let statuses = array_at(pod, "/status/containerStatuses");
    let ready = statuses
        .iter()
        .filter(|s| s["ready"].as_bool() == Some(true))
        .count();
    let restarts: i64 = statuses
        .iter()
        .filter_map(|s| s["restartCount"].as_i64())
        .sum();
    let mut reason = text_at(pod, "/status/reason");
    if reason.is_empty() {
        reason = text_at(pod, "/status/phase");
    }
    for status in statuses.iter().rev() {
        let state = &status["state"];
        if let Some(r) = state["waiting"]["reason"]
            .as_str()
            .filter(|r| !r.is_empty())
        {
            reason = r.to_string();
        } else if let Some(r) = state["terminated"]["reason"]
            .as_str()
            .filter(|r| !r.is_empty())
        {
            reason = r.to_string();
        }
    }
    if !pod["metadata"]["deletionTimestamp"].is_null() {
        reason = "Terminating".into();
    }
    let or_none = |s: String| {
        if s.is_empty() {
            "<none>".to_string()
        } else {
            s
        }
    };
    vec![
        Value::String(text_at(pod, "/metadata/name")),
        Value::String(format!("{ready}/{total}")),
        Value::String(reason),
        Value::String(restarts.to_string()),
        Value::String(age_of(pod, now)),
        Value::String(or_none(text_at(pod, "/status/podIP"))),
        Value::String(or_none(text_at(pod, "/spec/nodeName"))),
    ]
}

/// `printDeployment`: ready of desired replicas, up to date, available,
/// age, and the template's containers, images and the selector.
pub(super) fn print_deployment(deployment: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let desired = int_at(deployment, "/spec/replicas");
    let ready = int_at(deployment, "/status/readyReplicas");
    let containers = array_at(deployment, "/spec/template/spec/containers");
    let joined = |key: &str| {
        containers
            .iter()
            .filter_map(|c| c[key].as_str())
            .collect::<Vec<_>>()
            .join(",")
    };
    let selector = deployment
        .pointer("/spec/selector")
        .map(crate::scale::selector_text)
        .unwrap_or_default();
    vec![
        Value::String(text_at(deployment, "/metadata/name")),
        Value::String(format!("{ready}/{desired}")),
        Value::from(int_at(deployment, "/status/updatedReplicas")),
        Value::from(int_at(deployment, "/status/availableReplicas")),
        Value::String(age_of(deployment, now)),
        Value::String(joined("name")),
        Value::String(joined("image")),
        Value::String(selector),
    ]
}

/// A string cell.
pub(super) fn text(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

/// The object's name cell.
pub(super) fn name_cell(object: &Value) -> Value {
    text(text_at(object, "/metadata/name"))
}

/// The object's age cell (`translateTimestampSince(obj.CreationTimestamp)`).
pub(super) fn age_cell(object: &Value, now: DateTime<Utc>) -> Value {
    text(age_of(object, now))
}

/// The string at `pointer`, `None` when absent or not a string.
pub(super) fn str_at<'a>(object: &'a Value, pointer: &str) -> Option<&'a str> {
    object.pointer(pointer).and_then(Value::as_str)
}

/// The object at `pointer`, `None` when absent or not an object.
pub(super) fn map_at<'a>(object: &'a Value, pointer: &str) -> Option<&'a Map<String, Value>> {
    object.pointer(pointer).and_then(Value::as_object)
}

/// The number of entries of the map at `pointer` (0 when absent).
pub(super) fn map_len(object: &Value, pointer: &str) -> usize {
    map_at(object, pointer).map_or(0, Map::len)
}

/// `s`, or `default` when `s` is empty.
pub(super) fn or(s: impl Into<String>, default: &str) -> String {
    let s = s.into();
    if s.is_empty() { default.to_string() } else { s }
}

/// A `resource.Quantity` as its `String()` writes it (the canonical
/// form); `None` when absent. A JSON number is the quantity it spells; a
/// string that does not parse (which no apiserver would have stored) is
/// shown as it is.
pub(super) fn quantity(value: Option<&Value>) -> Option<String> {
    let spelled = match value? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    Some(Quantity::parse(&spelled).map_or(spelled, |q| q.to_string()))
}

/// An `intstr.IntOrString` as its `String()` writes it; `None` when absent.
pub(super) fn int_or_string(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => n.as_i64().map(|i| i.to_string()),
        _ => None,
    }
}

/// `labels.FormatLabels`: the `key=value` pairs of a label set sorted as
/// strings (`labels.Set.String` sorts the pairs, not the keys) and joined
/// by `,`; `<none>` for an empty set.
pub(super) fn format_labels(labels: Option<&Value>) -> String {
    let mut pairs: Vec<String> = labels
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some(format!("{k}={}", v.as_str()?)))
        .collect();
    pairs.sort();
    or(pairs.join(","), "<none>")
}

/// `metav1.FormatLabelSelector`: the selector's string form, `<none>` for
/// an empty or absent one, `<error>` for one that does not convert.
pub(super) fn format_label_selector(selector: Option<&Value>) -> String {
    let text = match selector {
        Some(v @ Value::Object(_)) => match crate::scale::label_selector_text(v) {
            Some(text) => text,
            None => return "<error>".into(),
        },
        // A nil selector: `labels.Nothing()`, whose string is empty.
        _ => String::new(),
    };
    or(text, "<none>")
}

/// `layoutContainerCells`: the containers' names and images, each joined
/// by `,` (a missing name or image is an empty string).
pub(super) fn container_cells(containers: &[Value]) -> (String, String) {
    let joined = |key: &str| {
        containers
            .iter()
            .map(|c| c[key].as_str().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(",")
    };
    (joined("name"), joined("image"))
}

/// `net.JoinHostPort`: IPv6 hosts in brackets.
pub(super) fn join_host_port(host: &str, port: i64) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// `formatEndpoints(endpoints, nil)`: up to three `ip:port` (or `ip` for
/// a subset without ports), then ` + N more...`; `<none>` without subsets.
pub(super) fn format_endpoints(endpoints: &Value) -> String {
    const MAX: usize = 3;
    let subsets = array_at(endpoints, "/subsets");
    if subsets.is_empty() {
        return "<none>".into();
    }
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    let mut count = 0;
    for subset in subsets {
        let addresses = array_at(subset, "/addresses");
        let ports = array_at(subset, "/ports");
        if ports.is_empty() {
            // Headless services with no ports.
            count += addresses.len();
            for address in addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(text_at(address, "/ip"));
            }
            continue;
        }
        for port in ports {
            count += addresses.len();
            for address in addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(join_host_port(
                    str_at(address, "/ip").unwrap_or_default(),
                    int_at(port, "/port"),
                ));
            }
        }
    }
    with_more(&list, more, count, MAX)
}

/// `printConfigMap`: the number of `data` and `binaryData` entries.
pub(super) fn print_config_map(config_map: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let entries = map_len(config_map, "/data") + map_len(config_map, "/binaryData");
    vec![
        name_cell(config_map),
        Value::from(entries as i64),
        age_cell(config_map, now),
    ]
}

/// `printEndpoints`.
pub(super) fn print_endpoints(endpoints: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(endpoints),
        text(format_endpoints(endpoints)),
        age_cell(endpoints, now),
    ]
}

/// Where an Event's fields are: core/v1's names, or events.k8s.io/v1's
/// (which the apiserver converts to the same internal Event before
/// printing: `regarding` is `involvedObject`, `note` the message, and the
/// `deprecated*` fields the source, timestamps and count).
pub(super) struct EventFields {
    regarding: &'static str,
    note: &'static str,
    source: &'static str,
    first_timestamp: &'static str,
    last_timestamp: &'static str,
    count: &'static str,
}

/// core/v1 Event.
pub(super) const CORE_EVENT: EventFields = EventFields {
    regarding: "/involvedObject",
    note: "/message",
    source: "/source",
    first_timestamp: "/firstTimestamp",
    last_timestamp: "/lastTimestamp",
    count: "/count",
};

/// `printEvent` of a core/v1 Event.
pub(super) fn print_event(event: &Value, now: DateTime<Utc>) -> Vec<Value> {
    print_event_fields(event, now, &CORE_EVENT)
}

/// `printEvent`: last seen (the series' last observation, else the last
/// timestamp, else the first), type, reason, `kind/name` of the object,
/// its field path, the source (`formatEventSource`), the trimmed message,
/// first seen (the first timestamp, else the event time), the count (the
/// series', else the event's, 1 when unset) and the name.
pub(super) fn print_event_fields(
    event: &Value,
    now: DateTime<Utc>,
    fields: &EventFields,
) -> Vec<Value> {
    let first = time_at(event, fields.first_timestamp).or_else(|| time_at(event, "/eventTime"));
    let first_seen = since(first, now);
    let mut last_seen = match time_at(event, fields.last_timestamp) {
        Some(t) => since(Some(t), now),
        None => first_seen.clone(),
    };
    let mut count = int_at(event, fields.count);
    if let Some(series) = event.get("series").filter(|s| s.is_object()) {
        last_seen = since(time_at(series, "/lastObservedTime"), now);
        count = int_at(series, "/count");
    } else if count == 0 {
        // Singleton events don't have a count set in the new API.
        count = 1;
    }
    let regarding = event.pointer(fields.regarding).unwrap_or(&Value::Null);
    let kind = text_at(regarding, "/kind").to_lowercase();
    let target = match str_at(regarding, "/name").filter(|n| !n.is_empty()) {
        Some(name) => format!("{kind}/{name}"),
        None => kind,
    };
    let first_non_empty = |a: String, b: String| if a.is_empty() { b } else { a };
    let component = first_non_empty(
        text_at(event, &format!("{}/component", fields.source)),
        text_at(event, "/reportingController"),
    );
    let instance = first_non_empty(
        text_at(event, &format!("{}/host", fields.source)),
        text_at(event, "/reportingInstance"),
    );
    let source = if instance.is_empty() {
        component
    } else {
        format!("{component}, {instance}")
    };
    vec![
        text(last_seen),
        text(text_at(event, "/type")),
        text(text_at(event, "/reason")),
        text(target),
        text(text_at(regarding, "/fieldPath")),
        text(source),
        text(str_at(event, fields.note).unwrap_or_default().trim()),
        text(first_seen),
        Value::from(count),
        name_cell(event),
    ]
}

/// `rest.NewDefaultTableConvertor`'s row: the name and the creation time
/// in RFC 3339 (UTC, whole seconds; Go's zero time when there is none).
pub(super) fn print_default(object: &Value, _now: DateTime<Utc>) -> Vec<Value> {
    let created = time_at(object, "/metadata/creationTimestamp").map_or_else(
        || "0001-01-01T00:00:00Z".to_string(),
        |t| {
            t.with_timezone(&Utc)
                .format("%Y-%m-%dT%H:%M:%SZ")
                .to_string()
        },
    );
    vec![name_cell(object), text(created)]
}

/// `printNode`: `Ready` or `NotReady` by the (last) `Ready` condition,
/// `Unknown` without one, `SchedulingDisabled` added when unschedulable;
/// the roles (`findNodeRoles`); age; the kubelet version; the first
/// internal and external addresses, OS image, kernel and container
/// runtime versions.
pub(super) fn print_node(node: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let ready = array_at(node, "/status/conditions")
        .iter()
        .rev()
        .find(|c| c["type"] == "Ready");
    let mut status = vec![match ready {
        Some(c) if c["status"] == "True" => "Ready",
        Some(_) => "NotReady",
        None => "Unknown",
    }];
    if node.pointer("/spec/unschedulable") == Some(&Value::Bool(true)) {
        status.push("SchedulingDisabled");
    }
    let address = |kind: &str| {
        array_at(node, "/status/addresses")
            .iter()
            .find(|a| a["type"] == kind)
            .map_or_else(|| "<none>".to_string(), |a| text_at(a, "/address"))
    };
    let info = |field: &str| {
        or(
            text_at(node, &format!("/status/nodeInfo/{field}")),
            "<unknown>",
        )
    };
    vec![
        name_cell(node),
        text(status.join(",")),
        text(or(node_roles(node).join(","), "<none>")),
        age_cell(node, now),
        text(text_at(node, "/status/nodeInfo/kubeletVersion")),
        text(address("InternalIP")),
        text(address("ExternalIP")),
        text(info("osImage")),
        text(info("kernelVersion")),
        text(info("containerRuntimeVersion")),
    ]
}

/// `findNodeRoles`: the names after `node-role.kubernetes.io/` of the
/// node's labels, and the value of its `kubernetes.io/role` label, sorted
/// and without duplicates.
pub(super) fn node_roles(node: &Value) -> Vec<String> {
    let mut roles = std::collections::BTreeSet::new();
    for (key, value) in map_at(node, "/metadata/labels").into_iter().flatten() {
        let Some(value) = value.as_str() else {
            continue;
        };
        if let Some(role) = key.strip_prefix("node-role.kubernetes.io/") {
            if !role.is_empty() {
                roles.insert(role.to_string());
            }
        } else if key == "kubernetes.io/role" && !value.is_empty() {
            roles.insert(value.to_string());
        }
    }
    roles.into_iter().collect()
}

/// `helper.GetAccessModesAsString`: `RWO`, `ROX`, `RWX`, `RWOP`, in that
/// order, each once.
pub(super) fn access_modes(modes: &[Value]) -> String {
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(mode, _)| modes.iter().any(|m| m == mode))
    .map(|(_, short)| *short)
    .collect::<Vec<_>>()
    .join(",")
}

/// The storage class of a PersistentVolume or claim
/// (`GetPersistentVolumeClass`, `GetPersistentVolumeClaimClass`): the
/// beta annotation first, then `spec.storageClassName`.
pub(super) fn storage_class(object: &Value) -> String {
    match map_at(object, "/metadata/annotations")
        .and_then(|a| a.get("volume.beta.kubernetes.io/storage-class"))
    {
        Some(class) => class.as_str().unwrap_or_default().to_string(),
        None => text_at(object, "/spec/storageClassName"),
    }
}

/// Whether the object is being deleted.
pub(super) fn deleting(object: &Value) -> bool {
    object
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null())
}

/// `printPersistentVolume`: capacity, access modes, reclaim policy,
/// phase (`Terminating` once deleted), `namespace/name` of the claim,
/// storage class, volume attributes class (`<unset>`), reason, age and
/// volume mode (`<unset>`).
pub(super) fn print_persistent_volume(volume: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let claim = match volume.pointer("/spec/claimRef") {
        Some(claim @ Value::Object(_)) => format!(
            "{}/{}",
            text_at(claim, "/namespace"),
            text_at(claim, "/name")
        ),
        _ => String::new(),
    };
    let capacity = quantity(volume.pointer("/spec/capacity/storage")).unwrap_or_else(|| "0".into());
    let phase = if deleting(volume) {
        "Terminating".to_string()
    } else {
        text_at(volume, "/status/phase")
    };
    vec![
        name_cell(volume),
        text(capacity),
        text(access_modes(array_at(volume, "/spec/accessModes"))),
        text(text_at(volume, "/spec/persistentVolumeReclaimPolicy")),
        text(phase),
        text(claim),
        text(storage_class(volume)),
        text(str_at(volume, "/spec/volumeAttributesClassName").unwrap_or("<unset>")),
        text(text_at(volume, "/status/reason")),
        age_cell(volume, now),
        text(str_at(volume, "/spec/volumeMode").unwrap_or("<unset>")),
    ]
}

/// `printPersistentVolumeClaim`: phase (`Terminating` once deleted),
/// volume, and, once bound to a volume, its capacity and access modes;
/// storage class, volume attributes class (`<unset>`), age and volume mode
/// (`<unset>`).
pub(super) fn print_persistent_volume_claim(claim: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let phase = if deleting(claim) {
        "Terminating".to_string()
    } else {
        text_at(claim, "/status/phase")
    };
    let volume = text_at(claim, "/spec/volumeName");
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            quantity(claim.pointer("/status/capacity/storage")).unwrap_or_else(|| "0".into()),
            access_modes(array_at(claim, "/status/accessModes")),
        )
    };
    vec![
        name_cell(claim),
        text(phase),
        text(volume),
        text(capacity),
        text(modes),
        text(storage_class(claim)),
        text(str_at(claim, "/spec/volumeAttributesClassName").unwrap_or("<unset>")),
        age_cell(claim, now),
        text(str_at(claim, "/spec/volumeMode").unwrap_or("<unset>")),
    ]
}

/// `printPodTemplate`: the template's containers, images and labels.
pub(super) fn print_pod_template(template: &Value, _now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(template, "/template/spec/containers"));
    vec![
        name_cell(template),
        text(names),
        text(images),
        text(format_labels(template.pointer("/template/metadata/labels"))),
    ]
}

/// `printReplicationController`: desired, current and ready replicas,
/// age, the template's containers and images, and the selector (a label
/// set).
pub(super) fn print_replication_controller(controller: &Value, now: DateTime<Utc>) -> Vec<Value> {
    replicas_row(
        controller,
        now,
        format_labels(controller.pointer("/spec/selector")),
    )
}

/// The row ReplicationControllers and ReplicaSets share: name, desired,
/// current and ready replicas, age, the template's containers and
/// images, and `selector` as the kind prints it.
pub(super) fn replicas_row(object: &Value, now: DateTime<Utc>, selector: String) -> Vec<Value> {
    let (names, images) = container_cells(array_at(object, "/spec/template/spec/containers"));
    vec![
        name_cell(object),
        Value::from(int_at(object, "/spec/replicas")),
        Value::from(int_at(object, "/status/replicas")),
        Value::from(int_at(object, "/status/readyReplicas")),
        age_cell(object, now),
        text(names),
        text(images),
        text(selector),
    ]
}

/// `printResourceQuota`: `resource: used/hard` of every hard limit, sorted
/// by resource, the `limits.*` ones in the Limit column and the others in
/// the Request column.
pub(super) fn print_resource_quota(quota: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let empty = Map::new();
    let hard = map_at(quota, "/status/hard").unwrap_or(&empty);
    let used = map_at(quota, "/status/used").unwrap_or(&empty);
    let mut resources: Vec<&String> = hard.keys().collect();
    resources.sort();
    let (mut requests, mut limits) = (Vec::new(), Vec::new());
    for resource in resources {
        let entry = format!(
            "{resource}: {}/{}",
            quantity(used.get(resource)).unwrap_or_else(|| "0".into()),
            quantity(hard.get(resource)).unwrap_or_else(|| "0".into()),
        );
        let mut pieces = resource.split('.');
        if pieces.next() == Some("limits") && pieces.next().is_some() {
            limits.push(entry);
        } else {
            requests.push(entry);
        }
    }
    vec![
        name_cell(quota),
        text(requests.join(", ")),
        text(limits.join(", ")),
        age_cell(quota, now),
    ]
}

/// `printSecret`: the type and the number of data entries (`stringData`
/// keys count too: the apiserver merges them into `data`).
pub(super) fn print_secret(secret: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let mut keys: std::collections::BTreeSet<&String> = std::collections::BTreeSet::new();
    for pointer in ["/data", "/stringData"] {
        keys.extend(map_at(secret, pointer).into_iter().flat_map(Map::keys));
    }
    vec![
        name_cell(secret),
        text(text_at(secret, "/type")),
        Value::from(keys.len() as i64),
        age_cell(secret, now),
    ]
}

/// `loadBalancerStatusStringer` (and its Ingress twin) as wide output
/// prints it: the ingress points' IPs, else hostnames, sorted, without
/// duplicates, joined by `,` (never clipped: the server asks for wide
/// rows).
pub(super) fn load_balancer_ingress(object: &Value, pointer: &str) -> String {
    let points: std::collections::BTreeSet<&str> = array_at(object, pointer)
        .iter()
        .filter_map(|i| {
            str_at(i, "/ip")
                .filter(|ip| !ip.is_empty())
                .or_else(|| str_at(i, "/hostname").filter(|h| !h.is_empty()))
        })
        .collect();
    points.into_iter().collect::<Vec<_>>().join(",")
}

/// `getServiceExternalIP` (wide): the external IPs of a ClusterIP or
/// NodePort service (`<none>`), the load balancer's ingress points then
/// the external IPs of a LoadBalancer one (`<pending>`), the external
/// name of an ExternalName one, `<unknown>` for any other type.
pub(super) fn service_external_ip(service: &Value) -> String {
    let external: Vec<&str> = array_at(service, "/spec/externalIPs")
        .iter()
        .map(|ip| ip.as_str().unwrap_or_default())
        .collect();
    match str_at(service, "/spec/type").unwrap_or_default() {
        "ClusterIP" | "NodePort" => or(external.join(","), "<none>"),
        "LoadBalancer" => {
            let ingress = load_balancer_ingress(service, "/status/loadBalancer/ingress");
            if !external.is_empty() {
                let mut all: Vec<&str> = Vec::new();
                if !ingress.is_empty() {
                    all.extend(ingress.split(','));
                }
                all.extend(external);
                all.join(",")
            } else {
                or(ingress, "<pending>")
            }
        }
        "ExternalName" => text_at(service, "/spec/externalName"),
        _ => "<unknown>".into(),
    }
}

/// `makePortString`: `port/protocol`, or `port:nodePort/protocol`.
pub(super) fn service_ports(service: &Value) -> String {
    array_at(service, "/spec/ports")
        .iter()
        .map(|p| {
            let (port, protocol) = (int_at(p, "/port"), text_at(p, "/protocol"));
            match int_at(p, "/nodePort") {
                node_port if node_port > 0 => format!("{port}:{node_port}/{protocol}"),
                _ => format!("{port}/{protocol}"),
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `printService`: type, the first cluster IP (`<none>`), the external
/// IPs, the ports (`<none>`), age and the selector (a label set).
pub(super) fn print_service(service: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let cluster_ip = array_at(service, "/spec/clusterIPs").first().map_or_else(
        || "<none>".to_string(),
        |ip| ip.as_str().unwrap_or_default().to_string(),
    );
    vec![
        name_cell(service),
        text(text_at(service, "/spec/type")),
        text(cluster_ip),
        text(service_external_ip(service)),
        text(or(service_ports(service), "<none>")),
        age_cell(service, now),
        text(format_labels(service.pointer("/spec/selector"))),
    ]
}

/// `printServiceAccount`: the number of secrets.
pub(super) fn print_service_account(account: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(account),
        Value::from(array_at(account, "/secrets").len() as i64),
        age_cell(account, now),
    ]
}

/// `printControllerRevision`: the controller (`metav1.GetControllerOf`)
/// as `kind.group/name` (`formatResourceName`), `<none>` without one; the
/// revision; age.
pub(super) fn print_controller_revision(revision: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let controller = array_at(revision, "/metadata/ownerReferences")
        .iter()
        .find(|r| r["controller"] == true)
        .map_or_else(
            || "<none>".to_string(),
            |owner| {
                // schema.ParseGroupVersion: the group is what comes before
                // the one `/` (upstream fails the whole table on more
                // than one, which validation keeps out of a store).
                let api_version = text_at(owner, "/apiVersion");
                let group = match api_version.split_once('/') {
                    Some((group, _)) => group,
                    None => "",
                };
                let kind = text_at(owner, "/kind");
                let name = text_at(owner, "/name");
                match (group, kind.as_str()) {
                    ("", "") => name,
                    ("", kind) => format!("{}/{name}", kind.to_lowercase()),
                    (group, kind) => format!("{}/{name}", format!("{kind}.{group}").to_lowercase()),
                }
            },
        );
    vec![
        name_cell(revision),
        text(controller),
        Value::from(int_at(revision, "/revision")),
        age_cell(revision, now),
    ]
}

/// `printDaemonSet`: desired, current, ready, up-to-date and available
/// numbers of nodes, the template's node selector (a label set), age, the
/// template's containers and images, and the selector.
pub(super) fn print_daemon_set(daemon_set: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(daemon_set, "/spec/template/spec/containers"));
    let status = |field: &str| Value::from(int_at(daemon_set, &format!("/status/{field}")));
    vec![
        name_cell(daemon_set),
        status("desiredNumberScheduled"),
        status("currentNumberScheduled"),
        status("numberReady"),
        status("updatedNumberScheduled"),
        status("numberAvailable"),
        text(format_labels(
            daemon_set.pointer("/spec/template/spec/nodeSelector"),
        )),
        age_cell(daemon_set, now),
        text(names),
        text(images),
        text(format_label_selector(daemon_set.pointer("/spec/selector"))),
    ]
}

/// `printReplicaSet`: desired, current and ready replicas, age, the
/// template's containers and images, and the selector.
pub(super) fn print_replica_set(replica_set: &Value, now: DateTime<Utc>) -> Vec<Value> {
    replicas_row(
        replica_set,
        now,
        format_label_selector(replica_set.pointer("/spec/selector")),
    )
}

/// `printStatefulSet`: ready of desired replicas, age, the template's
/// containers and images.
pub(super) fn print_stateful_set(stateful_set: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(stateful_set, "/spec/template/spec/containers"));
    vec![
        name_cell(stateful_set),
        text(format!(
            "{}/{}",
            int_at(stateful_set, "/status/readyReplicas"),
            int_at(stateful_set, "/spec/replicas")
        )),
        age_cell(stateful_set, now),
        text(names),
        text(images),
    ]
}

/// `printBoolPtr`: `True`, `False`, or `<unset>`.
pub(super) fn bool_text(value: Option<&Value>) -> &'static str {
    match value.and_then(Value::as_bool) {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    }
}

/// `printCronJob`: schedule, time zone (`<none>`), suspend (as text, as
/// upstream's cell is), the number of active jobs, the last schedule's age
/// (`<none>`), age, the job template's containers, images and selector.
pub(super) fn print_cron_job(cron_job: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(
        cron_job,
        "/spec/jobTemplate/spec/template/spec/containers",
    ));
    let last_schedule = match time_at(cron_job, "/status/lastScheduleTime") {
        Some(t) => since(Some(t), now),
        None => "<none>".into(),
    };
    vec![
        name_cell(cron_job),
        text(text_at(cron_job, "/spec/schedule")),
        text(str_at(cron_job, "/spec/timeZone").unwrap_or("<none>")),
        text(bool_text(cron_job.pointer("/spec/suspend"))),
        Value::from(array_at(cron_job, "/status/active").len() as i64),
        text(last_schedule),
        age_cell(cron_job, now),
        text(names),
        text(images),
        text(format_label_selector(
            cron_job.pointer("/spec/jobTemplate/spec/selector"),
        )),
    ]
}

/// `hasJobCondition`: whether the first condition of the type is true.
pub(super) fn has_job_condition(job: &Value, kind: &str) -> bool {
    array_at(job, "/status/conditions")
        .iter()
        .find(|c| c["type"] == kind)
        .is_some_and(|c| c["status"] == "True")
}

/// `printJob`: the status (`Complete`, `Failed`, `Terminating`,
/// `Suspended`, `FailureTarget` or `Running`), completions
/// (`succeeded/completions`, or `succeeded/1` and ` of parallelism` when
/// more than one runs at once), the duration (to completion, or so far;
/// empty before the start), age, the template's containers, images and
/// the selector.
pub(super) fn print_job(job: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let succeeded = int_at(job, "/status/succeeded");
    let completions = match job.pointer("/spec/completions").and_then(Value::as_i64) {
        Some(completions) => format!("{succeeded}/{completions}"),
        None => match int_at(job, "/spec/parallelism") {
            parallelism if parallelism > 1 => format!("{succeeded}/1 of {parallelism}"),
            _ => format!("{succeeded}/1"),
        },
    };
    let duration = match (
        time_at(job, "/status/startTime"),
        time_at(job, "/status/completionTime"),
    ) {
        (None, _) => String::new(),
        (Some(start), None) => human_duration(now.signed_duration_since(start)),
        (Some(start), Some(end)) => human_duration(end.signed_duration_since(start)),
    };
    let status = if has_job_condition(job, "Complete") {
        "Complete"
    } else if has_job_condition(job, "Failed") {
        "Failed"
    } else if deleting(job) {
        "Terminating"
    } else if has_job_condition(job, "Suspended") {
        "Suspended"
    } else if has_job_condition(job, "FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let (names, images) = container_cells(array_at(job, "/spec/template/spec/containers"));
    vec![
        name_cell(job),
        text(status),
        text(completions),
        text(duration),
        age_cell(job, now),
        text(names),
        text(images),
        text(format_label_selector(job.pointer("/spec/selector"))),
    ]
}

/// `printLease`: the holder's identity.
pub(super) fn print_lease(lease: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(lease),
        text(text_at(lease, "/spec/holderIdentity")),
        age_cell(lease, now),
    ]
}

/// events.k8s.io/v1 Event.
pub(super) const EVENTS_V1_EVENT: EventFields = EventFields {
    regarding: "/regarding",
    note: "/note",
    source: "/deprecatedSource",
    first_timestamp: "/deprecatedFirstTimestamp",
    last_timestamp: "/deprecatedLastTimestamp",
    count: "/deprecatedCount",
};

/// `printEvent` of an events.k8s.io/v1 Event, read as the apiserver
/// converts it to the internal Event.
pub(super) fn print_events_v1_event(event: &Value, now: DateTime<Utc>) -> Vec<Value> {
    print_event_fields(event, now, &EVENTS_V1_EVENT)
}

/// The more-than-`max` suffix of upstream's lists: ` + N more...`.
pub(super) fn with_more(list: &[String], more: bool, count: usize, max: usize) -> String {
    let joined = list.join(",");
    if more {
        format!("{joined} + {} more...", count - max)
    } else {
        joined
    }
}

/// `formatHosts`: up to three rules' hosts, `*` when none has one.
pub(super) fn ingress_hosts(rules: &[Value]) -> String {
    const MAX: usize = 3;
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    for rule in rules {
        if list.len() == MAX {
            more = true;
        }
        if let Some(host) = str_at(rule, "/host").filter(|h| !more && !h.is_empty()) {
            list.push(host.to_string());
        }
    }
    if list.is_empty() {
        return "*".into();
    }
    with_more(&list, more, rules.len(), MAX)
}

/// `printIngress`: the class (`<none>`), hosts, load balancer addresses,
/// ports (`80`, and `443` with TLS).
pub(super) fn print_ingress(ingress: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let ports = if array_at(ingress, "/spec/tls").is_empty() {
        "80"
    } else {
        "80, 443"
    };
    vec![
        name_cell(ingress),
        text(str_at(ingress, "/spec/ingressClassName").unwrap_or("<none>")),
        text(ingress_hosts(array_at(ingress, "/spec/rules"))),
        text(load_balancer_ingress(
            ingress,
            "/status/loadBalancer/ingress",
        )),
        text(ports),
        age_cell(ingress, now),
    ]
}

/// `printIngressClass`: the controller and the parameters as
/// `kind[.apiGroup]/name` (`<none>`).
pub(super) fn print_ingress_class(class: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let parameters = match class.pointer("/spec/parameters") {
        Some(parameters @ Value::Object(_)) => {
            let mut text = text_at(parameters, "/kind");
            if let Some(group) = str_at(parameters, "/apiGroup") {
                text = format!("{text}.{group}");
            }
            format!("{text}/{}", text_at(parameters, "/name"))
        }
        _ => "<none>".into(),
    };
    vec![
        name_cell(class),
        text(text_at(class, "/spec/controller")),
        text(parameters),
        age_cell(class, now),
    ]
}

/// `printNetworkPolicy`: the pod selector (an absent one is the empty
/// selector, `<none>`).
pub(super) fn print_network_policy(policy: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let empty = Value::Object(Map::new());
    let selector = policy.pointer("/spec/podSelector").unwrap_or(&empty);
    vec![
        name_cell(policy),
        text(format_label_selector(Some(selector))),
        age_cell(policy, now),
    ]
}

/// `printPodDisruptionBudget`: min available and max unavailable (`N/A`),
/// the disruptions allowed.
pub(super) fn print_pod_disruption_budget(budget: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let bound =
        |pointer: &str| int_or_string(budget.pointer(pointer)).unwrap_or_else(|| "N/A".into());
    vec![
        name_cell(budget),
        text(bound("/spec/minAvailable")),
        text(bound("/spec/maxUnavailable")),
        Value::from(int_at(budget, "/status/disruptionsAllowed")),
        age_cell(budget, now),
    ]
}

/// `listWithMoreString`: the list, ` + N more...`, `<unset>` when empty.
pub(super) fn list_with_more(list: &[String], more: bool, count: usize, max: usize) -> String {
    or(with_more(list, more, count, max), "<unset>")
}

/// `printEndpointSlice`: the address type, up to three ports
/// (`formatDiscoveryPorts`: the number, else the name, else `*`) and up
/// to three addresses (`formatDiscoveryEndpoints`).
pub(super) fn print_endpoint_slice(slice: &Value, now: DateTime<Utc>) -> Vec<Value> {
    const MAX: usize = 3;
    let mut ports = Vec::new();
    let (mut more, mut count) = (false, 0);
    for port in array_at(slice, "/ports") {
        if ports.len() < MAX {
            let number = match port.get("port").and_then(Value::as_i64) {
                Some(number) => number.to_string(),
                None => str_at(port, "/name").unwrap_or("*").to_string(),
            };
            ports.push(number);
        } else if ports.len() == MAX {
            more = true;
        }
        count += 1;
    }
    let ports = list_with_more(&ports, more, count, MAX);
    let mut addresses = Vec::new();
    let (mut more, mut count) = (false, 0);
    for endpoint in array_at(slice, "/endpoints") {
        for address in array_at(endpoint, "/addresses") {
            if addresses.len() < MAX {
                addresses.push(address.as_str().unwrap_or_default().to_string());
            } else if addresses.len() == MAX {
                more = true;
            }
            count += 1;
        }
    }
    vec![
        name_cell(slice),
        text(text_at(slice, "/addressType")),
        text(ports),
        text(list_with_more(&addresses, more, count, MAX)),
        age_cell(slice, now),
    ]
}

/// A `*resource.Quantity`'s `String()`: `<nil>` when absent.
pub(super) fn quantity_or_nil(value: Option<&Value>) -> String {
    quantity(value).unwrap_or_else(|| "<nil>".into())
}

/// `formatHPAMetrics`: each metric's `current/target` (`<unknown>` while
/// there is no current value; `(avg)` for an average value target of an
/// external or object metric; `name: ` before a resource's; `%` for
/// utilizations, `<auto>` without a target one), the first two joined by
/// `, ` then ` + N more...`; `<none>` without metrics.
pub(super) fn hpa_metrics(specs: &[Value], statuses: &[Value]) -> String {
    const MAX: usize = 2;
    if specs.is_empty() {
        return "<none>".into();
    }
    let mut list: Vec<String> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        // The status of the same index, when it has the metric's source.
        let status = |source: &str| {
            statuses
                .get(i)
                .and_then(|s| s.get(source))
                .filter(|s| s.is_object())
        };
        let current_or_unknown =
            |source: &str, f: &dyn Fn(&Value) -> Option<String>| status(source).and_then(f);
        let kind = str_at(spec, "/type").unwrap_or_default();
        let entry = match kind {
            "External" | "Object" => {
                let source = if kind == "External" {
                    "external"
                } else {
                    "object"
                };
                let target = spec.get(source).unwrap_or(&Value::Null);
                match target
                    .pointer("/target/averageValue")
                    .filter(|v| !v.is_null())
                {
                    Some(average) => {
                        let current = current_or_unknown(source, &|s| {
                            quantity(s.pointer("/current/averageValue"))
                        });
                        format!(
                            "{}/{} (avg)",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            quantity_or_nil(Some(average))
                        )
                    }
                    None => {
                        let current = current_or_unknown(source, &|s| {
                            Some(quantity_or_nil(s.pointer("/current/value")))
                        });
                        format!(
                            "{}/{}",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            quantity_or_nil(target.pointer("/target/value"))
                        )
                    }
                }
            }
            "Pods" => {
                let current = current_or_unknown("pods", &|s| {
                    Some(quantity_or_nil(s.pointer("/current/averageValue")))
                });
                format!(
                    "{}/{}",
                    current.unwrap_or_else(|| "<unknown>".into()),
                    quantity_or_nil(spec.pointer("/pods/target/averageValue"))
                )
            }
            "Resource" | "ContainerResource" => {
                let source = if kind == "Resource" {
                    "resource"
                } else {
                    "containerResource"
                };
                let target = spec.get(source).unwrap_or(&Value::Null);
                let name = text_at(target, "/name");
                match target
                    .pointer("/target/averageValue")
                    .filter(|v| !v.is_null())
                {
                    Some(average) => {
                        let current = current_or_unknown(source, &|s| {
                            Some(quantity_or_nil(s.pointer("/current/averageValue")))
                        });
                        format!(
                            "{name}: {}/{}",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            quantity_or_nil(Some(average))
                        )
                    }
                    None => {
                        let percent = |v: &Value, pointer: &str| {
                            v.pointer(pointer)
                                .and_then(Value::as_i64)
                                .map(|p| format!("{p}%"))
                        };
                        let current = current_or_unknown(source, &|s| {
                            percent(s, "/current/averageUtilization")
                        });
                        let target = percent(target, "/target/averageUtilization");
                        format!(
                            "{name}: {}/{}",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            target.unwrap_or_else(|| "<auto>".into())
                        )
                    }
                }
            }
            _ => "<unknown type>".into(),
        };
        list.push(entry);
    }
    let count = list.len();
    let more = count > MAX;
    list.truncate(MAX);
    let joined = list.join(", ");
    if more {
        format!("{joined} + {} more...", count - MAX)
    } else {
        joined
    }
}

/// `printHorizontalPodAutoscaler`: `kind/name` of the target, the
/// metrics, min (`<unset>`) and max replicas, the current replicas.
pub(super) fn print_horizontal_pod_autoscaler(hpa: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let min = match hpa.pointer("/spec/minReplicas").and_then(Value::as_i64) {
        Some(min) => min.to_string(),
        None => "<unset>".into(),
    };
    vec![
        name_cell(hpa),
        text(format!(
            "{}/{}",
            text_at(hpa, "/spec/scaleTargetRef/kind"),
            text_at(hpa, "/spec/scaleTargetRef/name")
        )),
        text(hpa_metrics(
            array_at(hpa, "/spec/metrics"),
            array_at(hpa, "/status/currentMetrics"),
        )),
        text(min),
        Value::from(int_at(hpa, "/spec/maxReplicas")),
        Value::from(int_at(hpa, "/status/currentReplicas")),
        age_cell(hpa, now),
    ]
}

/// The boolean at `pointer`, `default` when absent.
pub(super) fn bool_at(object: &Value, pointer: &str, default: bool) -> bool {
    object
        .pointer(pointer)
        .and_then(Value::as_bool)
        .unwrap_or(default)
}

/// `printCSIDriver`: attach required (default true), pod info on mount,
/// storage capacity, the token requests' audiences (`<unset>` without
/// the field), requires republish, the volume lifecycle modes (`<none>`),
/// age.
pub(super) fn print_csi_driver(driver: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let token_requests = match driver.pointer("/spec/tokenRequests") {
        Some(Value::Array(requests)) => requests
            .iter()
            .map(|r| text_at(r, "/audience"))
            .collect::<Vec<_>>()
            .join(","),
        _ => "<unset>".into(),
    };
    let modes: Vec<&str> = array_at(driver, "/spec/volumeLifecycleModes")
        .iter()
        .map(|m| m.as_str().unwrap_or_default())
        .collect();
    vec![
        name_cell(driver),
        Value::Bool(bool_at(driver, "/spec/attachRequired", true)),
        Value::Bool(bool_at(driver, "/spec/podInfoOnMount", false)),
        Value::Bool(bool_at(driver, "/spec/storageCapacity", false)),
        text(token_requests),
        Value::Bool(bool_at(driver, "/spec/requiresRepublish", false)),
        text(or(modes.join(","), "<none>")),
        age_cell(driver, now),
    ]
}

/// `printCSINode`: the number of drivers.
pub(super) fn print_csi_node(node: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(node),
        Value::from(array_at(node, "/spec/drivers").len() as i64),
        age_cell(node, now),
    ]
}

/// `printCSIStorageCapacity`: the storage class and the capacity
/// (`<unset>`).
pub(super) fn print_csi_storage_capacity(capacity: &Value, _now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(capacity),
        text(text_at(capacity, "/storageClassName")),
        text(quantity(capacity.get("capacity")).unwrap_or_else(|| "<unset>".into())),
    ]
}

/// `printStorageClass`: the name (` (default)` for the default class), the
/// provisioner, reclaim policy (`Delete`), volume binding mode
/// (`Immediate`), whether volumes expand (false), age.
pub(super) fn print_storage_class(class: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let annotations = map_at(class, "/metadata/annotations");
    let is_default = [
        "storageclass.kubernetes.io/is-default-class",
        "storageclass.beta.kubernetes.io/is-default-class",
    ]
    .iter()
    .any(|key| {
        annotations
            .and_then(|a| a.get(*key))
            .and_then(Value::as_str)
            == Some("true")
    });
    let mut name = text_at(class, "/metadata/name");
    if is_default {
        name.push_str(" (default)");
    }
    vec![
        text(name),
        text(text_at(class, "/provisioner")),
        text(str_at(class, "/reclaimPolicy").unwrap_or("Delete")),
        text(str_at(class, "/volumeBindingMode").unwrap_or("Immediate")),
        Value::Bool(bool_at(class, "/allowVolumeExpansion", false)),
        age_cell(class, now),
    ]
}

/// `printVolumeAttachment`: attacher, persistent volume, node, attached,
/// age.
pub(super) fn print_volume_attachment(attachment: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(attachment),
        text(text_at(attachment, "/spec/attacher")),
        text(text_at(attachment, "/spec/source/persistentVolumeName")),
        text(text_at(attachment, "/spec/nodeName")),
        Value::Bool(bool_at(attachment, "/status/attached", false)),
        age_cell(attachment, now),
    ]
}

/// `printPriorityClass`: value, global default, age, preemption policy.
pub(super) fn print_priority_class(class: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(class),
        Value::from(int_at(class, "/value")),
        Value::Bool(bool_at(class, "/globalDefault", false)),
        age_cell(class, now),
        text(text_at(class, "/preemptionPolicy")),
    ]
}

/// `extractCSRStatus`: `Denied`, `Approved` or `Pending` by the
/// conditions' types, then `,Failed`, and `,Issued` once there is a
/// certificate.
pub(super) fn csr_status(request: &Value) -> String {
    let conditions = array_at(request, "/status/conditions");
    let has = |kind: &str| conditions.iter().any(|c| c["type"] == kind);
    let mut status = if has("Denied") {
        "Denied"
    } else if has("Approved") {
        "Approved"
    } else {
        "Pending"
    }
    .to_string();
    if has("Failed") {
        status.push_str(",Failed");
    }
    if str_at(request, "/status/certificate").is_some_and(|c| !c.is_empty()) {
        status.push_str(",Issued");
    }
    status
}

/// `printCertificateSigningRequest`: age, signer (`<none>`), the
/// requesting user, the requested duration (`<none>`), the condition.
pub(super) fn print_certificate_signing_request(request: &Value, now: DateTime<Utc>) -> Vec<Value> {
    // An int32 upstream: a larger number could not be stored.
    let duration = match request
        .pointer("/spec/expirationSeconds")
        .and_then(Value::as_i64)
        .and_then(|s| i32::try_from(s).ok())
    {
        Some(seconds) => human_duration(chrono::TimeDelta::seconds(i64::from(seconds))),
        None => "<none>".into(),
    };
    vec![
        name_cell(request),
        age_cell(request, now),
        text(or(text_at(request, "/spec/signerName"), "<none>")),
        text(text_at(request, "/spec/username")),
        text(duration),
        text(csr_status(request)),
    ]
}
