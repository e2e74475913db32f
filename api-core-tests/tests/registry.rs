//! The embedded registry (`api_core::registry`) against the rules of
//! k8s.io/apiserver's generic store: the create, update, status and delete
//! pipelines (`rest.BeforeCreate`, `rest.BeforeUpdate`, `rest.BeforeDelete`,
//! the status strategy and the generation bump), list and watch, the
//! `Status` of every failure (code, reason, message and causes), the API
//! conventions' lost-update example, concurrent read-modify-write, and the
//! security rules (bad names never reach storage; the main endpoint cannot
//! write status; `/status` cannot write spec or labels).
//!
//! behaviour where the registry differs from it.

mod storage;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use api_core::meta::{ConditionStatus, OwnerReference};
use api_core::prelude::*;
use api_core::registry::storage::Stored;
use api_core::registry::{
    BoxFuture, DefaultStrategy, DeleteOptions, ListOptions, MemoryStorage, Registry, Revision,
    Storage, StorageError, Strategy, WatchEvent, strategy,
};
use api_core::validation::{ErrorList, FieldError, FieldPath};
use api_core::{SpecStatus, Status};
use examples::cronjob::{ConcurrencyPolicy, CronJob, CronJobSpec, JobTemplate, Port, Protocol};
use examples::memcached::{Memcached, MemcachedSpec, MemcachedStatus};
use examples::tenant::{Tenant, TenantSpec, TenantStatus};
use serde::{Deserialize, Serialize};
use serde_json::Value;

// ---------------------------------------------------------------------------
// Test types

/// WidgetSpec: a counter (for the concurrency test) and an immutable class.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "test.example.com",
    version = "v1",
    kind = "Widget",
    namespaced,
    status = "WidgetStatus"
)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// counter is incremented by clients.
    pub counter: i64,

    /// class may not change once the widget exists.
    #[kube(immutable)]
    pub class: String,

    /// zone may be set later but never changed or removed.
    #[kube(immutable)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
}

/// WidgetStatus is the observed state of a Widget.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct WidgetStatus {
    /// observed is the last counter a controller saw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed: Option<i64>,
}

/// PlainSpec: a kind without a status (so without a status subresource).
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "test.example.com", version = "v1", kind = "Plain", namespaced)]
#[serde(rename_all = "camelCase")]
pub struct PlainSpec {
    /// value is anything.
    pub value: i64,
}

/// LooseSpec: a kind with a status but no status subresource.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "test.example.com",
    version = "v1",
    kind = "Loose",
    namespaced,
    status = "LooseStatus",
    status_subresource = false
)]
#[serde(rename_all = "camelCase")]
pub struct LooseSpec {
    /// value is anything.
    pub value: i64,
}

/// LooseStatus is written through the main endpoint.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LooseStatus {
    /// state is anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
}

// ---------------------------------------------------------------------------
// Strategies

/// A strategy on top of the defaults: Memcached needs a `team` label, and a
/// size of 3 draws a warning.
struct TeamStrategy;

impl Strategy<Memcached> for TeamStrategy {
    fn validate(&self, obj: &Memcached) -> ErrorList {
        let mut errors = strategy::validate(obj);
        if !obj.metadata.labels.contains_key("team") {
            let meta = FieldPath::new("metadata");
            errors.push(FieldError::required(
                &meta.child("labels").key("team"),
                "every Memcached needs a team",
            ));
        }
        errors
    }

    fn warnings_on_create(&self, obj: &Memcached) -> Vec<String> {
        if obj.spec.size == Some(3) {
            vec!["spec.size: 3 is the most this API allows".to_string()]
        } else {
            Vec::new()
        }
    }
}

/// The defaults, but a `PUT` without `resourceVersion` is accepted.
struct Unconditional;

impl Strategy<Memcached> for Unconditional {
    fn allow_unconditional_update(&self) -> bool {
        true
    }
}

/// Deletion waits 30 seconds (`CheckGracefulDelete` returns true).
struct Graceful;

impl Strategy<Memcached> for Graceful {
    fn graceful_delete(&self, _: &Memcached) -> Option<i64> {
        Some(30)
    }
}

// ---------------------------------------------------------------------------
// Storages that misbehave on purpose

/// Fails the first `fail` creates with `AlreadyExists` (a taken name).
struct TakenNames {
    inner: MemoryStorage,
    fail: AtomicUsize,
    attempts: AtomicUsize,
}

impl TakenNames {
    fn new(fail: usize) -> Self {
        TakenNames {
            inner: MemoryStorage::new(),
            fail: AtomicUsize::new(fail),
            attempts: AtomicUsize::new(0),
        }
    }
}

impl api_core::registry::Forwarding for TakenNames {
    fn inner(&self) -> &dyn Storage {
        &self.inner
    }
    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.attempts.fetch_add(1, Ordering::SeqCst);
        let left = self.fail.load(Ordering::SeqCst);
        if left > 0 {
            self.fail.store(left - 1, Ordering::SeqCst);
            let taken = Err(StorageError::AlreadyExists(key.to_string()));
            return Box::pin(std::future::ready(taken));
        }
        self.inner.create(key, value)
    }
}

/// When armed, another writer rewrites the object just before the next
/// update or delete reaches storage: the registry read the object before
/// that write, so its compare-and-swap fails once.
struct Interfering {
    inner: MemoryStorage,
    armed: AtomicBool,
}

impl Interfering {
    fn new() -> Self {
        Interfering {
            inner: MemoryStorage::new(),
            armed: AtomicBool::new(false),
        }
    }

    async fn interfere(&self, key: &str) {
        if self.armed.swap(false, Ordering::SeqCst) {
            let current = self.inner.get(key).await.unwrap();
            self.inner
                .update(key, current.value, current.revision)
                .await
                .unwrap();
        }
    }
}

impl api_core::registry::Forwarding for Interfering {
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
            self.interfere(key).await;
            self.inner.update(key, value, expected).await
        })
    }
    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move {
            self.interfere(key).await;
            self.inner.delete(key, expected).await
        })
    }
}

// ---------------------------------------------------------------------------
// Helpers

const NS: &str = "default";
const T0: i64 = 1_700_000_000;

fn t0() -> Time {
    Time::from_unix_seconds(T0).unwrap()
}

fn mc(name: &str, size: Option<i32>) -> Memcached {
    Memcached::new(name, MemcachedSpec { size })
}

fn widget(name: &str, counter: i64) -> Widget {
    Widget::new(
        name,
        WidgetSpec {
            counter,
            class: "gold".into(),
            zone: None,
        },
    )
}

fn labelled(mut obj: Memcached, labels: &[(&str, &str)]) -> Memcached {
    obj.metadata.labels = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    obj
}

async fn memcacheds() -> Registry<Memcached> {
    storage::registry(DefaultStrategy).await.with_clock(t0)
}

fn available() -> MemcachedStatus {
    let mut status = MemcachedStatus::default();
    status.conditions.set_with_clock(
        Condition::new("Available", ConditionStatus::True, "Ready", "all pods up"),
        t0(),
    );
    status
}

/// Code and reason, the two things every failure is checked on.
#[track_caller]
fn assert_status(status: &Status, code: i32, reason: &str) {
    assert_eq!(
        (status.code, status.reason.as_str(), status.status.as_str()),
        (code, reason, "Failure"),
        "{status:?}"
    );
}

/// The causes of a 422 as `(field, type)`.
fn causes(status: &Status) -> Vec<(String, String)> {
    status
        .details
        .as_ref()
        .map(|d| {
            d.causes
                .iter()
                .map(|c| (c.field.clone(), c.reason.clone()))
                .collect()
        })
        .unwrap_or_default()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(f, r)| (f.to_string(), r.to_string()))
        .collect()
}

/// A 422 `Invalid` about `Kind.group "name"` with exactly these causes.
#[track_caller]
fn assert_invalid<K: Resource>(status: &Status, name: &str, expected: &[(&str, &str)]) {
    assert_status(status, 422, "Invalid");
    let details = status.details.as_ref().expect("details");
    assert_eq!(
        (
            details.group.as_str(),
            details.kind.as_str(),
            details.name.as_str()
        ),
        (K::GROUP, K::KIND, name)
    );
    assert_eq!(causes(status), pairs(expected), "{}", status.message);
    assert!(
        status
            .message
            .starts_with(&format!("{}.{} \"{name}\" is invalid: ", K::KIND, K::GROUP)),
        "{}",
        status.message
    );
}

/// Objects compared by their JSON (the derived root types have no `PartialEq`).
fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

fn names<K: Resource>(items: &[K]) -> Vec<String> {
    items.iter().map(|o| o.metadata().name.clone()).collect()
}

fn is_uuid_v4(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    let lens: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    lens == [8, 4, 4, 4, 12]
        && s.chars()
            .all(|c| c == '-' || c.is_ascii_digit() || ('a'..='f').contains(&c))
        && groups[2].starts_with('4')
        && groups[3].starts_with(['8', '9', 'a', 'b'])
}

async fn storage_is_empty(storage: &Arc<dyn Storage>) -> bool {
    storage.list("/").await.unwrap().0.is_empty() && storage.revision().await == Ok(storage::base())
}

fn event_names<K: Resource>(events: &[WatchEvent<K>]) -> Vec<(&'static str, String)> {
    events
        .iter()
        .map(|e| {
            let kind = match e {
                WatchEvent::Added(_) => "ADDED",
                WatchEvent::Modified(_) => "MODIFIED",
                WatchEvent::Deleted(_) => "DELETED",
                WatchEvent::Bookmark(_) => "BOOKMARK",
            };
            let name = e.object().map(|o| o.metadata().name.clone());
            (kind, name.unwrap_or_default())
        })
        .collect()
}

fn ev(list: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    list.iter().map(|(k, n)| (*k, n.to_string())).collect()
}

// ---------------------------------------------------------------------------
// Create

#[tokio::test]
async fn create_fills_system_fields_defaults_and_generation() {
    let registry = memcacheds().await;
    let mut obj = mc("mc", None);
    // Clients cannot set any of these: they are wiped or overwritten.
    obj.metadata.uid = "client-chosen".into();
    obj.metadata.creation_timestamp = Time::from_unix_seconds(1);
    obj.metadata.deletion_timestamp = Time::from_unix_seconds(2);
    obj.metadata.deletion_grace_period_seconds = Some(5);
    obj.metadata.generation = 42;
    obj.metadata.self_link = "/apis/x".into();
    let outcome = registry.create(NS, obj).await.unwrap();
    assert!(outcome.warnings.is_empty());
    let created = outcome.object;

    assert_eq!(created.spec.size, Some(1), "static default applied");
    let meta = &created.metadata;
    assert_eq!(meta.namespace, NS, "the request namespace is filled in");
    assert!(is_uuid_v4(&meta.uid), "uid {:?}", meta.uid);
    assert_eq!(meta.creation_timestamp, Some(t0()), "the registry's clock");
    assert_eq!(meta.deletion_timestamp, None);
    assert_eq!(meta.deletion_grace_period_seconds, None);
    assert_eq!(meta.self_link, "");
    assert_eq!(meta.generation, 1);
    assert_eq!(meta.resource_version, storage::rv(1));

    assert_eq!(json(&registry.get(NS, "mc").await.unwrap()), json(&created));
    let other = registry
        .create(NS, mc("other", Some(2)))
        .await
        .unwrap()
        .object;
    assert_ne!(other.metadata.uid, created.metadata.uid);
    assert_eq!(other.metadata.resource_version, storage::rv(2));
}

#[tokio::test]
async fn create_applies_nested_defaults() {
    let registry = storage::registry::<CronJob>(DefaultStrategy).await;
    let spec = CronJobSpec {
        schedule: "*/5 * * * *".into(),
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
            labels: BTreeMap::new(),
            active_deadline_seconds: None,
        },
    };
    let created = registry
        .create(NS, CronJob::new("cj", spec))
        .await
        .unwrap()
        .object;
    assert_eq!(
        created.spec.concurrency_policy,
        Some(ConcurrencyPolicy::Allow)
    );
    assert_eq!(created.spec.suspend, Some(false));
    assert_eq!(created.spec.successful_jobs_history_limit, Some(3));
    assert_eq!(
        created.spec.job_template.ports[0].protocol,
        Some(Protocol::Tcp)
    );
    assert_eq!(created.metadata.generation, 1);
}

#[tokio::test]
async fn create_with_resource_version_is_an_internal_error() {
    let registry = memcacheds().await;
    let mut obj = mc("mc", None);
    obj.metadata.resource_version = "7".into();
    let err = registry.create(NS, obj).await.unwrap_err();
    assert_status(&err, 500, "InternalError");
    assert_eq!(
        err.message,
        "Internal error occurred: resourceVersion should not be set on objects to be created"
    );
    let details = err.details.as_ref().unwrap();
    assert_eq!(
        details.causes[0].message,
        "resourceVersion should not be set on objects to be created"
    );
    assert!(storage_is_empty(registry.storage()).await);
}

#[tokio::test]
async fn create_drops_the_status_of_a_kind_with_a_status_subresource() {
    let registry = memcacheds().await;
    let mut obj = mc("mc", Some(2));
    obj.status = Some(available());
    let created = registry.create(NS, obj).await.unwrap().object;
    assert_eq!(created.status, None);
    assert_eq!(registry.get(NS, "mc").await.unwrap().status, None);
}

#[tokio::test]
async fn create_keeps_the_status_of_a_kind_without_a_status_subresource() {
    // AX customresource strategy: status is only dropped with `subresources.status`.
    const { assert!(!<Loose as SpecStatus>::STATUS_SUBRESOURCE) };
    let registry = storage::registry::<Loose>(DefaultStrategy).await;
    let mut obj = Loose::new("l", LooseSpec { value: 1 });
    obj.status = Some(LooseStatus {
        state: Some("Ready".into()),
    });
    let created = registry.create(NS, obj).await.unwrap().object;
    assert_eq!(created.status.unwrap().state.as_deref(), Some("Ready"));
    assert_eq!(created.metadata.generation, 1);
}

#[tokio::test]
async fn create_namespace_must_match_the_request() {
    let registry = memcacheds().await;
    let mut obj = mc("mc", None);
    obj.metadata.namespace = "other".into();
    let err = registry.create(NS, obj.clone()).await.unwrap_err();
    assert_status(&err, 400, "BadRequest");
    assert_eq!(
        err.message,
        "the namespace of the provided object does not match the namespace sent on the request"
    );
    assert!(storage_is_empty(registry.storage()).await);

    // Matching, or named by the object alone: fine.
    assert_eq!(
        registry
            .create("other", obj.clone())
            .await
            .unwrap()
            .object
            .metadata
            .namespace,
        "other"
    );
    obj.metadata.name = "mc2".into();
    assert_eq!(
        registry
            .create("", obj)
            .await
            .unwrap()
            .object
            .metadata
            .namespace,
        "other"
    );

    // A namespaced kind needs a namespace.
    let err = registry.create("", mc("nowhere", None)).await.unwrap_err();
    assert_invalid::<Memcached>(
        &err,
        "nowhere",
        &[("metadata.namespace", "FieldValueRequired")],
    );
}

#[tokio::test]
async fn create_clears_the_namespace_of_a_cluster_scoped_kind() {
    let registry = storage::registry::<Tenant>(DefaultStrategy).await;
    let mut tenant = Tenant::new(
        "acme",
        TenantSpec {
            display_name: "ACME".into(),
            admins: vec![],
            quota: None,
        },
    );
    tenant.metadata.namespace = "default".into();
    tenant.status = Some(TenantStatus {
        namespace_count: Some(3),
    });
    let created = registry.create("kube-system", tenant).await.unwrap().object;
    assert_eq!(created.metadata.namespace, "");
    assert_eq!(created.status, None);
    assert_eq!(
        json(&registry.get("", "acme").await.unwrap()),
        json(&created)
    );
    let (items, _) = registry.storage().list("/").await.unwrap();
    assert_eq!(items[0].key, "/tenancy.example.com/tenants/acme");
}

#[tokio::test]
async fn create_generates_names_from_generate_name() {
    const ALPHABET: &str = "bcdfghjklmnpqrstvwxz2456789";
    let registry = memcacheds().await;
    let mut seen = BTreeSet::new();
    for _ in 0..20 {
        let mut obj = mc("", None);
        obj.metadata.generate_name = "web-".into();
        let created = registry.create(NS, obj).await.unwrap().object;
        let name = &created.metadata.name;
        assert_eq!(name.len(), 4 + 5, "{name}");
        assert!(name.starts_with("web-"));
        assert!(name[4..].chars().all(|c| ALPHABET.contains(c)), "{name}");
        assert_eq!(created.metadata.generate_name, "web-");
        seen.insert(name.clone());
    }
    assert_eq!(seen.len(), 20, "distinct names");

    // A long prefix is cut to 58 characters, leaving room for 5 random ones.
    let mut obj = mc("", None);
    obj.metadata.generate_name = "a".repeat(100);
    let name = registry.create(NS, obj).await.unwrap().object.metadata.name;
    assert_eq!(name.len(), 63);
    assert_eq!(&name[..58], "a".repeat(58));
    assert!(name[58..].chars().all(|c| ALPHABET.contains(c)));

    // A name, when given, wins over generateName.
    let mut obj = mc("fixed", None);
    obj.metadata.generate_name = "web-".into();
    assert_eq!(
        registry.create(NS, obj).await.unwrap().object.metadata.name,
        "fixed"
    );

    // The prefix is validated as a name prefix.
    let mut obj = mc("", None);
    obj.metadata.generate_name = "Web_".into();
    let err = registry.create(NS, obj).await.unwrap_err();
    assert_status(&err, 422, "Invalid");
    assert_eq!(
        causes(&err)[0],
        ("metadata.generateName".into(), "FieldValueInvalid".into())
    );
}

#[tokio::test]
async fn create_retries_taken_generated_names() {
    // 7 taken names: the 8th attempt (maxNameGenerationCreateAttempts) succeeds.
    let storage = Arc::new(TakenNames::new(7));
    let registry = Registry::<Memcached>::with_storage(DefaultStrategy, storage.clone());
    let mut obj = mc("", None);
    obj.metadata.generate_name = "web-".into();
    let created = registry.create(NS, obj.clone()).await.unwrap().object;
    assert!(created.metadata.name.starts_with("web-"));
    assert_eq!(storage.attempts.load(Ordering::SeqCst), 8);

    // 8 taken names: 409 AlreadyExists, the generate-name conflict.
    let storage = Arc::new(TakenNames::new(8));
    let registry = Registry::<Memcached>::with_storage(DefaultStrategy, storage.clone());
    let err = registry.create(NS, obj).await.unwrap_err();
    assert_status(&err, 409, "AlreadyExists");
    assert_eq!(storage.attempts.load(Ordering::SeqCst), 8);
    let details = err.details.as_ref().unwrap();
    assert_eq!(details.retry_after_seconds, 1);
    assert_eq!(
        (details.group.as_str(), details.kind.as_str()),
        ("cache.example.com", "memcacheds")
    );
    assert!(details.name.starts_with("web-"));
    assert_eq!(
        err.message,
        format!(
            "memcacheds.cache.example.com \"{}\" already exists, the server was not able to generate a unique name for the object",
            details.name
        )
    );

    // A name the client chose is not retried.
    let storage = Arc::new(TakenNames::new(1));
    let registry = Registry::<Memcached>::with_storage(DefaultStrategy, storage.clone());
    let err = registry.create(NS, mc("mine", None)).await.unwrap_err();
    assert_status(&err, 409, "AlreadyExists");
    assert_eq!(storage.attempts.load(Ordering::SeqCst), 1);
    assert_eq!(
        err.message,
        "memcacheds.cache.example.com \"mine\" already exists"
    );
}

#[tokio::test]
async fn create_conflict_with_generate_name_set_is_a_generate_name_conflict() {
    let registry = memcacheds().await;
    registry.create(NS, mc("web-1", None)).await.unwrap();
    let mut obj = mc("web-1", None);
    obj.metadata.generate_name = "web-".into();
    let err = registry.create(NS, obj).await.unwrap_err();
    assert_status(&err, 409, "AlreadyExists");
    assert_eq!(err.details.as_ref().unwrap().retry_after_seconds, 1);
    assert_eq!(
        err.message,
        "memcacheds.cache.example.com \"web-1\" already exists, the server was not able to generate a unique name for the object"
    );
}

#[tokio::test]
async fn create_of_a_taken_name_is_already_exists() {
    let registry = memcacheds().await;
    registry.create(NS, mc("mc", None)).await.unwrap();
    let err = registry.create(NS, mc("mc", Some(2))).await.unwrap_err();
    assert_status(&err, 409, "AlreadyExists");
    assert_eq!(
        err.message,
        "memcacheds.cache.example.com \"mc\" already exists"
    );
    let details = err.details.as_ref().unwrap();
    assert_eq!(
        (
            details.group.as_str(),
            details.kind.as_str(),
            details.name.as_str()
        ),
        ("cache.example.com", "memcacheds", "mc")
    );
    assert_eq!(
        registry.get(NS, "mc").await.unwrap().spec.size,
        Some(1),
        "unchanged"
    );
    // The same name in another namespace is another object.
    registry.create("other", mc("mc", None)).await.unwrap();
}

#[tokio::test]
async fn create_validation_failure_lists_every_cause() {
    let registry = storage::registry::<CronJob>(DefaultStrategy).await;
    let spec = CronJobSpec {
        schedule: "never".into(),
        starting_deadline_seconds: Some(-1),
        concurrency_policy: None,
        suspend: None,
        successful_jobs_history_limit: Some(101),
        job_template: JobTemplate {
            image: String::new(),
            command: vec![],
            ports: vec![
                Port {
                    name: "http".into(),
                    port: 0,
                    protocol: None,
                },
                Port {
                    name: "http".into(),
                    port: 8080,
                    protocol: None,
                },
            ],
            labels: BTreeMap::new(),
            active_deadline_seconds: None,
        },
    };
    let mut obj = CronJob::new("cj", spec);
    obj.metadata.labels.insert("bad key!".into(), "v".into());
    let err = registry.create(NS, obj.clone()).await.unwrap_err();
    // Every cause: ObjectMeta's first, then the schema's in the order the
    // type's validation walks the object, as a custom resource's strategy
    // reports them.
    assert_invalid::<CronJob>(
        &err,
        "cj",
        &[
            ("metadata.labels", "FieldValueInvalid"),
            ("spec.schedule", "FieldValueInvalid"),
            ("spec.schedule", "FieldValueInvalid"),
            ("spec.startingDeadlineSeconds", "FieldValueInvalid"),
            ("spec.successfulJobsHistoryLimit", "FieldValueInvalid"),
            ("spec.jobTemplate.image", "FieldValueInvalid"),
            ("spec.jobTemplate.ports[1]", "FieldValueDuplicate"),
            ("spec.jobTemplate.ports[0].port", "FieldValueInvalid"),
        ],
    );
    let details = err.details.as_ref().unwrap();
    assert_eq!(
        details.causes[1].message,
        "Invalid value: \"never\": spec.schedule in body should be at least 9 chars long"
    );
    assert!(storage_is_empty(registry.storage()).await);
}

#[tokio::test]
async fn create_object_meta_failure_lists_every_cause() {
    let registry = memcacheds().await;
    let mut obj = mc("Bad_Name", None);
    obj.metadata.labels.insert("bad key!".into(), "v".into());
    obj.metadata.labels.insert("ok".into(), "bad value!".into());
    obj.metadata
        .annotations
        .insert("bad key!".into(), "v".into());
    obj.metadata.finalizers.push("bad finalizer!".into());
    obj.metadata.owner_references.push(OwnerReference {
        api_version: "v1".into(),
        kind: "ConfigMap".into(),
        name: String::new(),
        uid: String::new(),
        controller: None,
        block_owner_deletion: None,
    });
    let err = registry.create("Bad_NS", obj).await.unwrap_err();
    assert_invalid::<Memcached>(
        &err,
        "Bad_Name",
        &[
            ("metadata.name", "FieldValueInvalid"),
            ("metadata.namespace", "FieldValueInvalid"),
            ("metadata.labels", "FieldValueInvalid"),
            ("metadata.labels", "FieldValueInvalid"),
            ("metadata.annotations", "FieldValueInvalid"),
            // Not indexed, as apimachinery v0.31 reports them.
            ("metadata.ownerReferences.name", "FieldValueInvalid"),
            ("metadata.ownerReferences.uid", "FieldValueInvalid"),
            ("metadata.finalizers", "FieldValueInvalid"),
        ],
    );
    assert!(storage_is_empty(registry.storage()).await);
}

#[tokio::test]
async fn create_with_neither_name_nor_generate_name_is_invalid() {
    let registry = memcacheds().await;
    let err = registry.create(NS, mc("", None)).await.unwrap_err();
    assert_invalid::<Memcached>(&err, "", &[("metadata.name", "FieldValueRequired")]);
    assert_eq!(
        err.message,
        "Memcached.cache.example.com \"\" is invalid: metadata.name: Required value: name or generateName is required"
    );
}

#[tokio::test]
async fn custom_strategy_extends_the_default_validation_and_warns() {
    let registry = storage::registry::<Memcached>(TeamStrategy).await;

    // Both the type's rule (the default `strategy::validate`) and the
    // strategy's own rule are reported.
    let err = registry.create(NS, mc("mc", Some(5))).await.unwrap_err();
    assert_invalid::<Memcached>(
        &err,
        "mc",
        &[
            ("spec.size", "FieldValueInvalid"),
            ("metadata.labels[team]", "FieldValueRequired"),
        ],
    );
    assert!(
        err.message.contains("every Memcached needs a team"),
        "{}",
        err.message
    );

    // Valid: no warning for size 2, one for size 3.
    let ok = registry
        .create(NS, labelled(mc("a", Some(2)), &[("team", "web")]))
        .await
        .unwrap();
    assert!(ok.warnings.is_empty());
    let warned = registry
        .create(NS, labelled(mc("b", Some(3)), &[("team", "web")]))
        .await
        .unwrap();
    assert_eq!(
        warned.warnings,
        ["spec.size: 3 is the most this API allows"]
    );

    // Warnings come only after validation passed.
    let err = registry.create(NS, mc("c", Some(3))).await.unwrap_err();
    assert_status(&err, 422, "Invalid");
}

// ---------------------------------------------------------------------------
// Get

#[tokio::test]
async fn get_missing_is_not_found() {
    let registry = memcacheds().await;
    let err = registry.get(NS, "x").await.unwrap_err();
    assert_status(&err, 404, "NotFound");
    assert_eq!(err.message, "memcacheds.cache.example.com \"x\" not found");
    let details = err.details.as_ref().unwrap();
    assert_eq!(
        (
            details.group.as_str(),
            details.kind.as_str(),
            details.name.as_str()
        ),
        ("cache.example.com", "memcacheds", "x")
    );
    // Namespaces separate objects.
    registry.create("other", mc("x", None)).await.unwrap();
    assert_status(&registry.get(NS, "x").await.unwrap_err(), 404, "NotFound");
    assert_eq!(
        registry.get("other", "x").await.unwrap().metadata.namespace,
        "other"
    );
}

// ---------------------------------------------------------------------------
// List

async fn fill(registry: &Registry<Memcached>) {
    for (ns, name, app) in [
        ("a", "one", "web"),
        ("a", "two", "db"),
        ("a", "three", "web"),
        ("b", "four", "web"),
        ("b", "five", "cache"),
        ("b", "six", "db"),
        ("c", "seven", "web"),
    ] {
        registry
            .create(ns, labelled(mc(name, None), &[("app", app)]))
            .await
            .unwrap();
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[tokio::test]
async fn list_filters_by_namespace_and_selectors() {
    let registry = memcacheds().await;
    fill(&registry).await;
    let all = registry.list("", &ListOptions::default()).await.unwrap();
    assert_eq!(all.items.len(), 7);
    assert_eq!(all.metadata.resource_version, storage::rv(7));
    assert_eq!(all.metadata.continue_, "");
    assert_eq!(all.metadata.remaining_item_count, None);

    let a = registry.list("a", &ListOptions::default()).await.unwrap();
    assert_eq!(sorted(names(&a.items)), ["one", "three", "two"]);
    assert!(a.items.iter().all(|o| o.metadata.namespace == "a"));
    assert!(
        registry
            .list("zzz", &ListOptions::default())
            .await
            .unwrap()
            .items
            .is_empty()
    );

    let web = ListOptions {
        label_selector: Some("app=web".into()),
        ..ListOptions::default()
    };
    assert_eq!(
        sorted(names(&registry.list("", &web).await.unwrap().items)),
        ["four", "one", "seven", "three"]
    );
    assert_eq!(
        sorted(names(&registry.list("a", &web).await.unwrap().items)),
        ["one", "three"]
    );
    let not_web = ListOptions {
        label_selector: Some("app notin (web,cache)".into()),
        ..ListOptions::default()
    };
    assert_eq!(
        sorted(names(&registry.list("", &not_web).await.unwrap().items)),
        ["six", "two"]
    );

    let by_name = ListOptions {
        field_selector: Some("metadata.name=four".into()),
        ..ListOptions::default()
    };
    assert_eq!(
        names(&registry.list("", &by_name).await.unwrap().items),
        ["four"]
    );
    let by_ns = ListOptions {
        field_selector: Some("metadata.namespace==b,metadata.name!=five".into()),
        label_selector: Some("app".into()),
        ..ListOptions::default()
    };
    assert_eq!(
        sorted(names(&registry.list("", &by_ns).await.unwrap().items)),
        ["four", "six"]
    );

    // The list's resourceVersion follows the store.
    registry
        .delete("a", "one", &DeleteOptions::default())
        .await
        .unwrap();
    assert_eq!(
        registry
            .list("zzz", &ListOptions::default())
            .await
            .unwrap()
            .metadata
            .resource_version,
        storage::rv(8)
    );
}

#[tokio::test]
async fn list_with_bad_selectors_is_a_bad_request() {
    let registry = memcacheds().await;
    fill(&registry).await;
    let err = registry
        .list(
            "",
            &ListOptions {
                field_selector: Some("spec.size=1".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap_err();
    assert_status(&err, 400, "BadRequest");
    assert!(
        err.message
            .starts_with("field label not supported: spec.size"),
        "{}",
        err.message
    );
    let err = registry
        .list(
            "",
            &ListOptions {
                field_selector: Some("metadata.name".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap_err();
    assert_status(&err, 400, "BadRequest");
    let err = registry
        .list(
            "",
            &ListOptions {
                label_selector: Some("app in (".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap_err();
    assert_status(&err, 400, "BadRequest");
    let err = registry
        .list(
            "",
            &ListOptions {
                limit: Some(2),
                continue_token: Some("not hex".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap_err();
    assert_status(&err, 400, "BadRequest");
}

#[tokio::test]
async fn list_pages_cover_every_item_exactly_once() {
    let registry = memcacheds().await;
    fill(&registry).await;
    let mut seen = Vec::new();
    let mut remaining = Vec::new();
    let mut token = None;
    loop {
        let page = registry
            .list(
                "",
                &ListOptions {
                    limit: Some(3),
                    continue_token: token.clone(),
                    ..ListOptions::default()
                },
            )
            .await
            .unwrap();
        assert!(page.items.len() <= 3);
        assert_eq!(page.metadata.resource_version, storage::rv(7));
        seen.extend(names(&page.items));
        remaining.push(page.metadata.remaining_item_count);
        if page.metadata.continue_.is_empty() {
            break;
        }
        token = Some(page.metadata.continue_);
    }
    assert_eq!(remaining, [Some(4), Some(1), None]);
    assert_eq!(seen.len(), 7);
    assert_eq!(
        sorted(seen),
        ["five", "four", "one", "seven", "six", "three", "two"]
    );

    // With a selector: pages of matching items, without remainingItemCount
    // (the apiserver cannot count what a filter will keep).
    let web = |token: Option<String>| ListOptions {
        label_selector: Some("app=web".into()),
        limit: Some(3),
        continue_token: token,
        ..ListOptions::default()
    };
    let first = registry.list("", &web(None)).await.unwrap();
    assert_eq!(first.items.len(), 3);
    assert_eq!(first.metadata.remaining_item_count, None);
    assert!(!first.metadata.continue_.is_empty());
    let second = registry
        .list("", &web(Some(first.metadata.continue_.clone())))
        .await
        .unwrap();
    assert_eq!(second.items.len(), 1);
    assert_eq!(second.metadata.continue_, "");
    let mut all = names(&first.items);
    all.extend(names(&second.items));
    assert_eq!(sorted(all), ["four", "one", "seven", "three"]);

    // A limit equal to the count needs no second page.
    let exact = registry
        .list(
            "",
            &ListOptions {
                limit: Some(7),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(exact.items.len(), 7);
    assert_eq!(exact.metadata.continue_, "");
}

#[tokio::test]
async fn cluster_scoped_list_ignores_the_namespace() {
    let registry = storage::registry::<Tenant>(DefaultStrategy).await;
    let tenant = Tenant::new(
        "acme",
        TenantSpec {
            display_name: "ACME".into(),
            admins: vec![],
            quota: None,
        },
    );
    registry.create("default", tenant).await.unwrap();
    assert!(registry.get("default", "acme").await.is_ok());
    let listed = registry
        .list("default", &ListOptions::default())
        .await
        .unwrap();
    assert_eq!(names(&listed.items), ["acme"]);
}

// ---------------------------------------------------------------------------
// Update

#[tokio::test]
async fn update_with_a_stale_resource_version_is_a_conflict() {
    let registry = memcacheds().await;
    let created = registry.create(NS, mc("mc", None)).await.unwrap().object;
    let mut first = created.clone();
    first.spec.size = Some(2);
    registry.update(NS, first).await.unwrap();
    let mut stale = created;
    stale.spec.size = Some(3);
    let err = registry.update(NS, stale).await.unwrap_err();
    assert_status(&err, 409, "Conflict");
    assert_eq!(
        err.message,
        "Operation cannot be fulfilled on memcacheds.cache.example.com \"mc\": the object has been modified; please apply your changes to the latest version and try again"
    );
    let details = err.details.as_ref().unwrap();
    assert_eq!(
        (
            details.group.as_str(),
            details.kind.as_str(),
            details.name.as_str()
        ),
        ("cache.example.com", "memcacheds", "mc")
    );
    assert_eq!(registry.get(NS, "mc").await.unwrap().spec.size, Some(2));
}

#[tokio::test]
async fn update_without_resource_version_is_invalid() {
    let registry = memcacheds().await;
    registry.create(NS, mc("mc", None)).await.unwrap();
    let err = registry.update(NS, mc("mc", Some(2))).await.unwrap_err();
    assert_invalid::<Memcached>(
        &err,
        "mc",
        &[("metadata.resourceVersion", "FieldValueInvalid")],
    );
    assert_eq!(
        err.message,
        "Memcached.cache.example.com \"mc\" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update"
    );
}

#[tokio::test]
async fn update_without_resource_version_when_the_strategy_allows_it() {
    let registry = storage::registry::<Memcached>(Unconditional).await;
    let created = registry.create(NS, mc("mc", None)).await.unwrap().object;
    let updated = registry.update(NS, mc("mc", Some(3))).await.unwrap().object;
    assert_eq!(updated.spec.size, Some(3));
    assert_eq!(updated.metadata.generation, 2);
    assert_eq!(updated.metadata.uid, created.metadata.uid, "uid copied in");
    assert_eq!(
        updated.metadata.creation_timestamp,
        created.metadata.creation_timestamp
    );
    assert_eq!(updated.metadata.resource_version, storage::rv(2));
    // A stale resourceVersion is still a conflict.
    let err = registry.update(NS, created).await.unwrap_err();
    assert_status(&err, 409, "Conflict");
}

#[tokio::test]
async fn update_of_a_missing_object_is_not_found() {
    let registry = memcacheds().await;
    let mut obj = mc("ghost", None);
    obj.metadata.resource_version = "1".into();
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_status(&err, 404, "NotFound");
    assert_eq!(
        err.message,
        "memcacheds.cache.example.com \"ghost\" not found"
    );
    assert!(storage_is_empty(registry.storage()).await);
}

#[tokio::test]
async fn update_bumps_generation_only_when_the_spec_changes() {
    let registry = memcacheds().await;
    let created = registry.create(NS, mc("mc", Some(1))).await.unwrap().object;

    // Metadata only: generation stays.
    let mut obj = created.clone();
    obj.metadata.labels.insert("app".into(), "web".into());
    obj.metadata.annotations.insert("note".into(), "hi".into());
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.generation, 1);
    assert_eq!(updated.metadata.labels["app"], "web");

    // A spec that only spells out its default is the same spec.
    let mut obj = updated.clone();
    obj.spec.size = None;
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.generation, 1);
    assert_eq!(updated.spec.size, Some(1));

    // The spec changes: generation goes up by one, from the stored value,
    // whatever the client sent.
    let mut obj = updated.clone();
    obj.spec.size = Some(2);
    obj.metadata.generation = 99;
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.generation, 2);
    let mut obj = updated.clone();
    obj.spec.size = Some(3);
    obj.metadata.generation = 0;
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.generation, 3);
    // A status-only change through the main endpoint: ignored, no bump.
    let mut obj = updated.clone();
    obj.status = Some(available());
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.generation, 3);
    assert_eq!(updated.status, None);
    assert_eq!(json(&registry.get(NS, "mc").await.unwrap()), json(&updated));
}

#[tokio::test]
async fn update_bumps_generation_on_status_changes_without_a_status_subresource() {
    let registry = storage::registry::<Loose>(DefaultStrategy).await;
    let created = registry
        .create(NS, Loose::new("l", LooseSpec { value: 1 }))
        .await
        .unwrap()
        .object;
    let mut obj = created;
    obj.status = Some(LooseStatus {
        state: Some("Ready".into()),
    });
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(
        updated.status.as_ref().unwrap().state.as_deref(),
        Some("Ready")
    );
    assert_eq!(updated.metadata.generation, 2);
}

#[tokio::test]
async fn main_endpoint_writes_status_of_a_kind_without_a_status_subresource() {
    let registry = storage::registry::<Loose>(DefaultStrategy).await;
    let created = registry
        .create(NS, Loose::new("l", LooseSpec { value: 1 }))
        .await
        .unwrap()
        .object;
    let mut obj = created;
    obj.status = Some(LooseStatus {
        state: Some("Ready".into()),
    });
    obj.spec.value = 2;
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(
        updated.status.as_ref().unwrap().state.as_deref(),
        Some("Ready")
    );
    assert_eq!(updated.metadata.generation, 2);
    // And there is no /status to write to.
    let err = registry.update_status(NS, updated).await.unwrap_err();
    assert_status(&err, 404, "NotFound");
}

#[tokio::test]
async fn update_system_metadata() {
    let registry = memcacheds().await;
    let created = registry.create(NS, mc("mc", None)).await.unwrap().object;

    // creationTimestamp: the stored one is kept, whatever the client sends
    // (BeforeUpdate copies it over).
    let mut obj = created.clone();
    obj.metadata.creation_timestamp = Time::from_unix_seconds(5);
    obj.spec.size = Some(2);
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.creation_timestamp, Some(t0()));

    // An empty uid is filled in from the stored object.
    let mut obj = updated.clone();
    obj.metadata.uid.clear();
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.uid, created.metadata.uid);

    // A different uid is an immutable-field error (ValidateObjectMetaUpdate).
    let mut obj = updated.clone();
    obj.metadata.uid = "11111111-2222-4333-8444-555555555555".into();
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_invalid::<Memcached>(&err, "mc", &[("metadata.uid", "FieldValueInvalid")]);
    assert!(
        err.message.ends_with("field is immutable"),
        "{}",
        err.message
    );

    // deletionTimestamp cannot be set by an update.
    let mut obj = updated.clone();
    obj.metadata.deletion_timestamp = Some(t0());
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_invalid::<Memcached>(
        &err,
        "mc",
        &[("metadata.deletionTimestamp", "FieldValueInvalid")],
    );

    // Nor can the namespace change (the request names the old one).
    let mut obj = updated.clone();
    obj.metadata.namespace = "other".into();
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_status(&err, 400, "BadRequest");

    // ObjectMeta is validated on update too.
    let mut obj = updated.clone();
    obj.metadata.labels.insert("bad key!".into(), "v".into());
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_invalid::<Memcached>(
        &err,
        "mc",
        &[
            ("metadata.labels", "FieldValueInvalid"),
            ("metadata.labels", "FieldValueInvalid"),
        ],
    );

    // The type's validation runs on update, with the meta errors.
    let mut obj = updated.clone();
    obj.spec.size = Some(9);
    obj.metadata
        .annotations
        .insert("bad key!".into(), "v".into());
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_invalid::<Memcached>(
        &err,
        "mc",
        &[
            ("metadata.annotations", "FieldValueInvalid"),
            ("metadata.annotations", "FieldValueInvalid"),
            ("spec.size", "FieldValueInvalid"),
        ],
    );
    assert_eq!(
        json(&registry.get(NS, "mc").await.unwrap()),
        json(&updated),
        "nothing written"
    );
}

#[tokio::test]
async fn immutable_fields_cannot_change() {
    let registry = storage::registry::<Widget>(DefaultStrategy).await;
    let created = registry.create(NS, widget("w", 0)).await.unwrap().object;

    let mut obj = created.clone();
    obj.spec.class = "silver".into();
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_invalid::<Widget>(&err, "w", &[("spec.class", "FieldValueInvalid")]);
    assert_eq!(
        err.message,
        "Widget.test.example.com \"w\" is invalid: spec.class: Invalid value: \"silver\": field is immutable"
    );

    // Unset → set is allowed; set → changed or removed is not.
    let mut obj = created.clone();
    obj.spec.zone = Some("eu-1".into());
    obj.spec.counter = 1;
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.generation, 2);
    let mut obj = updated.clone();
    obj.spec.zone = Some("us-1".into());
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_invalid::<Widget>(&err, "w", &[("spec.zone", "FieldValueInvalid")]);
    assert!(
        err.message.contains("field is immutable"),
        "{}",
        err.message
    );
    // Removing an optional immutable field fails the rule `immutable`
    // writes on the parent (`!has(oldSelf.zone) || has(self.zone)`), as
    // controller-gen's `+k8s:immutable` does.
    let mut obj = updated.clone();
    obj.spec.zone = None;
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_invalid::<Widget>(&err, "w", &[("spec", "FieldValueInvalid")]);
    assert_eq!(
        err.message,
        "Widget.test.example.com \"w\" is invalid: spec: Invalid value: field zone is immutable once set"
    );

    // The mutable field still changes.
    let mut obj = updated.clone();
    obj.spec.counter = 2;
    assert_eq!(
        registry.update(NS, obj).await.unwrap().object.spec.counter,
        2
    );
}

// ---------------------------------------------------------------------------
// Status

#[tokio::test]
async fn update_status_takes_only_the_status() {
    let registry = memcacheds().await;
    let created = registry
        .create(NS, labelled(mc("mc", Some(2)), &[("app", "web")]))
        .await
        .unwrap()
        .object;

    let mut obj = created.clone();
    obj.status = Some(available());
    obj.spec.size = Some(3);
    obj.metadata.labels.insert("app".into(), "hijacked".into());
    obj.metadata.annotations.insert("x".into(), "y".into());
    obj.metadata.finalizers.push("example.com/f".into());
    obj.metadata.generation = 10;
    let updated = registry.update_status(NS, obj).await.unwrap().object;
    assert!(
        updated
            .status
            .as_ref()
            .unwrap()
            .conditions
            .is_true("Available")
    );
    assert_eq!(updated.spec, created.spec);
    assert_eq!(updated.metadata.labels, created.metadata.labels);
    assert!(updated.metadata.annotations.is_empty());
    assert!(updated.metadata.finalizers.is_empty());
    assert_eq!(updated.metadata.generation, 1);
    assert_eq!(updated.metadata.uid, created.metadata.uid);
    assert_eq!(updated.metadata.resource_version, storage::rv(2));
    assert_eq!(json(&registry.get(NS, "mc").await.unwrap()), json(&updated));

    // A stale or missing resourceVersion fails as on the main endpoint.
    let err = registry
        .update_status(NS, created.clone())
        .await
        .unwrap_err();
    assert_status(&err, 409, "Conflict");
    let mut unversioned = created;
    unversioned.metadata.resource_version.clear();
    let err = registry.update_status(NS, unversioned).await.unwrap_err();
    assert_invalid::<Memcached>(
        &err,
        "mc",
        &[("metadata.resourceVersion", "FieldValueInvalid")],
    );
    let mut missing = mc("ghost", None);
    missing.metadata.resource_version = "1".into();
    assert_status(
        &registry.update_status(NS, missing).await.unwrap_err(),
        404,
        "NotFound",
    );
}

#[tokio::test]
async fn update_status_validates_the_status() {
    let registry = memcacheds().await;
    let created = registry.create(NS, mc("mc", None)).await.unwrap().object;
    let mut obj = created;
    let mut status = MemcachedStatus::default();
    status.conditions.set_with_clock(
        Condition::new("Available", ConditionStatus::True, "not a reason!", ""),
        t0(),
    );
    obj.status = Some(status);
    let err = registry.update_status(NS, obj).await.unwrap_err();
    assert_status(&err, 422, "Invalid");
    assert!(
        causes(&err)
            .iter()
            .all(|(field, _)| field.starts_with("status.conditions[0]")),
        "{:?}",
        causes(&err)
    );
    assert!(!causes(&err).is_empty());
}

#[tokio::test]
async fn main_endpoint_keeps_the_stored_status() {
    let registry = memcacheds().await;
    let created = registry.create(NS, mc("mc", None)).await.unwrap().object;
    let mut obj = created;
    obj.status = Some(available());
    let with_status = registry.update_status(NS, obj).await.unwrap().object;

    // Dropping the status or writing another one through the main endpoint
    // changes nothing in it.
    let mut obj = with_status.clone();
    obj.status = None;
    obj.spec.size = Some(2);
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.status, with_status.status);
    assert_eq!(updated.spec.size, Some(2));
    assert_eq!(updated.metadata.generation, 2);
    let mut obj = updated.clone();
    obj.status = Some(MemcachedStatus::default());
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.status, with_status.status);
}

#[tokio::test]
async fn update_status_of_a_kind_without_a_status_subresource_is_not_found() {
    let registry = storage::registry::<Plain>(DefaultStrategy).await;
    let created = registry
        .create(NS, Plain::new("p", PlainSpec { value: 1 }))
        .await
        .unwrap()
        .object;
    let err = registry.update_status(NS, created).await.unwrap_err();
    assert_status(&err, 404, "NotFound");
    assert_eq!(
        err.message,
        "plains/status.test.example.com \"p\" not found"
    );
}

#[tokio::test]
async fn update_status_of_a_cluster_scoped_kind() {
    let registry = storage::registry::<Tenant>(DefaultStrategy).await;
    let created = registry
        .create(
            "",
            Tenant::new(
                "acme",
                TenantSpec {
                    display_name: "ACME".into(),
                    admins: vec![],
                    quota: None,
                },
            ),
        )
        .await
        .unwrap()
        .object;
    let mut obj = created.clone();
    obj.status = Some(TenantStatus {
        namespace_count: Some(4),
    });
    obj.spec.display_name = "Changed".into();
    let updated = registry.update_status("", obj).await.unwrap().object;
    assert_eq!(updated.status.unwrap().namespace_count, Some(4));
    assert_eq!(updated.spec.display_name, "ACME");
    assert_eq!(updated.metadata.generation, 1);
}

// ---------------------------------------------------------------------------
// Delete

#[tokio::test]
async fn delete_removes_the_object() {
    let registry = memcacheds().await;
    let created = registry.create(NS, mc("mc", None)).await.unwrap().object;
    let deleted = registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap();
    assert!(!deleted.pending);
    assert_eq!(deleted.object.metadata.uid, created.metadata.uid);
    assert_status(&registry.get(NS, "mc").await.unwrap_err(), 404, "NotFound");
    let err = registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap_err();
    assert_status(&err, 404, "NotFound");
    assert_eq!(err.message, "memcacheds.cache.example.com \"mc\" not found");
    // The name is free again, for a new object with a new uid.
    let again = registry.create(NS, mc("mc", None)).await.unwrap().object;
    assert_ne!(again.metadata.uid, created.metadata.uid);
}

#[tokio::test]
async fn delete_preconditions() {
    let registry = memcacheds().await;
    let created = registry.create(NS, mc("mc", None)).await.unwrap().object;

    let err = registry
        .delete(
            NS,
            "mc",
            &DeleteOptions {
                uid: Some("other-uid".into()),
                ..DeleteOptions::default()
            },
        )
        .await
        .unwrap_err();
    assert_status(&err, 409, "Conflict");
    assert!(
        err.message
            .starts_with("Operation cannot be fulfilled on memcacheds.cache.example.com \"mc\": "),
        "{}",
        err.message
    );
    assert!(err.message.contains("other-uid"), "{}", err.message);

    let err = registry
        .delete(
            NS,
            "mc",
            &DeleteOptions {
                resource_version: Some(storage::rv(999)),
                ..DeleteOptions::default()
            },
        )
        .await
        .unwrap_err();
    assert_status(&err, 409, "Conflict");
    assert!(err.message.contains(&storage::rv(999)), "{}", err.message);
    assert!(registry.get(NS, "mc").await.is_ok(), "still there");

    let deleted = registry
        .delete(
            NS,
            "mc",
            &DeleteOptions {
                uid: Some(created.metadata.uid.clone()),
                resource_version: Some(created.metadata.resource_version.clone()),
                ..DeleteOptions::default()
            },
        )
        .await
        .unwrap();
    assert!(!deleted.pending);
    assert_status(&registry.get(NS, "mc").await.unwrap_err(), 404, "NotFound");
}

#[tokio::test]
async fn delete_with_finalizers_waits_for_them() {
    let later = Time::from_unix_seconds(T0 + 60).unwrap();
    let registry = storage::registry::<Memcached>(DefaultStrategy)
        .await
        .with_clock(move || later);
    let mut obj = mc("mc", None);
    obj.metadata.finalizers = vec!["example.com/a".into(), "example.com/b".into()];
    let created = registry.create(NS, obj).await.unwrap().object;
    assert_eq!(created.metadata.generation, 1);

    // First delete: marked, generation bumped, still there.
    let first = registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap();
    assert!(first.pending);
    let meta = &first.object.metadata;
    assert_eq!(meta.deletion_timestamp, Some(later));
    assert_eq!(meta.deletion_grace_period_seconds, Some(0));
    assert_eq!(meta.generation, 2);
    let stored = registry.get(NS, "mc").await.unwrap();
    assert_eq!(json(&stored), json(&first.object));

    // Second delete: nothing changes.
    let second = registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap();
    assert!(second.pending);
    assert_eq!(json(&second.object), json(&stored));
    assert_eq!(json(&registry.get(NS, "mc").await.unwrap()), json(&stored));

    // No new finalizers once deleting.
    let mut obj = stored.clone();
    obj.metadata.finalizers.push("example.com/c".into());
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_invalid::<Memcached>(
        &err,
        "mc",
        &[("metadata.finalizers", "FieldValueForbidden")],
    );
    assert!(
        err.message
            .contains("no new finalizers can be added if the object is being deleted"),
        "{}",
        err.message
    );

    // An update cannot remove the deletionTimestamp.
    let mut obj = stored.clone();
    obj.metadata.deletion_timestamp = None;
    obj.metadata.deletion_grace_period_seconds = None;
    obj.metadata.finalizers = vec!["example.com/a".into()];
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.deletion_timestamp, Some(later));
    assert_eq!(updated.metadata.deletion_grace_period_seconds, Some(0));
    assert_eq!(updated.metadata.finalizers, ["example.com/a"]);

    // Removing the last finalizer deletes the object.
    let mut obj = updated;
    obj.metadata.finalizers.clear();
    registry.update(NS, obj).await.unwrap();
    let err = registry.get(NS, "mc").await.unwrap_err();
    assert_status(&err, 404, "NotFound");
    assert!(registry.storage().list("/").await.unwrap().0.is_empty());
}

#[tokio::test]
async fn status_update_of_a_deleting_object_keeps_it() {
    let registry = memcacheds().await;
    let mut obj = mc("mc", None);
    obj.metadata.finalizers = vec!["example.com/a".into()];
    registry.create(NS, obj).await.unwrap();
    let marked = registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap()
        .object;
    let mut obj = marked.clone();
    obj.status = Some(available());
    obj.metadata.finalizers.clear(); // not a status field: ignored
    let updated = registry.update_status(NS, obj).await.unwrap().object;
    assert_eq!(updated.metadata.finalizers, ["example.com/a"]);
    assert_eq!(
        updated.metadata.deletion_timestamp,
        marked.metadata.deletion_timestamp
    );
    assert!(registry.get(NS, "mc").await.is_ok());
}

#[tokio::test]
async fn non_graceful_strategy_ignores_the_grace_period() {
    let registry = memcacheds().await;
    registry.create(NS, mc("mc", None)).await.unwrap();
    let deleted = registry
        .delete(
            NS,
            "mc",
            &DeleteOptions {
                grace_period_seconds: Some(30),
                ..DeleteOptions::default()
            },
        )
        .await
        .unwrap();
    assert!(!deleted.pending);
    assert_status(&registry.get(NS, "mc").await.unwrap_err(), 404, "NotFound");
}

#[tokio::test]
async fn graceful_delete_marks_the_object() {
    let registry = storage::registry::<Memcached>(Graceful)
        .await
        .with_clock(t0);
    registry.create(NS, mc("mc", None)).await.unwrap();
    let first = registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap();
    assert!(first.pending);
    let meta = &first.object.metadata;
    assert_eq!(meta.deletion_timestamp, t0().checked_add_seconds(30));
    assert_eq!(meta.deletion_grace_period_seconds, Some(30));
    assert_eq!(meta.generation, 2);
    // Grace 0 finishes it.
    let done = registry
        .delete(
            NS,
            "mc",
            &DeleteOptions {
                grace_period_seconds: Some(0),
                ..DeleteOptions::default()
            },
        )
        .await
        .unwrap();
    assert!(!done.pending);
    assert_status(&registry.get(NS, "mc").await.unwrap_err(), 404, "NotFound");
}

#[tokio::test]
async fn negative_grace_period_is_one_second() {
    let registry = storage::registry::<Memcached>(Graceful)
        .await
        .with_clock(t0);
    registry.create(NS, mc("mc", None)).await.unwrap();
    let deleted = registry
        .delete(
            NS,
            "mc",
            &DeleteOptions {
                grace_period_seconds: Some(-5),
                ..DeleteOptions::default()
            },
        )
        .await
        .unwrap();
    assert!(deleted.pending);
    assert_eq!(
        deleted.object.metadata.deletion_grace_period_seconds,
        Some(1)
    );
    assert_eq!(
        deleted.object.metadata.deletion_timestamp,
        t0().checked_add_seconds(1)
    );
}

#[tokio::test]
async fn shorter_grace_period_shortens_a_pending_deletion() {
    let registry = storage::registry::<Memcached>(Graceful)
        .await
        .with_clock(t0);
    registry.create(NS, mc("mc", None)).await.unwrap();
    registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap();
    let second = registry
        .delete(
            NS,
            "mc",
            &DeleteOptions {
                grace_period_seconds: Some(10),
                ..DeleteOptions::default()
            },
        )
        .await
        .unwrap();
    assert!(second.pending);
    let meta = registry.get(NS, "mc").await.unwrap().metadata;
    assert_eq!(meta.deletion_grace_period_seconds, Some(10));
    assert_eq!(meta.deletion_timestamp, t0().checked_add_seconds(10));
    assert_eq!(meta.generation, 2, "bumped once");
}

// ---------------------------------------------------------------------------
// Storage conflicts behind the registry's back

#[tokio::test]
async fn conditional_update_racing_another_writer_is_a_conflict() {
    let storage = Arc::new(Interfering::new());
    let registry = Registry::<Memcached>::with_storage(DefaultStrategy, storage.clone());
    let created = registry.create(NS, mc("mc", None)).await.unwrap().object;
    storage.armed.store(true, Ordering::SeqCst);
    let mut obj = created;
    obj.spec.size = Some(2);
    let err = registry.update(NS, obj).await.unwrap_err();
    assert_status(&err, 409, "Conflict");
    assert_eq!(
        err.message,
        "Operation cannot be fulfilled on memcacheds.cache.example.com \"mc\": the object has been modified; please apply your changes to the latest version and try again"
    );
}

#[tokio::test]
async fn unconditional_update_retries_a_lost_race() {
    let storage = Arc::new(Interfering::new());
    let registry = Registry::<Memcached>::with_storage(Unconditional, storage.clone());
    registry.create(NS, mc("mc", None)).await.unwrap();
    storage.armed.store(true, Ordering::SeqCst);
    let updated = registry.update(NS, mc("mc", Some(2))).await.unwrap().object;
    assert_eq!(updated.spec.size, Some(2));
}

#[tokio::test]
async fn delete_without_preconditions_retries_a_lost_race() {
    let storage = Arc::new(Interfering::new());
    let registry = Registry::<Memcached>::with_storage(DefaultStrategy, storage.clone());
    registry.create(NS, mc("mc", None)).await.unwrap();
    storage.armed.store(true, Ordering::SeqCst);
    let deleted = registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap();
    assert!(!deleted.pending);
}

// ---------------------------------------------------------------------------
// Watch

#[tokio::test]
async fn watch_reports_changes_in_order() {
    let registry = memcacheds().await;
    let mut watch = registry.watch(NS, &ListOptions::default()).await.unwrap();
    let created = registry.create(NS, mc("mc", None)).await.unwrap().object;
    registry
        .create("other", mc("elsewhere", None))
        .await
        .unwrap();
    let mut obj = created.clone();
    obj.spec.size = Some(2);
    let updated = registry.update(NS, obj).await.unwrap().object;
    registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap();

    let events = storage::pending(&mut watch).await;
    assert_eq!(
        event_names(&events),
        ev(&[("ADDED", "mc"), ("MODIFIED", "mc"), ("DELETED", "mc")])
    );
    assert!(matches!(&events[0], WatchEvent::Added(o) if json(o) == json(&created)));
    assert!(matches!(&events[1], WatchEvent::Modified(o) if json(o) == json(&updated)));
    let WatchEvent::Deleted(last) = &events[2] else {
        unreachable!()
    };
    assert_eq!(last.spec, updated.spec);
    assert_eq!(
        last.metadata.resource_version,
        storage::rv(4),
        "the deletion's revision"
    );
    assert!(storage::pending(&mut watch).await.is_empty());
}

#[tokio::test]
async fn watch_of_a_finalized_deletion() {
    let registry = memcacheds().await;
    let mut watch = registry.watch("", &ListOptions::default()).await.unwrap();
    let mut obj = mc("mc", None);
    obj.metadata.finalizers = vec!["example.com/a".into()];
    registry.create(NS, obj).await.unwrap();
    let marked = registry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap()
        .object;
    let mut obj = marked;
    obj.metadata.finalizers.clear();
    registry.update(NS, obj).await.unwrap();
    let events = storage::pending(&mut watch).await;
    assert_eq!(
        event_names(&events),
        ev(&[("ADDED", "mc"), ("MODIFIED", "mc"), ("DELETED", "mc")])
    );
    assert!(
        events[1]
            .object()
            .is_some_and(|o| o.metadata.deletion_timestamp.is_some())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_from_a_list_misses_nothing() {
    let registry = memcacheds().await;
    registry.create(NS, mc("a", None)).await.unwrap();
    registry.create(NS, mc("b", None)).await.unwrap();
    let list = registry.list(NS, &ListOptions::default()).await.unwrap();
    assert_eq!(names(&list.items), ["a", "b"]);

    // Changes between the list and the watch ...
    registry.create(NS, mc("c", None)).await.unwrap();
    let mut a = list.items[0].clone();
    a.spec.size = Some(2);
    registry.update(NS, a).await.unwrap();
    let mut watch = registry
        .watch(
            NS,
            &ListOptions {
                resource_version: Some(list.metadata.resource_version.clone()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    // ... and after it.
    registry
        .delete(NS, "b", &DeleteOptions::default())
        .await
        .unwrap();
    let events = storage::pending(&mut watch).await;
    assert_eq!(
        event_names(&events),
        ev(&[("ADDED", "c"), ("MODIFIED", "a"), ("DELETED", "b")])
    );

    // A concurrent writer: every change after the list's revision arrives,
    // once, in order.
    let registry = Arc::new(memcacheds().await);
    let writer = registry.clone();
    let writing = tokio::spawn(async move {
        for i in 0..30 {
            writer
                .create(NS, mc(&format!("w{i:02}"), None))
                .await
                .unwrap();
            tokio::task::yield_now().await;
        }
    });
    let list = registry.list(NS, &ListOptions::default()).await.unwrap();
    let mut watch = registry
        .watch(
            NS,
            &ListOptions {
                resource_version: Some(list.metadata.resource_version),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    let mut seen = names(&list.items);
    while seen.len() < 30 {
        let event = tokio::time::timeout(std::time::Duration::from_secs(5), watch.next())
            .await
            .expect("an event within 5 s")
            .expect("the watch goes on")
            .expect("no watch error");
        assert!(matches!(event, WatchEvent::Added(_)));
        seen.extend(event.object().map(|o| o.metadata.name.clone()));
    }
    writing.await.unwrap();
    let expected: Vec<String> = (0..30).map(|i| format!("w{i:02}")).collect();
    assert_eq!(seen, expected);
}

#[tokio::test]
async fn watch_filters_by_label_selector() {
    let registry = memcacheds().await;
    let mut watch = registry
        .watch(
            "",
            &ListOptions {
                label_selector: Some("app=web".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    registry
        .create(NS, labelled(mc("web", None), &[("app", "web")]))
        .await
        .unwrap();
    registry
        .create(NS, labelled(mc("db", None), &[("app", "db")]))
        .await
        .unwrap();
    let db = registry.get(NS, "db").await.unwrap();
    let mut obj = db;
    obj.spec.size = Some(2);
    registry.update(NS, obj).await.unwrap();
    registry
        .delete(NS, "web", &DeleteOptions::default())
        .await
        .unwrap();
    assert_eq!(
        event_names(&storage::pending(&mut watch).await),
        ev(&[("ADDED", "web"), ("DELETED", "web")])
    );

    // Field selectors too.
    let mut by_name = registry
        .watch(
            NS,
            &ListOptions {
                field_selector: Some("metadata.name=db".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    registry.create(NS, mc("x", None)).await.unwrap();
    registry
        .delete(NS, "db", &DeleteOptions::default())
        .await
        .unwrap();
    assert_eq!(
        event_names(&storage::pending(&mut by_name).await),
        ev(&[("DELETED", "db")])
    );

    let err = registry
        .watch(
            "",
            &ListOptions {
                field_selector: Some("status.phase=x".into()),
                ..ListOptions::default()
            },
        )
        .await
        .err()
        .unwrap();
    assert_status(&err, 400, "BadRequest");
}

#[tokio::test]
async fn watch_reports_objects_entering_and_leaving_the_selection() {
    let registry = memcacheds().await;
    let mut watch = registry
        .watch(
            "",
            &ListOptions {
                label_selector: Some("app=web".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    let created = registry
        .create(NS, labelled(mc("mc", None), &[("app", "web")]))
        .await
        .unwrap()
        .object;
    let mut obj = created;
    obj.metadata.labels.insert("app".into(), "db".into());
    let moved = registry.update(NS, obj).await.unwrap().object;
    let mut obj = moved;
    obj.metadata.labels.insert("app".into(), "web".into());
    registry.update(NS, obj).await.unwrap();
    assert_eq!(
        event_names(&storage::pending(&mut watch).await),
        ev(&[("ADDED", "mc"), ("DELETED", "mc"), ("ADDED", "mc")])
    );
}

#[tokio::test]
async fn watch_from_a_compacted_revision_is_expired() {
    let registry = Registry::<Memcached>::with_storage(
        DefaultStrategy,
        Arc::new(MemoryStorage::with_history(2)),
    );
    for name in ["a", "b", "c", "d"] {
        registry.create(NS, mc(name, None)).await.unwrap();
    }
    let err = registry
        .watch(
            NS,
            &ListOptions {
                resource_version: Some("1".into()),
                ..ListOptions::default()
            },
        )
        .await
        .err()
        .unwrap();
    assert_status(&err, 410, "Expired");
    assert!(
        err.message.starts_with("too old resource version: 1"),
        "{}",
        err.message
    );

    // The history still reaches revision 2.
    let mut watch = registry
        .watch(
            NS,
            &ListOptions {
                resource_version: Some("2".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        event_names(&storage::pending(&mut watch).await),
        ev(&[("ADDED", "c"), ("ADDED", "d")])
    );

    let err = registry
        .watch(
            NS,
            &ListOptions {
                resource_version: Some("abc".into()),
                ..ListOptions::default()
            },
        )
        .await
        .err()
        .unwrap();
    assert_status(&err, 400, "BadRequest");
}

// ---------------------------------------------------------------------------
// The API conventions' lost update, and concurrency

#[tokio::test]
async fn lost_update_is_prevented() {
    // Two clients read the same object, both write: the second gets 409,
    // re-reads, and re-applies its change.
    let registry = memcacheds().await;
    let created = registry
        .create(NS, labelled(mc("mc", None), &[("app", "web")]))
        .await
        .unwrap()
        .object;
    let mut alice = registry.get(NS, "mc").await.unwrap();
    let mut bob = registry.get(NS, "mc").await.unwrap();
    assert_eq!(
        alice.metadata.resource_version,
        bob.metadata.resource_version
    );

    alice.spec.size = Some(2);
    let after_alice = registry.update(NS, alice).await.unwrap().object;
    assert_ne!(
        after_alice.metadata.resource_version,
        created.metadata.resource_version
    );

    bob.metadata.labels.insert("tier".into(), "front".into());
    let err = registry.update(NS, bob).await.unwrap_err();
    assert_status(&err, 409, "Conflict");
    assert!(err.message.contains("the object has been modified"));

    // Alice's change survived; Bob retries on the fresh object.
    let mut bob = registry.get(NS, "mc").await.unwrap();
    assert_eq!(bob.spec.size, Some(2));
    bob.metadata.labels.insert("tier".into(), "front".into());
    let last = registry.update(NS, bob).await.unwrap().object;
    assert_eq!(last.spec.size, Some(2));
    assert_eq!(last.metadata.labels["tier"], "front");
}

#[test]
fn registry_is_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Registry<Memcached>>();
    send_sync::<Registry<Widget>>();
    send_sync::<Arc<Registry<Tenant>>>();
}

/// Every operation's future is `Send`, so a server can run it on any
/// tokio worker (a compile-time check).
#[test]
fn registry_futures_are_send() {
    fn send<T: Send>(_: &T) {}
    let registry = Registry::<Memcached>::new(DefaultStrategy);
    let options = ListOptions::default();
    let delete = DeleteOptions::default();
    send(&registry.create(NS, mc("a", None)));
    send(&registry.get(NS, "a"));
    send(&registry.list(NS, &options));
    send(&registry.update(NS, mc("a", None)));
    send(&registry.update_status(NS, mc("a", None)));
    send(&registry.patch(NS, "a", api_core::patch::PatchType::Merge, b"{}"));
    send(&registry.delete(NS, "a", &delete));
    send(&registry.watch(NS, &options));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_increments_are_never_lost() {
    const THREADS: usize = 4;
    const INCREMENTS: usize = 50;
    let registry = Arc::new(storage::registry::<Widget>(DefaultStrategy).await);
    registry.create(NS, widget("counter", 0)).await.unwrap();
    let conflicts = Arc::new(AtomicUsize::new(0));
    let tasks: Vec<_> = (0..THREADS)
        .map(|_| {
            let (registry, conflicts) = (registry.clone(), conflicts.clone());
            tokio::spawn(async move {
                for _ in 0..INCREMENTS {
                    loop {
                        let mut w = registry.get(NS, "counter").await.unwrap();
                        w.spec.counter += 1;
                        // Let the other writers in between read and write.
                        tokio::task::yield_now().await;
                        match registry.update(NS, w).await {
                            Ok(_) => break,
                            Err(e) if e.code == 409 => {
                                assert_eq!(e.reason.as_str(), "Conflict");
                                conflicts.fetch_add(1, Ordering::Relaxed);
                            }
                            Err(e) => panic!("unexpected {e:?}"),
                        }
                    }
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let total = (THREADS * INCREMENTS) as i64;
    let w = registry.get(NS, "counter").await.unwrap();
    assert_eq!(w.spec.counter, total);
    assert_eq!(w.metadata.generation, 1 + total);
    assert_eq!(
        w.metadata.resource_version,
        storage::rv(1 + total as u64),
        "one revision per successful write ({} conflicts retried)",
        conflicts.load(Ordering::Relaxed)
    );
}

// ---------------------------------------------------------------------------
// Security

#[tokio::test]
async fn bad_names_never_reach_storage() {
    let registry = memcacheds().await;
    let long = "a".repeat(300);
    for name in [
        "..",
        ".",
        "a/b",
        "a%b",
        "UPPER",
        "a..b",
        "-a",
        "a_b",
        long.as_str(),
    ] {
        let err = registry.create(NS, mc(name, None)).await.unwrap_err();
        assert_invalid::<Memcached>(&err, name, &[("metadata.name", "FieldValueInvalid")]);
    }
    // Bad namespaces neither.
    for ns in ["a/b", "..", "Upper", "a.b"] {
        let err = registry.create(ns, mc("ok", None)).await.unwrap_err();
        assert_eq!(err.code, 422, "{ns}: {err:?}");
        assert!(
            causes(&err).iter().all(|(f, _)| f == "metadata.namespace"),
            "{ns}: {err:?}"
        );
    }
    // Nor do generated names from a bad prefix.
    for prefix in ["a/", "a%", "UP-"] {
        let mut obj = mc("", None);
        obj.metadata.generate_name = prefix.into();
        let err = registry.create(NS, obj).await.unwrap_err();
        assert_status(&err, 422, "Invalid");
        assert!(
            causes(&err).contains(&("metadata.generateName".into(), "FieldValueInvalid".into())),
            "{prefix}: {err:?}"
        );
    }
    assert!(storage_is_empty(registry.storage()).await);
}

#[tokio::test]
async fn bad_names_are_rejected_by_every_verb() {
    let registry = memcacheds().await;
    registry.create(NS, mc("ok", None)).await.unwrap();
    for name in ["..", ".", "a/b", "a%b", ""] {
        assert_status(
            &registry.get(NS, name).await.unwrap_err(),
            400,
            "BadRequest",
        );
        assert_status(
            &registry
                .delete(NS, name, &DeleteOptions::default())
                .await
                .unwrap_err(),
            400,
            "BadRequest",
        );
        let mut obj = mc(name, None);
        obj.metadata.resource_version = "1".into();
        assert_status(
            &registry.update(NS, obj.clone()).await.unwrap_err(),
            400,
            "BadRequest",
        );
        assert_status(
            &registry.update_status(NS, obj).await.unwrap_err(),
            400,
            "BadRequest",
        );
    }
    // A well-formed name that does not exist is just not found.
    assert_status(
        &registry.get(NS, "UPPER").await.unwrap_err(),
        404,
        "NotFound",
    );
    assert_eq!(registry.storage().list("/").await.unwrap().0.len(), 1);
    assert_eq!(registry.storage().revision().await, Ok(storage::base() + 1));
    // Namespaces in keys cannot escape either: a traversal-looking namespace
    // finds nothing.
    assert_status(
        &registry.get("../default", "ok").await.unwrap_err(),
        404,
        "NotFound",
    );
}

#[tokio::test]
async fn main_endpoint_cannot_write_status() {
    let registry = memcacheds().await;
    let mut obj = mc("mc", None);
    obj.status = Some(available());
    let created = registry.create(NS, obj).await.unwrap().object;
    assert_eq!(created.status, None);
    let mut obj = created;
    obj.status = Some(available());
    let updated = registry.update(NS, obj).await.unwrap().object;
    assert_eq!(updated.status, None);
    assert_eq!(registry.get(NS, "mc").await.unwrap().status, None);
}

#[tokio::test]
async fn status_endpoint_cannot_write_spec_or_metadata() {
    let registry = memcacheds().await;
    let mut obj = labelled(mc("mc", Some(1)), &[("app", "web")]);
    obj.metadata
        .annotations
        .insert("owner".into(), "alice".into());
    obj.metadata.finalizers.push("example.com/keep".into());
    let created = registry.create(NS, obj).await.unwrap().object;

    let mut attack = created.clone();
    attack.spec.size = Some(3);
    attack.metadata.labels.clear();
    attack.metadata.labels.insert("admin".into(), "true".into());
    attack.metadata.annotations.clear();
    attack.metadata.finalizers.clear();
    attack.metadata.owner_references.push(OwnerReference {
        api_version: "v1".into(),
        kind: "Namespace".into(),
        name: "kube-system".into(),
        uid: "u".into(),
        controller: Some(true),
        block_owner_deletion: None,
    });
    attack.metadata.generation = 7;
    attack.status = Some(available());
    let updated = registry.update_status(NS, attack).await.unwrap().object;

    assert_eq!(updated.spec, created.spec);
    assert_eq!(updated.metadata.labels, created.metadata.labels);
    assert_eq!(updated.metadata.annotations, created.metadata.annotations);
    assert_eq!(updated.metadata.finalizers, created.metadata.finalizers);
    assert!(updated.metadata.owner_references.is_empty());
    assert_eq!(updated.metadata.generation, created.metadata.generation);
    assert_eq!(updated.status, Some(available()));
    assert_eq!(json(&registry.get(NS, "mc").await.unwrap()), json(&updated));
}
