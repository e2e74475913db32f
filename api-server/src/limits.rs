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

/// A Go duration (`time.ParseDuration`: `300ms`, `1.5h`, `2h45m`, `32s`);
/// `None` when it is not one or is negative.
pub(crate) fn parse_go_duration(text: &str) -> Option<Duration> {
    let mut rest = text.strip_prefix('+').unwrap_or(text);
    if rest == "0" {
        return Some(Duration::ZERO);
    }
    if rest.is_empty() || rest.starts_with('-') {
        return None;
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(number_end);
        if number.is_empty() || number == "." {
            return None;
        }
        let value: f64 = number.parse().ok()?;
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_end);
        let seconds = match unit {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return None,
        };
        total += value * seconds;
        rest = tail;
    }
    Duration::try_from_secs_f64(total).ok()
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

    /// Cases of Go's `time_test.go` `parseDurationTests`.
    #[test]
    fn go_durations() {
        let ok = [
            ("0", 0.0),
            ("5s", 5.0),
            ("30s", 30.0),
            ("1478s", 1478.0),
            ("+5s", 5.0),
            ("5.0s", 5.0),
            ("5.6s", 5.6),
            ("5.s", 5.0),
            (".5s", 0.5),
            ("1.004s", 1.004),
            ("100.00100s", 100.001),
            ("10ns", 10e-9),
            ("11us", 11e-6),
            ("12µs", 12e-6),
            ("13ms", 13e-3),
            ("14s", 14.0),
            ("15m", 900.0),
            ("16h", 57600.0),
            ("3h30m", 12600.0),
            ("10.5s4m", 250.5),
            ("1h2m3s4ms5us6ns", 3723.004005006),
            ("39h9m14.425s", 140_954.425),
        ];
        for (text, seconds) in ok {
            let d = parse_go_duration(text).unwrap_or_else(|| panic!("{text}"));
            assert!((d.as_secs_f64() - seconds).abs() < 1e-9, "{text}: {d:?}");
        }
        for bad in [
            "",
            "3",
            "-",
            "s",
            ".",
            "-.",
            ".s",
            "+.s",
            "1d",
            "-5s",
            "3000000h0x",
        ] {
            assert_eq!(parse_go_duration(bad), None, "{bad}");
        }
    }
}
