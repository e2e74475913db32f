//! Transient failures retried within a time bound, and etcd's errors told
//! apart.

use std::future::Future;
use std::time::Duration;

use api_core::registry::StorageError;
use etcd_client::Error;
use tokio::time::Instant;
use tonic::Code;

/// The first pause between two attempts; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(50);
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// Why an operation failed after its retries.
#[derive(Debug)]
pub(crate) enum Failure {
    /// etcd answered with an error that retrying does not fix.
    Rpc(Error),
    /// etcd could not be reached (or did not answer) in time.
    Unavailable(String),
}

impl Failure {
    /// The storage error for a failure no caller handled.
    pub(crate) fn into_storage(self, what: &str) -> StorageError {
        match self {
            Failure::Rpc(e) => StorageError::Internal(format!("etcd {what}: {e}")),
            Failure::Unavailable(m) => unavailable(what, &m),
        }
    }

    /// Whether etcd refused a read or watch at a compacted revision.
    pub(crate) fn is_compacted(&self) -> bool {
        matches!(self, Failure::Rpc(e) if is_compacted(e))
    }

    /// Whether etcd refused a read at a revision it has not reached.
    pub(crate) fn is_future_revision(&self) -> bool {
        matches!(self, Failure::Rpc(Error::GRpcStatus(s))
            if s.code() == Code::OutOfRange && s.message().contains("future revision"))
    }
}

/// `StorageError::Unavailable` (the apiserver's `ServerTimeout`, which
/// clients retry), with what failed last (`etcd unavailable: ...`).
pub(crate) fn unavailable(what: &str, last: &str) -> StorageError {
    StorageError::Unavailable(format!("etcd unavailable: {what}: {last}"))
}

/// Whether `e` is etcd's "required revision has been compacted".
pub(crate) fn is_compacted(e: &Error) -> bool {
    matches!(e, Error::GRpcStatus(s)
        if s.code() == Code::OutOfRange && s.message().contains("compacted"))
}

/// Whether retrying may help: the connection failed, etcd has no leader
/// or timed out, or it is overloaded.
pub(crate) fn is_transient(e: &Error) -> bool {
    match e {
        Error::TransportError(_) | Error::IoError(_) => true,
        Error::GRpcStatus(s) => matches!(
            s.code(),
            Code::Unavailable
                | Code::DeadlineExceeded
                | Code::ResourceExhausted
                // A connection torn down mid-request (h2 and hyper errors
                // surface as Unknown).
                | Code::Unknown
        ),
        Error::WatchError(_) => true,
        _ => false,
    }
}

/// Runs `attempt` until it succeeds, fails with a lasting error, or
/// `timeout` has passed (an attempt that hangs counts as failed when the
/// time is up), pausing 50 ms, 100 ms, ... 1 s between attempts.
pub(crate) async fn retry<T, F, Fut>(timeout: Duration, mut attempt: F) -> Result<T, Failure>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    let deadline = Instant::now() + timeout;
    let mut backoff = FIRST_BACKOFF;
    loop {
        let last = match tokio::time::timeout_at(deadline, attempt()).await {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(e)) if is_transient(&e) => e.to_string(),
            Ok(Err(e)) => return Err(Failure::Rpc(e)),
            Err(_) => format!("no answer within {timeout:?}"),
        };
        let now = Instant::now();
        if now >= deadline {
            return Err(Failure::Unavailable(last));
        }
        tracing::debug!("etcd: retrying after {last}");
        let pause = backoff.min(deadline - now);
        tokio::time::sleep(pause).await;
        if Instant::now() >= deadline {
            return Err(Failure::Unavailable(format!(
                "{last} (retried for {timeout:?})"
            )));
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}
