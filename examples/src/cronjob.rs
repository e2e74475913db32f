//! A CronJob-like API: a schedule with a pattern, a concurrency policy
//! enum with a default, suspend, a deadline in seconds, a nested job
//! template, and named ports as a list-map.

use std::collections::BTreeMap;

use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// CronJobSpec is the desired state of a CronJob: what to run and when.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "batch.example.com",
    version = "v1",
    kind = "CronJob",
    doc = "CronJob runs a job template on a cron schedule.",
    namespaced,
    status = "CronJobStatus",
    shortname = "cj",
    category = "all",
    printcolumn(name = "Schedule", type = "string", json_path = ".spec.schedule"),
    printcolumn(name = "Suspend", type = "boolean", json_path = ".spec.suspend"),
    printcolumn(
        name = "Last Schedule",
        type = "date",
        json_path = ".status.lastScheduleTime"
    ),
    selectable = ".spec.concurrencyPolicy"
)]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    /// schedule is the schedule in Cron format: five fields separated by
    /// spaces (minute, hour, day of month, month, day of week).
    #[kube(min_length = 9, max_length = 128, pattern = r"^(\S+\s+){4}\S+$")]
    pub schedule: String,

    /// startingDeadlineSeconds is how late, in seconds, a missed run may
    /// still start. Missed runs older than this count as failed.
    #[kube(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_deadline_seconds: Option<i64>,

    /// concurrencyPolicy says what to do when a run is due while the
    /// previous one is still running.
    #[default(ConcurrencyPolicy::Allow)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency_policy: Option<ConcurrencyPolicy>,

    /// suspend stops future runs; runs already started are not affected.
    #[default(false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,

    /// successfulJobsHistoryLimit is how many finished jobs to keep.
    #[kube(minimum = 0, maximum = 100)]
    #[default(3)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successful_jobs_history_limit: Option<i32>,

    /// jobTemplate is the job to create at every run.
    pub job_template: JobTemplate,
}

/// ConcurrencyPolicy says how runs of a CronJob may overlap.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConcurrencyPolicy {
    /// Runs may overlap.
    Allow,
    /// A run is skipped while the previous one is still running.
    Forbid,
    /// A new run replaces the one still running.
    Replace,
}

/// JobTemplate describes the job a CronJob creates.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct JobTemplate {
    /// image is the container image to run.
    #[kube(min_length = 1, max_length = 512)]
    pub image: String,

    /// command overrides the image's entrypoint.
    #[kube(max_items = 64, items(max_length = 4096))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,

    /// ports the job listens on, identified by name.
    #[kube(list_type = "map", list_map_keys = ["name"], max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port>,

    /// labels to put on the created jobs.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,

    /// activeDeadlineSeconds bounds how long a run may take.
    #[kube(minimum = 1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_deadline_seconds: Option<i64>,
}

/// Port is a named network port.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Port {
    /// name identifies the port within the list (an IANA service name).
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
    /// SCTP.
    #[serde(rename = "SCTP")]
    Sctp,
}

/// CronJobStatus is the observed state of a CronJob.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    /// active lists the names of the jobs currently running.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<String>,

    /// lastScheduleTime is when a job was last started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,

    /// lastSuccessfulTime is when a job last finished successfully.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_successful_time: Option<Time>,

    /// conditions of the CronJob (`Scheduled`, `Suspended`).
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
}
