//! In-process expansion snapshots: what the derives generate for
//! representative inputs, pretty-printed and reviewed as insta snapshots.

use std::time::{Duration, Instant};

use crate::model::Derive;
use crate::pipeline::{expand, expand_with};

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

/// A benchmark, not a test: how much of the derive's expansion time the
/// lint passes take. Run with
/// `cargo test -p api-derive --release -- --ignored --nocapture lint_cost`.
#[test]
#[ignore = "benchmark; run explicitly"]
fn lint_cost() {
    let inputs: Vec<(Derive, syn::DeriveInput)> = (0..200)
        .flat_map(|i| {
            let spec = format!(
                r#"
                /// Spec {i}.
                #[kube(group = "bench.example.com", version = "v1", kind = "Thing{i}", namespaced,
                       status = "Thing{i}Status", printcolumn(name = "R", type = "integer", json_path = ".spec.replicas"))]
                #[serde(rename_all = "camelCase")]
                pub struct Thing{i}Spec {{
                    /// replicas.
                    #[kube(minimum = 0, maximum = 100)]
                    #[default(1)]
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub replicas: Option<i32>,
                    /// image.
                    #[kube(max_length = 256, pattern = "^[a-z]+$")]
                    pub image: String,
                    /// mode.
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub mode: Option<Mode>,
                    /// ports.
                    #[kube(list_type = "map", list_map_keys = ["name"], max_items = 8)]
                    #[serde(default, skip_serializing_if = "Vec::is_empty")]
                    pub ports: Vec<Port>,
                    /// labels.
                    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
                    pub labels: BTreeMap<String, String>,
                    /// args.
                    #[kube(max_items = 16, items(max_length = 64))]
                    #[serde(default, skip_serializing_if = "Vec::is_empty")]
                    pub args: Vec<String>,
                    /// suspend.
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub suspend: Option<bool>,
                    /// timeout.
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub timeout_seconds: Option<i64>,
                    /// template.
                    pub template: Template,
                    /// since.
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub start_time: Option<Time>,
                    /// a.
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub a: Option<String>,
                    /// b.
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub b: Option<i64>,
                }}"#
            );
            let status = format!(
                r#"
                /// Status {i}.
                #[serde(rename_all = "camelCase")]
                pub struct Thing{i}Status {{
                    /// conditions.
                    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
                    pub conditions: Conditions,
                    /// ready.
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub ready_replicas: Option<i32>,
                }}"#
            );
            [(Derive::KubeResource, spec), (Derive::ApiType, status)]
        })
        .map(|(d, s)| (d, syn::parse_str(&s).expect("bench input parses")))
        .collect();
    // Where the time goes, phase by phase.
    let (mut t_parse, mut t_lints) = (Duration::ZERO, Duration::ZERO);
    for (d, input) in &inputs {
        let mut diags = crate::lints::Diagnostics::default();
        let start = Instant::now();
        let model = crate::model::parse(input, *d, &mut diags).expect("model");
        t_parse += start.elapsed();
        let start = Instant::now();
        crate::lints::run(&model, &mut diags);
        t_lints += start.elapsed();
    }
    println!("phases: parse {t_parse:?}, lints {t_lints:?}");
    let run = |off: bool| -> Duration {
        let start = Instant::now();
        for (d, input) in &inputs {
            std::hint::black_box(expand_with(input, *d, !off));
        }
        start.elapsed()
    };
    let mut on = Vec::new();
    let mut off = Vec::new();
    let iters: usize = std::env::var("LINT_COST_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15);
    for _ in 0..iters {
        on.push(run(false));
        off.push(run(true));
    }
    on.sort();
    off.sort();
    let (on, off) = (on[on.len() / 2], off[off.len() / 2]);
    println!(
        "expansion of {} types: with lints {:?}, without {:?}; lint passes take {:.1}% of the expansion",
        inputs.len(),
        on,
        off,
        (on.as_secs_f64() - off.as_secs_f64()) / on.as_secs_f64() * 100.0
    );
}
