#![no_main]

//! The HTTP API server in-process on arbitrary requests: the examples'
//! kinds (Memcached, CronJob, Tenant, the two-version CronTab) and
//! Namespaces, served by one `ApiServer` built once and called through
//! `tower::ServiceExt::oneshot` on a current-thread runtime created once.
//!
//! The input is split at its first five `\n` into method, path, query,
//! `Content-Type`, `Accept`, and the rest is the body; a part that is not
//! a valid method, URI or header value is replaced or left out. So a seed
//! reads as a request:
//!
//! ```text
//! POST
//! /apis/cache.example.com/v1alpha1/namespaces/default/memcacheds
//! fieldValidation=Strict
//! application/json
//! application/json
//! {"apiVersion": ...}
//! ```
//!
//! What must hold: no panic and no hang (2 s per request); a non-2xx
//! JSON answer is a `Status` whose `code` is the HTTP status; a 2xx JSON
//! answer is JSON (for a watch, every line is). A watch is made to end at
//! once (`timeoutSeconds=0`) and read for at most 200 ms.

mod http;

use std::sync::LazyLock;

use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use examples::{cronjob, crontab, memcached, tenant};
use libfuzzer_sys::fuzz_target;

struct Fixture {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
}

/// The examples' apiserver (examples/src/bin/apiserver.rs) with a 64 KiB
/// body limit, so the 413 path is reachable.
static FIXTURE: LazyLock<Fixture> = LazyLock::new(|| {
    let versions = std::sync::Arc::new(crontab::versions());
    let server = ApiServer::builder()
        .max_request_bytes(64 * 1024)
        .with_namespaces()
        .resource::<memcached::Memcached>(DefaultStrategy)
        .resource::<cronjob::CronJob>(DefaultStrategy)
        .resource::<tenant::Tenant>(DefaultStrategy)
        .version::<crontab::v1::CronTab, _>(DefaultStrategy, versions.clone())
        .expect("CronTab v1")
        .version::<crontab::v1alpha1::CronTab, _>(DefaultStrategy, versions)
        .expect("CronTab v1alpha1")
        .build();
    Fixture {
        runtime: tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime"),
        router: server.router(),
    }
});

fuzz_target!(|data: &[u8]| {
    let Some(fuzzed) = http::request(data, &[]) else {
        return;
    };
    let fixture = &*FIXTURE;
    fixture
        .runtime
        .block_on(http::send(&fixture.router, fuzzed));
});
