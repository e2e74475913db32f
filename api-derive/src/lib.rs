//! Derive macros of api-core: `#[derive(KubeResource)]` and
//! `#[derive(ApiType)]`. Users never name this crate: they write
//! `use api_core::prelude::*;`. The documentation of both derives, their
//! attributes and the lints is in `api_core`.

// Functions stay under `too-many-lines-threshold` (api-derive/clippy.toml).
#![warn(clippy::too_many_lines)]

mod check;
mod expand;
mod facts;
mod lints;
mod model;
mod pipeline;
#[cfg(test)]
mod tests;

use proc_macro::TokenStream;

/// Generates the root object, its list, `Resource`, `ApiType`, the
/// structural schema and the CRD from a resource's spec struct. See
/// `api_core::KubeResource`.
#[proc_macro_derive(KubeResource, attributes(kube, default))]
pub fn derive_kube_resource(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => pipeline::expand(&input, model::Derive::KubeResource).into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Implements `ApiType` (defaulting, validation, structural schema) for a
/// type used inside an API. See `api_core::ApiType`.
#[proc_macro_derive(ApiType, attributes(kube, default))]
pub fn derive_api_type(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => pipeline::expand(&input, model::Derive::ApiType).into(),
        Err(e) => e.to_compile_error().into(),
    }
}
