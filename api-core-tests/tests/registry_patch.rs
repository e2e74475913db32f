//! `Registry::patch`: a patch goes through the update path (defaults,
//! strategy, validation, resourceVersion check), and every failure is the
//! apiserver's `Status`.

mod storage;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use api_core::patch::PatchType;
use api_core::registry::storage::Stored;
use api_core::registry::{
    BoxFuture, DefaultStrategy, MemoryStorage, Registry, Revision, Storage, StorageError,
};
use examples::cronjob::{CronJob, CronJobSpec, CronJobStatus, JobTemplate, Port, Protocol};
use serde_json::Value;

const NS: &str = "default";

fn spec() -> CronJobSpec {
    CronJobSpec {
        schedule: "*/5 * * * *".into(),
        starting_deadline_seconds: None,
        concurrency_policy: None,
        suspend: None,
        successful_jobs_history_limit: None,
        job_template: JobTemplate {
            image: "busybox:1.36".into(),
            command: vec!["echo".into()],
            ports: vec![Port {
                name: "http".into(),
                port: 8080,
                protocol: None,
            }],
            labels: Default::default(),
            active_deadline_seconds: None,
        },
    }
}

async fn registry_with_hello() -> (Registry<CronJob>, CronJob) {
    let registry = storage::registry::<CronJob>(DefaultStrategy).await;
    let created = registry
        .create(NS, CronJob::new("hello", spec()))
        .await
        .expect("created")
        .object;
    (registry, created)
}

/// The stored `hello` is still `created` (compared as JSON: `CronJob` has
/// no `PartialEq`).
async fn assert_unchanged(registry: &Registry<CronJob>, created: &CronJob) {
    let stored = registry.get(NS, "hello").await.expect("still there");
    assert_eq!(
        serde_json::to_value(stored).unwrap(),
        serde_json::to_value(created).unwrap()
    );
}

fn port_names(job: &CronJob) -> Vec<&str> {
    job.spec
        .job_template
        .ports
        .iter()
        .map(|p| p.name.as_str())
        .collect()
}

#[tokio::test]
async fn strategic_merge_adds_to_a_list_map_and_defaults_the_new_item() {
    let (registry, created) = registry_with_hello().await;
    let patch = br#"{"spec":{"jobTemplate":{"ports":[{"name":"metrics","port":9090}]}}}"#;
    let patched = registry
        .patch(NS, "hello", PatchType::StrategicMerge, patch)
        .await
        .expect("patched")
        .object;
    assert_eq!(port_names(&patched), ["http", "metrics"]);
    // The new item went through the defaults of the update path.
    assert_eq!(
        patched.spec.job_template.ports[1].protocol,
        Some(Protocol::Tcp)
    );
    assert_eq!(patched.metadata.generation, created.metadata.generation + 1);
    assert_ne!(
        patched.metadata.resource_version,
        created.metadata.resource_version
    );
    assert_eq!(patched.metadata.uid, created.metadata.uid);
}

#[tokio::test]
async fn merge_patch_replaces_the_list() {
    let (registry, _) = registry_with_hello().await;
    let patch = br#"{"spec":{"jobTemplate":{"ports":[{"name":"metrics","port":9090}]}}}"#;
    let patched = registry
        .patch(NS, "hello", PatchType::Merge, patch)
        .await
        .expect("patched")
        .object;
    assert_eq!(port_names(&patched), ["metrics"]);
}

#[tokio::test]
async fn strategic_delete_directive_removes_an_item() {
    let (registry, _) = registry_with_hello().await;
    registry
        .patch(
            NS,
            "hello",
            PatchType::StrategicMerge,
            br#"{"spec":{"jobTemplate":{"ports":[{"name":"metrics","port":9090}]}}}"#,
        )
        .await
        .expect("added");
    let patched = registry
        .patch(
            NS,
            "hello",
            PatchType::StrategicMerge,
            br#"{"spec":{"jobTemplate":{"ports":[{"name":"http","$patch":"delete"}]}}}"#,
        )
        .await
        .expect("deleted")
        .object;
    assert_eq!(port_names(&patched), ["metrics"]);
}

#[tokio::test]
async fn json_patch_test_failure_is_the_apiservers_422() {
    let (registry, _) = registry_with_hello().await;
    let err = registry
        .patch(
            NS,
            "hello",
            PatchType::Json,
            br#"[{"op":"test","path":"/spec/schedule","value":"0 * * * *"}]"#,
        )
        .await
        .unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (422, "Invalid"));
}

#[tokio::test]
async fn patched_object_is_validated_with_every_cause() {
    let (registry, created) = registry_with_hello().await;
    let err = registry
        .patch(
            NS,
            "hello",
            PatchType::Json,
            br#"[{"op":"replace","path":"/spec/schedule","value":"never"},
                 {"op":"replace","path":"/spec/jobTemplate/ports/0/port","value":0}]"#,
        )
        .await
        .unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (422, "Invalid"));
    let fields: Vec<&str> = err
        .details
        .as_ref()
        .expect("details")
        .causes
        .iter()
        .map(|c| c.field.as_str())
        .collect();
    assert_eq!(
        fields,
        [
            "spec.schedule",
            "spec.schedule",
            "spec.jobTemplate.ports[0].port"
        ]
    );
    // Nothing was written.
    assert_unchanged(&registry, &created).await;
}

#[tokio::test]
async fn patch_with_a_stale_resource_version_is_a_conflict() {
    let (registry, created) = registry_with_hello().await;
    let mut update = created.clone();
    update.spec.suspend = Some(true);
    registry.update(NS, update).await.expect("updated");
    let patch = format!(
        r#"{{"metadata":{{"resourceVersion":"{}"}},"spec":{{"suspend":false}}}}"#,
        created.metadata.resource_version
    );
    let err = registry
        .patch(NS, "hello", PatchType::Merge, patch.as_bytes())
        .await
        .unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (409, "Conflict"));
}

#[tokio::test]
async fn patch_of_a_missing_object_is_not_found() {
    let (registry, _) = registry_with_hello().await;
    let err = registry
        .patch(
            NS,
            "absent",
            PatchType::Merge,
            br#"{"spec":{"suspend":true}}"#,
        )
        .await
        .unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (404, "NotFound"));
}

#[tokio::test]
async fn patch_cannot_rename_the_object() {
    let (registry, _) = registry_with_hello().await;
    let err = registry
        .patch(
            NS,
            "hello",
            PatchType::Merge,
            br#"{"metadata":{"name":"other"}}"#,
        )
        .await
        .unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (400, "BadRequest"));
    assert!(registry.get(NS, "other").await.is_err());
}

#[tokio::test]
async fn patch_through_the_main_endpoint_cannot_write_status() {
    let (registry, _) = registry_with_hello().await;
    let patched = registry
        .patch(
            NS,
            "hello",
            PatchType::Merge,
            br#"{"status":{"active":["forged"]},"spec":{"suspend":true}}"#,
        )
        .await
        .expect("patched")
        .object;
    assert_eq!(patched.spec.suspend, Some(true));
    assert_eq!(patched.status, None::<CronJobStatus>);
}

#[tokio::test]
async fn malformed_patches_are_bad_requests() {
    let (registry, created) = registry_with_hello().await;
    for patch_type in PatchType::ALL {
        let err = registry
            .patch(NS, "hello", patch_type, b"{not json")
            .await
            .unwrap_err();
        assert_eq!(
            (err.code, err.reason.as_str()),
            (400, "BadRequest"),
            "{patch_type}"
        );
    }
    assert_unchanged(&registry, &created).await;
}

/// A patch whose result the schema rejects is the apiserver's 422 at the
/// field, as for a create or an update (issue 14, bug 3).
#[tokio::test]
async fn patch_that_breaks_the_type_is_invalid_at_the_field() {
    let (registry, created) = registry_with_hello().await;
    let err = registry
        .patch(
            NS,
            "hello",
            PatchType::Merge,
            br#"{"spec":{"suspend":"yes","schedule":null}}"#,
        )
        .await
        .unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (422, "Invalid"), "{err:?}");
    let causes: Vec<(&str, &str)> = err
        .causes()
        .iter()
        .map(|c| (c.field.as_str(), c.reason.as_str()))
        .collect();
    assert_eq!(
        causes,
        [
            ("spec.schedule", "FieldValueRequired"),
            ("spec.suspend", "FieldValueTypeInvalid"),
        ]
    );
    assert_unchanged(&registry, &created).await;
}

// ---------------------------------------------------------------------------
// Races and the status subresource

/// Before the first `races` updates reach the store, another writer
/// changes the object (adds an annotation), so those updates conflict.
struct Racing {
    inner: MemoryStorage,
    races: AtomicUsize,
}

impl api_core::registry::Forwarding for Racing {
    fn inner(&self) -> &dyn Storage {
        &self.inner
    }
    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move {
            let left = self.races.load(Ordering::SeqCst);
            if left > 0 {
                self.races.store(left - 1, Ordering::SeqCst);
                let current = self.inner.get(key).await?;
                let mut other = current.value.clone();
                other["metadata"]["annotations"][format!("racer-{left}")] = "won".into();
                self.inner.update(key, other, current.revision).await?;
            }
            self.inner.update(key, value, expected).await
        })
    }
}

async fn racing(races: usize) -> Registry<CronJob> {
    let storage = Arc::new(Racing {
        inner: MemoryStorage::new(),
        races: AtomicUsize::new(0),
    });
    let registry = Registry::<CronJob>::with_storage(DefaultStrategy, storage.clone());
    registry
        .create(NS, CronJob::new("hello", spec()))
        .await
        .unwrap();
    storage.races.store(races, Ordering::SeqCst);
    registry
}

#[tokio::test]
async fn a_patch_that_loses_a_race_is_applied_again_to_the_new_state() {
    // The apiserver's patcher applies the patch inside GuaranteedUpdate,
    // which retries on a conflict when the patch names no resourceVersion.
    let registry = racing(2).await;
    let patched = registry
        .patch(
            NS,
            "hello",
            PatchType::Merge,
            br#"{"spec":{"suspend":true}}"#,
        )
        .await
        .expect("retried until it applied")
        .object;
    assert_eq!(patched.spec.suspend, Some(true));
    let annotations = &patched.metadata.annotations;
    assert_eq!(
        (annotations.get("racer-2"), annotations.get("racer-1")),
        (Some(&"won".to_string()), Some(&"won".to_string())),
        "both competing writes are kept"
    );
}

#[tokio::test]
async fn a_patch_naming_a_resource_version_gets_the_conflict() {
    let registry = racing(1).await;
    let current = registry.get(NS, "hello").await.unwrap();
    let patch = format!(
        r#"{{"metadata":{{"resourceVersion":"{}"}},"spec":{{"suspend":true}}}}"#,
        current.metadata.resource_version
    );
    let err = registry
        .patch(NS, "hello", PatchType::Merge, patch.as_bytes())
        .await
        .unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (409, "Conflict"));
}

#[tokio::test]
async fn a_status_patch_changes_the_status_and_nothing_else() {
    let (registry, created) = registry_with_hello().await;
    let patched = registry
        .patch_status(
            NS,
            "hello",
            PatchType::Merge,
            br#"{"spec":{"suspend":true},"metadata":{"labels":{"a":"b"}},"status":{"lastScheduleTime":"2026-01-02T03:04:05Z"}}"#,
        )
        .await
        .unwrap()
        .object;
    let status: CronJobStatus = patched.status.clone().expect("status written");
    assert_eq!(
        status.last_schedule_time.map(|t| t.to_string()),
        Some("2026-01-02T03:04:05Z".to_string())
    );
    assert_eq!(patched.spec, created.spec, "spec untouched by /status");
    assert!(patched.metadata.labels.is_empty(), "labels untouched");
    assert_eq!(patched.metadata.generation, created.metadata.generation);
    // And the main endpoint does not write status.
    let main = registry
        .patch(
            NS,
            "hello",
            PatchType::Merge,
            br#"{"status":{"lastScheduleTime":null}}"#,
        )
        .await
        .unwrap()
        .object;
    assert_eq!(main.status, patched.status);
}

#[tokio::test]
async fn unknown_fields_in_a_patch_follow_field_validation() {
    use api_core::decode::FieldValidation;
    use api_core::registry::PatchOptions;
    let (registry, _) = registry_with_hello().await;
    let patch = br#"{"spec":{"suspend":true,"bogus":1,"jobTemplate":{"nope":"x"}}}"#;
    let with = |field_validation| PatchOptions {
        field_validation,
        status: false,
    };
    // Ignore (what `patch` does): dropped silently.
    let ignored = registry
        .patch(NS, "hello", PatchType::Merge, patch)
        .await
        .unwrap();
    assert!(ignored.warnings.is_empty(), "{:?}", ignored.warnings);
    // Warn: dropped, one warning each.
    let warned = registry
        .patch_with(
            NS,
            "hello",
            PatchType::Merge,
            patch,
            with(FieldValidation::Warn),
        )
        .await
        .unwrap();
    assert_eq!(
        warned.warnings,
        [
            r#"unknown field "spec.bogus""#,
            r#"unknown field "spec.jobTemplate.nope""#
        ]
    );
    // Strict: the apiserver's 400, nothing written.
    let before = registry.get(NS, "hello").await.unwrap();
    let err = registry
        .patch_with(
            NS,
            "hello",
            PatchType::Merge,
            patch,
            with(FieldValidation::Strict),
        )
        .await
        .unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (400, "BadRequest"));
    assert_eq!(
        err.message,
        r#"strict decoding error: unknown field "spec.bogus", unknown field "spec.jobTemplate.nope""#
    );
    let after = registry.get(NS, "hello").await.unwrap();
    assert_eq!(
        before.metadata.resource_version,
        after.metadata.resource_version
    );
}
