//! The garbage collector: kube-controller-manager's, over the server's
//! own kinds. It follows every served kind's objects through their
//! watches into a graph of owners and dependents (`metadata.ownerReferences`
//! by uid), and acts as upstream's `GarbageCollector` does
//! (`pkg/controller/garbagecollector`):
//!
//! - an object whose owners are all gone (deleted, or never there: a
//!   reference whose uid no object of that kind has) is deleted, with the
//!   `Background` policy unless its own finalizers say otherwise;
//! - an object deleted with `propagationPolicy: Orphan` (the `orphan`
//!   finalizer) has its references removed from its dependents, then the
//!   finalizer from itself;
//! - an object deleted with `Foreground` (the `foregroundDeletion`
//!   finalizer) has its dependents deleted, and loses the finalizer (and
//!   so goes) when no dependent that blocks it (`blockOwnerDeletion`) is
//!   left; a dependent with another owner that is not going only loses
//!   its reference to the going one;
//! - a reference to a kind the server does not serve is left alone (the
//!   dependent stays), as upstream leaves what it cannot resolve.
//!
//! Deletes of served kinds record the policy as finalizers only while a
//! collector runs ([`ServerBuilder::garbage_collector`]): without one
//! those finalizers would never go.
//!
//! [`ServerBuilder::garbage_collector`]: crate::server::ServerBuilder::garbage_collector

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use api_core::Status;
use api_core::registry::{
    DeleteOptions, FINALIZER_FOREGROUND, FINALIZER_ORPHAN, ListOptions, PropagationPolicy,
};
use futures_util::StreamExt;
use futures_util::stream::{BoxStream, SelectAll};
use serde_json::Value;
use tokio::sync::{oneshot, watch};
use tokio_util::task::AbortOnDropHandle;

use crate::catalog::Catalog;
use crate::served::{ServedKind, WriteOptions};

/// The name the collector's writes are recorded under (`managedFields`),
/// as kube-controller-manager's.
pub const MANAGER: &str = "kube-controller-manager";

/// How long the collector waits before it retries what failed (a
/// conflict with another writer, an owner it could not read).
const RETRY: Duration = Duration::from_millis(20);

/// A running garbage collector; it stops when dropped.
#[derive(Debug)]
pub struct GarbageCollector {
    _task: AbortOnDropHandle<()>,
}

impl GarbageCollector {
    /// Starts collecting over `kinds` (every kind the server serves, so
    /// that owners of any kind are found). Call it in a Tokio runtime.
    pub fn start(kinds: Vec<Arc<dyn ServedKind>>) -> Self {
        // A catalog that never changes (its sender gone at once).
        let (_, catalogs) = watch::channel(Arc::new(Catalog::new(kinds, None)));
        Self::follow(catalogs)
    }

    /// Starts collecting over the kinds of the server's catalog, and of
    /// every catalog that replaces it (kinds added and removed at run
    /// time).
    pub(crate) fn follow(catalogs: watch::Receiver<Arc<Catalog>>) -> Self {
        GarbageCollector {
            _task: AbortOnDropHandle::new(tokio::spawn(run(catalogs))),
        }
    }
}

/// One object as the graph knows it.
#[derive(Clone, Debug)]
struct Node {
    /// Its kind (an index into the collector's kinds).
    kind: usize,
    namespace: String,
    name: String,
    owners: Vec<Owner>,
    deleting: bool,
    finalizers: Vec<String>,
}

impl Node {
    /// The node of `object`, of kind `kind`.
    fn of(kind: usize, object: &Value) -> Node {
        let meta = &object["metadata"];
        Node {
            kind,
            namespace: meta["namespace"].as_str().unwrap_or_default().to_string(),
            name: meta["name"].as_str().unwrap_or_default().to_string(),
            owners: owners(meta),
            deleting: !meta["deletionTimestamp"].is_null(),
            finalizers: strings(&meta["finalizers"]),
        }
    }

    fn has(&self, finalizer: &str) -> bool {
        self.finalizers.iter().any(|f| f == finalizer)
    }

    /// Deleted in the foreground: waiting for its dependents to go.
    fn waiting_for_dependents(&self) -> bool {
        self.deleting && self.has(FINALIZER_FOREGROUND)
    }

    /// Deleted with `Orphan`: its dependents are to lose it.
    fn orphaning(&self) -> bool {
        self.deleting && self.has(FINALIZER_ORPHAN)
    }

    /// What it is as an owner that is there.
    fn as_owner(&self) -> Found {
        if self.waiting_for_dependents() {
            Found::Waiting
        } else {
            Found::Solid
        }
    }
}

/// One of `metadata.ownerReferences`.
#[derive(Clone, Debug, PartialEq)]
struct Owner {
    uid: String,
    api_version: String,
    kind: String,
    name: String,
    block: bool,
}

/// What is left to do for an object (by uid).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Work {
    /// Delete it if its owners are gone (`attemptToDeleteItem`).
    AttemptToDelete(String),
    /// Remove its references from its dependents, then its `orphan`
    /// finalizer (`orphanDependents`).
    Orphan(String),
}

/// An owner as found.
enum Found {
    /// There, and not waiting for its dependents to go.
    Solid,
    /// There, deleted in the foreground: waiting for its dependents.
    Waiting,
    /// Not there (or another object of that name).
    Dangling,
}

struct Collector {
    /// Every kind followed so far (a node names its kind by index here, so
    /// kinds are only ever added; one no longer served is not `live`).
    kinds: Vec<Arc<dyn ServedKind>>,
    /// Whether each kind is still served.
    live: Vec<bool>,
    /// Per kind, what ends its watch when dropped.
    stops: Vec<Option<oneshot::Sender<()>>>,
    nodes: BTreeMap<String, Node>,
    /// Owner uid → the uids of the objects that name it.
    dependents: BTreeMap<String, BTreeSet<String>>,
    queue: VecDeque<Work>,
    queued: BTreeSet<Work>,
    options: WriteOptions,
}

/// A watch event of one kind: (kind index, type, object).
type KindEvent = (usize, Result<(&'static str, Value), Status>);

/// The watches of every live kind, merged.
type Events = SelectAll<BoxStream<'static, KindEvent>>;

async fn run(mut catalogs: watch::Receiver<Arc<Catalog>>) {
    let options = WriteOptions {
        manager: MANAGER.to_string(),
        ..WriteOptions::default()
    };
    let mut collector = Collector {
        kinds: Vec::new(),
        live: Vec::new(),
        stops: Vec::new(),
        nodes: BTreeMap::new(),
        dependents: BTreeMap::new(),
        queue: VecDeque::new(),
        queued: BTreeSet::new(),
        options,
    };
    let mut events: Events = SelectAll::new();
    let mut retry: Vec<Work> = Vec::new();
    let kinds = catalogs.borrow_and_update().all();
    collector.follow(kinds, &mut events).await;
    let mut following = true;
    loop {
        // Work first, then wait: for events, or for the retries' turn.
        while let Some(work) = collector.queue.pop_front() {
            collector.queued.remove(&work);
            if collector.process(&work).await.is_err() {
                retry.push(work);
            }
        }
        let timer = tokio::time::sleep(if retry.is_empty() {
            Duration::from_secs(3600)
        } else {
            RETRY
        });
        tokio::select! {
            event = events.next() => match event {
                Some((kind, Ok((kind_of_event, object)))) => collector.observe(kind, kind_of_event, &object),
                Some((kind, Err(_))) => {
                    // A broken watch (a revision compacted away): read
                    // the kind again.
                    if collector.live[kind] && let Ok(stream) = collector.sync(kind).await {
                        events.push(stream);
                    }
                }
                None => tokio::time::sleep(RETRY).await,
            },
            changed = catalogs.changed(), if following => match changed {
                Ok(()) => {
                    let kinds = catalogs.borrow_and_update().all();
                    collector.follow(kinds, &mut events).await;
                }
                // A catalog that does not change.
                Err(_) => following = false,
            },
            () = timer => {
                for work in retry.drain(..) {
                    collector.enqueue(work);
                }
            }
        }
    }
}

/// The same kind (the same object serving it).
fn same(a: &Arc<dyn ServedKind>, b: &Arc<dyn ServedKind>) -> bool {
    std::ptr::addr_eq(Arc::as_ptr(a), Arc::as_ptr(b))
}

impl Collector {
    /// Follows `kinds` (the catalog's, all of them): the kinds no longer
    /// there stop being watched, the new ones are listed into the graph
    /// and watched (retried until they are).
    async fn follow(&mut self, kinds: Vec<Arc<dyn ServedKind>>, events: &mut Events) {
        for index in 0..self.kinds.len() {
            if self.live[index] && !kinds.iter().any(|k| same(k, &self.kinds[index])) {
                self.live[index] = false;
                self.stops[index] = None;
            }
        }
        for kind in kinds {
            if (0..self.kinds.len()).any(|i| self.live[i] && same(&kind, &self.kinds[i])) {
                continue;
            }
            let index = self.kinds.len();
            self.kinds.push(kind);
            self.live.push(true);
            self.stops.push(None);
            loop {
                match self.sync(index).await {
                    Ok(stream) => {
                        events.push(stream);
                        break;
                    }
                    Err(_) => tokio::time::sleep(RETRY).await,
                }
            }
        }
    }

    /// Lists kind `index` into the graph and returns its watch from there
    /// (until the kind is no longer followed).
    async fn sync(&mut self, index: usize) -> Result<BoxStream<'static, KindEvent>, Status> {
        let kind = self.kinds[index].clone();
        let revision = list_each(kind.as_ref(), "", |object| {
            self.observe(index, "ADDED", object);
        })
        .await?;
        let options = ListOptions {
            resource_version: Some(revision).filter(|r| !r.is_empty()),
            ..ListOptions::default()
        };
        let watch = kind.watch("", &options).await?;
        let (stop, stopped) = oneshot::channel::<()>();
        self.stops[index] = Some(stop);
        Ok(watch
            .map(move |event| (index, event))
            .take_until(stopped)
            .boxed())
    }

    fn enqueue(&mut self, work: Work) {
        if self.queued.insert(work.clone()) {
            self.queue.push_back(work);
        }
    }

    /// A watch event: the graph changes, and what the change calls for is
    /// queued (`processGraphChanges`).
    fn observe(&mut self, kind: usize, event: &str, object: &Value) {
        let meta = &object["metadata"];
        let Some(uid) = meta["uid"].as_str().map(str::to_string) else {
            return;
        };
        if event == "BOOKMARK" {
            return;
        }
        if event == "DELETED" {
            if let Some(node) = self.nodes.remove(&uid) {
                self.unlink(&uid, &node.owners);
                // Its owners may wait for it; its dependents lost an owner.
                for owner in &node.owners {
                    self.enqueue_deleting_owner(&owner.uid);
                }
            }
            for dependent in self.dependents.get(&uid).cloned().unwrap_or_default() {
                self.enqueue(Work::AttemptToDelete(dependent));
            }
            return;
        }
        let node = Node::of(kind, object);
        let before = self.nodes.insert(uid.clone(), node.clone());
        if let Some(before) = &before {
            self.unlink(&uid, &before.owners);
        }
        for owner in &node.owners {
            self.dependents
                .entry(owner.uid.clone())
                .or_default()
                .insert(uid.clone());
        }
        let owners_changed = before.as_ref().is_none_or(|b| b.owners != node.owners);
        if owners_changed {
            // An owner deleted in the foreground may have lost a
            // blocking dependent (a reference removed or unblocked).
            let all: Vec<String> = node
                .owners
                .iter()
                .chain(before.iter().flat_map(|b| &b.owners))
                .map(|o| o.uid.clone())
                .collect();
            for owner in all {
                self.enqueue_deleting_owner(&owner);
            }
        }
        if node.orphaning() {
            self.enqueue(Work::Orphan(uid.clone()));
        }
        let started_foreground =
            node.waiting_for_dependents() && before.as_ref().is_none_or(|b| !b.deleting);
        if started_foreground {
            // Every dependent goes; the blocking ones hold the owner.
            for dependent in self.dependents.get(&uid).cloned().unwrap_or_default() {
                self.enqueue(Work::AttemptToDelete(dependent));
            }
        }
        if node.waiting_for_dependents() {
            self.enqueue(Work::AttemptToDelete(uid.clone()));
        }
        if owners_changed && !node.owners.is_empty() {
            self.enqueue(Work::AttemptToDelete(uid.clone()));
        }
        // An owner's dependents that lost it while it was unknown.
        if before.is_none() {
            for dependent in self.dependents.get(&uid).cloned().unwrap_or_default() {
                self.enqueue(Work::AttemptToDelete(dependent));
            }
        }
    }

    /// Removes `uid` from the dependents of `owners`.
    fn unlink(&mut self, uid: &str, owners: &[Owner]) {
        for owner in owners {
            if let Some(set) = self.dependents.get_mut(&owner.uid) {
                set.remove(uid);
                if set.is_empty() {
                    self.dependents.remove(&owner.uid);
                }
            }
        }
    }

    /// Queues `uid` if it is an owner deleted in the foreground (one of
    /// its dependents went).
    fn enqueue_deleting_owner(&mut self, uid: &str) {
        if self
            .nodes
            .get(uid)
            .is_some_and(Node::waiting_for_dependents)
        {
            self.enqueue(Work::AttemptToDelete(uid.to_string()));
        }
    }

    async fn process(&mut self, work: &Work) -> Result<(), Status> {
        match work {
            Work::AttemptToDelete(uid) => self.attempt_to_delete(uid).await,
            Work::Orphan(uid) => self.orphan_dependents(uid).await,
        }
    }

    /// The served kind of an owner reference (by group and kind: any
    /// version names the same objects).
    fn kind_of(&self, owner: &Owner) -> Option<usize> {
        let group = owner
            .api_version
            .rsplit_once('/')
            .map_or("", |(group, _)| group);
        (0..self.kinds.len()).find(|&i| {
            let info = self.kinds[i].info();
            self.live[i] && info.group == group && info.kind == owner.kind
        })
    }

    /// Whether `owner` (of `namespace`'s dependent) is there, read from
    /// the storage when the graph has not seen it (`isDangling`).
    async fn find(&self, owner: &Owner, namespace: &str) -> Result<Found, Status> {
        if let Some(node) = self.nodes.get(&owner.uid) {
            return Ok(node.as_owner());
        }
        let Some(index) = self.kind_of(owner) else {
            // Not served: left alone.
            return Ok(Found::Solid);
        };
        let kind = &self.kinds[index];
        let namespace = if kind.namespaced() { namespace } else { "" };
        match kind.get(namespace, &owner.name).await {
            Ok(object) if object["metadata"]["uid"] == owner.uid.as_str() => {
                Ok(Node::of(index, &object).as_owner())
            }
            Ok(_) => Ok(Found::Dangling),
            Err(status) if status.code == 404 => Ok(Found::Dangling),
            Err(status) => Err(status),
        }
    }

    /// `attemptToDeleteItem`.
    async fn attempt_to_delete(&mut self, uid: &str) -> Result<(), Status> {
        let Some(node) = self.nodes.get(uid) else {
            return Ok(());
        };
        // The object as it is now: the graph may lag behind it (another
        // kind's watch saw its owner go before its own watch saw the
        // reference removed).
        let kind = &self.kinds[node.kind];
        let latest = match kind.get(&node.namespace, &node.name).await {
            Ok(object) if object["metadata"]["uid"] == uid => object,
            Ok(_) => return Ok(()),
            Err(status) if status.code == 404 => return Ok(()),
            Err(status) => return Err(status),
        };
        let node = Node::of(node.kind, &latest);
        let foreground = node.has(FINALIZER_FOREGROUND);
        if node.deleting {
            if foreground {
                return self.process_deleting_dependents(uid, &node).await;
            }
            return Ok(());
        }
        if node.owners.is_empty() {
            return Ok(());
        }
        let (mut solid, mut dangling, mut waiting) = (0, Vec::new(), Vec::new());
        for owner in &node.owners {
            match self.find(owner, &node.namespace).await? {
                Found::Solid => solid += 1,
                Found::Dangling => dangling.push(owner.uid.clone()),
                Found::Waiting => waiting.push(owner.uid.clone()),
            }
        }
        if solid > 0 {
            if dangling.is_empty() && waiting.is_empty() {
                return Ok(());
            }
            // Only the references to owners that go are removed.
            let gone: BTreeSet<String> = dangling.into_iter().chain(waiting).collect();
            return self
                .edit(uid, &node, |meta| {
                    remove_owners(meta, |o| gone.contains(o));
                    true
                })
                .await;
        }
        let has_dependents = self.dependents.get(uid).is_some_and(|d| !d.is_empty());
        let policy = if !waiting.is_empty() && has_dependents {
            // Its owner waits for it, and it has dependents of its own:
            // it goes in the foreground too. In a circle of blocking
            // references, its own references stop blocking (upstream's
            // `unblockOwnerReferences`), or every member would wait for
            // the next.
            let circle = self
                .dependents
                .get(uid)
                .into_iter()
                .flatten()
                .any(|d| self.nodes.get(d).is_some_and(Node::waiting_for_dependents));
            if circle {
                self.edit(uid, &node, unblock).await?;
            }
            PropagationPolicy::Foreground
        } else if node.has(FINALIZER_ORPHAN) {
            PropagationPolicy::Orphan
        } else if foreground {
            PropagationPolicy::Foreground
        } else {
            PropagationPolicy::Background
        };
        self.delete(uid, &node, policy).await
    }

    /// An object deleted in the foreground: its blocking dependents that
    /// are not going yet are deleted; with none left, its
    /// `foregroundDeletion` finalizer goes (`processDeletingDependentsItem`).
    async fn process_deleting_dependents(&mut self, uid: &str, node: &Node) -> Result<(), Status> {
        let blocking: Vec<String> = self
            .dependents
            .get(uid)
            .into_iter()
            .flatten()
            .filter(|d| {
                self.nodes
                    .get(*d)
                    .is_some_and(|n| n.owners.iter().any(|o| o.uid == uid && o.block))
            })
            .cloned()
            .collect();
        if blocking.is_empty() {
            if self.observe_unseen_dependents(uid, node).await? {
                // The graph had not seen them all: their work is queued,
                // and the owner's comes again when they change.
                return Ok(());
            }
            return self
                .edit(uid, node, |meta| {
                    remove_finalizer(meta, FINALIZER_FOREGROUND)
                })
                .await;
        }
        for dependent in blocking {
            if self.nodes.get(&dependent).is_some_and(|n| !n.deleting) {
                self.enqueue(Work::AttemptToDelete(dependent));
            }
        }
        Ok(())
    }

    /// Reads every kind once more for dependents of `uid` (in its
    /// namespace, or everywhere for a cluster-scoped owner) that the graph
    /// has not seen, or has seen without the reference, and observes them;
    /// whether there were any. Before the collector lets an owner go with
    /// the dependents it knows (the last step of a foreground or orphan
    /// deletion), it must know them all, and the watches of other kinds
    /// may lag behind the owner's: on etcd a dependent created just before
    /// the owner's delete can still be on its way (and etcd releases before
    /// 3.4.31 may even send a progress notification ahead of it, so a
    /// bookmark proves nothing). A consistent read does. Upstream's
    /// collector has the same window, with informers.
    async fn observe_unseen_dependents(&mut self, uid: &str, owner: &Node) -> Result<bool, Status> {
        let mut unseen = Vec::new();
        for (index, kind) in self.kinds.iter().enumerate() {
            if !self.live[index] {
                continue;
            }
            let namespace = if owner.namespace.is_empty() {
                ""
            } else if kind.namespaced() {
                owner.namespace.as_str()
            } else {
                continue; // a namespaced owner has no cluster-scoped dependents
            };
            let nodes = &self.nodes;
            list_each(kind.as_ref(), namespace, |object| {
                let meta = &object["metadata"];
                if !owners(meta).iter().any(|o| o.uid == uid) {
                    return;
                }
                let known = meta["uid"]
                    .as_str()
                    .and_then(|d| nodes.get(d))
                    .is_some_and(|n| n.owners.iter().any(|o| o.uid == uid));
                if !known {
                    unseen.push((index, object.clone()));
                }
            })
            .await?;
        }
        let found = !unseen.is_empty();
        for (index, object) in unseen {
            self.observe(index, "MODIFIED", &object);
        }
        Ok(found)
    }

    /// An object deleted with `Orphan`: its references leave its
    /// dependents, then its `orphan` finalizer goes (`orphanDependents`).
    async fn orphan_dependents(&mut self, uid: &str) -> Result<(), Status> {
        let Some(node) = self.nodes.get(uid).cloned() else {
            return Ok(());
        };
        if !node.orphaning() {
            return Ok(());
        }
        self.observe_unseen_dependents(uid, &node).await?;
        for dependent in self.dependents.get(uid).cloned().unwrap_or_default() {
            let Some(dependent_node) = self.nodes.get(&dependent).cloned() else {
                continue;
            };
            self.edit(&dependent, &dependent_node, |meta| {
                remove_owners(meta, |o| o == uid);
                true
            })
            .await?;
        }
        self.edit(uid, &node, |meta| remove_finalizer(meta, FINALIZER_ORPHAN))
            .await
    }

    /// Reads the object again, changes its metadata with `change` (which
    /// says whether it changed anything) and writes it back at the
    /// revision read (a conflict is retried later). An object that is
    /// gone, or is another object of that name, needs nothing.
    async fn edit(
        &self,
        uid: &str,
        node: &Node,
        change: impl FnOnce(&mut serde_json::Map<String, Value>) -> bool,
    ) -> Result<(), Status> {
        let kind = &self.kinds[node.kind];
        let mut object = match kind.get(&node.namespace, &node.name).await {
            Ok(object) => object,
            Err(status) if status.code == 404 => return Ok(()),
            Err(status) => return Err(status),
        };
        if object["metadata"]["uid"] != uid {
            return Ok(());
        }
        let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) else {
            return Ok(());
        };
        if !change(meta) {
            return Ok(());
        }
        let body = serde_json::to_vec(&object).map_err(Status::internal_error)?;
        match kind
            .update(&node.namespace, &node.name, &body, &self.options, false)
            .await
        {
            Err(status) if status.code == 404 => Ok(()),
            other => other.map(|_| ()),
        }
    }

    /// Deletes the object (only this one: the uid is a precondition).
    async fn delete(
        &self,
        uid: &str,
        node: &Node,
        policy: PropagationPolicy,
    ) -> Result<(), Status> {
        let options = DeleteOptions {
            uid: Some(uid.to_string()),
            propagation_policy: Some(policy),
            ..DeleteOptions::default()
        };
        match self.kinds[node.kind]
            .delete(&node.namespace, &node.name, &options, false)
            .await
        {
            // Gone already, or another object by that name now.
            Err(status) if status.code == 404 || status.code == 409 => Ok(()),
            other => other.map(|_| ()),
        }
    }
}

/// `metadata.ownerReferences`.
fn owners(meta: &Value) -> Vec<Owner> {
    meta["ownerReferences"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| {
            Some(Owner {
                uid: r["uid"].as_str()?.to_string(),
                api_version: r["apiVersion"].as_str().unwrap_or_default().to_string(),
                kind: r["kind"].as_str().unwrap_or_default().to_string(),
                name: r["name"].as_str().unwrap_or_default().to_string(),
                block: r["blockOwnerDeletion"].as_bool().unwrap_or(false),
            })
        })
        .collect()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// Removes the owner references whose uid `gone` picks.
fn remove_owners(meta: &mut serde_json::Map<String, Value>, gone: impl Fn(&str) -> bool) {
    if let Some(Value::Array(refs)) = meta.get_mut("ownerReferences") {
        refs.retain(|r| !r["uid"].as_str().is_some_and(&gone));
        if refs.is_empty() {
            meta.remove("ownerReferences");
        }
    }
}

/// Sets `blockOwnerDeletion` to false on every reference; whether any was
/// true.
fn unblock(meta: &mut serde_json::Map<String, Value>) -> bool {
    let mut changed = false;
    if let Some(Value::Array(refs)) = meta.get_mut("ownerReferences") {
        for r in refs {
            if r["blockOwnerDeletion"] == true {
                r["blockOwnerDeletion"] = Value::Bool(false);
                changed = true;
            }
        }
    }
    changed
}

/// Removes `finalizer`; whether it was there.
fn remove_finalizer(meta: &mut serde_json::Map<String, Value>, finalizer: &str) -> bool {
    let Some(Value::Array(list)) = meta.get_mut("finalizers") else {
        return false;
    };
    let before = list.len();
    list.retain(|f| f != finalizer);
    let changed = list.len() != before;
    if list.is_empty() {
        meta.remove("finalizers");
    }
    changed
}

/// The page size the collector lists in: client-go's pager's default, so that a
/// controller's list of a large collection reads it a page at a time and
/// never holds all of it.
const CONTROLLER_PAGE: usize = 500;

/// Lists every object of `kind` in `namespace` (`""`: every namespace) a
/// page of [`CONTROLLER_PAGE`] at a time, all pages at the first page's
/// revision, and hands each item to `each`; returns the list's
/// resourceVersion (to watch from). As client-go's pager
/// (`FullListIfExpired`): when a continue token has expired (410, its
/// revision compacted), it lists again from the start in one unpaged
/// read, so `each` may see an object twice.
async fn list_each(
    kind: &dyn ServedKind,
    namespace: &str,
    mut each: impl FnMut(&Value),
) -> Result<String, Status> {
    let mut options = ListOptions {
        limit: Some(CONTROLLER_PAGE),
        ..ListOptions::default()
    };
    let mut revision = None;
    loop {
        let page = match kind.list(namespace, &options).await {
            Ok(page) => page,
            Err(e) if e.code == 410 && options.continue_token.is_some() => {
                options = ListOptions::default();
                revision = None;
                kind.list(namespace, &options).await?
            }
            Err(e) => return Err(e),
        };
        for item in page["items"].as_array().into_iter().flatten() {
            each(item);
        }
        let meta = &page["metadata"];
        if revision.is_none() {
            revision = meta["resourceVersion"].as_str().map(str::to_string);
        }
        match meta["continue"].as_str().filter(|c| !c.is_empty()) {
            Some(token) if options.limit.is_some() => {
                options.continue_token = Some(token.to_string());
            }
            _ => return Ok(revision.unwrap_or_default()),
        }
    }
}
