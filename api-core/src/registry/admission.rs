//! Admission plugins: what kube-apiserver's admission chain does before a
//! write reaches the store, as asynchronous steps a [`Registry`] runs
//! itself (so every caller of the store, HTTP or not, goes through them).
//!
//! A plugin sees the request's [`Attributes`] (operation, kind, namespace,
//! name, subresource) and may read other objects to decide: the
//! NamespaceLifecycle plugin looks the namespace up. Plugins run after
//! the object is decoded and before it is defaulted, validated or stored,
//! as mutating admission precedes validation in the apiserver; a refusal
//! is the request's answer and nothing is written.
//!
//! Install them with [`Registry::with_admission_plugins`]; a server
//! installs its own on every kind it serves.

use std::sync::Arc;

use super::{BoxFuture, KindInfo, Registry, Served};
use crate::status::Status;

/// The operation a write asks for (`admission.Operation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// A create (also an update or apply that creates).
    Create,
    /// An update, patch or apply of an existing object (also a status
    /// write, with its subresource).
    Update,
    /// A delete (each object of a collection delete too).
    Delete,
}

/// What an admission plugin is told about a write (`admission.Attributes`).
#[derive(Clone, Copy, Debug)]
pub struct Attributes<'a> {
    /// The operation.
    pub operation: Operation,
    /// The kind written.
    pub kind: &'a KindInfo,
    /// The object's namespace (`""` for a cluster-scoped kind).
    pub namespace: &'a str,
    /// The object's name (`""` for a create with `generateName` whose
    /// name is not generated yet).
    pub name: &'a str,
    /// The subresource written (`"status"`), `""` for the object.
    pub subresource: &'a str,
}

/// One step of the admission chain: answers `Ok` to let a write through,
/// or the [`Status`] that refuses it.
pub trait AdmissionPlugin: Send + Sync {
    /// Decides on the write `attributes` describes.
    fn admit<'a>(&'a self, attributes: Attributes<'a>) -> BoxFuture<'a, Result<(), Status>>;
}

/// The admission plugins of a registry, in the order they run.
pub type AdmissionPlugins = Arc<[Arc<dyn AdmissionPlugin>]>;

impl<K: Served> Registry<K> {
    /// A view of the registry that runs `plugins`, in order, before every
    /// create, update, patch, apply and delete (in place of those it ran).
    /// Cheap: a view sharing everything else.
    pub fn with_admission_plugins(&self, plugins: AdmissionPlugins) -> Self {
        let mut out = self.clone_view();
        out.plugins = plugins;
        out
    }

    /// Runs the admission plugins on a write.
    pub(crate) async fn admit(
        &self,
        operation: Operation,
        namespace: &str,
        name: &str,
        subresource: &str,
    ) -> Result<(), Status> {
        for plugin in self.plugins.iter() {
            plugin
                .admit(Attributes {
                    operation,
                    kind: &self.kind,
                    namespace,
                    name,
                    subresource,
                })
                .await?;
        }
        Ok(())
    }
}
