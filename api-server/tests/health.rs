//! `/healthz`, `/livez` and `/readyz` with a check of the server's own
//! (a storage backend's), answered as k8s.io/apiserver's `healthz`
//! package answers (`healthz_test.go`'s `TestMulitipleChecks` and
//! `TestInstallPathHandler` expectations: the verbose lines, the
//! withheld reason, `exclude`, one check by path).

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use api_server::server::HealthCheck;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use tower::ServiceExt;

async fn get(app: &axum::Router, path: &str) -> (StatusCode, String) {
    let request = Request::builder()
        .uri(path)
        .body(Body::empty())
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    let code = response.status();
    let bytes = to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    (code, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test]
async fn a_failing_check_makes_the_server_unready() {
    let up = Arc::new(AtomicBool::new(true));
    let flag = up.clone();
    let check: HealthCheck = Arc::new(move || {
        let up = flag.load(Ordering::SeqCst);
        Box::pin(async move {
            if up {
                Ok(())
            } else {
                Err("connection refused".to_string())
            }
        })
    });
    let app = storage::builder()
        .await
        .with_namespaces()
        .health_check("etcd", check)
        .build()
        .router();

    for endpoint in ["/healthz", "/livez", "/readyz"] {
        assert_eq!(get(&app, endpoint).await, (StatusCode::OK, "ok".into()));
    }
    assert_eq!(
        get(&app, "/readyz?verbose").await,
        (
            StatusCode::OK,
            "[+]ping ok\n[+]etcd ok\nreadyz check passed\n".into()
        )
    );
    assert_eq!(
        get(&app, "/readyz/etcd").await,
        (StatusCode::OK, "ok".into())
    );

    up.store(false, Ordering::SeqCst);
    assert_eq!(
        get(&app, "/readyz").await,
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed\n".into()
        )
    );
    assert_eq!(
        get(&app, "/livez").await.0,
        StatusCode::INTERNAL_SERVER_ERROR
    );
    assert_eq!(
        get(&app, "/readyz/etcd").await,
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal server error: connection refused\n".into()
        )
    );
    assert_eq!(
        get(&app, "/readyz?exclude=etcd&verbose").await,
        (
            StatusCode::OK,
            "[+]ping ok\n[+]etcd excluded: ok\nreadyz check passed\n".into()
        )
    );
    assert_eq!(
        get(&app, "/readyz/ping").await,
        (StatusCode::OK, "ok".into())
    );
    assert_eq!(get(&app, "/readyz/nope").await.0, StatusCode::NOT_FOUND);
}
