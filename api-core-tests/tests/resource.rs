//! `List<K>` and the `Resource` defaults, with a hand-written resource (no derive).

use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Widget {
    metadata: ObjectMeta,
}

impl Resource for Widget {
    const GROUP: &'static str = "example.com";
    const VERSION: &'static str = "v1";
    const KIND: &'static str = "Widget";
    const PLURAL: &'static str = "widgets";
    const SINGULAR: &'static str = "widget";
    const SCOPE: Scope = Scope::Namespaced;
    fn metadata(&self) -> &ObjectMeta {
        &self.metadata
    }
    fn metadata_mut(&mut self) -> &mut ObjectMeta {
        &mut self.metadata
    }
}

struct CorePod;
impl Resource for CorePod {
    const GROUP: &'static str = "";
    const VERSION: &'static str = "v1";
    const KIND: &'static str = "Pod";
    const PLURAL: &'static str = "pods";
    const SINGULAR: &'static str = "pod";
    const SCOPE: Scope = Scope::Namespaced;
    fn metadata(&self) -> &ObjectMeta {
        unreachable!()
    }
    fn metadata_mut(&mut self) -> &mut ObjectMeta {
        unreachable!()
    }
}

fn widget(name: &str) -> Widget {
    Widget {
        metadata: ObjectMeta::named(name),
    }
}

#[test]
fn api_version_of_named_and_core_groups() {
    assert_eq!(Widget::api_version(), "example.com/v1");
    assert_eq!(CorePod::api_version(), "v1");
    assert_eq!(Scope::Namespaced.as_str(), "Namespaced");
    assert_eq!(Scope::Cluster.to_string(), "Cluster");
    assert!(!Scope::Cluster.is_namespaced());
    assert_eq!(widget("a").name(), "a");
    assert_eq!(widget("a").namespace(), "");
}

#[test]
fn list_serialises_with_list_kind_first() {
    let mut list = List::new(vec![widget("a"), widget("b")]);
    list.metadata.resource_version = "12".into();
    let text = serde_json::to_string(&list).unwrap();
    assert!(
        text.starts_with(r#"{"apiVersion":"example.com/v1","kind":"WidgetList","metadata":"#),
        "{text}"
    );
    assert_eq!(
        serde_json::to_value(&list).unwrap(),
        json!({
            "apiVersion": "example.com/v1",
            "kind": "WidgetList",
            "metadata": {"resourceVersion": "12"},
            "items": [{"metadata": {"name": "a"}}, {"metadata": {"name": "b"}}]
        })
    );
    let back: List<Widget> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, list);
    assert_eq!(List::<Widget>::kind(), "WidgetList");
}

#[test]
fn list_decoding_accepts_missing_type_and_rejects_wrong_one() {
    let l: List<Widget> =
        serde_json::from_value(json!({"items": [{"metadata": {"name": "a"}}]})).unwrap();
    assert_eq!(l.items.len(), 1);
    let l: List<Widget> = serde_json::from_value(json!({"metadata": null, "items": null})).unwrap();
    assert!(l.items.is_empty());
    let err =
        serde_json::from_value::<List<Widget>>(json!({"kind": "Widget", "items": []})).unwrap_err();
    assert!(
        err.to_string()
            .contains("wrong kind: expected \"WidgetList\", found \"Widget\""),
        "{err}"
    );
    let err = serde_json::from_value::<List<Widget>>(json!({"apiVersion": "example.com/v2"}))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("expected \"example.com/v1\", found \"example.com/v2\""),
        "{err}"
    );
    assert!(serde_json::from_str::<List<Widget>>(r#"{"items": [}"#).is_err());
    assert!(serde_json::from_str::<List<Widget>>(r#"{"items": [], "items": []}"#).is_err());
    assert!(serde_json::from_str::<List<Widget>>("[]").is_err());
}

#[test]
fn list_collects_and_iterates() {
    let list: List<Widget> = ["a", "b"].into_iter().map(widget).collect();
    let names: Vec<String> = list.into_iter().map(|w| w.metadata.name).collect();
    assert_eq!(names, ["a", "b"]);
}
