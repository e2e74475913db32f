//! In-process expansion snapshots: what the derives generate for
//! representative inputs, pretty-printed and reviewed as insta snapshots.

use crate::expand::expand;
use crate::model::Derive;

fn pretty(derive: Derive, input: &str) -> String {
    let input: syn::DeriveInput = syn::parse_str(input).expect("test input parses");
    let tokens = expand(&input, derive);
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(_) => tokens.to_string(),
    }
}

#[test]
fn kube_resource_memcached() {
    insta::assert_snapshot!(pretty(
        Derive::KubeResource,
        r#"
        /// MemcachedSpec is the desired state of Memcached.
        #[kube(group = "cache.example.com", version = "v1alpha1", kind = "Memcached",
               namespaced, status = "MemcachedStatus", shortname = "mc",
               printcolumn(name = "Size", type = "integer", json_path = ".spec.size"))]
        #[serde(rename_all = "camelCase")]
        pub struct MemcachedSpec {
            /// size is the number of Memcached instances.
            #[kube(minimum = 1, maximum = 3)]
            #[default(1)]
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub size: Option<i32>,
        }
        "#
    ));
}

#[test]
fn api_type_struct_enum_and_newtype() {
    insta::assert_snapshot!(pretty(
        Derive::ApiType,
        r#"
        /// Port is a named port.
        #[serde(rename_all = "camelCase")]
        #[kube(at_most_one_of = ["hostPort", "nodePort"])]
        pub struct Port {
            /// name of the port.
            #[kube(max_length = 15, pattern = "^[a-z]+$")]
            pub name: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub host_port: Option<i32>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[kube(immutable)]
            pub node_port: Option<i32>,
        }
        "#
    ));
    insta::assert_snapshot!(pretty(
        Derive::ApiType,
        r#"
        /// Policy is a string enum.
        pub enum Policy { Allow, #[serde(rename = "Deny")] Forbid }
        "#
    ));
    insta::assert_snapshot!(pretty(
        Derive::ApiType,
        r#"
        /// Source is a union.
        #[serde(rename_all = "camelCase")]
        pub enum Source { Git(GitSource), Inline { text: String } }
        "#
    ));
    insta::assert_snapshot!(pretty(
        Derive::ApiType,
        "/// A port number.\npub struct PortNumber(i32);"
    ));
}

#[test]
fn errors_are_spanned_compile_errors_not_panics() {
    for (derive, input) in [
        (Derive::KubeResource, "struct S { a: i32 }"),
        (Derive::KubeResource, "enum E { A }"),
        (Derive::ApiType, "struct S(i32, i32);"),
        (Derive::ApiType, "struct S;"),
        (Derive::ApiType, "union U { a: i32 }"),
        (Derive::ApiType, "struct S<T> { a: T }"),
        (Derive::ApiType, "enum E {}"),
        (Derive::ApiType, "#[kube(grup = \"x\")] struct S { a: i32 }"),
        (
            Derive::ApiType,
            "struct S { #[kube(minimum = \"x\")] a: i32 }",
        ),
        (
            Derive::ApiType,
            "struct S { #[kube(pattern = \"(\")] a: String }",
        ),
        (Derive::ApiType, "struct S { #[default] a: Option<i32> }"),
        (
            Derive::ApiType,
            "struct S { #[default(1, 2)] a: Option<i32> }",
        ),
        (
            Derive::ApiType,
            "#[kube(allow(no_such_lint))] struct S { a: i32 }",
        ),
        (
            Derive::ApiType,
            "#[serde(untagged)] enum E { A(i32), B(String) }",
        ),
        (Derive::ApiType, "enum E { A, B(i32) }"),
        (
            Derive::ApiType,
            "struct S { #[serde(with = \"m\")] a: i32 }",
        ),
        (Derive::ApiType, "struct S { next: Option<Box<S>> }"),
        (
            Derive::KubeResource,
            "#[kube(group = \"Bad_Group\", version = \"1\", kind = \"fooList\")] struct S { a: i32 }",
        ),
    ] {
        let input: syn::DeriveInput = syn::parse_str(input).unwrap();
        let out = expand(&input, derive).to_string();
        assert!(
            out.contains("compile_error"),
            "{input:?} gave no error:\n{out}"
        );
    }
}
