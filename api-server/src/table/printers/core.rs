//! Printers of the core (`v1`) kinds: pods, services, nodes, volumes and
//! claims, config maps, secrets, events, ...

use super::*;

/// `printPod`, for what a store without a kubelet holds: ready
/// containers of all, the reason (the pod's, a container's waiting or
/// terminated reason, `Terminating` once deleted, else the phase), the
/// restarts summed, age, IP and node.
pub(in crate::table) fn print_pod(pod: &Value, now: DateTime<Utc>) -> Vec<Value> {
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

/// `formatEndpoints(endpoints, nil)`: up to three `ip:port` (or `ip` for
/// a subset without ports), then ` + N more...`; `<none>` without subsets.
pub(in crate::table) fn format_endpoints(endpoints: &Value) -> String {
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
pub(in crate::table) fn print_config_map(config_map: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let entries = map_len(config_map, "/data") + map_len(config_map, "/binaryData");
    vec![
        name_cell(config_map),
        Value::from(entries as i64),
        age_cell(config_map, now),
    ]
}

/// `printEndpoints`.
pub(in crate::table) fn print_endpoints(endpoints: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) struct EventFields {
    regarding: &'static str,
    note: &'static str,
    source: &'static str,
    first_timestamp: &'static str,
    last_timestamp: &'static str,
    count: &'static str,
}

/// core/v1 Event.
pub(in crate::table) const CORE_EVENT: EventFields = EventFields {
    regarding: "/involvedObject",
    note: "/message",
    source: "/source",
    first_timestamp: "/firstTimestamp",
    last_timestamp: "/lastTimestamp",
    count: "/count",
};

/// `printEvent` of a core/v1 Event.
pub(in crate::table) fn print_event(event: &Value, now: DateTime<Utc>) -> Vec<Value> {
    print_event_fields(event, now, &CORE_EVENT)
}

/// `printEvent`: last seen (the series' last observation, else the last
/// timestamp, else the first), type, reason, `kind/name` of the object,
/// its field path, the source (`formatEventSource`), the trimmed message,
/// first seen (the first timestamp, else the event time), the count (the
/// series', else the event's, 1 when unset) and the name.
pub(in crate::table) fn print_event_fields(
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

/// `printNode`: `Ready` or `NotReady` by the (last) `Ready` condition,
/// `Unknown` without one, `SchedulingDisabled` added when unschedulable;
/// the roles (`findNodeRoles`); age; the kubelet version; the first
/// internal and external addresses, OS image, kernel and container
/// runtime versions.
pub(in crate::table) fn print_node(node: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn node_roles(node: &Value) -> Vec<String> {
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
pub(in crate::table) fn access_modes(modes: &[Value]) -> String {
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
pub(in crate::table) fn storage_class(object: &Value) -> String {
    match map_at(object, "/metadata/annotations")
        .and_then(|a| a.get("volume.beta.kubernetes.io/storage-class"))
    {
        Some(class) => class.as_str().unwrap_or_default().to_string(),
        None => text_at(object, "/spec/storageClassName"),
    }
}

/// `printPersistentVolume`: capacity, access modes, reclaim policy,
/// phase (`Terminating` once deleted), `namespace/name` of the claim,
/// storage class, volume attributes class (`<unset>`), reason, age and
/// volume mode (`<unset>`).
pub(in crate::table) fn print_persistent_volume(volume: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn print_persistent_volume_claim(
    claim: &Value,
    now: DateTime<Utc>,
) -> Vec<Value> {
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
pub(in crate::table) fn print_pod_template(template: &Value, _now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn print_replication_controller(
    controller: &Value,
    now: DateTime<Utc>,
) -> Vec<Value> {
    replicas_row(
        controller,
        now,
        format_labels(controller.pointer("/spec/selector")),
    )
}

/// `printResourceQuota`: `resource: used/hard` of every hard limit, sorted
/// by resource, the `limits.*` ones in the Limit column and the others in
/// the Request column.
pub(in crate::table) fn print_resource_quota(quota: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn print_secret(secret: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn load_balancer_ingress(object: &Value, pointer: &str) -> String {
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
pub(in crate::table) fn service_external_ip(service: &Value) -> String {
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
pub(in crate::table) fn service_ports(service: &Value) -> String {
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
pub(in crate::table) fn print_service(service: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn print_service_account(account: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(account),
        Value::from(array_at(account, "/secrets").len() as i64),
        age_cell(account, now),
    ]
}

/// `printEvent` of an events.k8s.io/v1 Event, read as the apiserver
/// converts it to the internal Event.
pub(in crate::table) fn print_events_v1_event(event: &Value, now: DateTime<Utc>) -> Vec<Value> {
    print_event_fields(event, now, &EVENTS_V1_EVENT)
}

/// events.k8s.io/v1 Event.
pub(in crate::table) const EVENTS_V1_EVENT: EventFields = EventFields {
    regarding: "/regarding",
    note: "/note",
    source: "/deprecatedSource",
    first_timestamp: "/deprecatedFirstTimestamp",
    last_timestamp: "/deprecatedLastTimestamp",
    count: "/deprecatedCount",
};
