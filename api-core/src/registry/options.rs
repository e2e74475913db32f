//! The options of lists, watches and deletes, and what a delete's
//! `propagationPolicy` becomes under garbage collection.

/// Options of a list or a watch.
#[derive(Clone, Debug, Default)]
pub struct ListOptions {
    /// A label selector (`app=web,tier!=db`).
    pub label_selector: Option<String>,
    /// A field selector on `metadata.name` and `metadata.namespace`
    /// (`metadata.name=web`).
    pub field_selector: Option<String>,
    /// At most this many items (a page); the rest is behind `continue`.
    pub limit: Option<usize>,
    /// The `continue` token of the previous page.
    pub continue_token: Option<String>,
    /// For a watch: the revision to start after (a list's
    /// `resourceVersion`); the current revision when unset. For a list:
    /// with [`ResourceVersionMatch::Exact`], the revision to read at;
    /// otherwise the oldest revision the list may show (a newer one than
    /// the store's is a 504).
    pub resource_version: Option<String>,
    /// How a list reads `resource_version` (`resourceVersionMatch`).
    pub resource_version_match: Option<ResourceVersionMatch>,
    /// For a watch: start with the current state as ADDED events, then
    /// follow the changes after it (`sendInitialEvents`; an apiserver
    /// sets it for a watch without a `resourceVersion` or at `"0"`).
    /// `resource_version` is not read then.
    pub send_initial_events: bool,
    /// For a watch: deliver [`Bookmark`](super::Bookmark)s
    /// (`allowWatchBookmarks`): one that ends the initial events, and one
    /// per progress notification the watch's
    /// [`progress_requester`](super::Watch::progress_requester) asks for.
    pub allow_watch_bookmarks: bool,
}

/// `resourceVersionMatch` of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceVersionMatch {
    /// At least this revision (the current one is served).
    NotOlderThan,
    /// Exactly this revision (410 `Expired` once the store no longer
    /// keeps it).
    Exact,
}

/// Preconditions and options of a delete.
#[derive(Clone, Debug, Default)]
pub struct DeleteOptions {
    /// Delete only if the object has this uid.
    pub uid: Option<String>,
    /// Delete only if the object is at this resourceVersion.
    pub resource_version: Option<String>,
    /// Override the strategy's grace period (0: at once).
    pub grace_period_seconds: Option<i64>,
    /// `propagationPolicy`: what becomes of the object's dependents. A
    /// registry with garbage collection
    /// ([`Registry::with_garbage_collection`](super::Registry::with_garbage_collection)) records it as the
    /// apiserver does, as finalizers a garbage collector acts on.
    pub propagation_policy: Option<PropagationPolicy>,
    /// The deprecated `orphanDependents` (`true`: as `Orphan`; `false`: as
    /// `Background`); it wins over `propagation_policy`.
    pub orphan_dependents: Option<bool>,
}

/// `DeleteOptions.propagationPolicy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropagationPolicy {
    /// The dependents stay, their owner references to the object removed
    /// (the `orphan` finalizer).
    Orphan,
    /// The object goes at once; a garbage collector deletes the
    /// dependents afterwards (the default for custom resources).
    Background,
    /// The object stays, `foregroundDeletion`, until its blocking
    /// dependents are gone.
    Foreground,
}

impl PropagationPolicy {
    /// The API's name: `Orphan`, `Background`, `Foreground`.
    pub fn as_str(self) -> &'static str {
        match self {
            PropagationPolicy::Orphan => "Orphan",
            PropagationPolicy::Background => "Background",
            PropagationPolicy::Foreground => "Foreground",
        }
    }

    /// The policy named `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "Orphan" => Some(PropagationPolicy::Orphan),
            "Background" => Some(PropagationPolicy::Background),
            "Foreground" => Some(PropagationPolicy::Foreground),
            _ => None,
        }
    }
}

/// The finalizer of an object whose dependents are orphaned when it goes.
pub const FINALIZER_ORPHAN: &str = "orphan";

/// The finalizer of an object deleted in the foreground.
pub const FINALIZER_FOREGROUND: &str = "foregroundDeletion";

/// The finalizers a delete leaves on an object under garbage collection
/// (`deletionFinalizersForGarbageCollection`): the orphan and foreground
/// finalizers as the request's policy says (`orphanDependents`, else
/// `propagationPolicy`, else the object's own choice), the others as they
/// are. `None` when they do not change.
pub(super) fn gc_finalizers(finalizers: &[String], options: &DeleteOptions) -> Option<Vec<String>> {
    let has = |f: &str| finalizers.iter().any(|x| x == f);
    let policy = match (options.orphan_dependents, options.propagation_policy) {
        (Some(true), _) => Some(PropagationPolicy::Orphan),
        (Some(false), _) => Some(PropagationPolicy::Background),
        (None, policy) => policy,
    };
    let (orphan, foreground) = match policy {
        Some(PropagationPolicy::Orphan) => (true, false),
        Some(PropagationPolicy::Foreground) => (false, true),
        Some(PropagationPolicy::Background) => (false, false),
        // The object's own finalizers decide; custom resources default
        // to deleting their dependents.
        None => (
            has(FINALIZER_ORPHAN),
            !has(FINALIZER_ORPHAN) && has(FINALIZER_FOREGROUND),
        ),
    };
    let mut out: Vec<String> = finalizers
        .iter()
        .filter(|f| *f != FINALIZER_ORPHAN && *f != FINALIZER_FOREGROUND)
        .cloned()
        .collect();
    if orphan {
        out.push(FINALIZER_ORPHAN.into());
    }
    if foreground {
        out.push(FINALIZER_FOREGROUND.into());
    }
    let same = out.len() == finalizers.len() && out.iter().all(|f| has(f));
    (!same).then_some(out)
}
