//! The pipeline of a derive: parse the input into a model, check it (keys,
//! lints, schema keywords, the resource's attributes) into one
//! `Diagnostics`, then generate code from the checked model, or emit the
//! errors with stand-in impls.

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand;
use crate::lints::{self, Diagnostics};
use crate::model::Derive;

/// Expands a derive: the generated items, or the errors (together with
/// whatever could still be generated, so that follow-up errors stay quiet).
pub fn expand(input: &syn::DeriveInput, derive: Derive) -> TokenStream {
    expand_with(input, derive, true)
}

/// [`expand`], with the lint passes on or off (off only to measure what
/// they cost, in the `lint_cost` test).
pub fn expand_with(input: &syn::DeriveInput, derive: Derive, lints_on: bool) -> TokenStream {
    let mut diags = Diagnostics::default();
    let Some(model) = crate::model::parse(input, derive, &mut diags) else {
        let (errors, warnings, _) = diags.into_tokens();
        return quote!(#errors #warnings);
    };
    crate::check::keys::check(&model, &mut diags);
    if lints_on {
        lints::run(&model, &mut diags);
    }
    let schema = crate::check::schema::check(&model, &mut diags);
    let mut out = expand::api_type(&model, &schema);
    if derive == Derive::KubeResource
        && let Some(checked) = crate::check::resource::check(&model, &mut diags)
    {
        out.extend(expand::root::root(&model, &checked));
    }
    let (errors, warnings, late_checks) = diags.into_tokens();
    match errors {
        // On errors: the errors, plus stand-in impls so that the types
        // using this one do not report it again.
        Some(errors) if input.generics.params.is_empty() => {
            let stub = expand::stub_impls(&model);
            quote!(#errors #warnings #stub)
        }
        // A generic type: the warnings name field types whose parameters
        // nothing declares, so only the errors are emitted.
        Some(errors) => errors,
        None => quote!(#out #warnings #late_checks),
    }
}
