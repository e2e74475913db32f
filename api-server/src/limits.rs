//! Limits that keep one client from taking the server: open watches per
//! user and in total (429 `TooManyRequests` with `Retry-After`, as the
//! apiserver's max-in-flight filter answers), and request deadlines (the
//! `timeout` query parameter, capped by the server's request timeout;
//! 504 `Timeout` on expiry).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use api_core::Status;

/// The most watches open at once, by default.
pub const DEFAULT_MAX_WATCHES: usize = 1000;
/// The most watches one user may hold open at once, by default.
pub const DEFAULT_MAX_WATCHES_PER_USER: usize = 100;
/// The longest a request other than a watch may take (kube-apiserver's
/// `--request-timeout`).
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// Counts open watches.
#[derive(Debug)]
pub(crate) struct WatchLimiter {
    max_total: usize,
    max_per_user: usize,
    open: Mutex<(usize, HashMap<String, usize>)>,
}

/// An open watch: released when dropped (the stream ends or the client
/// goes).
pub(crate) struct WatchSlot {
    limiter: Arc<WatchLimiter>,
    user: String,
}

impl WatchLimiter {
    pub(crate) fn new(max_total: usize, max_per_user: usize) -> Arc<Self> {
        Arc::new(WatchLimiter {
            max_total,
            max_per_user,
            open: Mutex::new((0, HashMap::new())),
        })
    }

    /// A slot for one more watch of `user`, or the 429.
    pub(crate) fn acquire(self: &Arc<Self>, user: &str) -> Result<WatchSlot, Status> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let mine = open.1.get(user).copied().unwrap_or(0);
        if open.0 >= self.max_total || mine >= self.max_per_user {
            return Err(too_many_requests());
        }
        open.0 += 1;
        open.1.insert(user.to_string(), mine + 1);
        Ok(WatchSlot {
            limiter: self.clone(),
            user: user.to_string(),
        })
    }

    /// Watches open now, in total and for `user`.
    #[cfg(test)]
    pub(crate) fn open(&self, user: &str) -> (usize, usize) {
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        (open.0, open.1.get(user).copied().unwrap_or(0))
    }
}

impl Drop for WatchSlot {
    fn drop(&mut self) {
        let mut open = self.limiter.open.lock().unwrap_or_else(|p| p.into_inner());
        open.0 = open.0.saturating_sub(1);
        if let Some(n) = open.1.get_mut(&self.user) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.user);
            }
        }
    }
}

/// 429 as the apiserver's max-in-flight filter writes it
/// (`tooManyRequests`: `Too many requests, please try again later.`,
/// `Retry-After: 1`).
pub(crate) fn too_many_requests() -> Status {
    Status::too_many_requests("Too many requests, please try again later.", 1)
}

/// 504 for a request past its deadline (the apiserver's timeout filter).
pub(crate) fn deadline_exceeded() -> Status {
    Status::timeout(
        "request did not complete within requested timeout - context deadline exceeded",
        0,
    )
}

/// The deadline of a request that is not a watch, as the apiserver's
/// `WithRequestDeadline` reads its `timeout` parameter (a Go duration):
/// a timeout shorter than the server's (`--request-timeout`) applies;
/// none, zero, a negative one or a longer one leave the server's. A value
/// that is not a duration is 400 `invalid timeout specified in the request
/// URL - time: invalid duration "abc"`.
pub(crate) fn request_deadline(
    timeout: Option<&str>,
    server_timeout: Duration,
) -> Result<Duration, Status> {
    let Some(text) = timeout.filter(|t| !t.is_empty()) else {
        return Ok(server_timeout);
    };
    let requested = api_core::meta::Duration::parse(text).map_err(|e| {
        Status::bad_request(format!(
            "invalid timeout specified in the request URL - {e}"
        ))
    })?;
    let seconds = requested.as_secs_f64();
    if seconds > 0.0 && seconds < server_timeout.as_secs_f64() {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Ok(server_timeout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watches_are_counted_per_user_and_in_total() {
        let limiter = WatchLimiter::new(3, 2);
        let a1 = limiter.acquire("alice").unwrap();
        let _a2 = limiter.acquire("alice").unwrap();
        let e = limiter.acquire("alice").err().unwrap();
        assert_eq!((e.code, e.reason.as_str()), (429, "TooManyRequests"));
        assert_eq!(e.message, "Too many requests, please try again later.");
        assert_eq!(e.details.unwrap().retry_after_seconds, 1);
        let _b1 = limiter.acquire("bob").unwrap();
        assert!(limiter.acquire("carol").is_err(), "the total is reached");
        drop(a1);
        assert_eq!(limiter.open("alice"), (2, 1));
        assert!(limiter.acquire("carol").is_ok());
        assert_eq!(limiter.open("carol"), (2, 0), "released on drop");
    }

    /// `WithRequestDeadline`'s cases (`TestParseTimeout`,
    /// `TestWithRequestDeadline`): the parameter within the server's
    /// limit, the server's otherwise, 400 for a malformed one.
    #[test]
    fn request_deadlines() {
        let server = Duration::from_secs(60);
        for (timeout, want) in [
            (None, 60.0),
            (Some(""), 60.0),
            (Some("10s"), 10.0),
            (Some("1.5s"), 1.5),
            (Some("300ms"), 0.3),
            (Some("0s"), 60.0),
            (Some("0"), 60.0),
            (Some("-5s"), 60.0),
            (Some("2m"), 60.0),
        ] {
            let got = request_deadline(timeout, server).unwrap();
            assert!(
                (got.as_secs_f64() - want).abs() < 1e-9,
                "{timeout:?}: {got:?}"
            );
        }
        for (bad, message) in [
            ("abc", r#"time: invalid duration "abc""#),
            ("foo", r#"time: invalid duration "foo""#),
            ("1", r#"time: missing unit in duration "1""#),
            ("1d", r#"time: unknown unit "d" in duration "1d""#),
        ] {
            let e = request_deadline(Some(bad), server).unwrap_err();
            assert_eq!(
                (e.code, e.reason.as_str(), e.message),
                (
                    400,
                    "BadRequest",
                    format!("invalid timeout specified in the request URL - {message}")
                ),
                "{bad}"
            );
        }
    }
}
