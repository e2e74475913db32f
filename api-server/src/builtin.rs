//! Kubernetes' built-in kinds, served from k8s-openapi's types by the one
//! store (feature `k8s-openapi`): a kind is its [`KindInfo`] (names and
//! scope from the type's `k8s_openapi::Resource` constants, the schema
//! api-core generates from the Go sources) and a strategy
//! ([`BuiltinStrategy`]: the schema's defaults, pruning and validation,
//! plus the kind's own rules), its bodies read through the type.
//!
//! ConfigMap is the first ([`config_map`]): `kubectl create configmap`,
//! `kubectl get cm`, every patch type and server-side apply behave as on a
//! cluster, with `ValidateConfigMap`'s checks (keys, the 1 MiB limit,
//! `immutable`).

use std::any::TypeId;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Arc, LazyLock, Mutex};

use api_core::ApiType;
use api_core::crd::CustomResourceDefinition;
use api_core::registry::{DynamicObject, DynamicStrategy, KindInfo, Registry, Storage, Strategy};
use api_core::validation::names::{max_len_error, regex_error};
use api_core::validation::{ErrorList, FieldError, FieldPath};
use k8s_openapi::api::core::v1::ConfigMap;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::served::{RegistryKind, decode_as};

mod event_storage;
mod workloads;

pub use workloads::{
    validate_daemon_set, validate_deployment, validate_pod, validate_replica_set,
    validate_stateful_set,
};

/// The short names and categories kube-apiserver gives a built-in
/// resource (its REST storage's `ShortNames()` and `Categories()`), by
/// group and resource; none for a resource not listed.
///
/// ```
/// assert_eq!(api_server::builtin::names("", "configmaps"), (&["cm"][..], &[][..]));
/// assert_eq!(api_server::builtin::names("apps", "deployments"), (&["deploy"][..], &["all"][..]));
/// ```
pub fn names(group: &str, resource: &str) -> (&'static [&'static str], &'static [&'static str]) {
    const ALL: &[&str] = &["all"];
    match (group, resource) {
        ("", "configmaps") => (&["cm"], &[]),
        ("", "endpoints") => (&["ep"], &[]),
        ("", "events") => (&["ev"], &[]),
        ("", "limitranges") => (&["limits"], &[]),
        ("", "namespaces") => (&["ns"], &[]),
        ("", "nodes") => (&["no"], &[]),
        ("", "persistentvolumeclaims") => (&["pvc"], &[]),
        ("", "persistentvolumes") => (&["pv"], &[]),
        ("", "pods") => (&["po"], ALL),
        ("", "replicationcontrollers") => (&["rc"], ALL),
        ("", "resourcequotas") => (&["quota"], &[]),
        ("", "serviceaccounts") => (&["sa"], &[]),
        ("", "services") => (&["svc"], ALL),
        ("apps", "daemonsets") => (&["ds"], ALL),
        ("apps", "deployments") => (&["deploy"], ALL),
        ("apps", "replicasets") => (&["rs"], ALL),
        ("apps", "statefulsets") => (&["sts"], ALL),
        ("batch", "cronjobs") => (&["cj"], ALL),
        ("batch", "jobs") => (&[], ALL),
        ("autoscaling", "horizontalpodautoscalers") => (&["hpa"], ALL),
        _ => (&[], &[]),
    }
}

/// Whether kube-apiserver serves the `scale` subresource of a built-in
/// resource (Deployments, ReplicaSets, StatefulSets,
/// ReplicationControllers), its `status.selector` `spec.selector`'s
/// string form.
pub fn scales(group: &str, resource: &str) -> bool {
    matches!(
        (group, resource),
        ("apps", "deployments" | "replicasets" | "statefulsets") | ("", "replicationcontrollers")
    )
}

/// The [`KindInfo`] of the k8s-openapi type `T`: group, version, kind,
/// plural and scope from its `Resource` constants, short names and
/// categories as kube-apiserver has them ([`names`]), its schema from
/// api-core (the one controller-gen writes for the Go type), the status
/// subresource when the schema has a `status`, the scale subresource
/// where kube-apiserver serves one ([`scales`]).
pub fn kind_info<T: k8s_openapi::Resource + ApiType>() -> KindInfo {
    let mut schema = T::api_schema(&mut api_core::__private::generator()).to_value();
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for property in properties.values_mut() {
            keep_embedded_metadata(property);
        }
    }
    let status = schema.pointer("/properties/status").is_some();
    let group = T::GROUP;
    let scope = if std::any::type_name::<T::Scope>().ends_with("NamespaceResourceScope") {
        "Namespaced"
    } else {
        "Cluster"
    };
    let mut version = json!({
        "name": T::VERSION, "served": true, "storage": true,
        "schema": {"openAPIV3Schema": schema}
    });
    if status {
        version["subresources"] = json!({"status": {}});
    }
    if scales(group, T::URL_PATH_SEGMENT) {
        // `autoscaling/v1` Scale over the replica counts, as the apps
        // kinds' and ReplicationController's scale REST storage serves it.
        version["subresources"]["scale"] = json!({
            "specReplicasPath": ".spec.replicas",
            "statusReplicasPath": ".status.replicas",
            "labelSelectorPath": ".spec.selector"
        });
    }
    let (short_names, categories) = names(group, T::URL_PATH_SEGMENT);
    // `<plural>.<group>`, and the core group's `<plural>` (as Namespace's).
    let name = if group.is_empty() {
        T::URL_PATH_SEGMENT.to_string()
    } else {
        format!("{}.{group}", T::URL_PATH_SEGMENT)
    };
    let crd: CustomResourceDefinition = serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": name},
        "spec": {
            "group": group,
            "names": {"kind": T::KIND, "listKind": format!("{}List", T::KIND),
                      "plural": T::URL_PATH_SEGMENT, "singular": T::KIND.to_lowercase(),
                      "shortNames": short_names, "categories": categories},
            "scope": scope,
            "versions": [version]
        }
    }))
    .unwrap_or_default();
    KindInfo::from_crd(&crd, T::VERSION).expect("the description serves its version")
}

/// A built-in kind's own rules (`Validate<Kind>`): the new object, and the
/// old one on an update.
pub type Rules<T> = fn(&T, Option<&T>) -> ErrorList;

/// The strategy of a built-in kind `T`: the schema's defaults, pruning
/// and validation ([`DynamicStrategy`]), and `T`'s own rules.
pub struct BuiltinStrategy<T> {
    schema: Arc<DynamicStrategy>,
    rules: Rules<T>,
    _kind: PhantomData<fn() -> T>,
}

impl<T> BuiltinStrategy<T> {
    /// The strategy of `kind` with `rules`.
    pub fn new(kind: &KindInfo, rules: Rules<T>) -> Self {
        Self::with_schema(Arc::new(DynamicStrategy::new(kind)), rules)
    }

    /// The strategy over an already compiled schema strategy.
    fn with_schema(schema: Arc<DynamicStrategy>, rules: Rules<T>) -> Self {
        BuiltinStrategy {
            schema,
            rules,
            _kind: PhantomData,
        }
    }
}

fn typed<T: DeserializeOwned>(obj: &DynamicObject) -> Result<T, ErrorList> {
    serde_json::from_value(obj.to_value()).map_err(|e| {
        let mut errors = ErrorList::new();
        errors.push(FieldError::invalid(
            &FieldPath::new(""),
            Value::Null,
            e.to_string(),
        ));
        errors
    })
}

impl<T: DeserializeOwned + Serialize + Send + Sync> Strategy<DynamicObject> for BuiltinStrategy<T> {
    fn apply_defaults(&self, obj: &mut DynamicObject) {
        self.schema.apply_defaults(obj);
    }

    fn prepare_for_create(&self, obj: &mut DynamicObject) {
        self.schema.prepare_for_create(obj);
    }

    fn validate(&self, obj: &DynamicObject) -> ErrorList {
        let mut errors = self.schema.validate(obj);
        match typed::<T>(obj) {
            Ok(new) => errors.extend((self.rules)(&new, None)),
            Err(e) => errors.extend(e),
        }
        errors
    }

    fn prepare_for_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        self.schema.prepare_for_update(new, old);
    }

    fn validate_update(&self, new: &DynamicObject, old: &DynamicObject) -> ErrorList {
        let mut errors = self.schema.validate_update(new, old);
        match (typed::<T>(new), typed::<T>(old)) {
            (Ok(new), Ok(old)) => errors.extend((self.rules)(&new, Some(&old))),
            (Err(e), _) | (_, Err(e)) => errors.extend(e),
        }
        errors
    }

    fn prepare_for_status_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        self.schema.prepare_for_status_update(new, old);
    }
}

/// The built-in kind `T` over `storage`, with `rules`. Its description
/// and compiled schema are made once per process and shared (a
/// Deployment's, with the whole PodSpec, takes tens of milliseconds in a
/// debug build; test environments start many servers).
pub fn builtin_kind<T>(storage: Arc<dyn Storage>, rules: Rules<T>) -> RegistryKind<DynamicObject>
where
    T: k8s_openapi::Resource + ApiType + DeserializeOwned + Serialize + Send + Sync + 'static,
{
    let (kind, schema) = compiled::<T>();
    let strategy = BuiltinStrategy::with_schema(schema.clone(), rules);
    // events.k8s.io Events are core Events, in one place.
    let storage: Arc<dyn Storage> = if kind.group == "events.k8s.io" && kind.plural == "events" {
        Arc::new(event_storage::AsCoreEvents::new(storage))
    } else {
        storage
    };
    let served = RegistryKind::dynamic(Arc::new(Registry::with_kind(
        kind.clone(),
        strategy,
        storage.clone(),
    )))
    .with_decode(decode_as::<T>)
    .as_builtin();
    if kind.group.is_empty() && kind.plural == "pods" {
        let ephemeral = Registry::with_kind(kind, EphemeralContainersStrategy(schema), storage);
        let ephemeral = RegistryKind::dynamic(Arc::new(ephemeral))
            .with_decode(decode_as::<T>)
            .as_builtin();
        return served.with_subresource("ephemeralcontainers", Arc::new(ephemeral));
    }
    served
}

/// The strategy of a Pod's `ephemeralcontainers` subresource
/// (`podEphemeralContainersStrategy`): an update changes nothing but
/// `spec.ephemeralContainers` (`dropNonEphemeralContainerUpdates`), and
/// ephemeral containers once added may be neither changed nor removed
/// (`ValidatePodEphemeralContainersUpdate`); a new one's name may not be
/// a container's.
struct EphemeralContainersStrategy(Arc<DynamicStrategy>);

fn ephemeral_containers(obj: &DynamicObject) -> Vec<Value> {
    obj.content
        .get("spec")
        .and_then(|s| s.get("ephemeralContainers"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

impl Strategy<DynamicObject> for EphemeralContainersStrategy {
    fn allow_unconditional_update(&self) -> bool {
        true
    }

    fn prepare_for_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        let wanted = new
            .content
            .get("spec")
            .and_then(|s| s.get("ephemeralContainers"))
            .cloned();
        let (name, namespace, rv, uid) = (
            std::mem::take(&mut new.metadata.name),
            std::mem::take(&mut new.metadata.namespace),
            std::mem::take(&mut new.metadata.resource_version),
            std::mem::take(&mut new.metadata.uid),
        );
        let managed = std::mem::take(&mut new.metadata.managed_fields);
        *new = old.clone();
        new.metadata.name = name;
        new.metadata.namespace = namespace;
        new.metadata.resource_version = rv;
        new.metadata.uid = uid;
        new.metadata.managed_fields = managed;
        let spec = new.content.entry("spec").or_insert_with(|| json!({}));
        if let Some(spec) = spec.as_object_mut() {
            match wanted {
                Some(list) => {
                    spec.insert("ephemeralContainers".into(), list);
                }
                None => {
                    spec.remove("ephemeralContainers");
                }
            }
        }
    }

    fn validate_update(&self, new: &DynamicObject, old: &DynamicObject) -> ErrorList {
        let mut errors = self.0.validate_update(new, old);
        let spec_path = FieldPath::new("spec");
        let path = spec_path.child("ephemeralContainers");
        let new_list = ephemeral_containers(new);
        let by_name = |list: &[Value], name: &str| -> Option<Value> {
            list.iter().find(|c| c["name"] == name).cloned()
        };
        for previous in ephemeral_containers(old) {
            let name = previous["name"].as_str().unwrap_or_default();
            match by_name(&new_list, name) {
                None => errors.push(FieldError::forbidden(
                    &path,
                    format!("existing ephemeral containers {name:?} may not be removed"),
                )),
                Some(current) if current != previous => errors.push(FieldError::forbidden(
                    &path,
                    format!("existing ephemeral containers {name:?} may not be changed"),
                )),
                Some(_) => {}
            }
        }
        let spec = new.content.get("spec").cloned().unwrap_or_default();
        let taken: Vec<Value> = ["containers", "initContainers"]
            .iter()
            .flat_map(|key| spec[*key].as_array().cloned().unwrap_or_default())
            .map(|c| c["name"].clone())
            .collect();
        for (i, container) in new_list.iter().enumerate() {
            if taken.contains(&container["name"]) {
                errors.push(FieldError::duplicate(
                    &path.index(i).child("name"),
                    container["name"].clone(),
                ));
            }
        }
        errors
    }
}

/// Marks every `metadata` below the root (a pod template's, a
/// StatefulSet's volume claim templates') as kept whole
/// (`x-kubernetes-preserve-unknown-fields`). The schema api-core writes
/// for an embedded ObjectMeta is a bare `type: object`, as controller-gen
/// writes it for a CRD, and a structural schema prunes everything inside
/// one: a Deployment's template would lose its labels. kube-apiserver
/// decodes built-in kinds into Go structs, which keep them; the typed
/// decoding of a body ([`decode_as`]) already drops what the Rust type
/// does not know.
fn keep_embedded_metadata(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(properties) = object.get_mut("properties").and_then(Value::as_object_mut) {
        for (name, property) in properties.iter_mut() {
            if name == "metadata"
                && property.get("type").and_then(Value::as_str) == Some("object")
                && property.get("properties").is_none()
                && let Some(metadata) = property.as_object_mut()
            {
                metadata.insert("x-kubernetes-preserve-unknown-fields".into(), json!(true));
            } else {
                keep_embedded_metadata(property);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = object.get_mut(key) {
            keep_embedded_metadata(inner);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(list) = object.get_mut(key).and_then(Value::as_array_mut) {
            list.iter_mut().for_each(keep_embedded_metadata);
        }
    }
}

/// [`kind_info`] and the schema's strategy of `T`, made on first use.
fn compiled<T>() -> (KindInfo, Arc<DynamicStrategy>)
where
    T: k8s_openapi::Resource + ApiType + 'static,
{
    type Compiled = HashMap<TypeId, (KindInfo, Arc<DynamicStrategy>)>;
    static COMPILED: LazyLock<Mutex<Compiled>> = LazyLock::new(Mutex::default);
    let key = TypeId::of::<T>();
    if let Some(found) = COMPILED.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return found.clone();
    }
    // Made outside the lock: two threads may both make it once.
    let kind = kind_info::<T>();
    let made = (kind.clone(), Arc::new(DynamicStrategy::new(&kind)));
    COMPILED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(key)
        .or_insert(made)
        .clone()
}

/// Core `v1` ConfigMaps over `storage`.
pub fn config_map(storage: Arc<dyn Storage>) -> RegistryKind<DynamicObject> {
    builtin_kind::<ConfigMap>(storage, validate_config_map)
}

/// The largest a ConfigMap's data may be (`corev1.MaxSecretSize`).
pub const MAX_CONFIG_MAP_BYTES: usize = 1024 * 1024;

/// `IsConfigMapKey`: at most 253 characters of `[-._a-zA-Z0-9]`, not `.`
/// or `..` nor starting with `..`.
pub fn is_config_map_key(key: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if key.len() > 253 {
        problems.push(max_len_error(253));
    }
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
    {
        problems.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    if key == "." {
        problems.push("must not be '.'".into());
    } else if key == ".." {
        problems.push("must not be '..'".into());
    } else if key.starts_with("..") {
        problems.push("must not start with '..'".into());
    }
    problems
}

/// `ValidateConfigMap` and `ValidateConfigMapUpdate`
/// (`pkg/apis/core/validation`): valid keys, no key in both `data` and
/// `binaryData`, at most 1 MiB in all, and nothing of an `immutable`
/// ConfigMap changes.
pub fn validate_config_map(new: &ConfigMap, old: Option<&ConfigMap>) -> ErrorList {
    let mut errors = ErrorList::new();
    let data_path = FieldPath::new("data");
    let binary_path = FieldPath::new("binaryData");
    let mut total = 0usize;
    for (key, value) in new.data.iter().flatten() {
        for problem in is_config_map_key(key) {
            errors.push(FieldError::invalid(
                &data_path.key(key),
                key.as_str(),
                problem,
            ));
        }
        total += value.len();
    }
    for (key, value) in new.binary_data.iter().flatten() {
        for problem in is_config_map_key(key) {
            errors.push(FieldError::invalid(
                &binary_path.key(key),
                key.as_str(),
                problem,
            ));
        }
        if new.data.as_ref().is_some_and(|d| d.contains_key(key)) {
            errors.push(FieldError::invalid(
                &data_path.key(key),
                key.as_str(),
                "duplicate of key present in binaryData",
            ));
        }
        total += value.0.len();
    }
    if total > MAX_CONFIG_MAP_BYTES {
        errors.push(FieldError::too_long(
            &FieldPath::new(""),
            MAX_CONFIG_MAP_BYTES as i64,
        ));
    }
    if let Some(old) = old
        && old.immutable == Some(true)
    {
        let immutable = "field is immutable when `immutable` is set";
        if new.immutable != Some(true) {
            errors.push(FieldError::forbidden(
                &FieldPath::new("immutable"),
                immutable,
            ));
        }
        if new.data != old.data {
            errors.push(FieldError::forbidden(&data_path, immutable));
        }
        if new.binary_data != old.binary_data {
            errors.push(FieldError::forbidden(&binary_path, immutable));
        }
    }
    errors
}

/// No rules beyond the schema's (the kinds whose `Validate<Kind>` is not
/// translated yet).
fn schema_only<T>(_: &T, _: Option<&T>) -> ErrorList {
    ErrorList::new()
}

/// Which built-in kinds a server serves (`--builtin-kinds`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BuiltinKinds {
    /// Every kind of [`KINDS`] (the default of the example server).
    #[default]
    All,
    /// None.
    None,
    /// The kinds of these resources (plurals, as `kubectl get` takes
    /// them: `deployments`, `configmaps`; `events` is both groups' Event).
    Only(Vec<String>),
}

impl std::str::FromStr for BuiltinKinds {
    type Err = String;

    /// `all`, `none`, or `PLURAL,...` (every plural one of [`KINDS`]).
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "all" => Ok(BuiltinKinds::All),
            "none" => Ok(BuiltinKinds::None),
            list => {
                let plurals: Vec<String> = list.split(',').map(|p| p.trim().to_string()).collect();
                let known: Vec<&str> = KINDS.iter().map(|k| k.plural).collect();
                match plurals.iter().find(|p| !known.contains(&p.as_str())) {
                    Some(unknown) => Err(format!(
                        "--builtin-kinds: {unknown:?} is not a built-in resource served here \
                         (all, none, or some of: {})",
                        known.join(", ")
                    )),
                    None => Ok(BuiltinKinds::Only(plurals)),
                }
            }
        }
    }
}

impl BuiltinKinds {
    /// Whether the kind of `plural` is served.
    pub fn serves(&self, plural: &str) -> bool {
        match self {
            BuiltinKinds::All => true,
            BuiltinKinds::None => false,
            BuiltinKinds::Only(plurals) => plurals.iter().any(|p| p == plural),
        }
    }
}

/// One built-in kind this server can serve.
pub struct Builtin {
    /// Its API group (`""`: core).
    pub group: &'static str,
    /// Its version.
    pub version: &'static str,
    /// Its resource (plural).
    pub plural: &'static str,
    /// Serves it over a storage.
    pub serve: fn(Arc<dyn Storage>) -> RegistryKind<DynamicObject>,
}

macro_rules! builtins {
    ($($ty:ty => $rules:expr),* $(,)?) => {
        /// The built-in kinds served from k8s-openapi's types: the GA kinds
        /// of the core, apps, batch, coordination, events, networking,
        /// policy, discovery, autoscaling, storage, scheduling and
        /// certificates groups that controllers create, own and watch
        /// (Namespace is served by [`ServerBuilder::with_namespaces`](crate::ServerBuilder::with_namespaces),
        /// the RBAC kinds with RBAC). Storage semantics only: no
        /// scheduler, kubelet or workload controller runs.
        pub const KINDS: &[Builtin] = &[$(Builtin {
            group: <$ty as k8s_openapi::Resource>::GROUP,
            version: <$ty as k8s_openapi::Resource>::VERSION,
            plural: <$ty as k8s_openapi::Resource>::URL_PATH_SEGMENT,
            serve: |storage| builtin_kind::<$ty>(storage, $rules),
        }),*];
    };
}

use k8s_openapi::api::{
    apps, autoscaling, batch, certificates, coordination, core, discovery, events, networking,
    policy, scheduling, storage,
};

builtins! {
    ConfigMap => validate_config_map,
    core::v1::Endpoints => schema_only,
    core::v1::Event => schema_only,
    core::v1::LimitRange => schema_only,
    core::v1::Node => schema_only,
    core::v1::PersistentVolume => schema_only,
    core::v1::PersistentVolumeClaim => schema_only,
    core::v1::Pod => validate_pod,
    core::v1::PodTemplate => schema_only,
    core::v1::ReplicationController => schema_only,
    core::v1::ResourceQuota => schema_only,
    core::v1::Secret => schema_only,
    core::v1::Service => schema_only,
    core::v1::ServiceAccount => schema_only,
    apps::v1::ControllerRevision => schema_only,
    apps::v1::DaemonSet => validate_daemon_set,
    apps::v1::Deployment => validate_deployment,
    apps::v1::ReplicaSet => validate_replica_set,
    apps::v1::StatefulSet => validate_stateful_set,
    batch::v1::CronJob => schema_only,
    batch::v1::Job => schema_only,
    coordination::v1::Lease => schema_only,
    events::v1::Event => schema_only,
    networking::v1::Ingress => schema_only,
    networking::v1::IngressClass => schema_only,
    networking::v1::NetworkPolicy => schema_only,
    policy::v1::PodDisruptionBudget => schema_only,
    discovery::v1::EndpointSlice => schema_only,
    autoscaling::v2::HorizontalPodAutoscaler => schema_only,
    storage::v1::CSIDriver => schema_only,
    storage::v1::CSINode => schema_only,
    storage::v1::CSIStorageCapacity => schema_only,
    storage::v1::StorageClass => schema_only,
    storage::v1::VolumeAttachment => schema_only,
    scheduling::v1::PriorityClass => schema_only,
    certificates::v1::CertificateSigningRequest => schema_only,
}

/// The built-in kinds `which` selects, over `storage`.
pub fn kinds(which: &BuiltinKinds, storage: &Arc<dyn Storage>) -> Vec<RegistryKind<DynamicObject>> {
    KINDS
        .iter()
        .filter(|k| which.serves(k.plural))
        .map(|k| (k.serve)(storage.clone()))
        .collect()
}
