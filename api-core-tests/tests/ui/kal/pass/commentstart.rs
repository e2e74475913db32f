//! KAL `commentstart` passing cases (src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Comment start.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommentStartTestStruct {
    #[serde(skip)]
    pub ignored: String, // KAL a/a.go:CommentStartTestStruct.Ignored
    /// correctStartComment is a field with a correct start to the comment.
    pub correct_start_comment: String, // KAL a/a.go:CommentStartTestStruct.CorrectStartComment
    /// correctStartOptionalComment is a field with a correct start to the comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correct_start_optional_comment: Option<String>, // KAL a/a.go:CommentStartTestStruct.CorrectStartOptionalComment
    /// correctMultiLineComment is a field with a correct start to the comment.
    /// Except this time there are multiple lines to the comment.
    pub correct_multi_line_comment: String, // KAL a/a.go:CommentStartTestStruct.CorrectMultiLineComment
    /// Deprecated: This field is no longer used.
    pub deprecated_field: String, // KAL a/a.go:CommentStartTestStruct.DeprecatedField
    /// Deprecated: use NewField instead.
    pub deprecated_with_replacement: String, // KAL a/a.go:CommentStartTestStruct.DeprecatedWithReplacement
}

fn main() {}
