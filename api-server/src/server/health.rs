//! `/healthz`, `/livez` and `/readyz` as k8s.io/apiserver's `healthz`
//! package answers them: `ok` when every check passes; with `?verbose` a
//! line per check (`[+]ping ok`) and `healthz check passed`; a failing
//! check makes it a 500 whose body lists the checks with
//! `[-]NAME failed: reason withheld` and ends in `healthz check failed`;
//! `?exclude=NAME` leaves a check out; `/readyz/NAME` runs one check
//! (`ok`, or a 500 `internal server error: REASON`).
//!
//! `ping` always passes; the server's own checks come from
//! [`ServerBuilder::health_check`] (a storage backend's: etcd's).

use super::*;
use api_core::registry::BoxFuture;

/// A named health check: `Ok`, or why not.
pub type HealthCheck = Arc<dyn Fn() -> BoxFuture<'static, Result<(), String>> + Send + Sync>;

/// Answers `GET /{endpoint}` (`healthz`, `livez`, `readyz`) or
/// `/{endpoint}/{check}`.
pub(super) async fn health(
    checks: &[(String, HealthCheck)],
    endpoint: &str,
    only: Option<&str>,
    query: &Query,
) -> Response {
    let text = |code: StatusCode, body: String| {
        (
            code,
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            body,
        )
            .into_response()
    };
    if let Some(name) = only {
        if name == "ping" {
            return text(StatusCode::OK, "ok".into());
        }
        let Some((_, check)) = checks.iter().find(|(n, _)| n == name) else {
            return text(StatusCode::NOT_FOUND, "404 page not found\n".into());
        };
        return match check().await {
            Ok(()) => text(StatusCode::OK, "ok".into()),
            Err(reason) => text(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("internal server error: {reason}\n"),
            ),
        };
    }
    // One `exclude` (the query is read as a map).
    let excluded: Vec<&str> = query
        .get("exclude")
        .map(String::as_str)
        .into_iter()
        .collect();
    let verbose = query.get("verbose").is_some();
    let mut lines = vec!["[+]ping ok".to_string()];
    let mut failed = false;
    for (name, check) in checks {
        if excluded.contains(&name.as_str()) {
            lines.push(format!("[+]{name} excluded: ok"));
            continue;
        }
        match check().await {
            Ok(()) => lines.push(format!("[+]{name} ok")),
            Err(_) => {
                failed = true;
                lines.push(format!("[-]{name} failed: reason withheld"));
            }
        }
    }
    if failed {
        lines.push(format!("{endpoint} check failed"));
        return text(StatusCode::INTERNAL_SERVER_ERROR, lines.join("\n") + "\n");
    }
    if verbose {
        lines.push(format!("{endpoint} check passed"));
        return text(StatusCode::OK, lines.join("\n") + "\n");
    }
    text(StatusCode::OK, "ok".into())
}
