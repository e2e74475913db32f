//! The byte path of a list ([`ServedKind::list_json`]) against the value
//! path it shortcuts: the same document, for a kind known at run time
//! (whose list kind comes from its table; typed kinds' lists are read
//! through the byte path by every list test over HTTP).

use std::sync::Arc;

use api_core::registry::{
    DynamicObject, DynamicStrategy, KindInfo, ListOptions, MemoryStorage, Registry,
};
use api_core::resource::Scope;
use serde_json::{Value, json};

use super::*;

fn widgets() -> KindInfo {
    KindInfo {
        group: "example.com".into(),
        version: "v1".into(),
        kind: "Widget".into(),
        list_kind: "WidgetList".into(),
        plural: "widgets".into(),
        singular: "widget".into(),
        short_names: Vec::new(),
        categories: Vec::new(),
        scope: Scope::Namespaced,
        status_subresource: false,
        crd: None,
    }
}

/// A served kind known at run time, with three widgets in `default`.
async fn dynamic_kind() -> RegistryKind<DynamicObject> {
    let kind = widgets();
    let registry = Registry::<DynamicObject>::with_kind(
        kind.clone(),
        DynamicStrategy::new(&kind),
        Arc::new(MemoryStorage::new()),
    );
    for name in ["a", "b", "c"] {
        let object: DynamicObject = serde_json::from_value(json!({
            "apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": name, "labels": {"app": name}},
            "spec": {"size": 1}
        }))
        .unwrap();
        registry.create("default", object).await.unwrap();
    }
    RegistryKind::dynamic(Arc::new(registry))
}

#[tokio::test]
async fn a_list_as_bytes_is_the_list_as_a_value() {
    let kind = dynamic_kind().await;
    for options in [
        ListOptions::default(),
        ListOptions {
            limit: Some(2),
            ..ListOptions::default()
        },
        ListOptions {
            label_selector: Some("app=b".into()),
            ..ListOptions::default()
        },
    ] {
        let value = kind.list("default", &options).await.unwrap();
        let (bytes, revision) = kind.list_json("default", &options).await.unwrap();
        let from_bytes: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(from_bytes, value, "{options:?}");
        assert_eq!(from_bytes["kind"], "WidgetList");
        assert_eq!(from_bytes["apiVersion"], "example.com/v1");
        assert_eq!(
            Some(revision.as_str()),
            value["metadata"]["resourceVersion"].as_str()
        );
    }
}
