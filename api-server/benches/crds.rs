//! CustomResourceDefinitions at run time (issue 31), in process (the
//! server's router as a tower service, no socket), each figure beside its
//! baseline in the same run:
//!
//! - **CRD create → `Established` → first served request**: a CRD POSTed,
//!   then its collection requested until it answers 200 (the CRD
//!   controller accepts the names, serves the version and marks the CRD
//!   established in between); p50/p99 over fresh CRDs (goal < 10 ms);
//! - **a kind served from its CRD vs from its Rust type**: the same
//!   `Counter` kind, one server serving the derived type
//!   (`ServerBuilder::resource`), the other its CRD (`Counter::crd()`)
//!   installed at run time (a `Registry<DynamicObject>` with the CRD's
//!   schema); CREATE and GET of the same bodies, the two servers in
//!   interleaved rounds (goal: the CRD ≥ 0.8× the Rust type).
//!
//! Run: `cargo bench -p api-server --bench crds` (about 20 s). Without
//! `--bench` (as `cargo test --benches` runs it) it runs briefly as a
//! smoke test. BENCHMARKS.md section 18 records results.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use api_server::ApiServer;
use axum::http::Method;
use serde_json::{Value, json};
use support::{COUNTERS, Counter};

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

struct Config {
    /// CRDs created and timed to their first request.
    crds: usize,
    /// Rounds of creates and gets (each server in turn).
    rounds: usize,
    /// Creates (and as many gets) per server per round.
    per_round: usize,
}

const FULL: Config = Config {
    crds: 200,
    rounds: 10,
    per_round: 500,
};

const SMOKE: Config = Config {
    crds: 3,
    rounds: 1,
    per_round: 10,
};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() as f64 - 1.0) * p / 100.0).round() as usize]
}

/// A fresh CRD, `widgets{i}.bench{i}.example.com` (a group of its own, so
/// that discovery grows as on a cluster with many CRDs).
fn crd(i: usize) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("widgets.bench{i}.example.com")},
        "spec": {
            "group": format!("bench{i}.example.com"), "scope": "Namespaced",
            "names": {"plural": "widgets", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "size": {"type": "integer", "default": 1}}}}}}}]
        }
    })
}

async fn establishing(config: &Config) {
    let server = ApiServer::builder()
        .with_custom_resource_definitions()
        .build();
    let router = server.router();
    let _controllers = server.start_controllers();
    let mut samples = Vec::with_capacity(config.crds);
    for i in 0..config.crds {
        let body = crd(i).to_string().into_bytes();
        let path = format!("/apis/bench{i}.example.com/v1/namespaces/default/widgets");
        let start = Instant::now();
        let (code, answer) = support::oneshot_bytes(&router, Method::POST, CRDS, body).await;
        assert_eq!(code, 201, "{}", String::from_utf8_lossy(&answer));
        loop {
            let (code, _) = support::oneshot_bytes(&router, Method::GET, &path, Vec::new()).await;
            if code == 200 {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "never served");
            tokio::task::yield_now().await;
        }
        samples.push(start.elapsed());
    }
    let first = samples[0];
    let p50 = percentile(&mut samples, 50.0);
    let p99 = percentile(&mut samples, 99.0);
    println!(
        "CRD create -> first served request ({} CRDs, each a group of its own): p50 {:.2} ms, p99 {:.2} ms, first {:.2} ms",
        config.crds,
        ms(p50),
        ms(p99),
        ms(first)
    );
}

/// A Counter body (the same bytes for both servers).
fn body(name: &str, value: u64) -> Vec<u8> {
    format!(
        r#"{{"apiVersion":"example.com/v1","kind":"Counter","metadata":{{"name":"{name}","labels":{{"app":"bench"}}}},"spec":{{"value":{value},"note":"a counter of the CRD benchmark"}}}}"#
    )
    .into_bytes()
}

async fn typed_and_crd(config: &Config) {
    let typed = support::counters(ApiServer::builder());
    let typed_router = typed.router();
    let dynamic = ApiServer::builder()
        .with_custom_resource_definitions()
        .build();
    let dynamic_router = dynamic.router();
    let _controllers = dynamic.start_controllers();
    dynamic
        .install_crd(&Counter::crd().to_json())
        .await
        .expect("the Counter CRD");
    let start = Instant::now();
    while support::oneshot_bytes(&dynamic_router, Method::GET, COUNTERS, Vec::new())
        .await
        .0
        != 200
    {
        assert!(start.elapsed() < Duration::from_secs(10), "never served");
        tokio::task::yield_now().await;
    }
    // Both servers' answers are the same shape.
    let (code, a) =
        support::oneshot_bytes(&typed_router, Method::POST, COUNTERS, body("probe", 1)).await;
    let (code2, b) =
        support::oneshot_bytes(&dynamic_router, Method::POST, COUNTERS, body("probe", 1)).await;
    assert_eq!((code, code2), (201, 201));
    let (a, b): (Value, Value) = (
        serde_json::from_slice(&a).unwrap(),
        serde_json::from_slice(&b).unwrap(),
    );
    assert_eq!(a["spec"], b["spec"]);

    let mut time = [[Duration::ZERO; 2]; 2]; // [server][create, get]
    let mut next = 0u64;
    for _ in 0..config.rounds {
        for (s, router) in [&typed_router, &dynamic_router].into_iter().enumerate() {
            let first = next;
            let start = Instant::now();
            for i in first..first + config.per_round as u64 {
                let (code, _) = support::oneshot_bytes(
                    router,
                    Method::POST,
                    COUNTERS,
                    body(&format!("c{i}"), i),
                )
                .await;
                assert_eq!(code, 201);
            }
            time[s][0] += start.elapsed();
            let start = Instant::now();
            for i in first..first + config.per_round as u64 {
                let (code, _) = support::oneshot_bytes(
                    router,
                    Method::GET,
                    &format!("{COUNTERS}/c{i}"),
                    Vec::new(),
                )
                .await;
                assert_eq!(code, 200);
            }
            time[s][1] += start.elapsed();
        }
        next += config.per_round as u64;
    }
    let n = (config.rounds * config.per_round) as f64;
    for (op, what) in ["create", "get"].iter().enumerate() {
        let typed_rate = n / time[0][op].as_secs_f64();
        let crd_rate = n / time[1][op].as_secs_f64();
        println!(
            "{what:<7} Rust type {typed_rate:>8.0}/s   CRD {crd_rate:>8.0}/s   CRD/type {:.2}",
            crd_rate / typed_rate
        );
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let config = if full { &FULL } else { &SMOKE };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!(
        "CRDs at run time, in process ({} mode)",
        if full { "bench" } else { "smoke" }
    );
    runtime.block_on(async {
        establishing(config).await;
        typed_and_crd(config).await;
    });
}
