//! The kubebuilder book's CronJob (`cronjob_types.go` of the corpus's
//! `kubebuilder/`), with k8s-openapi's `JobTemplateSpec` and
//! `ObjectReference`: shared by `tests/k8s_openapi.rs` and `benches/k8s.rs`.

use api_core::prelude::*;
use k8s_openapi::api::batch::v1::JobTemplateSpec;
use k8s_openapi::api::core::v1::ObjectReference;
use serde::{Deserialize, Serialize};

/// CronJobSpec defines the desired state of CronJob
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "batch.tutorial.kubebuilder.io",
    version = "v1",
    kind = "CronJob",
    doc = "CronJob is the Schema for the cronjobs API",
    namespaced,
    status = "CronJobStatus"
)]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    /// schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.
    #[kube(min_length = 0)]
    pub schedule: String,

    /// startingDeadlineSeconds defines in seconds for starting the job if it misses scheduled
    /// time for any reason.  Missed jobs executions will be counted as failed ones.
    #[kube(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_deadline_seconds: Option<i64>,

    /// concurrencyPolicy specifies how to treat concurrent executions of a Job.
    #[default(ConcurrencyPolicy::Allow)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency_policy: Option<ConcurrencyPolicy>,

    /// suspend tells the controller to suspend subsequent executions, it does
    /// not apply to already started executions.  Defaults to false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,

    /// jobTemplate defines the job that will be created when executing a CronJob.
    pub job_template: JobTemplateSpec,

    /// successfulJobsHistoryLimit defines the number of successful finished jobs to retain.
    #[kube(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successful_jobs_history_limit: Option<i32>,

    /// failedJobsHistoryLimit defines the number of failed finished jobs to retain.
    #[kube(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_jobs_history_limit: Option<i32>,
}

/// ConcurrencyPolicy describes how the job will be handled.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConcurrencyPolicy {
    /// AllowConcurrent allows CronJobs to run concurrently.
    Allow,
    /// ForbidConcurrent forbids concurrent runs.
    Forbid,
    /// ReplaceConcurrent cancels currently running job and replaces it with a new one.
    Replace,
}

/// CronJobStatus defines the observed state of CronJob.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    /// active defines a list of pointers to currently running jobs.
    #[kube(list_type = "atomic", min_items = 1, max_items = 10)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<ObjectReference>,

    /// lastScheduleTime defines when was the last time the job was successfully scheduled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,

    /// conditions represent the current state of the CronJob resource.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
}
