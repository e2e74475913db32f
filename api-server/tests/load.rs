//! A loopback load test: 8 clients increment one counter by
//! read-modify-write (GET, +1, PUT with the read resourceVersion, again
//! on 409 Conflict) over HTTP/1.1 keep-alive, while a watch follows every
//! change. Optimistic concurrency must lose no increment, and the watch
//! must see each change once, in order. Everything is bounded by
//! timeouts, so a bug fails the test instead of hanging it.

mod support;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use support::{COUNTERS, Client, counter, revision, server, start};
use tokio::time::timeout;

const CLIENTS: u64 = 8;
const INCREMENTS: u64 = 50;
const TOTAL: u64 = CLIENTS * INCREMENTS;

/// One client's increments; returns how many PUTs answered 409.
async fn increment(client: Client, path: String, times: u64) -> u64 {
    let mut conflicts = 0;
    for _ in 0..times {
        loop {
            let got = client.get(&path).await;
            assert_eq!(got.code, StatusCode::OK);
            let mut object = got.json();
            let value = object["spec"]["value"].as_i64().expect("an integer value");
            object["spec"]["value"] = (value + 1).into();
            // `object` keeps the resourceVersion it was read at.
            let put = client.put(&path, &object).await;
            match put.code {
                StatusCode::OK => break,
                StatusCode::CONFLICT => {
                    let status = put.json();
                    assert_eq!(status["kind"], "Status");
                    assert_eq!(status["reason"], "Conflict");
                    conflicts += 1;
                }
                other => panic!("PUT answered {other}: {}", put.json()),
            }
        }
    }
    conflicts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_read_modify_write_loses_nothing_and_watch_sees_every_change() {
    let (addr, serving) = start(server()).await;
    let client = Client::new(addr);
    let path = format!("{COUNTERS}/c");

    let created = client.post(COUNTERS, &counter("c", 0)).await;
    assert_eq!(created.code, StatusCode::CREATED);
    let start_rv = revision(&created.json());

    // The watch is registered once its headers arrive: start it before
    // the writers (it would replay from `start_rv` anyway).
    let mut watch = timeout(
        Duration::from_secs(5),
        client.watch(&format!(
            "{COUNTERS}?watch=true&resourceVersion={start_rv}&timeoutSeconds=60"
        )),
    )
    .await
    .expect("the watch starts in time");
    let watcher = tokio::spawn(async move {
        let mut seen = Vec::new();
        let mut last = start_rv;
        while seen.len() < TOTAL as usize {
            let event = timeout(Duration::from_secs(20), watch.next())
                .await
                .expect("an event in time")
                .expect("the watch does not end early");
            assert_eq!(event["type"], "MODIFIED", "{event}");
            let rv = revision(&event["object"]);
            assert!(rv > last, "resourceVersion {rv} after {last}");
            last = rv;
            seen.push(event["object"]["spec"]["value"].as_i64().expect("a value"));
        }
        // Nothing more comes: no change was sent twice.
        let extra = timeout(Duration::from_millis(200), watch.next()).await;
        assert!(extra.is_err(), "an extra event: {extra:?}");
        seen
    });

    let started = Instant::now();
    let conflicts = Arc::new(AtomicU64::new(0));
    let writers: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let client = client.clone();
            let path = path.clone();
            let conflicts = conflicts.clone();
            tokio::spawn(async move {
                let n = increment(client, path, INCREMENTS).await;
                conflicts.fetch_add(n, Ordering::Relaxed);
            })
        })
        .collect();
    timeout(Duration::from_secs(30), async {
        for w in writers {
            w.await.expect("a writer finishes without panicking");
        }
    })
    .await
    .expect("the writers finish in time");
    let elapsed = started.elapsed();

    let last = client.get(&path).await;
    assert_eq!(last.code, StatusCode::OK);
    let last = last.json();
    assert_eq!(last["spec"]["value"], TOTAL, "an increment was lost");
    let conflicts = conflicts.load(Ordering::Relaxed);
    println!(
        "{TOTAL} increments by {CLIENTS} clients in {elapsed:.2?}: {conflicts} conflicts (409) retried"
    );

    let seen = timeout(Duration::from_secs(30), watcher)
        .await
        .expect("the watcher finishes in time")
        .expect("the watcher does not panic");
    // Each value once: with one writer at a time winning, the values
    // seen in resourceVersion order count up by one.
    let expected: Vec<i64> = (1..=TOTAL as i64).collect();
    assert_eq!(seen, expected);
    assert_eq!(seen.iter().collect::<BTreeSet<_>>().len(), TOTAL as usize);
    assert_eq!(revision(&last), start_rv + TOTAL);
    serving.abort();
}
