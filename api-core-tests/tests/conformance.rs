//! Conformance with controller-gen: every CRD of the corpus's
//! `controller-tools/` (read at run time from `../shared/corpus`; see
//! `common/shared.rs` for what happens when it is absent) is reproduced from Rust types and
//! compared with the file semantically (as JSON values), except for the
//! `controller-gen.kubebuilder.io/version` annotation. Every generated CRD
//! must also pass the structural-schema checker.
//!
//! The Rust types mirror the Go types the files were generated from
//! (kubernetes-sigs/controller-tools `pkg/crd/testdata/`). Where the Go
//! fixture has no doc comment (and so no `description`), the Rust type has
//! a plain `//` comment instead of a doc comment. Where the fixture breaks
//! an API convention on purpose, the lint is allowed explicitly, with the
//! reason next to it.

use api_core::crd::{CustomResourceDefinition, merge, yaml_to_json};
use api_core::schema::structural::check_crd;
use serde_json::Value;

/// The annotation controller-gen writes and we do not.
const VERSION_ANNOTATION: &str = "controller-gen.kubebuilder.io/version";

#[path = "common/shared.rs"]
mod shared;

#[path = "common/json_diff.rs"]
mod json_diff;
use json_diff::json_diff;

/// The single document of a corpus file as JSON, without controller-gen's
/// version annotation (and without `annotations` when that was the only one).
fn expected((name, text): (&str, &str)) -> Value {
    let mut docs = yaml_to_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(docs.len(), 1, "{name}: expected exactly one YAML document");
    let mut doc = docs.remove(0);
    if let Some(metadata) = doc.get_mut("metadata").and_then(Value::as_object_mut) {
        let now_empty = match metadata
            .get_mut("annotations")
            .and_then(Value::as_object_mut)
        {
            Some(annotations) => {
                annotations.remove(VERSION_ANNOTATION);
                annotations.is_empty()
            }
            None => false,
        };
        if now_empty {
            metadata.remove("annotations");
        }
    }
    doc
}

/// Asserts that `crd` passes the structural checker and is the corpus file
/// `file` (relative to `../shared/corpus`) (but for the version annotation); the
/// comparison is skipped, with a note on stderr, when `../shared` is absent.
fn assert_conforms(file: &str, crd: &CustomResourceDefinition) {
    let generated = crd.to_json();
    let mut failures = Vec::new();
    if let Some(text) = shared::corpus_file(file) {
        let expected = expected((file, &text));
        if generated != expected {
            let mut diffs = Vec::new();
            json_diff("", &generated, &expected, &mut diffs);
            failures.push(format!(
                "the generated CRD differs from the file at {} path(s):\n  {}\n\ngenerated YAML:\n{}",
                diffs.len(),
                diffs.join("\n  "),
                crd.to_yaml()
            ));
        }
    }
    let errors = check_crd(&generated);
    if !errors.is_empty() {
        failures.push(format!(
            "the structural checker rejects the generated CRD:\n  {}",
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n  ")
        ));
    }
    assert!(failures.is_empty(), "{file}: {}", failures.join("\n\n"));
}

/// `pkg/crd/testdata/gen/foo_types.go`: no `+versionName`, so the version
/// is the package name `foo`; `spec` and `status` are `omitempty` and the
/// status is an empty struct with no `+kubebuilder:subresource:status`.
mod foos {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// Spec comments SHOULD appear in the CRD spec
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(
        group = "bar.example.com",
        // Not a Kubernetes version name: controller-gen fell back to the Go
        // package name because the package has no `+versionName`.
        version = "foo",
        kind = "Foo",
        namespaced,
        status = "FooStatus",
        // The Go type has a status but no `+kubebuilder:subresource:status`.
        status_subresource = false,
        // `Spec FooSpec json:"spec,omitempty"`: the file has no `required: [spec]`.
        optional_spec,
        allow(kind_naming)
    )]
    #[serde(rename_all = "camelCase")]
    pub struct FooSpec {
        /// This tests that defaulted fields are stripped for v1beta1,
        /// but not for v1
        // The Go field is a plain `string` without `omitempty`, so
        // controller-gen lists it as required although it has a default:
        // `Option` lets Rust apply the default, `required` reproduces the
        // schema, and the two lints that forbid this are allowed.
        #[kube(
            required,
            example = "fooExampleString",
            allow(default_or_required, required_field)
        )]
        #[default("fooDefaultString")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub defaulted_string: Option<String>,
    }

    /// Status comments SHOULD appear in the CRD spec
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    pub struct FooStatus {}
}

#[test]
fn foos() {
    assert_conforms(
        "controller-tools/bar.example.com_foos.yaml",
        &foos::Foo::crd(),
    );

    // `optional_spec`: an omitted spec reads as `{}`; the default in the
    // schema is the one Rust applies.
    let mut foo: foos::Foo = serde_json::from_str(r#"{"metadata": {"name": "f"}}"#).unwrap();
    assert_eq!(foo.spec.defaulted_string, None);
    api_core::ApiType::apply_defaults(&mut foo);
    assert_eq!(
        foo.spec.defaulted_string.as_deref(),
        Some("fooDefaultString")
    );
}

/// `pkg/crd/testdata/job/types.go`, with `CronJobSpec` from
/// `pkg/crd/testdata/unserved/`. The resource markers sit on `JobSpec`, so
/// the file has no subresources.
mod jobs {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// JobSpec is the spec for the jobs API.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(
        group = "testdata.kubebuilder.io",
        version = "v1beta1",
        kind = "Job",
        namespaced,
        doc = "Job is the Schema for the jobs API"
    )]
    #[serde(rename_all = "camelCase")]
    pub struct JobSpec {
        /// FriendlyName is the friendly name for the job.
        #[kube(min_length = 5)]
        pub friendly_name: String,

        /// Count is the number of times a job may be executed.
        #[kube(minimum = 0, maximum = 10)]
        pub count: i32,

        /// CronJob is the spec for the related CrongJob.
        // (sic: the Go JSON name is `crongJob`)
        pub crong_job: CronJobSpec,
    }

    // The field doc above replaces the type's description.
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    // `int32WithValidations` has no description in the file.
    #[kube(allow(field_docs))]
    pub struct CronJobSpec {
        #[kube(minimum = -2, maximum = 2, multiple_of = 2)]
        pub int32_with_validations: i32,

        /// This tests that markers that are allowed on both fields and types are applied to fields
        #[kube(min_length = 4)]
        pub two_of_a_kind_part0: String,
    }
}

#[test]
fn jobs() {
    assert_conforms(
        "controller-tools/testdata.kubebuilder.io_jobs.yaml",
        &jobs::Job::crd(),
    );
}

/// `pkg/crd/testdata/enum/api.go`: a `+k8s:enum` string type.
mod enums {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// EnumSpec defines the desired state of Enum
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(
        group = "testdata.kubebuilder.io",
        version = "v1",
        kind = "Enum",
        namespaced,
        doc = "Enum is a test CRD that contains an enum.",
        // `Spec EnumSpec json:"spec,omitempty"`: no `required: [spec]`.
        optional_spec,
        // `field` has no description in the file.
        allow(field_docs)
    )]
    #[serde(rename_all = "camelCase")]
    pub struct EnumSpec {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub field: Option<EnumType>,
    }

    // The Go type has no doc comment, so the schema has no description.
    #[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
    pub enum EnumType {
        Value1,
        Value2,
    }
}

#[test]
fn enums() {
    assert_conforms(
        "controller-tools/testdata.kubebuilder.io_enums.yaml",
        &enums::Enum::crd(),
    );
}

/// `pkg/crd/testdata/plural/types.go`: a kind without `spec`, whose one
/// field sits at the top level.
mod testquotas {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    // The Go root type has no doc comment, so the root has no description.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(
        group = "plural.example.com",
        version = "v1",
        kind = "TestQuota",
        namespaced,
        no_spec,
        // `test` has no description in the file.
        allow(field_docs)
    )]
    #[serde(rename_all = "camelCase")]
    pub struct TestQuotaFields {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub test: Option<String>,
    }
}

#[test]
fn testquotas() {
    assert_conforms(
        "controller-tools/plural.example.com_testquotas.yaml",
        &testquotas::TestQuota::crd(),
    );
}

/// `pkg/crd/testdata/external_docs/types.go`: `+kubebuilder:externalDoc` on
/// fields and on a type.
mod externaldocs {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// ExternalDocSpec defines the desired state of ExternalDoc
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(
        group = "testdata.kubebuilder.io",
        version = "v1",
        kind = "ExternalDoc",
        namespaced,
        doc = "ExternalDoc is the Schema for the external docs API",
        // `Spec ExternalDocSpec json:"spec,omitempty"`: no `required: [spec]`.
        optional_spec
    )]
    #[serde(rename_all = "camelCase")]
    pub struct ExternalDocSpec {
        /// This tests that external documentation can be attached to a field with url and description.
        #[kube(external_docs(
            url = "https://example.com/docs",
            description = "external docs description"
        ))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub field_with_external_doc: Option<String>,

        /// This tests that external documentation can be attached with only url.
        #[kube(external_docs(url = "https://example.com/docs"))]
        #[serde(
            rename = "fieldWithExternalDocURLOnly",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        pub field_with_external_doc_url_only: Option<String>,

        /// This tests that external documentation from a type is propagated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub type_with_external_doc: Option<TypeWithExternalDoc>,
    }

    /// TypeWithExternalDoc is a type with external documentation.
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
    #[kube(external_docs(
        url = "https://example.com/type-docs",
        description = "type-level external docs"
    ))]
    #[serde(transparent)]
    pub struct TypeWithExternalDoc(pub String);
}

#[test]
fn externaldocs() {
    assert_conforms(
        "controller-tools/testdata.kubebuilder.io_externaldocs.yaml",
        &externaldocs::ExternalDoc::crd(),
    );
}

/// `pkg/crd/testdata/multiple_versions/`: one kind in two packages
/// (`v1beta1`, `v1beta2`) sharing `common.go`, joined by controller-gen
/// into one CRD.
mod versionedresources {
    /// `common.go`.
    pub mod common {
        use api_core::prelude::*;
        use serde::{Deserialize, Serialize};

        // No doc comments in the Go source.
        #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
        #[serde(rename_all = "camelCase")]
        #[kube(allow(field_docs))]
        pub struct InnerStruct {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub foo: Option<String>,
        }

        #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
        #[serde(rename_all = "camelCase")]
        #[kube(allow(field_docs))]
        pub struct OuterStruct {
            // `+structType=atomic`
            #[kube(map_type = "atomic")]
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub r#struct: Option<InnerStruct>,
        }
    }

    pub mod v1beta1 {
        use api_core::prelude::*;
        use serde::{Deserialize, Serialize};

        use super::common::OuterStruct;

        #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(
            group = "testdata.kubebuilder.io",
            version = "v1beta1",
            kind = "VersionedResource",
            namespaced,
            // `+kubebuilder:subresource:status` without a status field.
            status_subresource = true,
            allow(status_subresource),
            // v1beta2 is the `+kubebuilder:storageversion`.
            storage = false,
            allow(field_docs)
        )]
        #[serde(rename_all = "camelCase")]
        pub struct VersionedResourceSpec {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub r#struct: Option<OuterStruct>,
        }
    }

    pub mod v1beta2 {
        use api_core::prelude::*;
        use serde::{Deserialize, Serialize};

        use super::common::OuterStruct;

        #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(
            group = "testdata.kubebuilder.io",
            version = "v1beta2",
            kind = "VersionedResource",
            namespaced,
            // `+kubebuilder:subresource:status` without a status field.
            status_subresource = true,
            allow(status_subresource),
            allow(field_docs)
        )]
        #[serde(rename_all = "camelCase")]
        pub struct VersionedResourceSpec {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub r#struct: Option<OuterStruct>,
        }
    }
}

// The two versions share `common.go`, so the conversions copy the spec;
// v1beta2 (the storage version) is the hub.
impl From<versionedresources::v1beta1::VersionedResource>
    for versionedresources::v1beta2::VersionedResource
{
    fn from(old: versionedresources::v1beta1::VersionedResource) -> Self {
        Self {
            metadata: old.metadata,
            spec: versionedresources::v1beta2::VersionedResourceSpec {
                r#struct: old.spec.r#struct,
            },
        }
    }
}

impl From<versionedresources::v1beta2::VersionedResource>
    for versionedresources::v1beta1::VersionedResource
{
    fn from(new: versionedresources::v1beta2::VersionedResource) -> Self {
        Self {
            metadata: new.metadata,
            spec: versionedresources::v1beta1::VersionedResourceSpec {
                r#struct: new.spec.r#struct,
            },
        }
    }
}

#[test]
fn versionedresources() {
    use versionedresources::{v1beta1, v1beta2};
    // Through the conversion graph: the schemas are equal, so there is no
    // `conversion` stanza (as controller-gen writes it) and no warning.
    let versions = api_core::conversion::Versions::<v1beta2::VersionedResource>::new()
        .version::<v1beta1::VersionedResource>();
    let crd = versions.crd().expect("the two versions merge");
    assert!(versions.warnings().is_empty());
    assert_conforms(
        "controller-tools/testdata.kubebuilder.io_versionedresources.yaml",
        &crd,
    );
    // And the plain merge of the two single-version CRDs gives the same.
    let merged = merge([
        v1beta1::VersionedResource::crd(),
        v1beta2::VersionedResource::crd(),
    ])
    .expect("the two versions merge");
    assert_eq!(merged, crd);
    let sample = v1beta1::VersionedResource::new(
        "r",
        v1beta1::VersionedResourceSpec {
            r#struct: Some(versionedresources::common::OuterStruct {
                r#struct: Some(versionedresources::common::InnerStruct {
                    foo: Some("bar".into()),
                }),
            }),
        },
    );
    api_core::conversion::assert_lossless::<v1beta1::VersionedResource, v1beta2::VersionedResource>(
        [sample],
    );
}

/// `pkg/crd/testdata/oneof/types.go`: `ExactlyOneOf`, `AtMostOneOf` and
/// `AtLeastOneOf` groups, a type-level `XValidation`, and a validated type
/// alias used twice. The resource markers sit on `OneofSpec`, so the file
/// has no subresources.
mod oneofs {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// OneofSpec is the spec for the oneofs API.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(
        group = "testdata.kubebuilder.io",
        version = "v1beta1",
        kind = "Oneof",
        namespaced,
        doc = "Oneof is the Schema for the Oneof API",
        // Only `secondCustomTypeAlias` has a description in the file.
        allow(field_docs)
    )]
    #[serde(rename_all = "camelCase")]
    pub struct OneofSpec {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub first_type_with_oneof: Option<TypeWithOneofs>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub second_type_with_oneof: Option<TypeWithMultipleOneofs>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub first_type_with_exact_oneof: Option<TypeWithExactOneofs>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub second_type_with_exact_oneof: Option<TypeWithMultipleExactOneofs>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub type_with_multiple_at_least_one_of: Option<TypeWithMultipleAtLeastOneOfs>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub type_with_all_one_of: Option<TypeWithAllOneOfs>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub type_with_omit_zero: Option<TypeWithOmitZero>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub type_with_omit_zero_exact: Option<TypeWithOmitZeroExact>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub type_with_omit_zero_at_least_one_of: Option<TypeWithOmitZeroAtLeastOneOf>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub first_custom_type_alias: Option<CustomTypeAlias>,

        /// This verifies if the custom type alias XValidation is not duplicated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub second_custom_type_alias: Option<CustomTypeAlias>,
    }

    // The member types have no doc comments in the Go source, and neither
    // have their fields.

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(
        validation(
            rule = "!(has(self.foo) && has(self.bar))",
            message = "only one of foo|bar may be set"
        ),
        at_most_one_of = ["foo", "bar"],
        allow(field_docs)
    )]
    pub struct TypeWithOneofs {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub foo: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub bar: Option<String>,
    }

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(
        at_most_one_of = ["a", "b"],
        at_most_one_of = ["c", "d"],
        allow(field_docs)
    )]
    pub struct TypeWithMultipleOneofs {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub a: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub b: Option<String>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub c: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub d: Option<String>,
    }

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(exactly_one_of = ["foo", "bar"], allow(field_docs))]
    pub struct TypeWithExactOneofs {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub foo: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub bar: Option<String>,
    }

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(
        exactly_one_of = ["a", "b"],
        exactly_one_of = ["c", "d"],
        allow(field_docs)
    )]
    pub struct TypeWithMultipleExactOneofs {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub a: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub b: Option<String>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub c: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub d: Option<String>,
    }

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(
        at_least_one_of = ["a", "b"],
        at_least_one_of = ["c", "d"],
        allow(field_docs)
    )]
    pub struct TypeWithMultipleAtLeastOneOfs {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub a: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub b: Option<String>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub c: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub d: Option<String>,
    }

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(
        at_most_one_of = ["a", "b"],
        exactly_one_of = ["c", "d"],
        at_least_one_of = ["e", "f"],
        allow(field_docs)
    )]
    pub struct TypeWithAllOneOfs {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub a: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub b: Option<String>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub c: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub d: Option<String>,

        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub e: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub f: Option<String>,
    }

    // Go's `omitzero` members are optional like `omitempty` ones: in Rust
    // both are `Option` fields skipped when unset.

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(at_most_one_of = ["foo", "bar"], allow(field_docs))]
    pub struct TypeWithOmitZero {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub foo: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub bar: Option<String>,
    }

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(exactly_one_of = ["a", "b"], allow(field_docs))]
    pub struct TypeWithOmitZeroExact {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub a: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub b: Option<String>,
    }

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[kube(at_least_one_of = ["c", "d"], allow(field_docs))]
    pub struct TypeWithOmitZeroAtLeastOneOf {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub c: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub d: Option<String>,
    }

    /// CustomTypeAlias is a custom alias
    #[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
    #[kube(validation(
        rule = "self >= 100 && self <= 1000",
        message = "invalid CustomTypeAlias value"
    ))]
    #[serde(transparent)]
    pub struct CustomTypeAlias(pub i32);
}

#[test]
fn oneofs() {
    assert_conforms(
        "controller-tools/testdata.kubebuilder.io_oneofs.yaml",
        &oneofs::Oneof::crd(),
    );
}

/// `pkg/crd/testdata/immutable/types.go`: `+k8s:immutable` on required and
/// optional fields of every shape.
mod immutabletypes {
    use std::collections::BTreeMap;

    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    // No doc comments in the Go source: neither the root, the spec nor
    // the fields have descriptions.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(
        group = "testdata.kubebuilder.io",
        version = "v1",
        kind = "ImmutableType",
        namespaced,
        allow(field_docs)
    )]
    #[serde(rename_all = "camelCase")]
    pub struct ImmutableSpec {
        #[kube(immutable)]
        pub required_string: String,

        #[kube(immutable)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub optional_string: Option<String>,

        // A non-pointer `string` with `omitempty` in Go.
        #[kube(immutable)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub optional_literal_string: Option<String>,

        #[kube(immutable)]
        pub required_struct: NestedStruct,

        #[kube(immutable)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub optional_struct: Option<NestedStruct>,

        // A non-pointer struct with `omitzero` in Go.
        #[kube(immutable)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub optional_omit_zero_struct: Option<NestedStruct>,

        #[kube(immutable)]
        pub required_slice: Vec<String>,

        #[kube(immutable)]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub optional_slice: Vec<String>,

        #[kube(immutable)]
        pub required_map: BTreeMap<String, String>,

        #[kube(immutable)]
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        pub optional_map: BTreeMap<String, String>,

        pub mutable_string: String,
    }

    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[serde(rename_all = "camelCase")]
    #[kube(allow(field_docs))]
    pub struct NestedStruct {
        pub key: String,
        pub value: String,
    }
}

#[test]
fn immutabletypes() {
    assert_conforms(
        "controller-tools/testdata.kubebuilder.io_immutabletypes.yaml",
        &immutabletypes::ImmutableType::crd(),
    );
}

/// The diff helper itself: it names every differing path.
#[test]
fn json_diff_lists_differing_paths() {
    let generated = serde_json::json!({
        "a": {"b": 1, "c": [1, 2]},
        "only": true,
        "len": [1],
        "meta": {},
    });
    let file = serde_json::json!({
        "a": {"b": 2, "c": [1, 3]},
        "other": "x",
        "len": [1, 2],
        "meta": {"x.io/v": 1},
    });
    let mut out = Vec::new();
    json_diff("", &generated, &file, &mut out);
    assert_eq!(
        out,
        [
            "a.b: generated 1, the file has 2",
            "a.c[1]: generated 2, the file has 3",
            "len: generated [1], the file has [1,2]",
            "meta[x.io/v]: only in the file: 1",
            "only: only in the generated CRD: true",
            "other: only in the file: \"x\"",
        ]
    );
}

/// The corpus' union and immutability rules are enforced, as the apiserver
/// enforces the `x-kubernetes-validations` controller-gen writes for them:
/// the registry rejects a create that breaks a union and an update that
/// changes or removes an immutable field, with the rule's message.
#[tokio::test]
async fn corpus_rules_are_enforced_by_the_registry() {
    use api_core::registry::{DefaultStrategy, Registry};
    use serde_json::json;

    let oneofs = Registry::<oneofs::Oneof>::new(DefaultStrategy);
    let object = |spec: Value| -> oneofs::Oneof {
        serde_json::from_value(json!({
            "apiVersion": "testdata.kubebuilder.io/v1beta1", "kind": "Oneof",
            "metadata": {"name": "o"}, "spec": spec,
        }))
        .unwrap()
    };
    let create = |spec: Value| oneofs.create("default", object(spec));
    fn message<T>(r: Result<T, api_core::Status>) -> String {
        r.map(drop).unwrap_err().message
    }
    assert_eq!(
        message(create(json!({"firstTypeWithOneof": {"foo": "a", "bar": "b"}})).await),
        "Oneof.testdata.kubebuilder.io \"o\" is invalid: [spec.firstTypeWithOneof: Invalid value: only one of foo|bar may be set, spec.firstTypeWithOneof: Invalid value: at most one of the fields in [foo bar] may be set]"
    );
    assert_eq!(
        message(create(json!({"firstTypeWithExactOneof": {}})).await),
        "Oneof.testdata.kubebuilder.io \"o\" is invalid: spec.firstTypeWithExactOneof: Invalid value: exactly one of the fields in [foo bar] must be set"
    );
    assert_eq!(
        message(create(json!({"typeWithMultipleAtLeastOneOf": {"a": "x"}})).await),
        "Oneof.testdata.kubebuilder.io \"o\" is invalid: spec.typeWithMultipleAtLeastOneOf: Invalid value: at least one of the fields in [c d] must be set"
    );
    create(
        json!({"firstTypeWithExactOneof": {"bar": "b"}, "typeWithAllOneOf": {"c": "x", "e": "y"}}),
    )
    .await
    .expect("every union satisfied");

    let immutables = Registry::<immutabletypes::ImmutableType>::new(DefaultStrategy);
    let nested = json!({"key": "k", "value": "v"});
    let created: immutabletypes::ImmutableType = serde_json::from_value(json!({
        "apiVersion": "testdata.kubebuilder.io/v1", "kind": "ImmutableType",
        "metadata": {"name": "i"},
        "spec": {"requiredString": "a", "optionalString": "b", "requiredStruct": nested,
                 "requiredSlice": ["x"], "requiredMap": {"k": "v"}, "mutableString": "m"},
    }))
    .unwrap();
    let created = immutables.create("default", created).await.unwrap().object;
    let update = |change: &dyn Fn(&mut immutabletypes::ImmutableSpec)| {
        let mut obj = created.clone();
        change(&mut obj.spec);
        immutables.update("default", obj)
    };
    assert_eq!(
        message(update(&|s| s.required_string = "changed".into()).await),
        "ImmutableType.testdata.kubebuilder.io \"i\" is invalid: spec.requiredString: Invalid value: \"changed\": field is immutable"
    );
    assert_eq!(
        message(update(&|s| s.required_slice.push("y".into())).await),
        "ImmutableType.testdata.kubebuilder.io \"i\" is invalid: spec.requiredSlice: Invalid value: field is immutable"
    );
    assert_eq!(
        message(update(&|s| s.optional_string = None).await),
        "ImmutableType.testdata.kubebuilder.io \"i\" is invalid: spec: Invalid value: field optionalString is immutable once set"
    );
    // Unset optional fields may be set once; mutable fields change freely.
    let updated = update(&|s| {
        s.optional_literal_string = Some("set".into());
        s.mutable_string = "changed".into();
    })
    .await
    .expect("setting an unset immutable field and changing a mutable one");
    assert_eq!(updated.object.metadata.generation, 2);
}
