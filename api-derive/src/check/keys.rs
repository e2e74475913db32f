//! The keys of `#[kube(...)]` that only `KubeResource` understands:
//! errors when an `ApiType` carries them.

use proc_macro2::Span;

use crate::lints::Diagnostics;
use crate::model::{Derive, Model};

/// Keys of `#[kube(...)]` that only `KubeResource` understands.
pub fn check(model: &Model, diags: &mut Diagnostics) {
    if model.derive == Derive::KubeResource {
        return;
    }
    let a = &model.attrs;
    let mut only = |present: Option<Span>, key: &str| {
        if let Some(span) = present {
            diags.error(
                span,
                format!("`{key}` describes a resource: it belongs on the spec struct with #[derive(KubeResource)], not on #[derive(ApiType)]"),
            );
        }
    };
    only(a.group.as_ref().map(|l| l.span()), "group");
    only(a.version.as_ref().map(|l| l.span()), "version");
    only(a.kind.as_ref().map(|l| l.span()), "kind");
    only(
        a.namespaced.is_present().then(|| a.namespaced.span()),
        "namespaced",
    );
    only(a.status.as_ref().map(|s| s.span()), "status");
    only(a.annotation.first().map(|s| s.span()), "annotation");
    only(a.label.first().map(|s| s.span()), "label");
    only(
        a.status_default
            .as_ref()
            .map(|d| syn::spanned::Spanned::span(&d.0)),
        "status_default",
    );
    only(a.plural.as_ref().map(|l| l.span()), "plural");
    only(a.singular.as_ref().map(|l| l.span()), "singular");
    only(a.shortname.first().map(|l| l.span()), "shortname");
    only(a.category.first().map(|l| l.span()), "category");
    only(a.printcolumn.first().map(|p| p.span()), "printcolumn");
    only(a.scale.as_ref().map(|s| s.span()), "scale");
    only(a.selectable.first().map(|l| l.span()), "selectable");
    only(a.root.as_ref().map(|l| l.span()), "root");
    only(a.deprecated.as_ref().map(|d| d.span()), "deprecated");
    only(
        a.status_subresource.as_ref().map(|d| d.span()),
        "status_subresource",
    );
    only(
        a.optional_spec.is_present().then(|| a.optional_spec.span()),
        "optional_spec",
    );
    only(a.no_spec.is_present().then(|| a.no_spec.span()), "no_spec");
    only(a.doc.as_ref().map(|l| l.span()), "doc");
    only(a.spec_doc.as_ref().map(|l| l.span()), "spec_doc");
    only(a.status_doc.as_ref().map(|l| l.span()), "status_doc");
    only(a.derive.first().map(|d| d.span()), "derive");
    if a.served.is_some() {
        only(Some(model.ident.span()), "served");
    }
    if a.storage.is_some() {
        only(Some(model.ident.span()), "storage");
    }
}
