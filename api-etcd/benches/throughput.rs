//! The registry on etcd against raw etcd-client calls of the same bytes,
//! in one run on one throw-away etcd (issue 30's goal: the registry at
//! least 0.7× raw etcd). Sequential requests on loopback; prints one line
//! per operation with both rates and their ratio.
//!
//! `cargo bench -p api-etcd --bench throughput` (needs `etcd` on the PATH).

use std::sync::Arc;
use std::time::Instant;

use api_core::registry::{DynamicObject, DynamicStrategy, KindInfo, ListOptions, Registry};
use api_core::resource::Scope;
use api_etcd::testing::EtcdServer;
use serde_json::json;

const N: usize = 1_000;

fn kind() -> KindInfo {
    KindInfo {
        group: "bench.example.com".into(),
        version: "v1".into(),
        kind: "Widget".into(),
        list_kind: "WidgetList".into(),
        plural: "widgets".into(),
        singular: "widget".into(),
        short_names: Vec::new(),
        categories: Vec::new(),
        scope: Scope::Namespaced,
        status_subresource: false,
        crd: None,
    }
}

fn object(i: usize) -> serde_json::Value {
    json!({
        "apiVersion": "bench.example.com/v1", "kind": "Widget",
        "metadata": {"name": format!("w{i:05}"), "namespace": "default", "labels": {"app": "bench"}},
        "spec": {"size": i, "color": "blue", "tags": ["a", "b", "c"]}
    })
}

fn line(what: &str, raw: f64, registry: f64) {
    println!(
        "{what:<28} raw etcd {raw:>8.0}/s   registry {registry:>8.0}/s   registry/raw {:.2}",
        registry / raw
    );
}

fn rate(n: usize, start: Instant) -> f64 {
    n as f64 / start.elapsed().as_secs_f64()
}

#[tokio::main]
async fn main() {
    let Some(server) = EtcdServer::start_or_skip("throughput") else {
        return;
    };
    let mut raw = etcd_client::Client::connect([server.endpoint()], None)
        .await
        .expect("etcd");
    let storage = Arc::new(server.storage("/registry").await);
    let kind = kind();
    let registry =
        Registry::<DynamicObject>::with_kind(kind.clone(), DynamicStrategy::new(&kind), storage);

    // Creates: raw puts of the object's bytes vs registry creates.
    let bytes: Vec<Vec<u8>> = (0..N)
        .map(|i| serde_json::to_vec(&object(i)).unwrap())
        .collect();
    let start = Instant::now();
    for (i, b) in bytes.iter().enumerate() {
        raw.put(format!("/raw/widgets/default/w{i:05}"), b.clone(), None)
            .await
            .unwrap();
    }
    let raw_creates = rate(N, start);
    let start = Instant::now();
    for i in 0..N {
        let obj: DynamicObject = serde_json::from_value(object(i)).unwrap();
        registry.create("default", obj).await.unwrap();
    }
    line("create", raw_creates, rate(N, start));

    // Gets.
    let start = Instant::now();
    for i in 0..N {
        raw.get(format!("/raw/widgets/default/w{i:05}"), None)
            .await
            .unwrap();
    }
    let raw_gets = rate(N, start);
    let start = Instant::now();
    for i in 0..N {
        registry.get("default", &format!("w{i:05}")).await.unwrap();
    }
    line("get", raw_gets, rate(N, start));

    // Lists of 100 objects (a page of the 1,000).
    let lists = 100;
    let start = Instant::now();
    for _ in 0..lists {
        let options = etcd_client::GetOptions::new().with_prefix().with_limit(100);
        raw.get("/raw/widgets/default/", Some(options))
            .await
            .unwrap();
    }
    let raw_lists = rate(lists, start);
    let options = ListOptions {
        limit: Some(100),
        ..Default::default()
    };
    let start = Instant::now();
    for _ in 0..lists {
        let page = registry.list("default", &options).await.unwrap();
        assert_eq!(page.items.len(), 100);
    }
    line("list (a page of 100)", raw_lists, rate(lists, start));
}
