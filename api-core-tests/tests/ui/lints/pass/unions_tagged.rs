use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A discriminated union: `kind` says which member is set.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "PascalCase")]
pub enum Source {
    /// From git.
    Git {
        /// url.
        url: String,
        /// revision.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        revision: Option<String>,
    },
    /// From an image.
    Image(ImageSource),
    /// Nothing to fetch.
    Empty,
}

/// An image source.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ImageSource {
    /// reference.
    #[kube(max_length = 512)]
    pub image: String,
}

fn main() {
    let schema = <Source as ApiType>::api_schema(&mut api_core::schemars::SchemaGenerator::default()).to_value();
    assert_eq!(schema["required"], serde_json::json!(["kind"]));
    assert_eq!(schema["properties"]["kind"]["enum"], serde_json::json!(["Git", "Image", "Empty"]));
    assert_eq!(schema["properties"]["image"]["maxLength"], 512);
    assert!(schema["properties"]["url"].is_object());
    let v = serde_json::to_value(Source::Git { url: "u".into(), revision: None }).unwrap();
    assert_eq!(v, serde_json::json!({"kind": "Git", "url": "u"}));
    let checked = api_core::schema::structural::check_schema(
        &serde_json::json!({"type": "object", "properties": {"spec": schema}}),
        &Default::default(),
    );
    assert!(checked.is_empty(), "{checked}");
}
