//! The API server on etcd (issue 30), each figure beside a raw
//! etcd-client baseline measured in the same run on the same throw-away
//! etcd (Debian's `etcd-server`, one member on loopback):
//!
//! - **throughput through HTTP**: sequential creates, gets and lists of a
//!   100-object page over one loopback keep-alive connection, against raw
//!   `put`s, `get`s and ranged gets (`limit 100`) of the same bytes
//!   (goal: the server ≥ 0.5× raw);
//! - **a page of 500 as the collection grows** to 1,000, 10,000 and
//!   100,000 objects (written straight into etcd in transactions of 128
//!   puts, in the server's own key layout and value format): the first
//!   page and the page after it through HTTP, against a raw ranged get of
//!   500 (goal: flat, not growing with the total);
//! - **watch latency across replicas**: two servers over one etcd prefix,
//!   a create through replica A, the time until a watcher on A and a
//!   watcher on B have decoded its event, against a raw put seen by a raw
//!   watch on another client (p50, p99);
//! - **memory with 100,000 objects**: a fresh process (this program, run
//!   again as a child) serving one replica with the garbage collector
//!   (whose graph holds every object, as kube-controller-manager's does)
//!   over the 100,000 objects, its `VmRSS` once the collector has synced,
//!   after a client read them all in pages of 500, and its peak (`VmHWM`)
//!   after one unpaged list of all of them; the same child over an empty
//!   prefix is the baseline.
//!
//! Run: `cargo bench -p api-server --features test-etcd --bench etcd`
//! (needs `etcd` on the PATH; about two minutes). Without `--bench` (as
//! `cargo test --benches` runs it) every phase runs briefly with small
//! counts, as a smoke test. BENCHMARKS.md section 17 records results.

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use api_etcd::EtcdConfig;
use api_etcd::testing::EtcdServer;
use api_server::ApiServer;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use etcd_client::{Client as Raw, GetOptions, Txn, TxnOp, WatchOptions};
use serde_json::{Value, json};
use support::{COUNTERS, Client, counter};
use tower::ServiceExt;

/// The environment variable that makes this program the memory child
/// (its value: `ENDPOINT PREFIX`).
const CHILD_ENV: &str = "API_ETCD_BENCH_CHILD";

/// Where the servers keep their objects in etcd.
const PREFIX: &str = "/registry";

/// Where the bulk objects are: their own namespace.
const BULK_NAMESPACE: &str = "bulk";

struct Config {
    /// Creates, gets (and lists of 100) in the throughput phase.
    operations: usize,
    /// Collection sizes the page of 500 is read at.
    stages: &'static [usize],
    /// Pages read at each stage, each way.
    page_reads: usize,
    /// Writes whose watch latency is measured.
    watched_writes: usize,
}

const FULL: Config = Config {
    operations: 1_000,
    stages: &[1_000, 10_000, 100_000],
    page_reads: 20,
    watched_writes: 200,
};

const SMOKE: Config = Config {
    operations: 30,
    stages: &[600, 1_100],
    page_reads: 2,
    watched_writes: 5,
};

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    if let Ok(child) = std::env::var(CHILD_ENV) {
        runtime.block_on(memory_child(&child));
        return;
    }
    let full = std::env::args().any(|a| a == "--bench");
    let Some(etcd) = EtcdServer::start_or_skip("the etcd benchmark") else {
        return;
    };
    println!(
        "api-server on etcd ({} mode), etcd at {}",
        if full { "bench" } else { "smoke" },
        etcd.endpoint()
    );
    runtime.block_on(run(&etcd, if full { &FULL } else { &SMOKE }));
}

async fn run(etcd: &EtcdServer, config: &Config) {
    let mut raw = Raw::connect([etcd.endpoint()], None)
        .await
        .expect("etcd answers");
    let a = replica(etcd).await;
    let b = replica(etcd).await;

    throughput(&mut raw, &a, config).await;
    watch_latency(&mut raw, &a, &b, config).await;
    let template = stored_template(&mut raw, &a).await;
    paging(&mut raw, &a, &template, config).await;
    memory(etcd, *config.stages.last().expect("a stage")).await;
}

/// A server over `Counter`s on `etcd` (no controllers), serving on a
/// loopback port; a client of it.
async fn replica(etcd: &EtcdServer) -> Client {
    let storage = connect(etcd.endpoint(), PREFIX).await;
    let server = support::counters(ApiServer::builder().storage(Arc::new(storage)));
    let (addr, _task) = support::start(server).await;
    Client::new(addr)
}

/// An `EtcdStorage` with the default request timeout (the test helper's
/// is 2 s, short for a list of 100,000).
async fn connect(endpoint: String, prefix: &str) -> api_etcd::EtcdStorage {
    api_etcd::EtcdStorage::connect(EtcdConfig::new([endpoint]).prefix(prefix))
        .await
        .expect("etcd answers")
}

fn per_second(n: usize, elapsed: Duration) -> f64 {
    n as f64 / elapsed.as_secs_f64()
}

fn rate_line(what: &str, raw: f64, server: f64) {
    println!(
        "{what:<30} raw etcd {raw:>8.0}/s   server (HTTP) {server:>8.0}/s   server/raw {:.2}",
        server / raw
    );
}

/// The key the server keeps `Counter` `name` of `namespace` under.
fn counter_key(namespace: &str, name: &str) -> String {
    format!("{PREFIX}/example.com/counters/{namespace}/{name}")
}

async fn throughput(raw: &mut Raw, server: &Client, config: &Config) {
    let n = config.operations;
    // One object created first gives the bytes the raw client writes: the
    // object as the server stores it (metadata and all).
    let created = server.post(COUNTERS, &counter("t-template", 0)).await;
    assert_eq!(created.code, StatusCode::CREATED);
    let bytes = created.body.to_vec();

    let start = Instant::now();
    for i in 0..n {
        raw.put(format!("/raw/counters/t{i:05}"), bytes.clone(), None)
            .await
            .expect("raw put");
    }
    let raw_creates = per_second(n, start.elapsed());
    let start = Instant::now();
    for i in 0..n {
        let answer = server
            .post(COUNTERS, &counter(&format!("t{i:05}"), i as i64))
            .await;
        assert_eq!(answer.code, StatusCode::CREATED);
    }
    rate_line("create", raw_creates, per_second(n, start.elapsed()));
    let stored = raw
        .get(counter_key("default", "t00000"), None)
        .await
        .expect("raw get");
    assert_eq!(
        stored.kvs().len(),
        1,
        "the server's key layout is {PREFIX}/group/plural/namespace/name"
    );

    let start = Instant::now();
    for i in 0..n {
        raw.get(format!("/raw/counters/t{i:05}"), None)
            .await
            .expect("raw get");
    }
    let raw_gets = per_second(n, start.elapsed());
    let start = Instant::now();
    for i in 0..n {
        let answer = server.get(&format!("{COUNTERS}/t{i:05}")).await;
        assert_eq!(answer.code, StatusCode::OK);
    }
    rate_line("get", raw_gets, per_second(n, start.elapsed()));

    let lists = (n / 10).max(2);
    let start = Instant::now();
    for _ in 0..lists {
        let page = raw
            .get(
                "/raw/counters/",
                Some(GetOptions::new().with_prefix().with_limit(100)),
            )
            .await
            .expect("raw list");
        assert_eq!(page.kvs().len(), 100.min(n));
    }
    let raw_lists = per_second(lists, start.elapsed());
    let start = Instant::now();
    for _ in 0..lists {
        let answer = server.get(&format!("{COUNTERS}?limit=100")).await;
        assert_eq!(answer.code, StatusCode::OK);
    }
    rate_line(
        "list (a page of 100)",
        raw_lists,
        per_second(lists, start.elapsed()),
    );
}

/// The `p`th percentile of `samples` (sorted here), in milliseconds.
fn percentile(samples: &mut [Duration], p: f64) -> f64 {
    samples.sort();
    let index = ((samples.len() as f64 - 1.0) * p / 100.0).round() as usize;
    samples[index].as_secs_f64() * 1e3
}

async fn watch_latency(raw: &mut Raw, a: &Client, b: &Client, config: &Config) {
    let n = config.watched_writes;
    let path = "/apis/example.com/v1/namespaces/lat/counters";
    let watch = format!("{path}?watch=true");
    // Each watcher decodes in a task of its own and reports when.
    let (to_a, mut from_a) = tokio::sync::mpsc::unbounded_channel();
    let (to_b, mut from_b) = tokio::sync::mpsc::unbounded_channel();
    for (client, to) in [(a, to_a), (b, to_b)] {
        let mut watcher = client.watch(&watch).await;
        tokio::spawn(async move {
            while let Some(event) = watcher.next().await {
                if event["type"] == "ADDED" && to.send(Instant::now()).is_err() {
                    return;
                }
            }
        });
    }
    let (mut same, mut across) = (Vec::new(), Vec::new());
    for i in 0..n {
        let start = Instant::now();
        let answer = a.post(path, &counter(&format!("l{i:04}"), 0)).await;
        assert_eq!(answer.code, StatusCode::CREATED);
        let seen_a = from_a.recv().await.expect("the watcher on A");
        let seen_b = from_b.recv().await.expect("the watcher on B");
        same.push(seen_a - start);
        across.push(seen_b - start);
    }

    // Raw: a put by one client, seen by a watch of another.
    let mut watcher_client = raw.clone();
    let mut stream = watcher_client
        .watch("/rawlat/", Some(WatchOptions::new().with_prefix()))
        .await
        .expect("raw watch");
    let mut plain = Vec::new();
    for i in 0..n {
        let start = Instant::now();
        raw.put(format!("/rawlat/l{i:04}"), b"{}".to_vec(), None)
            .await
            .expect("raw put");
        loop {
            let response = stream
                .message()
                .await
                .expect("the raw watch")
                .expect("open");
            if !response.events().is_empty() {
                break;
            }
        }
        plain.push(start.elapsed());
    }
    let raw50 = percentile(&mut plain, 50.0);
    let raw99 = percentile(&mut plain, 99.0);
    for (what, samples) in [
        ("write on A, watch on A", &mut same),
        ("write on A, watch on B", &mut across),
    ] {
        let p50 = percentile(samples, 50.0);
        let p99 = percentile(samples, 99.0);
        println!(
            "{what:<30} p50 {p50:>6.2} ms  p99 {p99:>6.2} ms   raw put→watch p50 {raw50:.2} ms  p99 {raw99:.2} ms   ratio p50 {:.2}",
            p50 / raw50
        );
    }
}

/// One stored `Counter` (as the server wrote it) to copy the bulk objects
/// from.
async fn stored_template(raw: &mut Raw, server: &Client) -> Value {
    let created = server.post(COUNTERS, &counter("bulk-template", 7)).await;
    assert_eq!(created.code, StatusCode::CREATED);
    let stored = raw
        .get(counter_key("default", "bulk-template"), None)
        .await
        .expect("raw get");
    serde_json::from_slice(stored.kvs()[0].value()).expect("stored JSON")
}

/// Writes bulk objects `from..to` straight into etcd, 128 puts a
/// transaction (etcd's default `--max-txn-ops`).
async fn load(raw: &mut Raw, template: &Value, from: usize, to: usize) {
    let mut i = from;
    while i < to {
        let end = (i + 128).min(to);
        let ops: Vec<TxnOp> = (i..end)
            .map(|i| {
                let name = format!("b{i:06}");
                let mut object = template.clone();
                object["metadata"]["name"] = json!(name);
                object["metadata"]["namespace"] = json!(BULK_NAMESPACE);
                object["metadata"]["uid"] = json!(format!("00000000-0000-4000-8000-{i:012}"));
                object["spec"]["value"] = json!(i);
                TxnOp::put(
                    counter_key(BULK_NAMESPACE, &name),
                    serde_json::to_vec(&object).expect("JSON"),
                    None,
                )
            })
            .collect();
        raw.txn(Txn::new().and_then(ops)).await.expect("a txn");
        i = end;
    }
}

async fn paging(raw: &mut Raw, server: &Client, template: &Value, config: &Config) {
    let collection = format!("/apis/example.com/v1/namespaces/{BULK_NAMESPACE}/counters");
    let prefix = format!("{PREFIX}/example.com/counters/{BULK_NAMESPACE}/");
    let mut loaded = 0;
    for &total in config.stages {
        let start = Instant::now();
        load(raw, template, loaded, total).await;
        let load_time = start.elapsed();
        loaded = total;

        let start = Instant::now();
        for _ in 0..config.page_reads {
            let page = raw
                .get(
                    prefix.as_str(),
                    Some(GetOptions::new().with_prefix().with_limit(500)),
                )
                .await
                .expect("raw page");
            assert_eq!(page.kvs().len(), 500);
        }
        let raw_page = start.elapsed() / config.page_reads as u32;

        let (mut first, mut second) = (Duration::ZERO, Duration::ZERO);
        for _ in 0..config.page_reads {
            let start = Instant::now();
            let page = server.get(&format!("{collection}?limit=500")).await;
            first += start.elapsed();
            let page = page.json();
            assert_eq!(page["items"].as_array().map(Vec::len), Some(500));
            let token = page["metadata"]["continue"]
                .as_str()
                .expect("a continue token")
                .to_string();
            let start = Instant::now();
            let next = server
                .get(&format!("{collection}?limit=500&continue={token}"))
                .await;
            second += start.elapsed();
            assert_eq!(next.code, StatusCode::OK);
        }
        let reads = config.page_reads as u32;
        let (first, second) = (first / reads, second / reads);
        println!(
            "page of 500 of {total:>7}: raw {:>6.2} ms   server first page {:>6.2} ms, next page {:>6.2} ms   server/raw time {:.2}   (loaded in {:.1} s)",
            ms(raw_page),
            ms(first),
            ms(second),
            first.as_secs_f64() / raw_page.as_secs_f64(),
            load_time.as_secs_f64()
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs this program as the memory child over `prefix` (the bulk objects,
/// or an empty one) and prints what it reports.
async fn memory(etcd: &EtcdServer, total: usize) {
    for (prefix, what) in [
        ("/empty", "0 objects".to_string()),
        (PREFIX, format!("{total} objects")),
    ] {
        let output = tokio::task::block_in_place(|| {
            std::process::Command::new(std::env::current_exe().expect("this program"))
                .env(CHILD_ENV, format!("{} {prefix}", etcd.endpoint()))
                .output()
        })
        .expect("the child runs");
        assert!(
            output.status.success(),
            "the memory child failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report = String::from_utf8_lossy(&output.stdout);
        println!("memory, one replica with the collector over {what}: {report}");
    }
}

/// `VmRSS` and `VmHWM` of this process, in MiB.
fn memory_now() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

async fn call(
    router: &axum::Router,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .expect("a request");
    let response = router.clone().oneshot(request).await.expect("an answer");
    let code = response.status().as_u16();
    let bytes = to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// The memory child: one replica with the garbage collector over
/// `ENDPOINT PREFIX`, in process (no socket), reporting on one line.
async fn memory_child(spec: &str) {
    let (endpoint, prefix) = spec.split_once(' ').expect("ENDPOINT PREFIX");
    let storage = connect(endpoint.to_string(), prefix).await;
    let (before, _) = memory_now();
    let start = Instant::now();
    let server = support::counters(
        ApiServer::builder()
            .storage(Arc::new(storage))
            .garbage_collector(),
    );
    let router = server.router();
    let _controllers = server.start_controllers();
    // Synced once a dependent of a missing owner, created now, is
    // collected: the collector's watch delivers it after its list.
    let probe = json!({"apiVersion": "example.com/v1", "kind": "Counter",
        "metadata": {"name": "probe", "ownerReferences": [{"apiVersion": "example.com/v1",
            "kind": "Counter", "name": "never", "uid": "never-there"}]},
        "spec": {"value": 0}});
    let (code, answer) = call(&router, "POST", COUNTERS, Some(probe)).await;
    assert_eq!(code, 201, "{answer}");
    loop {
        let (code, _) = call(&router, "GET", &format!("{COUNTERS}/probe"), None).await;
        if code == 404 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let synced_in = start.elapsed();
    let (synced, _) = memory_now();

    let collection = format!("/apis/example.com/v1/namespaces/{BULK_NAMESPACE}/counters");
    let start = Instant::now();
    let mut read = 0;
    let mut path = format!("{collection}?limit=500");
    loop {
        let (code, page) = call(&router, "GET", &path, None).await;
        assert_eq!(code, 200, "{page}");
        read += page["items"].as_array().map_or(0, Vec::len);
        match page["metadata"]["continue"].as_str() {
            Some(token) if !token.is_empty() => {
                path = format!("{collection}?limit=500&continue={token}");
            }
            _ => break,
        }
    }
    let paged_in = start.elapsed();
    let (after_pages, _) = memory_now();
    // The unpaged list's body is only measured, not decoded: a decoded
    // copy would be this client's memory, not the server's.
    let start = Instant::now();
    let request = Request::builder()
        .uri(collection.as_str())
        .body(Body::empty())
        .expect("a request");
    let response = router.clone().oneshot(request).await.expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    let body = to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    let unpaged = body.len() as f64 / (1024.0 * 1024.0);
    drop(body);
    let unpaged_in = start.elapsed();
    let (after_unpaged, peak) = memory_now();
    print!(
        "RSS {before:.0} MiB before the server, {synced:.0} MiB once the collector synced ({:.1} s), \
         {after_pages:.0} MiB after reading {read} in pages of 500 ({:.1} s), \
         {after_unpaged:.0} MiB after one unpaged list of all ({unpaged:.0} MiB of JSON, {:.1} s; peak VmHWM {peak:.0} MiB)",
        synced_in.as_secs_f64(),
        paged_in.as_secs_f64(),
        unpaged_in.as_secs_f64(),
    );
}
