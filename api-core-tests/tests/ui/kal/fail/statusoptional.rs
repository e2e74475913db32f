//! KAL `statusoptional` (pkg/analysis/statusoptional/testdata/src/a). KAL
//! finds the status by position (the root's `status` field); here each Go
//! root is a `KubeResource` whose `status = ".."` names the Go status type,
//! with the Go type names kept. A Go embedded struct with a json name is a
//! named field; `json:",inline"` is `#[serde(flatten)]`. Unmarked Go fields
//! (pointers too) are required. `status_optional` warns, so
//! `#![deny(deprecated)]` makes it an error.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// The root with embeddings in its status.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "ResourceWithEmbeddings", status = "StatusWithEmbeddings")] // ANCHOR embeddings
pub struct ResourceWithEmbeddingsSpec {}

/// The status, with embeddings.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct StatusWithEmbeddings {
    /// f.
    #[serde(flatten)]
    pub inline_embed: InlineEmbed, // KAL a/a.go:StatusWithEmbeddings.InlineEmbed
    /// f.
    pub non_inline_embed: NonInlineEmbed, // KAL a/a.go:StatusWithEmbeddings.NonInlineEmbed ELSEWHERE embeddings
    /// f.
    #[serde(rename = "nonInlineOmitEmpty")]
    pub non_inline_omit_empty_embed: NonInlineOmitEmptyEmbed, // KAL a/a.go:StatusWithEmbeddings.NonInlineOmitEmptyEmbed ELSEWHERE embeddings
    /// f (a Go pointer; required all the same).
    pub pointer_embed: PointerEmbed, // KAL a/a.go:StatusWithEmbeddings.*PointerEmbed ELSEWHERE embeddings
    /// f (a Go pointer; required all the same).
    #[serde(rename = "pointerOmitEmpty")]
    pub pointer_omit_empty_embed: PointerOmitEmptyEmbed, // KAL a/a.go:StatusWithEmbeddings.*PointerOmitEmptyEmbed ELSEWHERE embeddings
    /// f.
    pub non_inlined_struct_from_another_file: StructFromAnotherFile, // KAL a/a.go:StatusWithEmbeddings.NonInlinedStructFromAnotherFile ELSEWHERE embeddings
    /// f.
    #[serde(flatten)]
    pub struct_from_another_file: StructFromAnotherFile2, // KAL a/a.go:StatusWithEmbeddings.StructFromAnotherFile
}

/// Inlined into the status.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct InlineEmbed {
    /// f.
    pub inline_field: String, // KAL a/a.go:InlineEmbed.InlineField ELSEWHERE inlineonly
}

/// Not inlined.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct NonInlineEmbed {
    /// f.
    pub non_inline_field: String, // KAL a/a.go:NonInlineEmbed.NonInlineField
}

/// Not inlined.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct NonInlineOmitEmptyEmbed {
    /// f.
    pub non_inline_omit_empty_field: String, // KAL a/a.go:NonInlineOmitEmptyEmbed.NonInlineOmitEmptyField
}

/// Not inlined.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct PointerEmbed {
    /// f.
    pub pointer_field: String, // KAL a/a.go:PointerEmbed.PointerField
}

/// Not inlined.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct PointerOmitEmptyEmbed {
    /// f.
    pub pointer_omit_empty_field: String, // KAL a/a.go:PointerOmitEmptyEmbed.PointerOmitEmptyField
}

/// From b.go.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct StructFromAnotherFile {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_string_field: Option<String>,
}

/// From b.go (a second copy: serde cannot flatten the same type twice under one name).
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct StructFromAnotherFile2 {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_string_field2: Option<String>, // KAL a/b.go:StructFromAnotherFile.OptionalStringField
}

/// The root with a nested status.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "ResourceWithNestedStatus", status = "NestedStatusStatus")]
pub struct ResourceWithNestedStatusSpec {}

/// A status with a nested status-named struct.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct NestedStatusStatus {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nested_status: Option<SecondLevelStatus>, // KAL a/a.go:NestedStatusStatus.NestedStatus
}

/// Not a top-level status.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SecondLevelStatus {
    /// f.
    #[kube(required)]
    pub nested_field: String, // KAL a/a.go:SecondLevelStatus.NestedField
}

/// The root whose status has required fields.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "ResourceWithStatusMarkedRequired", status = "StatusMarkedRequired")] // ANCHOR markedrequired
pub struct ResourceWithStatusMarkedRequiredSpec {}

/// Required status fields.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct StatusMarkedRequired {
    /// f.
    #[kube(required)]
    pub one_required_field: String, // KAL a/a.go:StatusMarkedRequired.OneRequiredField ELSEWHERE markedrequired
    /// f.
    #[kube(required)]
    pub both_required_field: String, // KAL a/a.go:StatusMarkedRequired.BothRequiredField ELSEWHERE markedrequired
}

/// A root whose status only inlines `InlineEmbed` (so that a report there is
/// about `InlineEmbed.InlineField` alone).
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "ResourceWithInlineOnly", status = "StatusWithInlineOnly")] // ANCHOR inlineonly
pub struct ResourceWithInlineOnlySpec {}

/// A status that only inlines `InlineEmbed`.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct StatusWithInlineOnly {
    /// f.
    #[serde(flatten)]
    pub inline_embed: InlineEmbed,
}

fn main() {}
