//! Lists read a page at a time from storage (`Storage::list_page`), as the
//! apiserver's etcd3 store reads them (`GetList`): every page of one list
//! at one revision, a selector's misses made up by reading on, and the
//! `continue` token naming where the next page starts and at which
//! revision.

use crate::meta::ListMeta;
use crate::status::{GroupResource, Status};

use super::select::{encode_continue, next_key};
use super::storage::{ListRequest, Storage, StorageError, Stored};
use super::{ListOptions, ResourceVersionMatch, Revision, Selection};

/// The apiserver's message for a list at an exact revision it no longer
/// has (`expired` in etcd3's store).
pub const EXPIRED: &str = "The resourceVersion for the provided list is too old.";

/// The apiserver's message for a `continue` token whose revision was
/// compacted; the 410 carries a token that continues at the current
/// revision (`inconsistentContinue`).
pub const INCONSISTENT_CONTINUE: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// The largest page read from storage while a selector keeps filtering
/// (etcd3's `maxLimit`), and the chunk a list without a limit is read in.
const MAX_READ: usize = 10_000;

/// The revision a list reads at, from its `continue` token or its
/// `resourceVersion` and `resourceVersionMatch` (none: the current one),
/// as `storage.ValidateListOptions` and the etcd3 store decide:
///
/// * with a token, a `resourceVersion` other than `0` is a 400;
/// * a revision newer than the store's is the apiserver's 504 `Too large
///   resource version` (it waits up to 3 s for it first; this store
///   answers at once);
/// * `Exact` reads at that revision; `NotOlderThan` (and none) read the
///   current one, which is never older.
async fn read_at(
    storage: &dyn Storage,
    resource: &GroupResource,
    selection: &Selection,
    options: &ListOptions,
) -> Result<Option<Revision>, Status> {
    let rv = options.resource_version.as_deref().unwrap_or("");
    if selection.is_continuation() {
        if !matches!(rv, "" | "0") {
            return Err(Status::bad_request(
                "specifying resource version is not allowed when using continue",
            ));
        }
        return Ok(selection.continue_revision());
    }
    if matches!(rv, "" | "0") {
        return Ok(None);
    }
    let requested: Revision = rv
        .parse()
        .map_err(|_| Status::bad_request(format!("invalid resource version {rv:?}")))?;
    let current = storage
        .revision()
        .await
        .map_err(|e| e.into_status(resource.clone(), ""))?;
    if requested > current {
        return Err(too_large(requested, current));
    }
    Ok((options.resource_version_match == Some(ResourceVersionMatch::Exact)).then_some(requested))
}

/// 504 `Timeout: Too large resource version: N, current: M`, with the
/// `ResourceVersionTooLarge` cause clients look for.
pub fn too_large(requested: Revision, current: Revision) -> Status {
    let mut status = Status::timeout(
        format!("Too large resource version: {requested}, current: {current}"),
        1,
    );
    if let Some(details) = status.details.as_mut() {
        details.causes.push(crate::status::StatusCause {
            reason: "ResourceVersionTooLarge".into(),
            message: "Too large resource version".into(),
            field: String::new(),
        });
    }
    status
}

/// Reads the page `options` asks for under `prefix`: `keep` turns each
/// stored object into an item, or `None` when the selection drops it.
/// Pages read from storage double (up to 10,000) while a selector leaves
/// the page short, all at the revision of the first read.
pub(crate) async fn list_page<T>(
    storage: &dyn Storage,
    resource: &GroupResource,
    prefix: &str,
    selection: &Selection,
    options: &ListOptions,
    mut keep: impl FnMut(&Stored) -> Result<Option<T>, Status>,
) -> Result<(Vec<T>, ListMeta), Status> {
    // A list without a limit is read in chunks of `MAX_READ` too, all at
    // the first chunk's revision: each chunk becomes items before the next
    // is read, so the storage's form of the whole collection is never held
    // at once (on etcd, one range of 100,000 values).
    let mut request = ListRequest {
        from_key: selection.start_key(prefix),
        limit: Some(selection.limit().unwrap_or(MAX_READ)),
        revision: read_at(storage, resource, selection, options).await?,
    };
    let mut items = Vec::new();
    let mut last_key: Option<String> = None;
    let (revision, more, remaining) = loop {
        let page = match storage.list_page(prefix, &request).await {
            Ok(page) => page,
            Err(StorageError::TooOld { .. }) if selection.is_continuation() => {
                let mut status = Status::resource_expired(INCONSISTENT_CONTINUE);
                if let Some(start) = &request.from_key {
                    status.metadata.continue_ = encode_continue(start, prefix, -1);
                }
                return Err(status);
            }
            Err(StorageError::TooOld { .. }) => return Err(Status::resource_expired(EXPIRED)),
            Err(e) => return Err(e.into_status(resource.clone(), "")),
        };
        request.revision = Some(page.revision);
        let mut more = page.more;
        for stored in &page.items {
            if selection.limit().is_some_and(|l| items.len() >= l) {
                more = true;
                break;
            }
            last_key = Some(stored.key.clone());
            if let Some(item) = keep(stored)? {
                items.push(item);
            }
        }
        let full = selection.limit().is_some_and(|l| items.len() >= l);
        if !more || full {
            break (page.revision, more, page.remaining);
        }
        let Some(last) = &last_key else {
            break (page.revision, more, page.remaining);
        };
        request.from_key = Some(next_key(last));
        request.limit = request.limit.map(|l| (l * 2).min(MAX_READ));
    };
    let mut metadata = ListMeta {
        resource_version: revision.to_string(),
        ..ListMeta::default()
    };
    if more && let Some(last) = &last_key {
        metadata.continue_ = encode_continue(&next_key(last), prefix, revision as i64);
        if selection.is_unfiltered() {
            metadata.remaining_item_count = i64::try_from(remaining).ok();
        }
    }
    Ok((items, metadata))
}
