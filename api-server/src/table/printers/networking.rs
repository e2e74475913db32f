//! Printers of the networking kinds: ingresses and their classes,
//! network policies, endpoint slices.

use super::*;

/// The more-than-`max` suffix of upstream's lists: ` + N more...`.
pub(in crate::table) fn with_more(list: &[String], more: bool, count: usize, max: usize) -> String {
    let joined = list.join(",");
    if more {
        format!("{joined} + {} more...", count - max)
    } else {
        joined
    }
}

/// `formatHosts`: up to three rules' hosts, `*` when none has one.
pub(in crate::table) fn ingress_hosts(rules: &[Value]) -> String {
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
pub(in crate::table) fn print_ingress(ingress: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn print_ingress_class(class: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn print_network_policy(policy: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let empty = Value::Object(Map::new());
    let selector = policy.pointer("/spec/podSelector").unwrap_or(&empty);
    vec![
        name_cell(policy),
        text(format_label_selector(Some(selector))),
        age_cell(policy, now),
    ]
}

/// `listWithMoreString`: the list, ` + N more...`, `<unset>` when empty.
pub(in crate::table) fn list_with_more(
    list: &[String],
    more: bool,
    count: usize,
    max: usize,
) -> String {
    or(with_more(list, more, count, max), "<unset>")
}

/// `printEndpointSlice`: the address type, up to three ports
/// (`formatDiscoveryPorts`: the number, else the name, else `*`) and up
/// to three addresses (`formatDiscoveryEndpoints`).
pub(in crate::table) fn print_endpoint_slice(slice: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
