//! One etcd watch per prefix, shared by every watcher of it (the idea of
//! the apiserver's watch cache): a [`Hub`] reads one etcd watch
//! ([`crate::watch::watch`]) and hands each event to every subscriber,
//! keeping the latest [`BUFFER`] events so that a watcher starting at a
//! recent revision (a list's, a moment ago) joins it too. A watcher from
//! before what the hub can replay gets a watch of its own, as before.
//!
//! The hub ends, and its etcd watch with it, when its last subscriber is
//! gone; an error (a compacted revision, an outage past the request
//! timeout) goes to every subscriber and ends it too, and the next
//! watcher starts a new one.

use std::collections::{HashMap, VecDeque};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll};

use api_core::registry::storage::{Event, Watch};
use api_core::registry::{EventType, ProgressRequester, Revision, StorageError};
use futures_core::Stream;
use tokio::sync::Notify;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use crate::storage::Inner;

/// How many of the latest events a hub keeps for watchers that join
/// (the apiserver's default watch cache size was 100 too: a watcher from
/// an older revision costs an etcd watch of its own, not a failure).
pub(crate) const BUFFER: usize = 100;

type Item = Result<Event, StorageError>;

/// The hubs of one storage, by prefix.
#[derive(Default)]
pub(crate) struct Hubs {
    by_prefix: Mutex<HashMap<String, Weak<Hub>>>,
}

impl Hubs {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Weak<Hub>>> {
        self.by_prefix.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many hubs (shared etcd watches) are running.
    pub(crate) fn running(&self) -> usize {
        self.lock()
            .values()
            .filter(|hub| hub.upgrade().is_some_and(|hub| !hub.state().ended))
            .count()
    }
}

/// A watch of `prefix` after `from`: joins the prefix's hub when it can
/// replay everything after `from`, or starts one (the etcd watch from
/// `from`), or, when `from` is older than the hub can replay, opens a
/// watch of its own.
pub(crate) async fn watch(
    inner: Arc<Inner>,
    shutdown: tokio::sync::watch::Receiver<()>,
    prefix: &str,
    from: Revision,
) -> Result<Watch, StorageError> {
    let existing = inner.hubs.lock().get(prefix).and_then(Weak::upgrade);
    if let Some(hub) = existing {
        match hub.join(from) {
            Joined::Yes(watch) => return Ok(watch),
            Joined::TooOld => return crate::watch::watch(inner, shutdown, prefix, from).await,
            Joined::Ended => {}
        }
    }
    // A new hub: its etcd watch starts after `from`, its first
    // subscriber's revision.
    let upstream = crate::watch::watch(inner.clone(), shutdown, prefix, from).await?;
    let hub = Arc::new(Hub {
        state: Mutex::new(State {
            covered: from,
            buffer: VecDeque::new(),
            subscribers: Vec::new(),
            ended: false,
        }),
        gone: Notify::new(),
        progress: upstream.progress_requester(),
    });
    let watch = hub.subscribe(&mut hub.state(), from);
    inner
        .hubs
        .lock()
        .insert(prefix.to_string(), Arc::downgrade(&hub));
    tokio::spawn(hub.clone().run(upstream));
    Ok(watch)
}

/// One shared etcd watch and its subscribers.
pub(crate) struct Hub {
    state: Mutex<State>,
    /// Woken when a subscriber goes (the hub may have none left).
    gone: Notify,
    /// Asks the etcd watch for a progress notification.
    progress: Option<ProgressRequester>,
}

struct State {
    /// Every change after this revision is in `buffer` or yet to come.
    covered: Revision,
    /// The latest events, oldest first.
    buffer: VecDeque<Event>,
    subscribers: Vec<Subscriber>,
    /// The etcd watch is over: nobody joins any more.
    ended: bool,
}

struct Subscriber {
    /// It has every change up to this revision.
    after: Revision,
    events: UnboundedSender<Item>,
}

enum Joined {
    Yes(Watch),
    /// The hub cannot replay everything after the revision asked for.
    TooOld,
    Ended,
}

impl Hub {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A subscriber from `from` if the hub can replay everything after
    /// it: the buffered events after it at once, then the rest as they
    /// come (under the lock, so none falls between).
    fn join(self: &Arc<Self>, from: Revision) -> Joined {
        let mut state = self.state();
        if state.ended {
            Joined::Ended
        } else if from < state.covered {
            Joined::TooOld
        } else {
            Joined::Yes(self.subscribe(&mut state, from))
        }
    }

    /// Adds a subscriber from `from`, which `state` can replay from.
    fn subscribe(self: &Arc<Self>, state: &mut State, from: Revision) -> Watch {
        let (sender, receiver) = unbounded_channel();
        for event in state.buffer.iter().filter(|e| e.object.revision > from) {
            let _ = sender.send(Ok(event.clone()));
        }
        let after = state
            .buffer
            .back()
            .map_or(from, |e| e.object.revision)
            .max(from);
        state.subscribers.push(Subscriber {
            after,
            events: sender,
        });
        let events = Subscription {
            events: receiver,
            hub: Arc::downgrade(self),
        };
        let watch = Watch::new(events);
        match &self.progress {
            Some(progress) => watch.with_progress(progress.clone()),
            None => watch,
        }
    }

    /// Reads the etcd watch and hands its events out, until the last
    /// subscriber is gone or the watch ends.
    async fn run(self: Arc<Self>, mut upstream: Watch) {
        loop {
            let item = tokio::select! {
                item = std::future::poll_fn(|cx| Pin::new(&mut upstream).poll_next(cx)) => item,
                () = self.gone.notified() => {
                    let mut state = self.state();
                    state.subscribers.retain(|s| !s.events.is_closed());
                    if state.subscribers.is_empty() {
                        state.ended = true;
                        return;
                    }
                    continue;
                }
            };
            let mut state = self.state();
            match item {
                Some(Ok(event)) => {
                    state.deliver(event);
                    if state.subscribers.is_empty() {
                        state.ended = true;
                        return;
                    }
                }
                Some(Err(error)) => {
                    for subscriber in &state.subscribers {
                        let _ = subscriber.events.send(Err(error.clone()));
                    }
                    state.ended = true;
                    return;
                }
                None => {
                    state.ended = true;
                    return;
                }
            }
        }
    }
}

impl State {
    /// One event to every subscriber that has not had it; a change is
    /// kept for those that join later.
    fn deliver(&mut self, event: Event) {
        let revision = event.object.revision;
        let progress = event.kind == EventType::Progress;
        self.subscribers.retain_mut(|subscriber| {
            if progress {
                // A progress notification moves no subscriber on: etcd
                // releases without etcd-io/etcd#15220's fix send one ahead
                // of changes still queued, which must pass after it.
                return revision < subscriber.after
                    || subscriber.events.send(Ok(event.clone())).is_ok();
            }
            if revision <= subscriber.after {
                return true;
            }
            subscriber.after = revision;
            subscriber.events.send(Ok(event.clone())).is_ok()
        });
        if !progress {
            self.buffer.push_back(event);
            while self.buffer.len() > BUFFER {
                if let Some(oldest) = self.buffer.pop_front() {
                    self.covered = oldest.object.revision;
                }
            }
        }
    }
}

/// One subscriber's events; tells the hub when it is dropped.
struct Subscription {
    events: UnboundedReceiver<Item>,
    hub: Weak<Hub>,
}

impl Stream for Subscription {
    type Item = Item;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Item>> {
        self.events.poll_recv(cx)
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some(hub) = self.hub.upgrade() {
            hub.gone.notify_one();
        }
    }
}
