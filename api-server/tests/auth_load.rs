//! Bad credentials under load, over loopback: 1,000 requests with bad
//! tokens (writes of every kind) interleaved with good reads from 16
//! concurrent clients change nothing and are all 401; the good requests'
//! latency beside them is printed against a run of good requests alone
//! (measured and reported in BENCHMARKS.md, not asserted: timing is not
//! a test). Bounded in count and time.

mod support;

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use std::time::{Duration, Instant};

use api_core::registry::DefaultStrategy;
use api_server::authn::{Authenticator, User};
use axum::http::{Method, StatusCode};
use support::{COUNTERS, Client, Counter, counter, start};

const CLIENTS: usize = 16;
const BAD_PER_CLIENT: usize = 1000 / CLIENTS + 1;

fn p50(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Each client sends `rounds` good GETs, and, when `bad`, a request with
/// a bad token before each: the good GETs' latencies.
async fn run(good: Client, bad: Option<Client>, rounds: usize) -> Vec<Duration> {
    let mut latencies = Vec::with_capacity(rounds);
    for i in 0..rounds {
        if let Some(bad) = &bad {
            let (method, path, body) = match i % 4 {
                0 => (
                    Method::POST,
                    COUNTERS.to_string(),
                    Some(counter(&format!("evil-{i}"), 1)),
                ),
                1 => (
                    Method::PUT,
                    format!("{COUNTERS}/c"),
                    Some(counter("c", 666)),
                ),
                2 => (Method::DELETE, format!("{COUNTERS}/c"), None),
                _ => (Method::GET, format!("{COUNTERS}/c"), None),
            };
            let body = body.map(|b| serde_json::to_vec(&b).unwrap());
            let answer = bad.send(method.clone(), &path, body).await;
            assert_eq!(answer.code, StatusCode::UNAUTHORIZED, "{method} {path}");
        }
        let started = Instant::now();
        let answer = good.get(&format!("{COUNTERS}/c")).await;
        latencies.push(started.elapsed());
        assert_eq!(answer.code, StatusCode::OK);
    }
    latencies
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_tokens_change_nothing() {
    let server = storage::builder()
        .await
        .authenticator(
            Authenticator::new()
                .token("good-token", User::new("admin", &["system:masters"]))
                // A realistic file: many users, so a lookup is not trivial.
                .token_csv(
                    &(0..200)
                        .map(|i| format!("token-{i:04},user{i},uid{i}\n"))
                        .collect::<String>(),
                    "tokens.csv",
                )
                .unwrap(),
        )
        .resource::<Counter>(DefaultStrategy)
        .build();
    let (addr, task) = start(server).await;
    let client = Client::new(addr);
    let good = client.with_token("good-token");
    let created = good.post(COUNTERS, &counter("c", 7)).await;
    assert_eq!(created.code, StatusCode::CREATED);
    let before = good.get(&format!("{COUNTERS}/c")).await.json();

    let bounded = |f| tokio::time::timeout(Duration::from_secs(60), f);
    // Good requests alone, then beside bad ones.
    let alone: Vec<_> = (0..CLIENTS)
        .map(|_| tokio::spawn(run(good.clone(), None, BAD_PER_CLIENT)))
        .collect();
    let mut quiet = Vec::new();
    for t in alone {
        quiet.extend(bounded(t).await.expect("in time").unwrap());
    }
    let mixed: Vec<_> = (0..CLIENTS)
        .map(|i| {
            // Wrong, empty-looking, prefix and near-miss tokens.
            let wrong = [
                "bad",
                "good-toke",
                "good-tokenx",
                "token-0001x",
                "Good-Token",
            ][i % 5];
            tokio::spawn(run(
                good.clone(),
                Some(client.with_token(wrong)),
                BAD_PER_CLIENT,
            ))
        })
        .collect();
    let mut busy = Vec::new();
    for t in mixed {
        busy.extend(bounded(t).await.expect("in time").unwrap());
    }

    let after = good.get(&format!("{COUNTERS}/c")).await.json();
    assert_eq!(before, after, "nothing changed");
    let list = good.get(COUNTERS).await.json();
    assert_eq!(
        list["items"].as_array().map(Vec::len),
        Some(1),
        "nothing created"
    );
    let (q, b) = (p50(quiet), p50(busy));
    println!(
        "{} bad requests, all 401; good GET p50 alone {q:?}, beside bad ones {b:?} ({:.2}x)",
        CLIENTS * BAD_PER_CLIENT,
        b.as_secs_f64() / q.as_secs_f64()
    );
    task.abort();
}
