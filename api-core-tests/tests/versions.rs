//! Multi-version APIs: the conversion graph, the merged CRD, lossless
//! round trips, the conversion webhook, and a registry serving two
//! versions over one storage (the `CronTab` example: `v1alpha1` and the
//! hub/storage version `v1`).

mod common;

use std::sync::Arc;

use api_core::conversion::{
    self, ConversionError, ConversionReview, Versions, assert_lossless, round_trip_difference,
};
use api_core::crd::{CustomResourceConversion, MergeError, WebhookClientConfig};
use api_core::patch::PatchType;
use api_core::prelude::*;
use api_core::registry::{
    DefaultStrategy, ListOptions, MemoryStorage, Registry, Storage, WatchEvent,
};
use api_core::{DecodeOptions, decode};
use common::examples::{arb_crontab_v1, arb_crontab_v1alpha1};
use examples::crontab::{self, CONCURRENCY_POLICY, v1, v1alpha1};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

fn hub(name: &str, policy: Option<v1::ConcurrencyPolicy>) -> v1::CronTab {
    let mut ct = v1::CronTab::new(
        name,
        v1::CronTabSpec {
            schedule: "*/5 * * * *".into(),
            image: "busybox:1.36".into(),
            replicas: None,
            concurrency_policy: policy,
        },
    );
    ct.metadata.namespace = "default".into();
    ct
}

fn spoke(name: &str) -> v1alpha1::CronTab {
    let mut ct = v1alpha1::CronTab::new(
        name,
        v1alpha1::CronTabSpec {
            cron_spec: "0 3 * * 1".into(),
            image: "busybox:1.36".into(),
            replicas: None,
        },
    );
    ct.metadata.namespace = "default".into();
    ct
}

// ---------------------------------------------------------------- the CRD

#[tokio::test]
async fn the_crd_has_both_versions_one_storage_and_the_webhook() {
    let crd = crontab::versions().crd().unwrap();
    assert_eq!(crd.metadata.name, "crontabs.stable.example.com");
    let names: Vec<_> = crd.spec.versions.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["v1", "v1alpha1"]);
    let (new, old) = (&crd.spec.versions[0], &crd.spec.versions[1]);
    assert!(new.served && new.storage && !new.deprecated);
    assert!(old.served && !old.storage && old.deprecated);
    assert_eq!(
        old.deprecation_warning.as_deref(),
        Some(
            "stable.example.com/v1alpha1 CronTab is deprecated; use stable.example.com/v1 CronTab"
        )
    );
    let conversion = crd.spec.conversion.as_ref().unwrap();
    assert_eq!(conversion.strategy, "Webhook");
    let webhook = conversion.webhook.as_ref().unwrap();
    assert_eq!(webhook.conversion_review_versions, ["v1"]);
    let service = webhook
        .client_config
        .as_ref()
        .unwrap()
        .service
        .as_ref()
        .unwrap();
    assert_eq!(
        (
            service.namespace.as_str(),
            service.name.as_str(),
            service.path.as_deref()
        ),
        ("crontab-system", "crontab-webhook", Some("/convert"))
    );
    // It is in crdgen's output, and every example CRD is checked by the
    // structural checker and (in CI) kubernetes-validate.
    assert!(
        examples::crds()
            .iter()
            .any(|c| c.metadata.name == crd.metadata.name && c.spec.versions.len() == 2)
    );
}

#[tokio::test]
async fn the_renamed_field_is_a_compatibility_warning() {
    let warnings = crontab::versions().warnings();
    let found: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        found,
        [
            "spec.cronSpec is in v1alpha1 but not in v1 (removed or renamed): \
          conversions between them must carry its value"
        ]
    );
}

#[tokio::test]
async fn different_schemas_need_a_conversion() {
    let without = Versions::<v1::CronTab>::new().version::<v1alpha1::CronTab>();
    let err = without.crd().unwrap_err();
    assert_eq!(
        err,
        MergeError::ConversionRequired(vec!["v1".into(), "v1alpha1".into()])
    );
    assert!(err.to_string().contains("Versions::webhook"), "{err}");
    // An explicit `None` is the user's decision, and is kept.
    let none = without.conversion(CustomResourceConversion::none());
    assert_eq!(
        none.crd().unwrap().spec.conversion.unwrap().strategy,
        "None"
    );
    // A URL webhook.
    let url = Versions::<v1::CronTab>::new()
        .version::<v1alpha1::CronTab>()
        .webhook(WebhookClientConfig::url(
            "https://convert.example.com/crontab",
        ));
    let crd = url.crd().unwrap();
    let config = crd.spec.conversion.unwrap().webhook.unwrap().client_config;
    assert_eq!(
        config.unwrap().url.as_deref(),
        Some("https://convert.example.com/crontab")
    );
}

#[tokio::test]
async fn a_version_added_twice_or_two_storage_versions_are_refused() {
    let twice = crontab::versions().version::<v1alpha1::CronTab>();
    assert_eq!(
        twice.crd().unwrap_err(),
        MergeError::DuplicateVersion("v1alpha1".into())
    );
    let both = Versions::<gadget::v1::Gadget>::new().version::<gadget::v2::Gadget>();
    assert_eq!(
        both.crd().unwrap_err(),
        MergeError::MultipleStorageVersions(vec!["v1".into(), "v2".into()])
    );
    // The registry refuses such a graph.
    let err = Registry::<gadget::v1::Gadget>::with_versions(
        DefaultStrategy,
        Arc::new(MemoryStorage::new()),
        Arc::new(both),
    )
    .err()
    .unwrap();
    assert_eq!(err.code, 500);
    assert!(err.message.contains("storage version"), "{}", err.message);
}

// -------------------------------------------------------------- conversion

#[tokio::test]
async fn converting_renames_and_keeps_what_v1alpha1_cannot_hold() {
    let versions = crontab::versions();
    let forbid = hub("nightly", Some(v1::ConcurrencyPolicy::Forbid));
    let old: v1alpha1::CronTab = versions.convert_object(&forbid).unwrap();
    assert_eq!(old.spec.cron_spec, "*/5 * * * *");
    assert_eq!(old.metadata.annotations[CONCURRENCY_POLICY], "\"Forbid\"");
    assert_eq!(old.metadata.name, "nightly");
    let back: v1::CronTab = versions.convert_object(&old).unwrap();
    assert_eq!(back, forbid);
    assert!(back.metadata.annotations.is_empty());
    // Nothing to keep: no annotation.
    let none: v1alpha1::CronTab = versions.convert_object(&hub("h", None)).unwrap();
    assert!(none.metadata.annotations.is_empty());
    // Conversion does not default (the apiserver defaults afterwards).
    assert_eq!(none.spec.replicas, None);
}

#[tokio::test]
async fn json_conversion_goes_through_the_hub_and_names_unknown_versions() {
    let versions = crontab::versions();
    let old = serde_json::to_value(spoke("a")).unwrap();
    let new = versions
        .convert(old.clone(), "stable.example.com/v1")
        .unwrap();
    assert_eq!(new["apiVersion"], "stable.example.com/v1");
    assert_eq!(new["spec"]["schedule"], "0 3 * * 1");
    // Already in the target version: unchanged.
    assert_eq!(
        versions
            .convert(old.clone(), "stable.example.com/v1alpha1")
            .unwrap(),
        old
    );
    let err = versions
        .convert(old.clone(), "stable.example.com/v2")
        .unwrap_err();
    assert_eq!(
        err.message(),
        "\"stable.example.com/v2\" is not a version of CronTab; known: \
         stable.example.com/v1, stable.example.com/v1alpha1"
    );
    let mut no_version = old.clone();
    no_version.as_object_mut().unwrap().remove("apiVersion");
    assert_eq!(
        versions
            .convert(no_version, "stable.example.com/v1")
            .unwrap_err()
            .message(),
        "the object has no apiVersion"
    );
    let mut broken = old;
    broken["spec"]["cronSpec"] = json!(42);
    let err = versions
        .convert(broken, "stable.example.com/v1")
        .unwrap_err();
    assert!(
        err.message()
            .starts_with("the object is not a valid stable.example.com/v1alpha1 CronTab:"),
        "{err}"
    );
}

#[tokio::test]
async fn a_malformed_kept_value_is_an_error_naming_the_annotation() {
    let mut old = spoke("a");
    old.metadata
        .annotations
        .insert(CONCURRENCY_POLICY.into(), "\"Sometimes\"".into());
    let err = v1::CronTab::try_from(old).unwrap_err();
    assert!(
        err.message().starts_with(
            "metadata.annotations[conversion.stable.example.com/spec.concurrencyPolicy] \
             does not hold a valid value"
        ),
        "{err}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn v1_to_v1alpha1_and_back_is_lossless(ct in arb_crontab_v1()) {
        assert_lossless::<v1::CronTab, v1alpha1::CronTab>([ct]);
    }

    #[test]
    fn v1alpha1_to_v1_and_back_is_lossless(ct in arb_crontab_v1alpha1()) {
        assert_lossless::<v1alpha1::CronTab, v1::CronTab>([ct]);
    }

    #[test]
    fn the_graph_agrees_with_the_impls(ct in arb_crontab_v1()) {
        let versions = crontab::versions();
        let direct = v1alpha1::CronTab::try_from(ct.clone()).unwrap();
        let through: v1alpha1::CronTab = versions.convert_object(&ct).unwrap();
        prop_assert_eq!(direct, through);
    }
}

/// A lossy pair of conversions, to see that the check fails.
mod lossy {
    use super::*;

    pub struct Big(pub i64);
    pub struct Small(pub i32);

    impl Serialize for Big {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            json!({"spec": {"n": self.0}}).serialize(s)
        }
    }

    impl TryFrom<Small> for Big {
        type Error = ConversionError;
        fn try_from(s: Small) -> Result<Self, ConversionError> {
            Ok(Big(s.0.into()))
        }
    }

    impl TryFrom<Big> for Small {
        type Error = ConversionError;
        fn try_from(b: Big) -> Result<Self, ConversionError> {
            if b.0 < 0 {
                return Err(ConversionError::new("negative"));
            }
            Ok(Small(b.0 as i32)) // truncates: lossy on purpose
        }
    }
}

#[tokio::test]
async fn a_lossy_conversion_is_caught_with_the_place_it_differs() {
    use lossy::{Big, Small};
    assert_eq!(round_trip_difference::<Big, Small>(Big(7)), None);
    let diff = round_trip_difference::<Big, Small>(Big(1 << 40)).unwrap();
    assert!(
        diff.contains("is not lossless at /spec/n: 1099511627776 before, 0 after"),
        "{diff}"
    );
    let failed = round_trip_difference::<Big, Small>(Big(-1)).unwrap();
    assert!(failed.ends_with("failed: negative"), "{failed}");
    let panic = std::panic::catch_unwind(|| assert_lossless::<Big, Small>([Big(1), Big(1 << 33)]))
        .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(message.starts_with("sample 1: "), "{message}");
}

// ----------------------------------------------------------------- webhook

#[tokio::test]
async fn the_webhook_converts_every_object_and_keeps_the_uid() {
    let versions = crontab::versions();
    let objects = vec![
        serde_json::to_value(spoke("a")).unwrap(),
        serde_json::to_value(hub("b", Some(v1::ConcurrencyPolicy::Replace))).unwrap(),
    ];
    let request = ConversionReview::request("705ab4f5", "stable.example.com/v1alpha1", objects);
    let answer = versions.review(request);
    assert_eq!(answer.api_version, "apiextensions.k8s.io/v1");
    assert_eq!(answer.kind, "ConversionReview");
    assert!(answer.request.is_none());
    let response = answer.response.unwrap();
    assert_eq!(response.uid, "705ab4f5");
    assert_eq!(response.result.status, "Success");
    assert_eq!(response.converted_objects.len(), 2);
    let converted = &response.converted_objects;
    assert!(
        converted
            .iter()
            .all(|o| o["apiVersion"] == "stable.example.com/v1alpha1")
    );
    assert_eq!(converted[0]["metadata"]["name"], "a");
    assert_eq!(converted[1]["spec"]["cronSpec"], "*/5 * * * *");
    assert_eq!(
        converted[1]["metadata"]["annotations"][CONCURRENCY_POLICY],
        "\"Replace\""
    );
}

#[tokio::test]
async fn the_webhook_fails_the_whole_review_on_one_bad_object() {
    let versions = crontab::versions();
    let request = ConversionReview::request(
        "u1",
        "stable.example.com/v1",
        vec![
            serde_json::to_value(spoke("a")).unwrap(),
            json!({"apiVersion": "stable.example.com/v9", "kind": "CronTab"}),
        ],
    );
    let response = versions.review(request).response.unwrap();
    assert_eq!(response.uid, "u1");
    assert_eq!(response.result.status, "Failure");
    assert!(response.converted_objects.is_empty());
    assert!(
        response
            .result
            .message
            .starts_with("objects[1]: \"stable.example.com/v9\" is not a version of CronTab"),
        "{}",
        response.result.message
    );
}

#[tokio::test]
async fn the_webhook_speaks_json() {
    let versions = crontab::versions();
    let body = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "ConversionReview",
        "request": {
            "uid": "0000-1111",
            "desiredAPIVersion": "stable.example.com/v1",
            "objects": [serde_json::to_value(spoke("x")).unwrap()],
        },
    });
    let out = versions
        .review_json(&serde_json::to_vec(&body).unwrap())
        .unwrap();
    let out: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(out["response"]["uid"], "0000-1111");
    assert_eq!(out["response"]["result"]["status"], "Success");
    assert_eq!(
        out["response"]["convertedObjects"][0]["spec"]["schedule"],
        "0 3 * * 1"
    );
    // The wire names of the apiserver.
    assert!(out["response"].get("convertedObjects").is_some());

    for bad in [
        &b"not json"[..],
        br#"{"kind": "AdmissionReview", "request": {}}"#,
        br#"{"kind": "ConversionReview"}"#,
    ] {
        let err = versions.review_json(bad).unwrap_err();
        assert_eq!((err.code, err.reason.as_str()), (400, "BadRequest"));
    }
}

// ---------------------------------------------------------------- registry

struct Served {
    storage: Arc<MemoryStorage>,
    old: Registry<v1alpha1::CronTab>,
    new: Registry<v1::CronTab>,
}

fn served() -> Served {
    let versions = Arc::new(crontab::versions());
    let storage = Arc::new(MemoryStorage::new());
    Served {
        old: Registry::with_versions(DefaultStrategy, storage.clone(), versions.clone()).unwrap(),
        new: Registry::with_versions(DefaultStrategy, storage.clone(), versions).unwrap(),
        storage,
    }
}

async fn stored(storage: &MemoryStorage, name: &str) -> Value {
    storage
        .get(&format!("/stable.example.com/crontabs/default/{name}"))
        .await
        .unwrap()
        .value
}

#[tokio::test]
async fn created_in_v1alpha1_stored_in_v1_read_in_both() {
    let s = served();
    let created = s.old.create("default", spoke("a")).await.unwrap().object;
    // Defaulted in the request's version.
    assert_eq!(created.spec.replicas, Some(1));
    assert_eq!(created.metadata.generation, 1);
    // Stored in the storage version, without the defaults of v1 that the
    // v1alpha1 request could not set.
    let raw = stored(&s.storage, "a").await;
    assert_eq!(raw["apiVersion"], "stable.example.com/v1");
    assert_eq!(
        raw["spec"],
        json!({"schedule": "0 3 * * 1", "image": "busybox:1.36", "replicas": 1})
    );
    // Read in v1: renamed, and the new field defaulted on read.
    let new = s.new.get("default", "a").await.unwrap();
    assert_eq!(new.spec.schedule, "0 3 * * 1");
    assert_eq!(
        new.spec.concurrency_policy,
        Some(v1::ConcurrencyPolicy::Allow)
    );
    assert_eq!(new.metadata.uid, created.metadata.uid);
    assert_eq!(
        new.metadata.resource_version,
        created.metadata.resource_version
    );
    // Read in v1alpha1 again: the v1 default comes back as a kept value.
    let old = s.old.get("default", "a").await.unwrap();
    assert_eq!(old.spec.cron_spec, "0 3 * * 1");
    assert_eq!(old.metadata.annotations[CONCURRENCY_POLICY], "\"Allow\"");
}

#[tokio::test]
async fn created_in_v1_updated_in_v1alpha1_keeps_the_new_field() {
    let s = served();
    s.new
        .create("default", hub("b", Some(v1::ConcurrencyPolicy::Forbid)))
        .await
        .unwrap();
    let mut old = s.old.get("default", "b").await.unwrap();
    assert_eq!(old.metadata.annotations[CONCURRENCY_POLICY], "\"Forbid\"");
    old.spec.image = "busybox:1.37".into();
    let updated = s.old.update("default", old).await.unwrap().object;
    assert_eq!(updated.metadata.generation, 2);
    let new = s.new.get("default", "b").await.unwrap();
    assert_eq!(new.spec.image, "busybox:1.37");
    assert_eq!(
        new.spec.concurrency_policy,
        Some(v1::ConcurrencyPolicy::Forbid)
    );
    assert!(new.metadata.annotations.is_empty());
    assert!(
        stored(&s.storage, "b").await["metadata"]
            .get("annotations")
            .is_none()
    );
}

#[tokio::test]
async fn objects_stored_in_an_older_storage_version_stay_readable() {
    // Written when v1alpha1 was the storage version (the CRD's
    // status.storedVersions would still list it): read in either version,
    // and rewritten in today's storage version on the next write.
    let s = served();
    let old = json!({
        "apiVersion": "stable.example.com/v1alpha1",
        "kind": "CronTab",
        "metadata": {"name": "legacy", "namespace": "default", "uid": "u-1", "generation": 1},
        "spec": {"cronSpec": "0 1 * * *", "image": "busybox:1.30"},
    });
    s.storage
        .create("/stable.example.com/crontabs/default/legacy", old)
        .await
        .unwrap();
    let new = s.new.get("default", "legacy").await.unwrap();
    assert_eq!(new.spec.schedule, "0 1 * * *");
    // Both versions' defaults: v1alpha1's on read from storage, then none
    // for concurrencyPolicy (it did not exist when this was stored).
    assert_eq!(new.spec.replicas, Some(1));
    assert_eq!(new.spec.concurrency_policy, None);
    s.new.update("default", new).await.unwrap();
    assert_eq!(
        stored(&s.storage, "legacy").await["apiVersion"],
        "stable.example.com/v1"
    );
}

#[tokio::test]
async fn validation_runs_in_the_request_version() {
    let s = served();
    let mut bad = spoke("c");
    bad.spec.cron_spec = "never".into();
    let err = s.old.create("default", bad).await.unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (422, "Invalid"));
    let fields: Vec<&str> = err
        .details
        .as_ref()
        .unwrap()
        .causes
        .iter()
        .map(|c| c.field.as_str())
        .collect();
    assert_eq!(fields, ["spec.cronSpec", "spec.cronSpec"]);
    let mut bad = hub("c", None);
    bad.spec.schedule = "never".into();
    let err = s.new.create("default", bad).await.unwrap_err();
    assert!(
        err.details
            .unwrap()
            .causes
            .iter()
            .all(|c| c.field == "spec.schedule")
    );
}

#[tokio::test]
async fn a_kept_value_that_does_not_convert_is_a_bad_request() {
    let s = served();
    let mut old = spoke("d");
    old.metadata
        .annotations
        .insert(CONCURRENCY_POLICY.into(), "{".into());
    let err = s.old.create("default", old).await.unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (400, "BadRequest"));
    assert!(err.message.contains(CONCURRENCY_POLICY), "{}", err.message);
    assert!(s.new.get("default", "d").await.is_err());
}

#[tokio::test]
async fn list_watch_and_patch_in_either_version() {
    let s = served();
    let mut watch = s
        .old
        .watch("default", &ListOptions::default())
        .await
        .unwrap();
    s.new.create("default", hub("e", None)).await.unwrap();
    s.old.create("default", spoke("f")).await.unwrap();
    let names: Vec<String> = watch
        .pending()
        .iter()
        .map(|e| match e {
            WatchEvent::Added(o) => format!("added {} {}", o.metadata.name, o.spec.cron_spec),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(names, ["added e */5 * * * *", "added f 0 3 * * 1"]);

    let old = s
        .old
        .list("default", &ListOptions::default())
        .await
        .unwrap();
    let new = s
        .new
        .list("default", &ListOptions::default())
        .await
        .unwrap();
    assert_eq!(old.items.len(), 2);
    assert_eq!(old.metadata.resource_version, new.metadata.resource_version);
    assert_eq!(
        new.items
            .iter()
            .map(|o| o.spec.schedule.as_str())
            .collect::<Vec<_>>(),
        ["*/5 * * * *", "0 3 * * 1"]
    );

    // A merge patch in v1alpha1 names v1alpha1's fields.
    let patched = s
        .old
        .patch(
            "default",
            "e",
            PatchType::Merge,
            br#"{"spec": {"cronSpec": "0 0 * * *"}}"#,
        )
        .await
        .unwrap()
        .object;
    assert_eq!(patched.spec.cron_spec, "0 0 * * *");
    assert_eq!(
        s.new.get("default", "e").await.unwrap().spec.schedule,
        "0 0 * * *"
    );
}

#[tokio::test]
async fn a_body_in_another_version_is_a_bad_request() {
    // What the apiserver answers when a v1alpha1 object is sent to the
    // v1 endpoint: the version in the data does not match.
    let body = serde_json::to_vec(&spoke("g")).unwrap();
    let err = decode::<v1::CronTab>(&body, &DecodeOptions::default()).unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (400, "BadRequest"));
    assert!(decode::<v1alpha1::CronTab>(&body, &DecodeOptions::default()).is_ok());
}

/// `From` between two versions of a kind with the same spec fields.
macro_rules! same_shape {
    ($a:path, $b:path, $spec:path { $($field:ident),* }) => {
        impl From<$a> for $b {
            fn from(o: $a) -> Self {
                use $spec as Spec;
                Self {
                    metadata: o.metadata,
                    spec: Spec { $($field: o.spec.$field),* },
                }
            }
        }
    };
}

/// A kind with an unserved version, and one with two storage versions.
mod gadget {
    use super::*;

    pub mod v1 {
        use super::*;
        /// Spec.
        #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(
            group = "toys.example.com",
            version = "v1",
            kind = "Gadget",
            namespaced
        )]
        pub struct GadgetSpec {
            /// size.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub size: Option<i32>,
        }
    }

    pub mod v1beta1 {
        use super::*;
        /// Spec.
        #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(
            group = "toys.example.com",
            version = "v1beta1",
            kind = "Gadget",
            namespaced,
            served = false,
            storage = false
        )]
        pub struct GadgetSpec {
            /// size.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub size: Option<i32>,
        }
    }

    pub mod v2 {
        use super::*;
        /// Spec.
        #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(
            group = "toys.example.com",
            version = "v2",
            kind = "Gadget",
            namespaced
        )]
        pub struct GadgetSpec {
            /// size.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub size: Option<i32>,
        }
    }

    same_shape!(v1beta1::Gadget, v1::Gadget, v1::GadgetSpec { size });
    same_shape!(v1::Gadget, v1beta1::Gadget, v1beta1::GadgetSpec { size });
    same_shape!(v2::Gadget, v1::Gadget, v1::GadgetSpec { size });
    same_shape!(v1::Gadget, v2::Gadget, v2::GadgetSpec { size });
}

#[tokio::test]
async fn an_unserved_version_is_not_found() {
    let versions =
        Arc::new(Versions::<gadget::v1::Gadget>::new().version::<gadget::v1beta1::Gadget>());
    // Same schema in both versions: no conversion stanza, as controller-gen.
    let crd = versions.crd().unwrap();
    assert!(crd.spec.conversion.is_none());
    assert!(!crd.spec.versions[1].served);
    // A webhook set by the user is kept even then: a field's meaning can
    // change between versions while its schema does not.
    let with_webhook = Versions::<gadget::v1::Gadget>::new()
        .version::<gadget::v1beta1::Gadget>()
        .webhook(WebhookClientConfig::service("toys", "convert").port(8443));
    let conversion = with_webhook.crd().unwrap().spec.conversion.unwrap();
    let service = conversion
        .webhook
        .unwrap()
        .client_config
        .unwrap()
        .service
        .unwrap();
    assert_eq!(
        (service.name.as_str(), service.port),
        ("convert", Some(8443))
    );
    assert!(versions.is_served("toys.example.com/v1"));
    assert!(!versions.is_served("toys.example.com/v1beta1"));
    assert!(!versions.is_served("toys.example.com/v7"));

    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    let err = Registry::<gadget::v1beta1::Gadget>::with_versions(
        DefaultStrategy,
        storage.clone(),
        versions.clone(),
    )
    .err()
    .unwrap();
    assert_eq!((err.code, err.reason.as_str()), (404, "NotFound"));
    assert_eq!(
        err.message,
        "the server could not find the requested resource"
    );
    assert_eq!(
        versions
            .check_served("toys.example.com/v7")
            .unwrap_err()
            .code,
        404
    );
    // The webhook can still convert to an unserved version (the apiserver
    // may ask for the storage version whether or not it is served).
    let v1 = serde_json::to_value(gadget::v1::Gadget::new(
        "g",
        gadget::v1::GadgetSpec { size: Some(2) },
    ))
    .unwrap();
    let beta = versions.convert(v1, "toys.example.com/v1beta1").unwrap();
    assert_eq!(beta["apiVersion"], "toys.example.com/v1beta1");
    // The served version works.
    let registry =
        Registry::<gadget::v1::Gadget>::with_versions(DefaultStrategy, storage, versions).unwrap();
    registry
        .create(
            "ns",
            gadget::v1::Gadget::new("g", gadget::v1::GadgetSpec { size: None }),
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn a_registry_for_a_type_not_in_the_graph_is_refused() {
    let versions = Arc::new(Versions::<gadget::v1::Gadget>::new());
    let err = Registry::<gadget::v2::Gadget>::with_versions(
        DefaultStrategy,
        Arc::new(MemoryStorage::new()),
        versions,
    )
    .err()
    .unwrap();
    assert_eq!(err.code, 500);
    assert!(
        err.message
            .contains("is not registered as version toys.example.com/v2"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn stash_and_unstash() {
    let mut meta = ObjectMeta::named("x");
    conversion::stash(&mut meta, "conversion.example.com/spec.n", &Some(3)).unwrap();
    assert_eq!(meta.annotations["conversion.example.com/spec.n"], "3");
    let n: Option<i32> = conversion::unstash(&mut meta, "conversion.example.com/spec.n").unwrap();
    assert_eq!(n, Some(3));
    assert!(meta.annotations.is_empty());
    let none: Option<i32> =
        conversion::unstash(&mut meta, "conversion.example.com/spec.n").unwrap();
    assert_eq!(none, None);
    meta.annotations.insert("k/x".into(), "old".into());
    conversion::stash(&mut meta, "k/x", &None::<i32>).unwrap();
    assert!(meta.annotations.is_empty(), "a None removes a stale value");
}

/// A kind whose static default changed between versions.
mod dial {
    use super::*;

    pub mod v1 {
        use super::*;
        /// Spec.
        #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(
            group = "dials.example.com",
            version = "v1",
            kind = "Dial",
            namespaced,
            storage = false
        )]
        pub struct DialSpec {
            /// level.
            #[default(10)]
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub level: Option<i32>,
        }
    }

    pub mod v2 {
        use super::*;
        /// Spec.
        #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(group = "dials.example.com", version = "v2", kind = "Dial", namespaced)]
        pub struct DialSpec {
            /// level.
            #[default(20)]
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub level: Option<i32>,
        }
    }

    same_shape!(v1::Dial, v2::Dial, v2::DialSpec { level });
    same_shape!(v2::Dial, v1::Dial, v1::DialSpec { level });
}

#[tokio::test]
async fn defaults_are_those_of_the_request_version() {
    let versions = Arc::new(Versions::<dial::v2::Dial>::new().version::<dial::v1::Dial>());
    // The schemas differ only in the default: same shape, no conversion
    // needed (the apiserver applies each version's defaults itself).
    let crd = versions.crd().unwrap();
    assert!(crd.spec.conversion.is_none());
    let defaults: Vec<_> = crd
        .spec
        .versions
        .iter()
        .map(|v| v.schema.as_ref().unwrap().open_api_v3_schema["properties"]["spec"]["properties"]["level"]["default"].clone())
        .collect();
    assert_eq!(defaults, [json!(10), json!(20)]);
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    let old = Registry::<dial::v1::Dial>::with_versions(
        DefaultStrategy,
        storage.clone(),
        versions.clone(),
    )
    .unwrap();
    let new =
        Registry::<dial::v2::Dial>::with_versions(DefaultStrategy, storage, versions).unwrap();
    old.create(
        "ns",
        dial::v1::Dial::new("a", dial::v1::DialSpec { level: None }),
    )
    .await
    .unwrap();
    new.create(
        "ns",
        dial::v2::Dial::new("b", dial::v2::DialSpec { level: None }),
    )
    .await
    .unwrap();
    // Each was defaulted in the version it was written in, and the stored
    // value wins over the reader's default.
    assert_eq!(new.get("ns", "a").await.unwrap().spec.level, Some(10));
    assert_eq!(old.get("ns", "b").await.unwrap().spec.level, Some(20));
    assert_eq!(old.get("ns", "a").await.unwrap().spec.level, Some(10));
}

#[tokio::test]
async fn the_hub_need_not_be_the_storage_version() {
    // The same impls make v1alpha1 the hub; v1 stays the storage version.
    let versions = Arc::new(
        Versions::<v1alpha1::CronTab>::new()
            .version::<v1::CronTab>()
            .webhook(WebhookClientConfig::url("https://example.com/convert")),
    );
    assert_eq!(versions.hub(), "stable.example.com/v1alpha1");
    assert_eq!(versions.storage_version(), Some("stable.example.com/v1"));
    let storage = Arc::new(MemoryStorage::new());
    let old = Registry::<v1alpha1::CronTab>::with_versions(
        DefaultStrategy,
        storage.clone(),
        versions.clone(),
    )
    .unwrap();
    old.create("default", spoke("h")).await.unwrap();
    assert_eq!(
        stored(&storage, "h").await["apiVersion"],
        "stable.example.com/v1"
    );
    assert_eq!(stored(&storage, "h").await["spec"]["schedule"], "0 3 * * 1");
}
