//! A controller's first reconcile, tested two ways side by side (issue
//! 29): against the test environment, and against a hand-written
//! `tower-test` mock as kube-rs' documentation shows (`kube/src/mock_tests.rs`,
//! controller-rs' `fixtures.rs`). The scenario is the example Memcached
//! controller's reconcile of a Memcached that already holds its
//! finalizer: it server-side applies the Deployment, then the status.
//!
//! - `envtest: start to first list, no built-in kind`:
//!   `TestEnv::builder()...start()` with the Memcached kind, then one
//!   `Api::list`;
//! - `envtest: start to first list`: the same with Deployments;
//! - `envtest: start, create, reconcile`: that, the Memcached created,
//!   one reconcile (two real PATCHes, the store, the garbage collector);
//! - `tower-test mock: reconcile`: a mock client whose responder answers
//!   the two PATCHes the test expects, asserting their paths.
//!
//! Run: `cargo bench -p api-envtest --bench reconcile`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use api_core::kube::Kube;
use api_envtest::{BuiltinKinds, TestEnv};
use criterion::{Criterion, criterion_group, criterion_main};
use examples::controller::{Context, FINALIZER, reconcile};
use examples::memcached::{Memcached, MemcachedSpec};
use kube::api::{Api, PostParams};
use kube::client::Body;

/// The Memcached the scenario reconciles (its finalizer already held).
fn memcached() -> Kube<Memcached> {
    let mut mc: Kube<Memcached> = Memcached::new("cache", MemcachedSpec { size: Some(2) }).into();
    mc.metadata.namespace = Some("default".into());
    mc.metadata.finalizers = Some(vec![FINALIZER.into()]);
    mc
}

// --- the scenario with the test environment --------------------------------

async fn envtest_start() -> TestEnv {
    TestEnv::builder()
        .resource::<Memcached>()
        .builtin_kinds(BuiltinKinds::Only(vec!["deployments".into()]))
        .start()
        .await
}

/// The first request a test makes: a list.
async fn first_list(env: &TestEnv) -> usize {
    let api: Api<Kube<Memcached>> = Api::default_namespaced(env.client());
    api.list(&Default::default()).await.unwrap().items.len()
}

async fn envtest_reconcile() {
    let env = envtest_start().await;
    let api: Api<Kube<Memcached>> = Api::default_namespaced(env.client());
    let created = api
        .create(&PostParams::default(), &memcached())
        .await
        .unwrap();
    let ctx = Arc::new(Context {
        client: env.client(),
    });
    reconcile(Arc::new(created), ctx).await.unwrap();
}

// --- the same scenario with a tower-test mock -------------------------------

async fn mock_reconcile() {
    let (service, mut handle) =
        tower_test::mock::pair::<http::Request<Body>, http::Response<Body>>();
    let client = kube::Client::new(service, "default");
    let mut mc = memcached();
    mc.metadata.uid = Some("00000000-0000-0000-0000-000000000001".into());
    let object = serde_json::to_vec(&mc).unwrap();
    let responder = tokio::spawn(async move {
        // What the test author scripts: every request, in order.
        for expected in [
            "/apis/apps/v1/namespaces/default/deployments/cache",
            "/apis/cache.example.com/v1alpha1/namespaces/default/memcacheds/cache/status",
        ] {
            let (request, send) = handle.next_request().await.expect("a request");
            assert_eq!(request.method(), http::Method::PATCH);
            assert_eq!(request.uri().path(), expected);
            let body = if expected.ends_with("/status") {
                object.clone()
            } else {
                br#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"cache"}}"#
                    .to_vec()
            };
            send.send_response(http::Response::builder().body(Body::from(body)).unwrap());
        }
    });
    let ctx = Arc::new(Context { client });
    reconcile(Arc::new(mc), ctx).await.unwrap();
    responder.await.unwrap();
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut g = c.benchmark_group("first reconcile");
    g.bench_function("envtest: start to first list, no built-in kind", |b| {
        b.iter(|| {
            rt.block_on(async {
                let env = TestEnv::builder().resource::<Memcached>().start().await;
                black_box(first_list(&env).await)
            })
        })
    });
    g.bench_function("envtest: start to first list", |b| {
        b.iter(|| {
            rt.block_on(async {
                let env = envtest_start().await;
                black_box(first_list(&env).await)
            })
        })
    });
    g.bench_function("envtest: start, create, reconcile", |b| {
        b.iter(|| rt.block_on(envtest_reconcile()))
    });
    g.bench_function("tower-test mock: reconcile", |b| {
        b.iter(|| rt.block_on(mock_reconcile()))
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .sample_size(20)
}

criterion_group! { name = benches; config = config(); targets = bench }
criterion_main!(benches);
