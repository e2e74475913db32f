//! Gateway API (kubernetes-sigs/gateway-api), standard channel: the
//! `Gateway` (served as `v1`, the storage version, and `v1beta1`) and
//! `GRPCRoute` CRDs of `../shared/corpus/gateway-api/` reproduced from Rust
//! translations of their Go types (`gateway_types.go`,
//! `grpcroute_types.go`, `shared_types.go`, `object_reference_types.go`),
//! marker by marker and doc comment by doc comment, and compared with the
//! files node by node.
//!
//! The Go sources carry Gateway API's own channel tags, which its build
//! resolves before controller-gen runs; the Rust types are the standard
//! channel: `<gateway:experimental>` fields and
//! `<gateway:experimental:description>` paragraphs are left out,
//! `<gateway:util:excludeFromCRD>` notes are plain `//` comments or left
//! out, and `<gateway:standard:validation:XValidation>` rules are
//! `validation(...)`.
//!
//! Every difference is printed with its path; the set of differences must
//! be exactly [`GRPCROUTE_GAPS`] / [`GATEWAY_GAPS`] (each with its reason),
//! so a fix in the library makes this test fail until the gap is removed.

// The doc comments are Go's verbatim (they are the CRD's descriptions):
// Go writes list items with unindented continuation lines, and indenting
// them for rustdoc would change the descriptions.
#![allow(clippy::doc_lazy_continuation)]

use api_core::crd::{CustomResourceDefinition, yaml_to_json};
use api_core::schema::structural::check_crd;
use serde_json::Value;

#[path = "common/shared.rs"]
mod corpus;

#[path = "common/json_diff.rs"]
mod json_diff;
use json_diff::json_diff;

#[path = "gateway_api/object_reference.rs"]
mod object_reference;

#[path = "gateway_api/shared.rs"]
mod shared;

#[path = "gateway_api/httproute.rs"]
mod httproute;

#[path = "gateway_api/grpcroute.rs"]
mod grpcroute;

/// Differences from `gateway.networking.k8s.io_grpcroutes.yaml` that are
/// known library gaps: (the difference as printed, why).
const GRPCROUTE_GAPS: &[(&str, &str)] = &[];

/// The single document of a corpus file as JSON.
fn corpus_crd(file: &str) -> Option<Value> {
    let text = corpus::corpus_file(file)?;
    let mut docs = yaml_to_json(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(docs.len(), 1, "{file}: expected exactly one YAML document");
    Some(docs.remove(0))
}

/// Compares `crd` with the corpus file node by node, prints every
/// difference with its path, and asserts that the differences are exactly
/// the known gaps. The generated CRD must pass the structural checker
/// either way; the comparison is skipped (with a note) without the corpus.
fn assert_reproduces(file: &str, crd: &CustomResourceDefinition, gaps: &[(&str, &str)]) {
    let generated = crd.to_json();
    let errors = check_crd(&generated);
    assert!(
        errors.is_empty(),
        "{file}: the structural checker rejects the generated CRD:\n  {}",
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n  ")
    );
    let Some(expected) = corpus_crd(file) else {
        return;
    };
    let mut diffs = Vec::new();
    json_diff("", &generated, &expected, &mut diffs);
    eprintln!("{file}: {} difference(s)", diffs.len());
    for d in &diffs {
        let reason = gaps.iter().find(|(g, _)| g == d).map(|(_, r)| *r);
        eprintln!("  {d}\n    {}", reason.unwrap_or("(not a known gap)"));
    }
    let unknown: Vec<&String> = diffs
        .iter()
        .filter(|d| !gaps.iter().any(|(g, _)| g == d))
        .collect();
    let fixed: Vec<&str> = gaps
        .iter()
        .map(|(g, _)| *g)
        .filter(|g| !diffs.iter().any(|d| d == g))
        .collect();
    assert!(
        unknown.is_empty() && fixed.is_empty(),
        "{file}: {} unexpected difference(s):\n  {}\n{} known gap(s) no longer seen (remove them):\n  {}",
        unknown.len(),
        unknown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  "),
        fixed.len(),
        fixed.join("\n  ")
    );
}

#[test]
fn grpcroutes() {
    assert_reproduces(
        "gateway-api/gateway.networking.k8s.io_grpcroutes.yaml",
        &grpcroute::GRPCRoute::crd(),
        GRPCROUTE_GAPS,
    );
}
