//! One etcd watch (a [`crate::hub`] shares it among the watchers of a prefix),
//! read by a task that turns etcd's responses into the registry's events.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::Instant;

use api_core::registry::storage::{Event, Stored, Watch};
use api_core::registry::{EventType, ProgressRequester, Revision, StorageError};
use etcd_client::{
    EventType as EtcdEventType, GetOptions, WatchOptions, WatchRequestSender, WatchResponse,
    WatchResponseStream,
};
use futures_core::Stream;
use serde_json::Value;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use crate::retry::{retry, unavailable};
use crate::storage::{Inner, signed, unsigned};

type Item = Result<Event, StorageError>;

/// The events of one watch, as the task sends them.
struct Events(UnboundedReceiver<Item>);

impl Stream for Events {
    type Item = Item;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Item>> {
        self.0.poll_recv(cx)
    }
}

/// Starts a watch of `prefix` after revision `from`: `TooOld` at once when
/// etcd compacted the revisions after `from` (a ranged read at `from + 1`
/// says so, as a watch from it would), then the events from a task.
pub(crate) async fn watch(
    inner: Arc<Inner>,
    shutdown: tokio::sync::watch::Receiver<()>,
    prefix: &str,
    from: Revision,
) -> Result<Watch, StorageError> {
    let (start, end) = inner.etcd_range(prefix)?;
    let check = inner
        .read(
            start.clone(),
            GetOptions::new()
                .with_range(end.clone())
                .with_count_only()
                .with_revision(signed(from.saturating_add(1))),
        )
        .await;
    match check {
        Ok(_) => {}
        Err(f) if f.is_compacted() => {
            return Err(StorageError::TooOld {
                requested: from,
                oldest: inner.oldest_hint(from),
            });
        }
        // A watch may start after the current revision.
        Err(f) if f.is_future_revision() => {}
        Err(f) => return Err(f.into_storage("watch")),
    }
    let (requests, responses) = open(&inner, &start, &end, from).await?;
    let (events, receiver) = unbounded_channel();
    let (progress, progress_requests) = unbounded_channel();
    let task = WatchTask {
        shutdown,
        inner,
        start,
        end,
        delivered: from,
        events,
        progress_requests,
        progress_open: true,
        opened: Instant::now(),
        outage: None,
    };
    tokio::spawn(task.run(requests, responses));
    // The requester holds only the channel to the task: the watch still
    // ends when its consumer or the storage is gone.
    let requester = ProgressRequester::new(move || {
        let _ = progress.send(());
    });
    Ok(Watch::new(Events(receiver)).with_progress(requester))
}

/// Opens an etcd watch of `[start, end)` from the revision after `from`,
/// with previous values, retried while etcd is unavailable.
async fn open(
    inner: &Inner,
    start: &[u8],
    end: &[u8],
    from: Revision,
) -> Result<(WatchRequestSender, WatchResponseStream), StorageError> {
    let options = WatchOptions::new()
        .with_range(end.to_vec())
        .with_start_revision(signed(from.saturating_add(1)))
        .with_prev_key();
    let stream = retry(inner.timeout, || {
        let mut client = inner.watch.clone();
        let (start, options) = (start.to_vec(), options.clone());
        async move { client.watch(start, Some(options)).await }
    })
    .await
    .map_err(|f| f.into_storage("watch"))?;
    Ok(stream.split())
}

struct WatchTask {
    inner: Arc<Inner>,
    /// Changes when the storage is dropped.
    shutdown: tokio::sync::watch::Receiver<()>,
    start: Vec<u8>,
    end: Vec<u8>,
    /// Every change up to this revision has been delivered (the last
    /// event's, or a progress notification's): a resumed watch starts
    /// after it.
    delivered: Revision,
    events: UnboundedSender<Item>,
    progress_requests: UnboundedReceiver<()>,
    /// Whether a requester may still ask (false once all are dropped).
    progress_open: bool,
    /// When the current stream was opened.
    opened: Instant,
    /// Since when streams have been breaking as soon as opened.
    outage: Option<Instant>,
}

/// What to do after a response.
enum Next {
    Continue,
    /// The stream broke: open another from the last delivered revision.
    Resume,
    /// The watch is over (its last item sent).
    End,
}

impl WatchTask {
    async fn run(mut self, mut requests: WatchRequestSender, mut responses: WatchResponseStream) {
        loop {
            let next = tokio::select! {
                _ = self.shutdown.changed() => Next::End,
                _ = self.events.closed() => Next::End,
                request = self.progress_requests.recv(), if self.progress_open => match request {
                    Some(()) => {
                        // Requests waiting together are answered by one
                        // notification; a request etcd does not take in
                        // time means the stream is stuck.
                        while self.progress_requests.try_recv().is_ok() {}
                        let sent = tokio::time::timeout(
                            self.inner.timeout,
                            requests.request_progress(),
                        )
                        .await;
                        match sent {
                            Ok(Ok(())) => Next::Continue,
                            _ => Next::Resume,
                        }
                    }
                    // Nobody can ask any more; events still flow.
                    None => {
                        self.progress_open = false;
                        Next::Continue
                    }
                },
                response = responses.message() => match response {
                    Ok(Some(response)) => self.deliver(response),
                    Ok(None) => Next::Resume,
                    Err(e) => {
                        tracing::debug!("etcd watch stream failed: {e}");
                        Next::Resume
                    }
                },
            };
            match next {
                Next::Continue => {}
                Next::End => return,
                Next::Resume => match self.resume().await {
                    Ok((q, r)) => (requests, responses) = (q, r),
                    Err(e) => {
                        let _ = self.events.send(Err(e));
                        return;
                    }
                },
            }
        }
    }

    /// Opens the watch again after the last delivered revision. Streams
    /// that break within a second of being opened are one outage: each
    /// is reopened after 100 ms, and the outage ends the watch once it
    /// has lasted the request timeout, so that a stream etcd keeps
    /// closing neither spins nor lasts forever.
    async fn resume(&mut self) -> Result<(WatchRequestSender, WatchResponseStream), StorageError> {
        let timeout = self.inner.timeout;
        if self.opened.elapsed() < Duration::from_secs(1) {
            let since = *self.outage.get_or_insert(self.opened);
            if since.elapsed() >= timeout {
                return Err(unavailable(
                    "watch",
                    &format!("the stream kept failing for {timeout:?}"),
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        } else {
            self.outage = None;
        }
        let stream = open(&self.inner, &self.start, &self.end, self.delivered).await;
        self.opened = Instant::now();
        stream
    }

    /// Sends the events of one response (or its progress notification,
    /// or its compaction).
    fn deliver(&mut self, response: WatchResponse) -> Next {
        if response.canceled() {
            let compacted = response.compact_revision();
            let error = if compacted > 0 {
                self.inner
                    .compacted
                    .fetch_max(unsigned(compacted), Ordering::Relaxed);
                StorageError::TooOld {
                    requested: self.delivered,
                    oldest: unsigned(compacted).saturating_sub(1),
                }
            } else {
                StorageError::Internal(format!(
                    "etcd canceled the watch: {}",
                    response.cancel_reason()
                ))
            };
            let _ = self.events.send(Err(error));
            return Next::End;
        }
        if response.created() {
            return Next::Continue;
        }
        if response.events().is_empty() {
            // A progress notification: every change up to the header's
            // revision has been sent.
            let revision = response.header().map_or(0, |h| unsigned(h.revision()));
            if revision >= self.delivered {
                self.delivered = revision;
                let progress = Event {
                    kind: EventType::Progress,
                    object: Stored {
                        key: String::new(),
                        value: Value::Null,
                        revision,
                    },
                    previous: None,
                };
                if self.events.send(Ok(progress)).is_err() {
                    return Next::End;
                }
            }
            return Next::Continue;
        }
        for event in response.events() {
            let item = self.convert(event);
            let failed = item.is_err();
            if let Ok(event) = &item {
                self.delivered = self.delivered.max(event.object.revision);
            }
            if self.events.send(item).is_err() || failed {
                return Next::End;
            }
        }
        Next::Continue
    }

    /// The registry's event of an etcd event: a put that created the key
    /// is `Added` (`create_revision == mod_revision`, as the apiserver
    /// tells), another put `Modified` with the previous value, a delete
    /// `Deleted` with the last value and the deletion's revision.
    fn convert(&self, event: &etcd_client::Event) -> Item {
        let kv = event
            .kv()
            .ok_or_else(|| StorageError::Internal("etcd event without a key".into()))?;
        let key = self.inner.registry_key(kv.key())?;
        let previous = event
            .prev_kv()
            .map(|p| self.inner.decode(&key, p.value()))
            .transpose()?;
        let revision = unsigned(kv.mod_revision());
        Ok(match event.event_type() {
            EtcdEventType::Put => {
                let value = self.inner.decode(&key, kv.value())?;
                let created = kv.create_revision() == kv.mod_revision();
                Event {
                    kind: if created {
                        EventType::Added
                    } else {
                        EventType::Modified
                    },
                    object: Stored {
                        key,
                        value,
                        revision,
                    },
                    previous: if created { None } else { previous },
                }
            }
            EtcdEventType::Delete => Event {
                kind: EventType::Deleted,
                object: Stored {
                    key,
                    // Without the previous value (compacted away) the
                    // deletion still counts, with a null object.
                    value: previous.unwrap_or(Value::Null),
                    revision,
                },
                previous: None,
            },
        })
    }
}
