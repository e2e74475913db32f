use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Everything in one resource.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "apps.example.com",
    version = "v2beta1",
    kind = "Deployment",
    root = "MyDeployment",
    namespaced,
    status = "DeploymentStatus",
    plural = "deployments",
    shortname = "dep",
    category = "all",
    printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas", priority = 1, format = "int32", description = "desired"),
    scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas", label_selector_path = ".status.selector"),
    selectable = ".spec.strategy",
    served = true,
    storage = true,
    deprecated = "apps.example.com/v2beta1 is deprecated; use v2",
    validation(rule = "self.metadata.name.size() < 50", message = "short names only"),
    derive = "PartialEq"
)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentSpec {
    /// replicas.
    #[kube(minimum = 0, maximum = 1000, multiple_of = 1)]
    #[default(1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// strategy.
    #[default(Strategy::Rolling)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Strategy>,
    /// labels.
    #[kube(max_properties = 64, map_type = "granular")]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// raw JSON.
    #[kube(preserve_unknown_fields)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Value>,
    /// inlined.
    #[serde(flatten)]
    pub common: Common,
    /// port as a newtype.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<PortNumber>,
}

/// Fields shared by several types.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct Common {
    /// paused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
}

/// Strategy.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum Strategy {
    /// Rolling.
    Rolling,
    /// Recreate.
    Recreate,
}

/// Source is one of several.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// git.
    Git(GitSource),
    /// inline.
    Inline {
        /// text.
        text: String,
    },
}

/// A git source.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GitSource {
    /// url.
    #[kube(format = "uri")]
    pub url: String,
}

/// A port number.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(transparent)]
pub struct PortNumber(#[kube(minimum = 1, maximum = 65535)] i32);

/// Status.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentStatus {
    /// replicas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// selector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
}

fn main() {
    let mut d = MyDeployment::new("web", DeploymentSpec {
        replicas: None,
        strategy: None,
        labels: BTreeMap::new(),
        source: Some(Source::Inline { text: "x".into() }),
        extra: None,
        common: Common::default(),
        port: Some(PortNumber(80)),
    });
    d.apply_defaults();
    assert_eq!(d.spec.replicas, Some(1));
    let _: MyDeploymentList = MyDeploymentList::new(vec![d.clone()]);
    let crd = MyDeployment::crd();
    assert!(crd.spec.versions[0].deprecated);
    let errors = api_core::schema::structural::check_crd(&crd.to_json());
    assert!(errors.is_empty(), "{errors}");
    let json = serde_json::to_value(&d).unwrap();
    assert_eq!(json["kind"], "Deployment");
    assert_eq!(serde_json::from_value::<MyDeployment>(json).unwrap(), d);
}
