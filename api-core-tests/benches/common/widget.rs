//! The `Widget` resource the benchmarks share: a 12-field spec (nested
//! struct, string enum with a default, list-map of ports, map, list of
//! strings, bounded optional integers and strings) and a 5-field status,
//! defined with this library. Included by `benches/derive.rs` and by
//! `bench-kube/benches/kube.rs` (`#[path]`), so both measure the same type.

use std::collections::BTreeMap;

use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// WidgetSpec is the desired state of a Widget.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "bench.example.com",
    version = "v1",
    kind = "Widget",
    doc = "Widget is a benchmark resource with a realistic spec.",
    namespaced,
    status = "WidgetStatus",
    shortname = "wg",
    category = "all",
    printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas"),
    printcolumn(name = "Image", type = "string", json_path = ".spec.image")
)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// replicas is the number of instances.
    #[kube(minimum = 0, maximum = 100)]
    #[default(1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,

    /// image is the container image to run.
    #[kube(min_length = 1, max_length = 512)]
    pub image: String,

    /// schedule is a cron schedule: five fields separated by spaces.
    #[kube(min_length = 9, max_length = 128, pattern = r"^(\S+\s+){4}\S+$")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<String>,

    /// policy says what to do when a run is due while the previous one
    /// is still running.
    #[default(Policy::Allow)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,

    /// suspend stops future runs.
    #[default(false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,

    /// template is the pod template of every instance.
    pub template: Template,

    /// ports the widget listens on, identified by name.
    #[kube(list_type = "map", list_map_keys = ["name"], max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port>,

    /// selector labels of the instances.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub selector: BTreeMap<String, String>,

    /// args are passed to the entrypoint.
    #[kube(max_items = 64, items(max_length = 4096))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,

    /// timeoutSeconds bounds how long a run may take.
    #[kube(minimum = 1, maximum = 86400)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<i64>,

    /// serviceAccountName is the service account the instances run as.
    #[kube(max_length = 253, pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,

    /// priority of the instances against other workloads.
    #[kube(minimum = -1000, maximum = 1000)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
}

/// Policy says how runs may overlap.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Runs may overlap.
    Allow,
    /// A run is skipped while the previous one is still running.
    Forbid,
    /// A new run replaces the one still running.
    Replace,
}

/// Template describes an instance.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Template {
    /// command overrides the image's entrypoint.
    #[kube(max_items = 64, items(max_length = 4096))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,

    /// workingDir is the directory the command runs in.
    #[kube(max_length = 4096)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_dir: Option<String>,

    /// env is the environment of the command.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
}

/// Port is a named network port.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Port {
    /// name identifies the port within the list.
    #[kube(
        min_length = 1,
        max_length = 15,
        pattern = "^[a-z]([-a-z0-9]*[a-z0-9])?$"
    )]
    pub name: String,

    /// port is the port number.
    #[kube(minimum = 1, maximum = 65535)]
    pub port: i32,

    /// protocol of the port.
    #[default(Protocol::Tcp)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol>,
}

/// Protocol is a network protocol.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// TCP.
    #[serde(rename = "TCP")]
    Tcp,
    /// UDP.
    #[serde(rename = "UDP")]
    Udp,
}

/// WidgetStatus is the observed state of a Widget.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct WidgetStatus {
    /// readyReplicas is the number of ready instances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,

    /// message is a human-readable summary of the state.
    #[kube(max_length = 1024)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,

    /// active lists the names of the instances currently running.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<String>,

    /// lastScheduleTime is when a run was last started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,

    /// observedGeneration is the generation the status is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

/// The generated description of `Widget` (private to this module), for
/// `derive.rs`'s breakdown of where `crd()` spends its time.
#[allow(dead_code)] // bench-kube does not use it
pub fn widget_info() -> &'static api_core::__private::ResourceInfo {
    &Widget::__INFO
}
