//! Printers of the storage.k8s.io kinds: CSI drivers, nodes and
//! capacities, storage classes, volume attachments.

use super::*;

/// The boolean at `pointer`, `default` when absent.
pub(in crate::table) fn bool_at(object: &Value, pointer: &str, default: bool) -> bool {
    object
        .pointer(pointer)
        .and_then(Value::as_bool)
        .unwrap_or(default)
}

/// `printCSIDriver`: attach required (default true), pod info on mount,
/// storage capacity, the token requests' audiences (`<unset>` without
/// the field), requires republish, the volume lifecycle modes (`<none>`),
/// age.
pub(in crate::table) fn print_csi_driver(driver: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn print_csi_node(node: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(node),
        Value::from(array_at(node, "/spec/drivers").len() as i64),
        age_cell(node, now),
    ]
}

/// `printCSIStorageCapacity`: the storage class and the capacity
/// (`<unset>`).
pub(in crate::table) fn print_csi_storage_capacity(
    capacity: &Value,
    _now: DateTime<Utc>,
) -> Vec<Value> {
    vec![
        name_cell(capacity),
        text(text_at(capacity, "/storageClassName")),
        text(quantity(capacity.get("capacity")).unwrap_or_else(|| "<unset>".into())),
    ]
}

/// `printStorageClass`: the name (` (default)` for the default class), the
/// provisioner, reclaim policy (`Delete`), volume binding mode
/// (`Immediate`), whether volumes expand (false), age.
pub(in crate::table) fn print_storage_class(class: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
pub(in crate::table) fn print_volume_attachment(
    attachment: &Value,
    now: DateTime<Utc>,
) -> Vec<Value> {
    vec![
        name_cell(attachment),
        text(text_at(attachment, "/spec/attacher")),
        text(text_at(attachment, "/spec/source/persistentVolumeName")),
        text(text_at(attachment, "/spec/nodeName")),
        Value::Bool(bool_at(attachment, "/status/attached", false)),
        age_cell(attachment, now),
    ]
}
