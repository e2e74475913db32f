//! Go's validation of the workload kinds beyond their schemas, for the
//! mistakes a controller under test makes that a cluster refuses
//! (`pkg/apis/apps/validation`, `pkg/apis/core/validation`):
//!
//! - Deployment, ReplicaSet, StatefulSet, DaemonSet (`ValidateDeploymentSpec`,
//!   `ValidateReplicaSetSpec`, `ValidateStatefulSetSpec`,
//!   `ValidateDaemonSetSpec`): a selector is required and may not be
//!   empty, the template's labels must match it, the template's pods
//!   restart `Always`, and the selector is immutable
//!   (`ValidateDeploymentUpdate` and the others);
//! - Pods and every pod template (`ValidatePodSpec`): at least one
//!   container, each named (a DNS-1123 label, unique among the pod's
//!   containers) and with an image.

use api_core::labels::Selector;
use api_core::meta::LabelSelector;
use api_core::validation::names::is_dns1123_label;
use api_core::validation::{ErrorList, FieldError, FieldPath};
use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::core::v1::Pod;
use serde::Serialize;
use serde_json::{Value, json};

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// `ValidatePodSpec`'s container rules, over a pod spec's JSON at `path`.
pub(super) fn validate_pod_spec(spec: &Value, path: &FieldPath<'_>) -> ErrorList {
    let mut errors = ErrorList::new();
    let containers_path = path.child("containers");
    let containers = spec["containers"].as_array().cloned().unwrap_or_default();
    if containers.is_empty() {
        errors.push(FieldError::required(&containers_path, ""));
    }
    let mut seen: Vec<String> = Vec::new();
    for (key, list) in [
        ("initContainers", spec["initContainers"].as_array().cloned()),
        ("containers", Some(containers)),
    ] {
        let list_path = path.child(key);
        for (i, container) in list.into_iter().flatten().enumerate() {
            let item = list_path.index(i);
            let name = container["name"].as_str().unwrap_or_default();
            let name_path = item.child("name");
            if name.is_empty() {
                errors.push(FieldError::required(&name_path, ""));
            } else {
                for problem in is_dns1123_label(name) {
                    errors.push(FieldError::invalid(&name_path, name, problem));
                }
                if seen.iter().any(|s| s == name) {
                    errors.push(FieldError::duplicate(&name_path, name));
                }
                seen.push(name.to_string());
            }
            if container["image"].as_str().is_none_or(str::is_empty) {
                errors.push(FieldError::required(&item.child("image"), ""));
            }
        }
    }
    errors
}

/// The selector and template rules the four controllers' kinds share;
/// `word` names the kind in the empty-selector message, as upstream's
/// messages do.
fn validate_selected(spec: &Value, old_spec: Option<&Value>, word: &str) -> ErrorList {
    let mut errors = ErrorList::new();
    let spec_path = FieldPath::new("spec");
    let selector_path = spec_path.child("selector");
    let template_path = spec_path.child("template");
    let selector = &spec["selector"];
    let mut parsed = None;
    if selector.is_null() {
        errors.push(FieldError::required(&selector_path, ""));
    } else {
        let empty = selector["matchLabels"]
            .as_object()
            .is_none_or(|m| m.is_empty())
            && selector["matchExpressions"]
                .as_array()
                .is_none_or(|m| m.is_empty());
        if empty {
            errors.push(FieldError::invalid(
                &selector_path,
                selector.clone(),
                format!("empty selector is invalid for {word}"),
            ));
        }
        match serde_json::from_value::<LabelSelector>(selector.clone())
            .ok()
            .and_then(|s| Selector::from_label_selector(Some(&s)).ok())
        {
            Some(s) => parsed = Some(s),
            None => errors.push(FieldError::invalid(
                &selector_path,
                selector.clone(),
                "invalid label selector",
            )),
        }
    }
    let template = &spec["template"];
    let labels: std::collections::BTreeMap<String, String> =
        serde_json::from_value(template["metadata"]["labels"].clone()).unwrap_or_default();
    if let Some(selector) = &parsed
        && !selector.is_empty()
        && !selector.matches(&labels)
    {
        errors.push(FieldError::invalid(
            &template_path.child("metadata").child("labels"),
            json!(labels),
            "`selector` does not match template `labels`",
        ));
    }
    let pod_path = template_path.child("spec");
    errors.extend(validate_pod_spec(&template["spec"], &pod_path));
    if let Some(policy) = template["spec"]["restartPolicy"].as_str()
        && policy != "Always"
    {
        errors.push(FieldError::not_supported(
            &pod_path.child("restartPolicy"),
            policy,
            &["Always"],
        ));
    }
    if let Some(old) = old_spec
        && old["selector"] != spec["selector"]
    {
        errors.push(FieldError::invalid(
            &selector_path,
            selector.clone(),
            "field is immutable",
        ));
    }
    errors
}

/// `ValidateDeployment` and `ValidateDeploymentUpdate`'s selector and
/// template rules.
pub fn validate_deployment(new: &Deployment, old: Option<&Deployment>) -> ErrorList {
    let old = old.map(|o| to_json(&o.spec));
    validate_selected(&to_json(&new.spec), old.as_ref(), "deployment")
}

/// `ValidateReplicaSet` and its update's selector and template rules.
pub fn validate_replica_set(new: &ReplicaSet, old: Option<&ReplicaSet>) -> ErrorList {
    let old = old.map(|o| to_json(&o.spec));
    validate_selected(&to_json(&new.spec), old.as_ref(), "deployment")
}

/// `ValidateStatefulSet` and its update's selector and template rules.
pub fn validate_stateful_set(new: &StatefulSet, old: Option<&StatefulSet>) -> ErrorList {
    let old = old.map(|o| to_json(&o.spec));
    validate_selected(&to_json(&new.spec), old.as_ref(), "statefulset")
}

/// `ValidateDaemonSet` and its update's selector and template rules.
pub fn validate_daemon_set(new: &DaemonSet, old: Option<&DaemonSet>) -> ErrorList {
    let old = old.map(|o| to_json(&o.spec));
    validate_selected(&to_json(&new.spec), old.as_ref(), "daemonset")
}

/// `ValidatePod`'s container rules.
pub fn validate_pod(new: &Pod, _old: Option<&Pod>) -> ErrorList {
    validate_pod_spec(&to_json(&new.spec), &FieldPath::new("spec"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deployment(spec: Value) -> Deployment {
        serde_json::from_value(json!({"metadata": {"name": "d"}, "spec": spec})).unwrap()
    }

    fn messages(errors: &ErrorList) -> Vec<String> {
        errors.iter().map(ToString::to_string).collect()
    }

    fn good() -> Value {
        json!({
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web", "tier": "front"}},
                "spec": {"containers": [{"name": "web", "image": "nginx"}]}
            }
        })
    }

    /// `TestValidateDeployment`'s success and error cases
    /// (apps/validation/validation_test.go): a missing or empty selector,
    /// labels the selector does not match, a pod template that restarts
    /// `Never`, a template without containers.
    #[test]
    fn deployments_as_validate_deployment() {
        assert!(validate_deployment(&deployment(good()), None).is_empty());

        // k8s-openapi's `selector` is not optional: a missing one reads
        // as empty (the schema's `required` reports it missing too).
        let mut no_selector = good();
        no_selector.as_object_mut().unwrap().remove("selector");
        assert_eq!(
            messages(&validate_deployment(&deployment(no_selector), None)),
            ["spec.selector: Invalid value: {}: empty selector is invalid for deployment"]
        );

        let mut empty = good();
        empty["selector"] = json!({});
        let errors = messages(&validate_deployment(&deployment(empty), None));
        assert!(
            errors[0].starts_with("spec.selector: Invalid value: ")
                && errors[0].ends_with(": empty selector is invalid for deployment"),
            "{errors:?}"
        );

        let mut mismatch = good();
        mismatch["selector"] = json!({"matchLabels": {"app": "db"}});
        let errors = messages(&validate_deployment(&deployment(mismatch), None));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("spec.template.metadata.labels: Invalid value: ")
                && errors[0].ends_with("`selector` does not match template `labels`"),
            "{errors:?}"
        );

        let mut never = good();
        never["template"]["spec"]["restartPolicy"] = json!("Never");
        assert_eq!(
            messages(&validate_deployment(&deployment(never), None)),
            [
                r#"spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always""#
            ]
        );

        let mut no_containers = good();
        no_containers["template"]["spec"]["containers"] = json!([]);
        assert_eq!(
            messages(&validate_deployment(&deployment(no_containers), None)),
            ["spec.template.spec.containers: Required value"]
        );
    }

    /// `TestValidateDeploymentUpdate`: the selector is immutable in
    /// apps/v1; the template and replicas may change.
    #[test]
    fn a_deployments_selector_is_immutable() {
        let old = deployment(good());
        let mut scaled = good();
        scaled["replicas"] = json!(5);
        scaled["template"]["spec"]["containers"][0]["image"] = json!("nginx:2");
        assert!(validate_deployment(&deployment(scaled), Some(&old)).is_empty());
        let mut moved = good();
        moved["selector"] = json!({"matchLabels": {"app": "web", "tier": "front"}});
        let errors = messages(&validate_deployment(&deployment(moved), Some(&old)));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].ends_with(": field is immutable"), "{errors:?}");
    }

    /// `TestValidatePodSpec`'s container cases: required, named with a
    /// DNS-1123 label, unique across init and regular containers, an
    /// image each.
    #[test]
    fn pod_containers_as_validate_pod_spec() {
        let pod = |spec: Value| -> Pod {
            serde_json::from_value(json!({"metadata": {"name": "p"}, "spec": spec})).unwrap()
        };
        assert!(
            validate_pod(
                &pod(json!({"containers": [{"name": "a", "image": "i"}]})),
                None
            )
            .is_empty()
        );
        assert_eq!(
            messages(&validate_pod(&pod(json!({"containers": []})), None)),
            ["spec.containers: Required value"]
        );
        let errors = messages(&validate_pod(
            &pod(json!({
                "initContainers": [{"name": "a", "image": "i"}],
                "containers": [{"name": "a", "image": "i"}, {"name": "Bad_Name", "image": "i"},
                               {"name": "c"}]
            })),
            None,
        ));
        assert_eq!(
            errors,
            [
                r#"spec.containers[0].name: Duplicate value: "a""#,
                r#"spec.containers[1].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"#,
                "spec.containers[2].image: Required value",
            ]
        );
    }
}
