//! api-core's `k8s-openapi` feature: k8s-openapi's types as fields.
//!
//! Run with `cargo test -p api-core-tests --features k8s --test k8s_openapi`
//! (Kubernetes 1.36, the corpus's version).
//!
//! - The kubebuilder book's CronJob (corpus `kubebuilder/`: controller-gen
//!   v0.21, k8s.io/api v0.36.0), which embeds `batch/v1` `JobTemplateSpec`
//!   (so the whole `PodSpec`), `core/v1` `ObjectReference` and `meta/v1`
//!   `Condition`, is reproduced from Rust types: the generated CRD equals
//!   the file (descriptions dropped, as the book's `crd:maxDescLen=0`).
//! - `PodTemplateSpec`, `ResourceRequirements`, `SecretKeySelector` and a
//!   `Vec<Toleration>` as fields of a spec get the schema controller-gen
//!   writes for them (the same nodes of the corpus file).
//! - Values are validated against those schemas and defaulted from them.

use api_core::crd::{CustomResourceDefinition, yaml_to_json};
use api_core::decode::{DecodeOptions, decode};
use api_core::schema::structural::check_crd;
use serde_json::{Value, json};

#[path = "common/shared.rs"]
mod shared;

#[path = "common/json_diff.rs"]
mod json_diff;
use json_diff::json_diff;

/// The kubebuilder book's CronJob (`cronjob_types.go` of the corpus).
#[path = "common/book_cronjob.rs"]
mod cronjob;

/// The corpus's CronJob CRD as JSON, without controller-gen's version
/// annotation; `None` (after a note) without `../shared`.
fn corpus_cronjob() -> Option<Value> {
    let text = shared::corpus_file("kubebuilder/batch.tutorial.kubebuilder.io_cronjobs.yaml")?;
    let mut doc = yaml_to_json(&text).unwrap().remove(0);
    doc["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("annotations");
    Some(doc)
}

/// The schema node at a `/`-separated path of property names below the
/// root schema (`items` steps are written out).
fn node<'a>(schema: &'a Value, path: &str) -> &'a Value {
    path.split('/')
        .filter(|s| !s.is_empty())
        .fold(schema, |at, step| match step {
            "items" | "additionalProperties" => &at[step],
            name => &at["properties"][name],
        })
}

fn root_schema(crd: &Value) -> &Value {
    &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
}

fn assert_same(what: &str, generated: &Value, expected: &Value) {
    let mut out = Vec::new();
    json_diff("", generated, expected, &mut out);
    out.truncate(20);
    assert!(out.is_empty(), "{what} differs:\n  {}", out.join("\n  "));
}

/// The CRD as JSON without descriptions (the book generates with
/// `crd:maxDescLen=0`), after checking that the structural checker
/// accepts it.
fn bare_checked(mut crd: CustomResourceDefinition) -> Value {
    crd.truncate_descriptions(0);
    let generated = crd.to_json();
    let errors = check_crd(&generated);
    assert!(errors.is_empty(), "structural checker: {errors:?}");
    generated
}

#[test]
fn cronjob_corpus_is_reproduced() {
    let generated = bare_checked(cronjob::CronJob::crd());
    let Some(expected) = corpus_cronjob() else {
        return;
    };
    assert_same("the CronJob CRD", &generated, &expected);
}

/// A spec embedding the types the issue names, field by field.
mod embedding {
    use api_core::prelude::*;
    use k8s_openapi::api::core::v1::{
        PodTemplateSpec, ResourceRequirements, SecretKeySelector, Toleration,
    };
    use serde::{Deserialize, Serialize};

    // No doc comments: the schemas are compared with the corpus, which has
    // no descriptions.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(
        group = "example.com",
        version = "v1",
        kind = "Runner",
        namespaced,
        allow(field_docs)
    )]
    #[serde(rename_all = "camelCase")]
    pub struct RunnerSpec {
        pub template: PodTemplateSpec,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub resources: Option<ResourceRequirements>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub token_ref: Option<SecretKeySelector>,
        #[kube(list_type = "atomic")]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub tolerations: Vec<Toleration>,
    }
}

#[test]
fn embedded_kubernetes_types_get_controller_gens_schemas() {
    let generated = bare_checked(embedding::Runner::crd());
    let spec = node(root_schema(&generated), "spec");
    assert_eq!(spec["required"], json!(["template"]));

    // Independent of the corpus: what controller-gen writes for these.
    let template = node(spec, "template");
    assert_eq!(
        template["properties"]["metadata"],
        json!({"type": "object"})
    );
    let pod = node(template, "spec");
    assert_eq!(pod["required"], json!(["containers"]));
    let containers = node(pod, "containers");
    assert_eq!(containers["x-kubernetes-list-type"], "map");
    assert_eq!(containers["x-kubernetes-list-map-keys"], json!(["name"]));
    assert_eq!(containers["items"]["required"], json!(["name"]));
    let ports = node(containers, "items/ports");
    assert_eq!(ports["x-kubernetes-list-type"], "map");
    assert_eq!(
        ports["x-kubernetes-list-map-keys"],
        json!(["containerPort", "protocol"])
    );
    assert_eq!(node(ports, "items/protocol")["default"], "TCP");
    let limits = node(spec, "resources/limits/additionalProperties");
    assert_eq!(limits["x-kubernetes-int-or-string"], true);
    assert_eq!(
        limits["anyOf"],
        json!([{"type": "integer"}, {"type": "string"}])
    );
    let token = node(spec, "tokenRef");
    assert_eq!(token["x-kubernetes-map-type"], "atomic");
    assert_eq!(token["required"], json!(["key"]));
    assert_eq!(node(token, "name")["default"], "");

    let Some(corpus) = corpus_cronjob() else {
        return;
    };
    let corpus_pod = "spec/jobTemplate/spec/template";
    let corpus_container = "spec/jobTemplate/spec/template/spec/containers/items";
    let expected = root_schema(&corpus);
    for (ours, theirs) in [
        ("template", corpus_pod.to_string()),
        ("resources", format!("{corpus_container}/resources")),
        (
            "tokenRef",
            format!("{corpus_container}/env/items/valueFrom/secretKeyRef"),
        ),
        (
            "tolerations/items",
            format!("{corpus_pod}/spec/tolerations/items"),
        ),
    ] {
        assert_same(ours, node(spec, ours), node(expected, &theirs));
    }
}

fn cronjob_json(container: Value) -> String {
    json!({
        "apiVersion": "batch.tutorial.kubebuilder.io/v1",
        "kind": "CronJob",
        "metadata": {"name": "nightly", "namespace": "default"},
        "spec": {
            "schedule": "0 0 * * *",
            "jobTemplate": {"spec": {"template": {"spec": {
                "restartPolicy": "OnFailure",
                "containers": [container]
            }}}}
        }
    })
    .to_string()
}

#[test]
fn embedded_values_are_validated_with_field_paths() {
    let ok = decode::<cronjob::CronJob>(
        cronjob_json(json!({"name": "job", "image": "busybox"})).as_bytes(),
        &DecodeOptions::default(),
    )
    .unwrap();
    assert_eq!(
        ok.object.spec.concurrency_policy,
        Some(cronjob::ConcurrencyPolicy::Allow)
    );

    let bad = decode::<cronjob::CronJob>(
        cronjob_json(json!({"image": "busybox", "ports": [{"containerPort": "http"}]})).as_bytes(),
        &DecodeOptions::default(),
    );
    // `containerPort` must be an integer and `name` is required: the
    // schema reports both at their paths in one 422, as the apiserver does,
    // before k8s-openapi's own decoding would stop at the first with a 400.
    let bad = bad.unwrap_err();
    assert_eq!(bad.code, 422, "{bad:?}");
    let container = "spec.jobTemplate.spec.template.spec.containers[0]";
    let fields: Vec<(&str, &str)> = bad
        .causes()
        .iter()
        .map(|c| (c.reason.as_str(), c.field.as_str()))
        .collect();
    assert_eq!(
        fields,
        [
            ("FieldValueRequired", format!("{container}.name").as_str()),
            (
                "FieldValueTypeInvalid",
                format!("{container}.ports[0].containerPort").as_str()
            ),
        ],
        "{bad:?}"
    );

    // A quantity that does not match the schema's pattern: k8s-openapi
    // reads any string, the schema validation rejects it with its path.
    let bad_quantity = decode::<cronjob::CronJob>(
        cronjob_json(json!({
            "name": "job",
            "image": "busybox",
            "resources": {"limits": {"cpu": "1Kb"}}
        }))
        .as_bytes(),
        &DecodeOptions::default(),
    )
    .unwrap_err();
    assert_eq!(bad_quantity.code, 422, "{bad_quantity:?}");
    let causes = bad_quantity.causes();
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert!(
        causes[0].field.starts_with("spec.jobTemplate.")
            && causes[0].field.ends_with("resources.limits.cpu"),
        "{causes:?}"
    );
    assert!(causes[0].message.contains("should match"), "{causes:?}");

    // A container without `name`: k8s-openapi's decoding fills in an
    // empty one, so `decode` checks the JSON itself for required fields,
    // as the apiserver validates the JSON.
    let missing_name = decode::<cronjob::CronJob>(
        cronjob_json(json!({"image": "busybox"})).as_bytes(),
        &DecodeOptions::default(),
    )
    .unwrap_err();
    assert_eq!(missing_name.code, 422, "{missing_name:?}");
    let causes = missing_name.causes();
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert_eq!(
        causes[0].field,
        "spec.jobTemplate.spec.template.spec.containers[0].name"
    );
    assert_eq!(causes[0].message, "Required value");

    // A pod template without containers, reported with the other causes.
    let no_containers = json!({
        "metadata": {"name": "nightly"},
        "spec": {
            "schedule": "0 0 * * *",
            "startingDeadlineSeconds": -1,
            "jobTemplate": {"spec": {"template": {"spec": {}}}}
        }
    });
    let err = decode::<cronjob::CronJob>(
        no_containers.to_string().as_bytes(),
        &DecodeOptions::default(),
    )
    .unwrap_err();
    let fields: Vec<&str> = err.causes().iter().map(|c| c.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "spec.jobTemplate.spec.template.spec.containers",
            "spec.startingDeadlineSeconds"
        ],
        "{err:?}"
    );
}

#[test]
fn embedded_values_are_defaulted_from_the_schema() {
    let decoded = decode::<cronjob::CronJob>(
        cronjob_json(json!({"name": "job", "image": "busybox", "ports": [{"containerPort": 80}]}))
            .as_bytes(),
        &DecodeOptions::default(),
    )
    .unwrap();
    let pod = decoded
        .object
        .spec
        .job_template
        .spec
        .as_ref()
        .unwrap()
        .template
        .spec
        .as_ref()
        .unwrap();
    assert_eq!(
        pod.containers[0].ports.as_ref().unwrap()[0]
            .protocol
            .as_deref(),
        Some("TCP")
    );
}

/// Descriptions: Gateway API's CRD (corpus `gateway-api/`, controller-gen
/// with descriptions) embeds meta/v1 `Condition`; its schema there,
/// descriptions included, is the one k8s-openapi's `Condition` gets.
#[test]
fn descriptions_are_controller_gens() {
    use api_core::ApiType;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;

    let ours = <Condition as ApiType>::api_schema(&mut Default::default()).to_value();
    assert!(
        ours["properties"]["observedGeneration"]["description"]
            .as_str()
            .is_some_and(|d| d.contains('\n')),
        "{ours}"
    );
    let Some(text) = shared::corpus_file("gateway-api/gateway.networking.k8s.io_gateways.yaml")
    else {
        return;
    };
    let crd = yaml_to_json(&text).unwrap().remove(0);
    let conditions = node(root_schema(&crd), "status/conditions/items");
    assert_same("meta/v1 Condition", &ours, conditions);
}

/// The registry runs the same validation and defaulting on typed objects.
#[tokio::test]
async fn the_registry_validates_and_defaults_embedded_values() {
    use api_core::registry::{DefaultStrategy, Registry};

    let registry = Registry::<cronjob::CronJob>::new(DefaultStrategy);
    let object = |container: Value| -> cronjob::CronJob {
        serde_json::from_str(&cronjob_json(container)).unwrap()
    };
    let bad = registry
        .create(
            "default",
            object(json!({"name": "job", "resources": {"requests": {"memory": "lots"}}})),
        )
        .await
        .unwrap_err();
    assert_eq!(bad.code, 422, "{bad:?}");
    assert!(bad.message.contains("resources.requests.memory"), "{bad:?}");

    let created = registry
        .create(
            "default",
            object(json!({"name": "job", "ports": [{"containerPort": 80}]})),
        )
        .await
        .unwrap()
        .object;
    let pod = created
        .spec
        .job_template
        .spec
        .unwrap()
        .template
        .spec
        .unwrap();
    assert_eq!(
        pod.containers[0].ports.as_ref().unwrap()[0]
            .protocol
            .as_deref(),
        Some("TCP")
    );
}
