//! The names of a `KubeResource` (group/version/kind, plural, singular,
//! short names, categories), read from `#[kube(...)]`.

use proc_macro2::Span;
use syn::Ident;

use super::attrs::ContainerAttrs;
use super::plural;
use crate::lints::Diagnostics;

/// group/version/kind and the resource names, with the spans to report at.
pub struct ResourceNames {
    pub group: (String, Span),
    pub version: (String, Span),
    pub kind: (String, Span),
    pub plural: (String, Span),
    pub singular: (String, Span),
    pub short_names: Vec<(String, Span)>,
    pub categories: Vec<(String, Span)>,
}

impl ResourceNames {
    /// The names that must be DNS-1035 labels, with what they are.
    pub fn dns_names(&self) -> impl Iterator<Item = (&'static str, &str, Span)> {
        [("plural", &self.plural), ("singular", &self.singular)]
            .into_iter()
            .map(|(w, (v, s))| (w, v.as_str(), *s))
            .chain(
                self.short_names
                    .iter()
                    .map(|(v, s)| ("short name", v.as_str(), *s)),
            )
            .chain(
                self.categories
                    .iter()
                    .map(|(v, s)| ("category", v.as_str(), *s)),
            )
    }
}

pub(super) fn resource_names(
    ident: &Ident,
    attrs: &ContainerAttrs,
    diags: &mut Diagnostics,
) -> Option<ResourceNames> {
    let mut missing = Vec::new();
    let mut get = |v: &Option<syn::LitStr>, key: &'static str| {
        v.as_ref().map(|l| (l.value(), l.span())).or_else(|| {
            missing.push(key);
            None
        })
    };
    let group = get(&attrs.group, "group");
    let version = get(&attrs.version, "version");
    let kind = get(&attrs.kind, "kind");
    if !missing.is_empty() {
        let keys = missing
            .iter()
            .map(|k| format!("{k} = \"...\""))
            .collect::<Vec<_>>()
            .join(", ");
        diags.error(
            ident.span(),
            format!(
                "#[derive(KubeResource)] needs {}: #[kube({keys})]\n  help: e.g. #[kube(group = \"cache.example.com\", version = \"v1alpha1\", kind = \"Memcached\")]",
                missing.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            ),
        );
        return None;
    }
    let (group, version, kind) = (group?, version?, kind?);
    if *ident == kind.0 && attrs.root.is_none() {
        diags.error(
            kind.1,
            format!(
                "the kind `{}` is the name of the generated root struct, so the spec struct needs another name (`{}Spec`), or give the root another name with `root = \"...\"`",
                kind.0, kind.0
            ),
        );
    }
    let lower = kind.0.to_lowercase();
    let plural = attrs.plural.as_ref().map_or_else(
        || (plural::pluralize(&lower), kind.1),
        |l| (l.value(), l.span()),
    );
    let singular = attrs
        .singular
        .as_ref()
        .map_or_else(|| (lower.clone(), kind.1), |l| (l.value(), l.span()));
    Some(ResourceNames {
        group,
        version,
        kind,
        plural,
        singular,
        short_names: attrs
            .shortname
            .iter()
            .map(|l| (l.value(), l.span()))
            .collect(),
        categories: attrs
            .category
            .iter()
            .map(|l| (l.value(), l.span()))
            .collect(),
    })
}
