//! A walk through the embedded registry with the CronJob example: create
//! (with defaults), a rejected create, update, a status update with
//! conditions, a strategic merge patch, and a delete held by a finalizer;
//! then the multi-version CronTab: created in `v1alpha1`, read in `v1`,
//! read back in `v1alpha1`, and a `ConversionReview` answered.
//! Each step prints the object or the `Status` the apiserver would return.
//!
//! ```text
//! cargo run -p examples --bin walkthrough
//! ```

use api_core::patch::PatchType;
use api_core::prelude::*;
use api_core::registry::{DefaultStrategy, DeleteOptions, ListOptions, Registry};
use examples::cronjob::{CronJob, CronJobSpec, CronJobStatus, JobTemplate, Port};

fn show<T: serde::Serialize>(step: &str, value: &T) {
    println!("=== {step}");
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}\n"),
        Err(e) => println!("(cannot print: {e})\n"),
    }
}

fn report<T: serde::Serialize>(step: &str, result: Result<T, api_core::Status>) -> Option<T> {
    match result {
        Ok(v) => {
            show(step, &v);
            Some(v)
        }
        Err(status) => {
            show(
                &format!("{step} -> {} {}", status.code, status.reason),
                &status,
            );
            None
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let t0 = Time::parse("2026-01-01T00:00:00Z").expect("a valid time");
    let cronjobs = Registry::<CronJob>::new(DefaultStrategy).with_clock(move || t0);

    let spec = CronJobSpec {
        schedule: "*/5 * * * *".into(),
        starting_deadline_seconds: None,
        concurrency_policy: None,
        suspend: None,
        successful_jobs_history_limit: None,
        job_template: JobTemplate {
            image: "busybox:1.36".into(),
            command: vec!["echo".into(), "hello".into()],
            ports: vec![Port {
                name: "http".into(),
                port: 8080,
                protocol: None,
            }],
            labels: Default::default(),
            active_deadline_seconds: None,
        },
    };

    // 1. Create: defaults applied (concurrencyPolicy, suspend, history limit, protocol).
    let mut job = CronJob::new("hello", spec.clone());
    job.metadata.labels.insert("app".into(), "hello".into());
    job.metadata.finalizers.push("example.com/cleanup".into());
    let Some(created) = report(
        "create",
        cronjobs.create("default", job).await.map(|o| o.object),
    ) else {
        return;
    };

    // 2. A create that breaks the schema's rules and the name rules: every cause at once.
    let mut bad = CronJob::new("Bad_Name", spec.clone());
    bad.spec.schedule = "never".into();
    bad.spec.job_template.ports[0].port = 0;
    report(
        "create an invalid object",
        cronjobs.create("default", bad).await,
    );

    // 3. Update: the spec changes, so the generation goes up.
    let mut update = created.clone();
    update.spec.suspend = Some(true);
    let Some(updated) = report(
        "update",
        cronjobs.update("default", update).await.map(|o| o.object),
    ) else {
        return;
    };

    // 4. A second writer with the old resourceVersion loses: 409.
    let mut stale = created.clone();
    stale.spec.schedule = "0 * * * *".into();
    report(
        "update with a stale resourceVersion",
        cronjobs.update("default", stale).await,
    );

    // 5. Status through the status subresource, with a condition.
    let mut with_status = updated.clone();
    let mut status = CronJobStatus::default();
    status.active.push("hello-29000000".into());
    status.conditions.set_with_clock(
        Condition::new(
            "Scheduled",
            ConditionStatus::True,
            "Scheduled",
            "next run in 5m",
        ),
        t0,
    );
    with_status.status = Some(status);
    let Some(after_status) = report(
        "update status",
        cronjobs
            .update_status("default", with_status)
            .await
            .map(|o| o.object),
    ) else {
        return;
    };

    // 6. A strategic merge patch: ports are a list-map keyed by name, so the
    //    new port is added next to the old one instead of replacing the list.
    let patch = br#"{"spec": {"jobTemplate": {"ports": [{"name": "metrics", "port": 9090}]}}}"#;
    report(
        "strategic merge patch",
        cronjobs
            .patch("default", "hello", PatchType::StrategicMerge, patch)
            .await
            .map(|o| o.object),
    );

    // 7. Delete: the finalizer holds the object, marked with deletionTimestamp.
    report(
        "delete (held by a finalizer)",
        cronjobs
            .delete("default", "hello", &DeleteOptions::default())
            .await,
    );

    // 8. The controller removes its finalizer: the object goes.
    let Ok(mut current) = cronjobs.get("default", "hello").await else {
        return;
    };
    current.metadata.finalizers.clear();
    report(
        "remove the finalizer",
        cronjobs.update("default", current).await.map(|o| o.object),
    );
    report(
        "get after the finalizer is gone",
        cronjobs.get("default", "hello").await,
    );
    report(
        "list",
        cronjobs.list("default", &ListOptions::default()).await,
    );
    let _ = after_status;

    versions().await;
}

/// The multi-version CronTab: two registries (one per served version)
/// over one storage, which holds the storage version `v1`.
async fn versions() {
    use api_core::conversion::ConversionReview;
    use api_core::registry::MemoryStorage;
    use examples::crontab::{self, v1, v1alpha1};
    use std::sync::Arc;

    let versions = Arc::new(crontab::versions());
    let storage = Arc::new(MemoryStorage::new());
    let served = Registry::<v1alpha1::CronTab>::with_versions(
        DefaultStrategy,
        storage.clone(),
        versions.clone(),
    )
    .and_then(|old| {
        let new =
            Registry::<v1::CronTab>::with_versions(DefaultStrategy, storage, versions.clone())?;
        Ok((old, new))
    });
    let (old, new) = match served {
        Ok(registries) => registries,
        Err(status) => return show("serve CronTab v1alpha1 and v1", &status),
    };

    // 9. Create in v1alpha1 (defaulted in v1alpha1), read in v1 (renamed
    //    field; the new field defaulted on read from storage).
    let tab = v1alpha1::CronTab::new(
        "nightly",
        v1alpha1::CronTabSpec {
            cron_spec: "0 3 * * *".into(),
            image: "busybox:1.36".into(),
            replicas: None,
        },
    );
    report(
        "create in v1alpha1",
        old.create("default", tab).await.map(|o| o.object),
    );
    report("get in v1", new.get("default", "nightly").await);
    // 10. Back in v1alpha1: the field it cannot hold is kept in an annotation.
    report("get in v1alpha1", old.get("default", "nightly").await);

    // 11. The conversion webhook, as the apiserver would call it.
    let Ok(object) = new
        .get("default", "nightly")
        .await
        .map(serde_json::to_value)
    else {
        return;
    };
    let review = ConversionReview::request(
        "9c1e2f",
        "stable.example.com/v1alpha1",
        object.into_iter().collect(),
    );
    show("ConversionReview response", &versions.review(review));
}
