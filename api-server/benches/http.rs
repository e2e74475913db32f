//! The API server over loopback HTTP/1.1 with keep-alive, server and
//! clients in one process on a multi-thread tokio runtime, each
//! operation next to two baselines measured in the same run:
//!
//! - **bare**: an axum handler that reads the request body and answers
//!   the very bytes the API server answered (the floor of axum + hyper +
//!   the client);
//! - **serde**: an axum handler that decodes (`serde_json::Value`) and
//!   encodes the same object: for GET and LIST the stored bytes, for
//!   CREATE and UPDATE the request body (a JSON server with no API
//!   semantics).
//!
//! Measured: GET one object, LIST 100, CREATE, UPDATE (throughput and
//! p50/p99 latency, 1 and 4 concurrent keep-alive connections; the three
//! servers in 5 interleaved rounds of 0.4 s after a warm-up); watch
//! fan-out (one update, 100 watchers over HTTP, time until every watcher
//! decoded it); RSS per 10,000 stored objects (`VmRSS` of
//! `/proc/self/status`); server start (builder → build → first
//! successful in-process GET).
//!
//! A plain program (`harness = false`, no criterion): criterion times
//! closures and reports means of batches, not per-request percentiles,
//! and has no place for RSS or for a one-shot start.
//!
//! Run: `cargo bench -p api-server --bench http` (about a minute).
//! Without `--bench` (as `cargo test --benches` runs it) every phase runs
//! briefly, as a smoke test. BENCHMARKS.md section 10 records results.

#[path = "../tests/support/mod.rs"]
mod support;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use axum::body::Bytes;
use axum::http::{Method, StatusCode, header};
use serde_json::Value;
use support::{Client, Counter};

/// How long each phase runs.
struct Config {
    measure: Duration,
    warmup: Duration,
    /// Interleaved rounds `measure` is split into.
    rounds: usize,
    fanout_repetitions: usize,
    memory_objects: usize,
    start_repetitions: usize,
}

const FULL: Config = Config {
    measure: Duration::from_secs(2),
    warmup: Duration::from_millis(300),
    rounds: 5,
    fanout_repetitions: 200,
    memory_objects: 10_000,
    start_repetitions: 30,
};

const SMOKE: Config = Config {
    measure: Duration::from_millis(50),
    warmup: Duration::from_millis(10),
    rounds: 1,
    fanout_repetitions: 3,
    memory_objects: 200,
    start_repetitions: 2,
};

const WATCHERS: usize = 100;
const LISTED: usize = 100;

fn collection(namespace: &str) -> String {
    format!("/apis/example.com/v1/namespaces/{namespace}/counters")
}

/// A Counter of realistic size (labels, an annotation, a note), written
/// with `format!` so that the client's cost is the same for every server.
fn body(name: &str, value: u64, resource_version: Option<&str>) -> Vec<u8> {
    let rv = resource_version
        .map(|rv| format!(r#","resourceVersion":"{rv}""#))
        .unwrap_or_default();
    format!(
        r#"{{"apiVersion":"example.com/v1","kind":"Counter","metadata":{{"name":"{name}","labels":{{"app":"bench","tier":"backend"}},"annotations":{{"example.com/owner":"team-a"}}{rv}}},"spec":{{"value":{value},"note":"a counter of the loopback benchmark"}}}}"#
    )
    .into_bytes()
}

/// `metadata.resourceVersion` found in compact JSON without decoding it.
fn find_rv(json: &[u8]) -> Option<String> {
    let key = br#""resourceVersion":""#;
    let start = json.windows(key.len()).position(|w| w == key)? + key.len();
    let end = json[start..].iter().position(|b| *b == b'"')? + start;
    Some(String::from_utf8_lossy(&json[start..end]).into_owned())
}

/// One request kind, run in a loop by each connection's task.
trait Op: Send + 'static {
    fn call(&mut self, i: u64) -> impl Future<Output = ()> + Send + '_;
}

struct Get {
    client: Client,
    path: String,
}

impl Op for Get {
    async fn call(&mut self, _: u64) {
        let answer = self.client.get(&self.path).await;
        assert_eq!(answer.code, StatusCode::OK);
    }
}

struct Create {
    client: Client,
    path: String,
    prefix: String,
}

impl Op for Create {
    async fn call(&mut self, i: u64) {
        let name = format!("{}-{i}", self.prefix);
        let answer = self
            .client
            .send(Method::POST, &self.path, Some(body(&name, i, None)))
            .await;
        assert_eq!(answer.code, StatusCode::CREATED);
    }
}

struct Update {
    client: Client,
    path: String,
    name: String,
    /// The object's current resourceVersion, kept across runs.
    rv: Arc<Mutex<String>>,
}

impl Op for Update {
    async fn call(&mut self, i: u64) {
        let rv = self.rv.lock().expect("unpoisoned").clone();
        let answer = self
            .client
            .send(
                Method::PUT,
                &format!("{}/{}", self.path, self.name),
                Some(body(&self.name, i, Some(&rv))),
            )
            .await;
        assert_eq!(answer.code, StatusCode::OK);
        *self.rv.lock().expect("unpoisoned") = find_rv(&answer.body).expect("a resourceVersion");
    }
}

/// Requests and their latencies over one run.
struct Run {
    requests: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
}

impl Run {
    fn add(&mut self, other: Run) {
        self.requests += other.requests;
        self.elapsed += other.elapsed;
        self.latencies.extend(other.latencies);
        self.latencies.sort_unstable();
    }

    fn per_second(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }
}

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 * q) as usize).min(sorted.len() - 1);
    sorted[i]
}

fn micros(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1e6)
}

/// Runs one `Op` per connection for `duration`.
async fn drive<O: Op>(ops: Vec<O>, duration: Duration) -> Run {
    let started = Instant::now();
    let deadline = started + duration;
    let tasks: Vec<_> = ops
        .into_iter()
        .map(|mut op| {
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut i = 0;
                while Instant::now() < deadline {
                    let t = Instant::now();
                    op.call(i).await;
                    latencies.push(t.elapsed());
                    i += 1;
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.expect("a benchmark task"));
    }
    let elapsed = started.elapsed();
    latencies.sort_unstable();
    Run {
        requests: latencies.len(),
        elapsed,
        latencies,
    }
}

/// Serves `router` on a free loopback port.
async fn serve_router(router: axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let addr = listener.local_addr().expect("its address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    addr
}

fn status_for(method: &Method) -> StatusCode {
    if method == Method::POST {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    }
}

/// Baseline (a): reads the body, answers `bytes`.
async fn bare_server(bytes: Bytes) -> SocketAddr {
    let router = axum::Router::new().fallback(move |method: Method, body: Bytes| {
        let bytes = bytes.clone();
        async move {
            drop(body);
            (
                status_for(&method),
                [(header::CONTENT_TYPE, "application/json")],
                bytes,
            )
        }
    });
    serve_router(router).await
}

/// Baseline (b): decodes and encodes `stored` (GET, LIST) or the request
/// body (CREATE, UPDATE) as a `serde_json::Value`.
async fn serde_server(stored: Option<Bytes>) -> SocketAddr {
    let router = axum::Router::new().fallback(move |method: Method, body: Bytes| {
        let source = stored.clone().unwrap_or(body);
        async move {
            let value: Value = serde_json::from_slice(&source).expect("JSON");
            let out = serde_json::to_vec(&value).expect("encodes");
            (
                status_for(&method),
                [(header::CONTENT_TYPE, "application/json")],
                out,
            )
        }
    });
    serve_router(router).await
}

/// One row of the table: the server and its two baselines, measured one
/// after the other at one concurrency.
struct Row {
    op: &'static str,
    concurrency: usize,
    server: Run,
    bare: Run,
    serde: Run,
}

fn print_rows(rows: &[Row]) {
    println!(
        "\n| operation | conn | api-server req/s | p50 µs | p99 µs | bare axum req/s | p50 µs | p99 µs | serde req/s | p50 µs | p99 µs | ÷ bare | ÷ serde |"
    );
    println!(
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for r in rows {
        let cells = |run: &Run| {
            format!(
                "{:.0} | {} | {}",
                run.per_second(),
                micros(quantile(&run.latencies, 0.5)),
                micros(quantile(&run.latencies, 0.99))
            )
        };
        println!(
            "| {} | {} | {} | {} | {} | {:.2}× | {:.2}× |",
            r.op,
            r.concurrency,
            cells(&r.server),
            cells(&r.bare),
            cells(&r.serde),
            r.server.per_second() / r.bare.per_second(),
            r.server.per_second() / r.serde.per_second(),
        );
    }
}

/// `VmRSS` of this process, in bytes.
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// RSS growth over `n` stored objects (created in-process), on a server
/// of its own; run first, before the heap has grown for other phases.
async fn memory(n: usize) {
    let router = support::server().router();
    let path = collection("mem");
    // The first objects, the history's first events and the allocator's
    // first arenas are not counted.
    for i in 0..100 {
        let (code, _) = support::oneshot_bytes(
            &router,
            Method::POST,
            &path,
            body(&format!("warm-{i}"), 0, None),
        )
        .await;
        assert_eq!(code, 201);
    }
    let before = rss();
    let mut json = 0;
    for i in 0..n {
        let (code, out) = support::oneshot_bytes(
            &router,
            Method::POST,
            &path,
            body(&format!("m-{i:05}"), i as u64, None),
        )
        .await;
        assert_eq!(code, 201);
        json += out.len();
    }
    let after = rss();
    let (code, list) = support::oneshot_bytes(&router, Method::GET, &path, Vec::new()).await;
    assert_eq!(code, 200);
    let listed: Value = serde_json::from_slice(&list).expect("a list");
    assert_eq!(listed["items"].as_array().map(Vec::len), Some(n + 100));
    let delta = after.saturating_sub(before);
    println!(
        "memory: {n} objects: VmRSS {:.1} MiB -> {:.1} MiB, delta {:.1} MiB = {} bytes/object (each object {} bytes as JSON)",
        before as f64 / 1048576.0,
        after as f64 / 1048576.0,
        delta as f64 / 1048576.0,
        delta / n as u64,
        json / n,
    );
}

/// builder → build → router → first successful in-process GET.
async fn start(repetitions: usize) {
    for namespaces in [false, true] {
        let mut times = Vec::new();
        for _ in 0..repetitions {
            let t = Instant::now();
            let mut builder = ApiServer::builder();
            if namespaces {
                builder = builder.with_namespaces();
            }
            let router = builder
                .resource::<Counter>(DefaultStrategy)
                .build()
                .router();
            let (code, _) =
                support::oneshot_bytes(&router, Method::GET, &collection("default"), Vec::new())
                    .await;
            assert_eq!(code, 200);
            times.push(t.elapsed());
        }
        times.sort_unstable();
        println!(
            "start ({} kind{}): p50 {} µs, max {} µs over {repetitions}",
            1,
            if namespaces { " + namespaces" } else { "" },
            micros(quantile(&times, 0.5)),
            micros(*times.last().expect("a time")),
        );
    }
}

/// Creates `namespace/name` and returns its resourceVersion.
async fn create(client: &Client, namespace: &str, name: &str) -> (Bytes, String) {
    let answer = client
        .send(
            Method::POST,
            &collection(namespace),
            Some(body(name, 0, None)),
        )
        .await;
    assert_eq!(answer.code, StatusCode::CREATED);
    let rv = find_rv(&answer.body).expect("a resourceVersion");
    (answer.body, rv)
}

async fn row<O: Op>(
    op: &'static str,
    concurrency: usize,
    config: &Config,
    make: impl Fn(usize, Client, &'static str) -> O,
    addrs: [SocketAddr; 3],
) -> Row {
    let variants: Vec<_> = addrs
        .into_iter()
        .zip(["server", "bare", "serde"])
        .map(|(addr, who)| (Client::new(addr), who))
        .collect();
    let ops = |client: &Client, who| {
        (0..concurrency)
            .map(|c| make(c, client.clone(), who))
            .collect::<Vec<_>>()
    };
    for (client, who) in &variants {
        drive(ops(client, who), config.warmup).await;
    }
    // Interleaved rounds, so that load from outside the process (a
    // compiler on the other core) falls on the three alike.
    let mut runs: Vec<Run> = Vec::new();
    for _ in 0..config.rounds {
        for (i, (client, who)) in variants.iter().enumerate() {
            let run = drive(ops(client, who), config.measure / config.rounds as u32).await;
            match runs.get_mut(i) {
                Some(total) => total.add(run),
                None => runs.push(run),
            }
        }
    }
    let serde = runs.pop().expect("three runs");
    let bare = runs.pop().expect("three runs");
    let server = runs.pop().expect("three runs");
    Row {
        op,
        concurrency,
        server,
        bare,
        serde,
    }
}

async fn throughput(config: &Config) -> Vec<Row> {
    let (addr, _serving) = support::start(support::server()).await;
    let client = Client::new(addr);

    // GET: one object.
    let (_, _) = create(&client, "default", "one").await;
    let get_path = format!("{}/one", collection("default"));
    let got = client.get(&get_path).await.body;
    serde_alone(&got);
    // LIST: 100 objects.
    for i in 0..LISTED {
        create(&client, "list", &format!("item-{i:03}")).await;
    }
    let listed = client.get(&collection("list")).await.body;
    assert_eq!(
        serde_json::from_slice::<Value>(&listed).expect("a list")["items"]
            .as_array()
            .map(Vec::len),
        Some(LISTED)
    );
    // UPDATE: one object per connection (no conflicts); `sample` gives
    // the bare baseline its answer.
    let (_, rv) = create(&client, "update", "sample").await;
    let updated = client
        .send(
            Method::PUT,
            &format!("{}/sample", collection("update")),
            Some(body("sample", 1, Some(&rv))),
        )
        .await;
    assert_eq!(updated.code, StatusCode::OK);
    let mut update_rvs = Vec::new();
    for c in 0..4 {
        let rv = create(&client, "update", &format!("u-{c}")).await.1;
        update_rvs.push(Arc::new(Mutex::new(rv)));
    }
    // CREATE: a sample answer for the bare baseline.
    let created = create(&client, "sample", "sample").await.0;

    let with = |bytes: &Bytes, stored: Option<&Bytes>| {
        let bytes = bytes.clone();
        let stored = stored.cloned();
        async move { [addr, bare_server(bytes).await, serde_server(stored).await] }
    };
    let get_addrs = with(&got, Some(&got)).await;
    let list_addrs = with(&listed, Some(&listed)).await;
    let update_addrs = with(&updated.body, None).await;
    let create_addrs = with(&created, None).await;

    let mut rows = Vec::new();
    for concurrency in [1, 4] {
        rows.push(
            row(
                "GET one object",
                concurrency,
                config,
                |_, client, _| Get {
                    client,
                    path: get_path.clone(),
                },
                get_addrs,
            )
            .await,
        );
        rows.push(
            row(
                "LIST 100 objects",
                concurrency,
                config,
                |_, client, _| Get {
                    client,
                    path: collection("list"),
                },
                list_addrs,
            )
            .await,
        );
        rows.push(
            row(
                "UPDATE (PUT)",
                concurrency,
                config,
                |c, client, who| Update {
                    client,
                    path: collection("update"),
                    name: format!("u-{c}"),
                    // The baselines answer a constant resourceVersion.
                    rv: if who == "server" {
                        update_rvs[c].clone()
                    } else {
                        Arc::new(Mutex::new("1".into()))
                    },
                },
                update_addrs,
            )
            .await,
        );
        rows.push(
            row(
                "CREATE (POST)",
                concurrency,
                config,
                |c, client, who| Create {
                    client,
                    path: collection("create"),
                    prefix: format!("{who}-{concurrency}-{c}-{}", unique()),
                },
                create_addrs,
            )
            .await,
        );
    }
    rows
}

/// A suffix unique to this call, so warm-up and measured CREATE runs do
/// not collide on names.
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// One update, `WATCHERS` watchers over HTTP: time from sending the PUT
/// until every watcher has decoded its event.
async fn fanout(repetitions: usize) {
    let (addr, _serving) = support::start(support::server()).await;
    let client = Client::new(addr);
    let (_, mut rv) = create(&client, "fanout", "f").await;
    let (sender, mut received) = tokio::sync::mpsc::unbounded_channel::<String>();
    let mut watchers = Vec::new();
    for _ in 0..WATCHERS {
        let mut watch = client
            .watch(&format!(
                "{}?watch=true&resourceVersion={rv}",
                collection("fanout")
            ))
            .await;
        let sender = sender.clone();
        watchers.push(tokio::spawn(async move {
            while let Some(event) = watch.next().await {
                let rv = event["object"]["metadata"]["resourceVersion"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                if sender.send(rv).is_err() {
                    return;
                }
            }
        }));
    }
    let mut times = Vec::new();
    for i in 0..repetitions {
        let t = Instant::now();
        let answer = client
            .send(
                Method::PUT,
                &format!("{}/f", collection("fanout")),
                Some(body("f", i as u64 + 1, Some(&rv))),
            )
            .await;
        assert_eq!(answer.code, StatusCode::OK);
        rv = find_rv(&answer.body).expect("a resourceVersion");
        let mut got = 0;
        while got < WATCHERS {
            let seen = tokio::time::timeout(Duration::from_secs(10), received.recv())
                .await
                .expect("every watcher gets the event in time")
                .expect("the watchers are alive");
            if seen == rv {
                got += 1;
            }
        }
        times.push(t.elapsed());
    }
    // Ended before the server and the runtime go, so that no watcher
    // sees its connection closed.
    for w in watchers {
        w.abort();
        let _ = w.await;
    }
    times.sort_unstable();
    println!(
        "watch fan-out, {WATCHERS} watchers: PUT sent -> all decoded: p50 {} µs, p99 {} µs, max {} µs over {repetitions} updates",
        micros(quantile(&times, 0.5)),
        micros(quantile(&times, 0.99)),
        micros(*times.last().expect("a time")),
    );
}

/// serde_json decode + encode of the objects alone, in-process (no HTTP).
fn serde_alone(object: &[u8]) {
    let n = 20_000;
    let t = Instant::now();
    for _ in 0..n {
        let value: Value = serde_json::from_slice(std::hint::black_box(object)).expect("JSON");
        std::hint::black_box(serde_json::to_vec(&value).expect("encodes"));
    }
    println!(
        "serde_json alone, decode + encode of the GET answer ({} bytes) in-process: {:.2} µs",
        object.len(),
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let config = if full { &FULL } else { &SMOKE };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!(
        "api-server over loopback ({} mode, {} worker threads)",
        if full { "bench" } else { "smoke" },
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    runtime.block_on(async {
        memory(config.memory_objects).await;
        start(config.start_repetitions).await;
        let rows = throughput(config).await;
        print_rows(&rows);
        println!();
        fanout(config.fanout_repetitions).await;
    });
}
