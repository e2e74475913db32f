//! The API server in process, bytes to bytes: a request through
//! `ApiServer::router()` (every filter, the handler, the store, the
//! in-memory storage) until the whole response body is read, next to a
//! baseline in the same run.
//!
//! - `server/get`: `GET` of one CronJob (JSON);
//! - `server/create`: `POST` of a new CronJob (decode, defaults,
//!   validation and CEL, managedFields, store, encode);
//! - `server/decode+encode baseline`: the request body parsed into the
//!   Rust type and written back (a JSON server with no API semantics).
//!
//! Not over a socket (the `http` bench of api-server is): this isolates
//! what a request costs inside the server, so that changes to the
//! filters, the handlers and the conversions between bytes, objects and
//! JSON values show.
//!
//! Run: `cargo bench -p api-core-tests --bench server`; before/after a
//! change: `BENCH_AB_BENCHES=server .ci/bench_ab.sh BASE 3 '^server'`.
//! With `SERVER_BENCH_LOOP=get:N` the bench makes N requests and
//! measures nothing (see [`fixed_count`]): `.ci/bench_instructions.sh`
//! counts one request's instructions on two commits that way.

use std::hint::black_box;
use std::time::Duration;

use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use criterion::{Criterion, criterion_group, criterion_main};
use examples::cronjob::CronJob;
use tower::ServiceExt;

#[path = "common/cronjob.rs"]
mod cronjob;
use cronjob::CRONJOB;

const JOBS: &str = "/apis/batch.example.com/v1/namespaces/default/cronjobs";

/// One request through the router, its body read: the status and length.
async fn call(app: &axum::Router, method: &str, uri: &str, body: String) -> (StatusCode, usize) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json")
        .body(Body::from(body))
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("infallible");
    let status = response.status();
    let bytes = to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    (status, bytes.len())
}

fn bench_server(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime");
    let app = ApiServer::builder()
        .resource::<CronJob>(DefaultStrategy)
        .build()
        .router();
    let (status, _) = rt.block_on(call(&app, "POST", JOBS, CRONJOB.to_string()));
    assert_eq!(status, StatusCode::CREATED);
    if let Ok(spec) = std::env::var("SERVER_BENCH_LOOP") {
        fixed_count(&rt, &app, &spec);
        return;
    }
    let mut g = c.benchmark_group("server");
    g.bench_function("decode+encode baseline", |b| {
        b.iter(|| {
            let o: CronJob =
                serde_json::from_slice(black_box(CRONJOB.as_bytes())).expect("decodes");
            black_box(serde_json::to_vec(&o).expect("encodes"))
        })
    });
    let one = format!("{JOBS}/nightly");
    g.bench_function("get", |b| {
        b.iter(|| {
            let (status, len) = rt.block_on(call(&app, "GET", &one, String::new()));
            assert_eq!(status, StatusCode::OK);
            black_box(len)
        })
    });
    let mut n = 0u64;
    g.bench_function("create", |b| {
        b.iter(|| {
            n += 1;
            let body = CRONJOB.replacen("\"nightly\"", &format!("\"job-{n}\""), 1);
            let (status, len) = rt.block_on(call(&app, "POST", JOBS, body));
            assert_eq!(status, StatusCode::CREATED);
            black_box(len)
        })
    });
    g.finish();
}

/// `SERVER_BENCH_LOOP=get:N` (or `create:N`): N requests and no
/// measurement, for a counter outside the process (`perf stat -e
/// instructions`, `valgrind --tool=callgrind`): the difference between
/// two counts' totals over the difference of N is one request's
/// instructions, which vary far less between runs than its time.
fn fixed_count(rt: &tokio::runtime::Runtime, app: &axum::Router, spec: &str) {
    let (what, n) = spec.split_once(':').unwrap_or((spec, "1000"));
    let n: u64 = n.parse().expect("SERVER_BENCH_LOOP=get:N or create:N");
    let one = format!("{JOBS}/nightly");
    for i in 0..n {
        let (status, len) = match what {
            "get" => rt.block_on(call(app, "GET", &one, String::new())),
            "create" => {
                let body = CRONJOB.replacen("\"nightly\"", &format!("\"loop-{i}\""), 1);
                rt.block_on(call(app, "POST", JOBS, body))
            }
            other => panic!("SERVER_BENCH_LOOP: {other:?} is neither get nor create"),
        };
        assert!(status.is_success(), "{what}: {status}");
        black_box(len);
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! { name = benches; config = config(); targets = bench_server }
criterion_main!(benches);
