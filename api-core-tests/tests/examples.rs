//! The example APIs: their CRDs (snapshots, structural checks, YAML round
//! trips) and the wire form of their objects.

use api_core::crd::CustomResourceDefinition;
use api_core::prelude::*;
use examples::cronjob::{ConcurrencyPolicy, CronJob, CronJobSpec, JobTemplate, Port, Protocol};
use examples::memcached::{Memcached, MemcachedList, MemcachedSpec, MemcachedStatus};
use examples::tenant::{Tenant, TenantSpec};
use serde_json::json;

#[test]
fn example_crds_match_their_snapshots() {
    for crd in examples::crds() {
        insta::assert_snapshot!(crd.metadata.name.clone(), crd.to_yaml());
    }
}

#[test]
fn example_crds_are_structural_and_valid() {
    for crd in examples::crds() {
        let errors = api_core::schema::structural::check_crd(&crd.to_json());
        assert!(errors.is_empty(), "{}: {errors}", crd.metadata.name);
    }
}

#[test]
fn example_crds_round_trip_through_yaml() {
    for crd in examples::crds() {
        let back = CustomResourceDefinition::from_yaml(&crd.to_yaml()).unwrap();
        assert_eq!(back, crd);
        assert_eq!(back.to_json(), crd.to_json());
    }
}

#[test]
fn crds_carry_the_resource_names() {
    let crd = Memcached::crd();
    assert_eq!(crd.metadata.name, "memcacheds.cache.example.com");
    assert_eq!(crd.spec.names.list_kind, "MemcachedList");
    assert_eq!(crd.spec.scope, "Namespaced");
    assert_eq!(Tenant::crd().spec.scope, "Cluster");
    assert_eq!(
        <Memcached as api_core::CustomResourceExt>::crd_name(),
        "memcacheds.cache.example.com"
    );
    assert_eq!(Memcached::PLURAL, "memcacheds");
    assert_eq!(Memcached::SHORT_NAMES, ["mc"]);
    assert_eq!(Memcached::api_version(), "cache.example.com/v1alpha1");
    assert_eq!(Tenant::SCOPE, Scope::Cluster);
    assert_eq!(CronJob::CATEGORIES, ["all"]);
}

fn memcached() -> Memcached {
    let mut mc = Memcached::new("cache", MemcachedSpec { size: Some(2) });
    mc.metadata.namespace = "default".into();
    mc
}

#[test]
fn root_writes_type_meta_first_and_omits_unset_status() {
    let text = serde_json::to_string(&memcached()).unwrap();
    assert_eq!(
        text,
        r#"{"apiVersion":"cache.example.com/v1alpha1","kind":"Memcached","metadata":{"name":"cache","namespace":"default"},"spec":{"size":2}}"#
    );
    let mut with_status = memcached();
    let mut conditions = Conditions::default();
    conditions.set_with_clock(
        Condition::new(
            "Available",
            ConditionStatus::True,
            "MinimumReplicasAvailable",
            "ready",
        ),
        Time::parse("2024-01-01T00:00:00Z").unwrap(),
    );
    with_status.status = Some(MemcachedStatus { conditions });
    let v = serde_json::to_value(&with_status).unwrap();
    assert_eq!(
        v["status"],
        json!({"conditions": [{"type": "Available", "status": "True", "lastTransitionTime": "2024-01-01T00:00:00Z", "reason": "MinimumReplicasAvailable", "message": "ready"}]})
    );
    let back: Memcached = serde_json::from_value(v).unwrap();
    assert_eq!(back.status, with_status.status);
}

#[test]
fn root_decoding_checks_type_meta() {
    let ok: Memcached =
        serde_json::from_value(json!({"metadata": {"name": "x"}, "spec": {}})).unwrap();
    assert_eq!(ok.metadata.name, "x");
    assert_eq!(ok.spec.size, None);
    let err = serde_json::from_value::<Memcached>(
        json!({"apiVersion": "cache.example.com/v1", "kind": "Memcached", "spec": {}}),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains(r#"wrong apiVersion: expected "cache.example.com/v1alpha1", found "cache.example.com/v1""#), "{err}");
    let err = serde_json::from_value::<Memcached>(json!({"kind": "Pod", "spec": {}}))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(r#"wrong kind: expected "Memcached", found "Pod""#),
        "{err}"
    );
    let err = serde_json::from_value::<Memcached>(json!({"metadata": {}}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("missing field `spec`"), "{err}");
    let err = serde_json::from_str::<Memcached>(r#"{"spec": {}, "spec": {}}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("duplicate field `spec`"), "{err}");
    // Unknown top-level fields are ignored, as the apiserver prunes them.
    let ok: Memcached =
        serde_json::from_value(json!({"spec": {"size": 1}, "extra": [1, 2]})).unwrap();
    assert_eq!(ok.spec.size, Some(1));
}

#[test]
fn list_of_roots() {
    let list: MemcachedList = vec![memcached()].into_iter().collect();
    let v = serde_json::to_value(&list).unwrap();
    assert_eq!(v["kind"], "MemcachedList");
    assert_eq!(v["apiVersion"], "cache.example.com/v1alpha1");
    assert_eq!(v["items"][0]["kind"], "Memcached");
    let back: MemcachedList = serde_json::from_value(v).unwrap();
    assert_eq!(back.items[0].spec, list.items[0].spec);
}

#[test]
fn defaults_fill_unset_fields_only() {
    let mut mc = Memcached::new("a", MemcachedSpec { size: None });
    mc.apply_defaults();
    assert_eq!(mc.spec.size, Some(1));
    let mut set = Memcached::new("a", MemcachedSpec { size: Some(3) });
    set.apply_defaults();
    assert_eq!(set.spec.size, Some(3));

    let mut cj = CronJob::new(
        "nightly",
        CronJobSpec {
            schedule: "0 3 * * *".into(),
            starting_deadline_seconds: None,
            concurrency_policy: None,
            suspend: None,
            successful_jobs_history_limit: None,
            job_template: JobTemplate {
                image: "busybox".into(),
                command: vec![],
                ports: vec![Port {
                    name: "http".into(),
                    port: 80,
                    protocol: None,
                }],
                labels: Default::default(),
                active_deadline_seconds: None,
            },
        },
    );
    cj.apply_defaults();
    assert_eq!(cj.spec.concurrency_policy, Some(ConcurrencyPolicy::Allow));
    assert_eq!(cj.spec.suspend, Some(false));
    assert_eq!(cj.spec.successful_jobs_history_limit, Some(3));
    assert_eq!(cj.spec.job_template.ports[0].protocol, Some(Protocol::Tcp));
    let once = cj.clone();
    cj.apply_defaults();
    assert_eq!(cj.spec, once.spec);
    let _ = Tenant::new(
        "t",
        TenantSpec {
            display_name: "T".into(),
            admins: vec![],
            quota: None,
        },
    );
}

#[test]
fn validation_reports_every_problem_with_kubernetes_paths() {
    use api_core::{ErrorList, FieldPath};
    let mut cj = CronJob::new(
        "nightly",
        CronJobSpec {
            schedule: "bad".into(),
            starting_deadline_seconds: Some(-5),
            concurrency_policy: None,
            suspend: None,
            successful_jobs_history_limit: Some(1000),
            job_template: JobTemplate {
                image: String::new(),
                command: vec!["x".repeat(5000)],
                ports: vec![
                    Port {
                        name: "http".into(),
                        port: 80,
                        protocol: None,
                    },
                    Port {
                        name: "http".into(),
                        port: 70000,
                        protocol: None,
                    },
                    Port {
                        name: "Bad_Name".into(),
                        port: 1,
                        protocol: None,
                    },
                ],
                labels: Default::default(),
                active_deadline_seconds: Some(i64::MAX),
            },
        },
    );
    cj.apply_defaults();
    let mut errors = ErrorList::new();
    cj.validate(&FieldPath::new(""), &mut errors);
    let got: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        [
            "spec.schedule: Invalid value: \"bad\": spec.schedule in body should be at least 9 chars long",
            "spec.schedule: Invalid value: \"bad\": spec.schedule in body should match '^(\\S+\\s+){4}\\S+$'",
            "spec.startingDeadlineSeconds: Invalid value: -5: spec.startingDeadlineSeconds in body should be greater than or equal to 0",
            "spec.successfulJobsHistoryLimit: Invalid value: 1000: spec.successfulJobsHistoryLimit in body should be less than or equal to 100",
            "spec.jobTemplate.image: Invalid value: \"\": spec.jobTemplate.image in body should be at least 1 chars long",
            "spec.jobTemplate.command[0]: Too long: may not be more than 4096 bytes",
            "spec.jobTemplate.ports[1]: Duplicate value: {\"name\":\"http\"}",
            "spec.jobTemplate.ports[1].port: Invalid value: 70000: spec.jobTemplate.ports[1].port in body should be less than or equal to 65535",
            "spec.jobTemplate.ports[2].name: Invalid value: \"Bad_Name\": spec.jobTemplate.ports[2].name in body should match '^[a-z]([-a-z0-9]*[a-z0-9])?$'",
            "spec.jobTemplate.activeDeadlineSeconds: Invalid value: 9223372036854775807: must be between -(2^53-1) and 2^53-1: larger integers do not survive JSON in every language",
        ]
    );
    let status = api_core::Status::invalid(
        api_core::GroupKind::new("batch.example.com", "CronJob"),
        "nightly",
        &errors,
    );
    assert_eq!(status.code, 422);
    assert_eq!(status.details.as_ref().unwrap().causes.len(), 10);
}
