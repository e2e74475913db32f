//! KAL `commentstart` (pkg/analysis/commentstart/testdata/src/a). `field_docs` warns on a field
//! with no description (no doc comment, no documented type); an error under `deny(deprecated)`;
//! it does not check the first word. Go anonymous structs are named structs here, with no doc
//! (`//`, not `///`) as Go gives none; Go `pkg.X` is `pkg::X`.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Comment start.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(json_field_names))]
#[serde(rename_all = "camelCase")]
pub struct CommentStartTestStruct {
    pub no_comment: String, // KAL a/a.go:CommentStartTestStruct.NoComment
    #[serde(rename = "-")]
    pub hyphen: String, // KAL a/a.go:CommentStartTestStruct.Hyphen
    pub anonymous_struct: AnonymousStruct, // KAL a/a.go:CommentStartTestStruct.AnonymousStruct
    #[serde(flatten)]
    pub anonymous_struct_inline_json_tag: AnonymousStructInlineJSONTag, // KAL a/a.go:CommentStartTestStruct.AnonymousStructInlineJSONTag
    #[serde(skip)]
    pub ignored_anonymous_struct: IgnoredAnonymousStruct, // KAL a/a.go:CommentStartTestStruct.IgnoredAnonymousStruct
    #[serde(flatten)]
    pub struct_for_inline_field: StructForInlineField, // KAL a/a.go:CommentStartTestStruct.StructForInlineField
    pub a: A, // KAL a/a.go:CommentStartTestStruct.A
    pub pkg_a: pkg::A, // KAL a/a.go:CommentStartTestStruct.PkgA
    pub embedded: pkg::Embedded, // KAL a/a.go:CommentStartTestStruct.pkg.Embedded
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedded_pointer: Option<pkg::EmbeddedPointer>, // KAL a/a.go:CommentStartTestStruct.*pkg.EmbeddedPointer
    /// IncorrectStartComment is a field with an incorrect start to the comment.
    pub incorrect_start_comment: String, // KAL a/a.go:CommentStartTestStruct.IncorrectStartComment
    /// IncorrectStartOptionalComment is a field with an incorrect start to the comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incorrect_start_optional_comment: Option<String>, // KAL a/a.go:CommentStartTestStruct.IncorrectStartOptionalComment
    /// IncorrectMultiLineComment is a field with an incorrect start to the comment.
    /// Except this time there are multiple lines to the comment.
    pub incorrect_multi_line_comment: String, // KAL a/a.go:CommentStartTestStruct.IncorrectMultiLineComment
    /// This comment just isn't correct at all, doesn't even start with anything resembling the field names.
    pub incorrect_comment: String, // KAL a/a.go:CommentStartTestStruct.IncorrectComment
}

// The Go anonymous struct `AnonymousStruct` (no doc comment).
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnonymousStruct {
    pub no_comment: String, // KAL a/a.go:CommentStartTestStruct.AnonymousStruct.NoComment
}

/// The Go anonymous struct `AnonymousStructInlineJSONTag`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnonymousStructInlineJSONTag {
    pub no_comment2: String, // KAL a/a.go:CommentStartTestStruct.AnonymousStructInlineJSONTag.NoComment
}

/// The Go anonymous struct `IgnoredAnonymousStruct` (`json:"-"`: not an API type).
#[derive(Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct IgnoredAnonymousStruct {
    pub no_comment: String, // KAL a/a.go:CommentStartTestStruct.IgnoredAnonymousStruct.NoComment
}

/// StructForInlineField.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StructForInlineField {
    pub no_comment3: String, // KAL a/a.go:StructForInlineField.NoComment
}

// A (no doc comment in Go).
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A {
    pub no_comment: String, // KAL a/a.go:A.NoComment
}

/// unexportedStruct.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UnexportedStruct {
    pub no_comment: String, // KAL a/a.go:unexportedStruct.NoComment
}

/// MultipleTypeDeclaration1.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MultipleTypeDeclaration1 {
    pub no_comment: String, // KAL a/a.go:MultipleTypeDeclaration1.NoComment
}

/// MultipleTypeDeclaration2.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MultipleTypeDeclaration2 {
    pub no_comment: String, // KAL a/a.go:MultipleTypeDeclaration2.NoComment
}

/// Go package `a/pkg`.
pub mod pkg {
    use super::*;

    // pkg.A (no doc comment in Go).
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct A {}

    /// Embedded renames `A` so that it can be embedded twice (Go's doc comment).
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Embedded {}

    // pkg.EmbeddedPointer (no doc comment in Go).
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct EmbeddedPointer {}
}

fn main() {
    let _ = std::mem::size_of::<UnexportedStruct>();
}
