//! `stable.example.com/v1` `CronTab`: served, the storage version, and the
//! hub of the conversions.

use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// CronTabSpec is the desired state of a CronTab.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    doc = "CronTab runs an image on a cron schedule.",
    namespaced,
    status = "CronTabStatus",
    shortname = "ct",
    derive = "PartialEq",
    printcolumn(name = "Schedule", type = "string", json_path = ".spec.schedule"),
    printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas"),
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".status.labelSelector"
    )
)]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    /// schedule is the schedule in Cron format: five fields separated by
    /// spaces. (`cronSpec` in v1alpha1.)
    #[kube(min_length = 9, max_length = 128, pattern = r"^(\S+\s+){4}\S+$")]
    pub schedule: String,

    /// image is the container image to run.
    #[kube(min_length = 1, max_length = 512)]
    pub image: String,

    /// replicas is how many copies of the image run at each tick.
    #[kube(minimum = 0, maximum = 10)]
    #[default(1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,

    /// concurrencyPolicy says what to do when a tick comes while the
    /// previous run is still going. New in v1.
    #[default(ConcurrencyPolicy::Allow)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency_policy: Option<ConcurrencyPolicy>,
}

/// ConcurrencyPolicy says how runs of a CronTab may overlap.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConcurrencyPolicy {
    /// Runs may overlap.
    Allow,
    /// A tick is skipped while the previous run is still going.
    Forbid,
    /// A new run replaces the one still going.
    Replace,
}

/// CronTabStatus is the observed state of a CronTab.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CronTabStatus {
    /// conditions of the CronTab.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,

    /// lastScheduleTime is when the image last ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,

    /// replicas is how many copies ran at the last tick (the scale
    /// subresource's `status.replicas`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,

    /// labelSelector selects the pods of the last run, in the string form
    /// of a label selector (the scale subresource's `status.selector`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<String>,
}
