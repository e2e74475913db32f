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
//! be exactly [`KNOWN_GAPS`] (each with its reason; empty, as both CRDs are
//! reproduced exactly), so a fix in the library makes this test fail until
//! its gap is removed.

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

#[path = "gateway_api/gateway.rs"]
mod gateway;

/// A difference from a corpus file that is a known library gap.
struct KnownGap {
    /// The corpus file, relative to `../shared/corpus`.
    file: &'static str,
    /// The difference, exactly as printed (`path: ...`).
    diff: &'static str,
    /// Why it differs, in one line.
    reason: &'static str,
}

/// Every known difference of both CRDs (none: both are reproduced exactly).
/// A new difference fails the test, and so does an entry that no longer
/// differs.
const KNOWN_GAPS: &[KnownGap] = &[];

/// The single document of a corpus file as JSON.
fn corpus_crd(file: &str) -> Option<Value> {
    let text = corpus::corpus_file(file)?;
    let mut docs = yaml_to_json(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(docs.len(), 1, "{file}: expected exactly one YAML document");
    Some(docs.remove(0))
}

/// Compares `crd` with the corpus file node by node, prints every
/// difference with its path, and asserts that the differences are exactly
/// the file's [`KNOWN_GAPS`]. The generated CRD must pass the structural checker
/// either way; the comparison is skipped (with a note) without the corpus.
fn assert_reproduces(file: &str, crd: &CustomResourceDefinition) {
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
    let (report, unexplained) = against_gaps(file, &diffs, KNOWN_GAPS);
    eprintln!("{report}");
    assert!(
        unexplained.is_empty(),
        "{file}:\n{}",
        unexplained.join("\n")
    );
}

/// Matches the differences of `file` with its entries in `gaps`: a report
/// of every difference (with its reason, when it is a known gap), and what
/// does not match: differences that are no known gap, and gaps that are no
/// longer seen.
fn against_gaps(file: &str, diffs: &[String], gaps: &[KnownGap]) -> (String, Vec<String>) {
    let gaps: Vec<&KnownGap> = gaps.iter().filter(|g| g.file == file).collect();
    let mut report = format!("{file}: {} difference(s)", diffs.len());
    let mut unexplained = Vec::new();
    for d in diffs {
        match gaps.iter().find(|g| g.diff == d) {
            Some(g) => report.push_str(&format!("\n  {d}\n    known gap: {}", g.reason)),
            None => {
                report.push_str(&format!("\n  {d}\n    not a known gap"));
                unexplained.push(format!("unexpected difference: {d}"));
            }
        }
    }
    for g in gaps.iter().filter(|g| !diffs.iter().any(|d| d == g.diff)) {
        unexplained.push(format!("known gap no longer seen (remove it): {}", g.diff));
    }
    (report, unexplained)
}

/// The bookkeeping itself: a difference that is no gap and a gap that is
/// no difference both fail; gaps of other files do not count.
#[test]
fn gaps_must_match_the_differences_exactly() {
    let gaps = [
        KnownGap {
            file: "a.yaml",
            diff: "x: only in the file: 1",
            reason: "why",
        },
        KnownGap {
            file: "a.yaml",
            diff: "y: only in the file: 2",
            reason: "why not",
        },
        KnownGap {
            file: "b.yaml",
            diff: "z: only in the file: 3",
            reason: "another file",
        },
    ];
    let diffs = [
        "x: only in the file: 1".to_string(),
        "w: generated 1, the file has 2".to_string(),
    ];
    let (report, unexplained) = against_gaps("a.yaml", &diffs, &gaps);
    assert_eq!(
        report,
        "a.yaml: 2 difference(s)\n  x: only in the file: 1\n    known gap: why\n  w: generated 1, the file has 2\n    not a known gap"
    );
    assert_eq!(
        unexplained,
        [
            "unexpected difference: w: generated 1, the file has 2",
            "known gap no longer seen (remove it): y: only in the file: 2",
        ]
    );
    let (_, none) = against_gaps("a.yaml", &diffs[..1], &gaps[..1]);
    assert!(none.is_empty());
}

#[test]
fn grpcroutes() {
    assert_reproduces(
        "gateway-api/gateway.networking.k8s.io_grpcroutes.yaml",
        &grpcroute::GRPCRoute::crd(),
    );
}

#[test]
fn gateways() {
    use api_core::conversion::Versions;
    // v1 (the storage version) is the hub; v1beta1 has the same shape, so
    // the merged CRD needs no conversion webhook, as in the file.
    let versions = Versions::<gateway::v1::Gateway>::new().version::<gateway::v1beta1::Gateway>();
    let crd = versions.crd().expect("the two versions merge");
    assert!(versions.warnings().is_empty(), "{:?}", versions.warnings());
    assert_reproduces("gateway-api/gateway.networking.k8s.io_gateways.yaml", &crd);
}

/// Both versions' CRDs merge into the same CRD the conversion graph gives,
/// a Gateway survives `v1beta1 -> v1 -> v1beta1`, and a list of either
/// version is `GatewayList`.
#[test]
fn gateway_versions_round_trip() {
    use api_core::conversion::assert_lossless;
    use gateway::{v1, v1beta1};
    let merged = api_core::crd::merge([v1::Gateway::crd(), v1beta1::Gateway::crd()])
        .expect("the two versions merge");
    let graph = api_core::conversion::Versions::<v1::Gateway>::new()
        .version::<v1beta1::Gateway>()
        .crd()
        .expect("the two versions merge");
    assert_eq!(merged, graph);

    let spec: v1beta1::GatewaySpec = serde_json::from_value(serde_json::json!({
        "gatewayClassName": "example",
        "listeners": [{"name": "https", "port": 443, "protocol": "HTTPS",
                       "tls": {"certificateRefs": [{"name": "cert"}]}}],
        "addresses": [{"value": "10.0.0.1"}]
    }))
    .expect("a v1beta1 Gateway spec");
    let gateway = v1beta1::Gateway::new("g", spec);
    assert_lossless::<v1beta1::Gateway, v1::Gateway>([gateway.clone()]);
    let list: v1::GatewayList = [v1::Gateway::from(gateway)].into_iter().collect();
    assert_eq!(list.items.len(), 1);
    let empty = v1beta1::GatewayList::default();
    assert!(empty.items.is_empty());
}

/// The Go markers' defaults are applied as the apiserver applies them: a
/// listener's `allowedRoutes`, a certificate reference's `group` and
/// `kind`, an address' `type`, and the status of a new Gateway.
#[test]
fn gateway_defaults() {
    use api_core::decode::{DecodeOptions, decode};
    use gateway::v1;
    let body = br#"{
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "Gateway",
        "metadata": {"name": "g"},
        "spec": {
            "gatewayClassName": "example",
            "listeners": [{"name": "https", "port": 443, "protocol": "HTTPS",
                           "tls": {"certificateRefs": [{"name": "cert"}]}}],
            "addresses": [{"value": "10.0.0.1"}]
        }
    }"#;
    let decoded = decode::<v1::Gateway>(body, &DecodeOptions::default()).expect("valid");
    let value = serde_json::to_value(&decoded.object).unwrap();
    let listener = &value["spec"]["listeners"][0];
    assert_eq!(
        listener["allowedRoutes"],
        serde_json::json!({"namespaces": {"from": "Same"}})
    );
    assert_eq!(
        listener["tls"],
        serde_json::json!({"mode": "Terminate", "certificateRefs": [{"group": "", "kind": "Secret", "name": "cert"}]})
    );
    assert_eq!(value["spec"]["addresses"][0]["type"], "IPAddress");
    let status = decoded.object.status.as_ref().expect("status defaulted");
    assert_eq!(status.conditions, gateway::pending_conditions());

    // A new object built in Rust gets the same status.
    let mut fresh = v1::Gateway::new(
        "g",
        v1::GatewaySpec {
            gateway_class_name: shared::ObjectName("example".into()),
            listeners: Vec::new(),
            addresses: Vec::new(),
            infrastructure: None,
            allowed_listeners: None,
            tls: None,
        },
    );
    api_core::ApiType::apply_defaults(&mut fresh);
    assert_eq!(fresh.status, Some(gateway::pending_status()));
}

/// The Gateway API's own example Gateways (the valid and invalid fixtures
/// apiextensions-apiserver's ratcheting integration test applies, kept in
/// `gateway_api/examples/`) decoded as the apiserver would admit them:
/// every valid one passes the schema and its `x-kubernetes-validations`
/// rules; every invalid one is a 422 naming the rule or keyword it breaks.
#[test]
fn gateway_rules_on_real_objects() {
    use api_core::decode::{DecodeOptions, decode};
    use gateway::v1beta1;
    let docs = |text: &'static str| api_core::crd::yaml_to_json(text).expect("a YAML stream");
    let source = |doc: &Value| {
        doc["metadata"]["annotations"]["source"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let valid = docs(include_str!("gateway_api/examples/valid.yaml"));
    assert_eq!(valid.len(), 13);
    for doc in &valid {
        let body = serde_json::to_vec(doc).unwrap();
        if let Err(e) = decode::<v1beta1::Gateway>(&body, &DecodeOptions::default()) {
            panic!("{}: {}", source(doc), e.message);
        }
    }
    let invalid = docs(include_str!("gateway_api/examples/invalid.yaml"));
    let mut got = Vec::new();
    for doc in &invalid {
        let body = serde_json::to_vec(doc).unwrap();
        let err =
            decode::<v1beta1::Gateway>(&body, &DecodeOptions::default()).expect_err(&source(doc));
        assert_eq!(err.code, 422, "{}: {}", source(doc), err.message);
        got.push(format!("{}: {}", source(doc), err.message));
    }
    let hostname = r"^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
    let expected = [
        // The list-map key and the rule say it twice, as the apiserver does.
        r#"invalid/gateway/duplicate-listeners.yaml: Gateway.gateway.networking.k8s.io "duplicate-listeners" is invalid: [spec.listeners[1]: Duplicate value: {"name":"same"}, spec.listeners: Invalid value: Listener name must be unique within the Gateway]"#.to_string(),
        r#"invalid/gateway/hostname-tcp.yaml: Gateway.gateway.networking.k8s.io "hostname-tcp" is invalid: spec.listeners: Invalid value: hostname must not be specified for protocols ['TCP', 'UDP']"#.to_string(),
        r#"invalid/gateway/hostname-udp.yaml: Gateway.gateway.networking.k8s.io "hostname-udp" is invalid: spec.listeners: Invalid value: hostname must not be specified for protocols ['TCP', 'UDP']"#.to_string(),
        // Only `foo.com:80` breaks a rule of this Gateway API version: its
        // addresses' IP values are no longer checked by a rule.
        format!(r#"invalid/gateway/invalid-addresses.yaml: Gateway.gateway.networking.k8s.io "invalid-addresses" is invalid: spec.addresses[9]: Invalid value: Hostname value must be empty or contain only valid characters (matching {hostname})"#),
        r#"invalid/gateway/invalid-listener-name.yaml: Gateway.gateway.networking.k8s.io "invalid-listener-name" is invalid: spec.listeners[0].name: Invalid value: "bad>": spec.listeners[0].name in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'"#.to_string(),
        r#"invalid/gateway/invalid-listener-port.yaml: Gateway.gateway.networking.k8s.io "invalid-listener-port" is invalid: spec.listeners[0].port: Invalid value: 123456789: spec.listeners[0].port in body should be less than or equal to 65535"#.to_string(),
        r#"invalid/gateway/tlsconfig-tcp.yaml: Gateway.gateway.networking.k8s.io "tlsconfig-tcp" is invalid: spec.listeners: Invalid value: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"#.to_string(),
    ];
    assert_eq!(got, expected);
}
