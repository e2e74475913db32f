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

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! { name = benches; config = config(); targets = bench_server }
criterion_main!(benches);
