//! The root object of a `KubeResource`: struct, list alias, `Resource`,
//! serde, schema, CRD.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::LitStr;

use super::keywords::{RuleSrc, opt_str, rules};
use super::private;
use crate::lints::Diagnostics;
use crate::model::{Data, Model};

const COLUMN_TYPES: &[&str] = &["integer", "number", "string", "boolean", "date"];
const COLUMN_FORMATS: &[&str] = &[
    "int32",
    "int64",
    "float",
    "double",
    "byte",
    "date",
    "date-time",
    "password",
];

fn check_simple_path(lit: &LitStr, what: &str, prefix: Option<&str>, diags: &mut Diagnostics) {
    let v = lit.value();
    if !v.starts_with('.') || v.len() < 2 {
        diags.error(
            lit.span(),
            format!("{what} must be a JSON path starting with `.`, like `.spec.replicas`"),
        );
    } else if let Some(prefix) = prefix
        && !v.starts_with(prefix)
    {
        diags.error(lit.span(), format!("{what} must be under `{prefix}`"));
    }
}

pub fn root(model: &Model, diags: &mut Diagnostics) -> TokenStream {
    let Some(names) = &model.resource else {
        return quote!();
    };
    let k = &model.krate;
    let p = private(model);
    let a = &model.attrs;
    let spec = &model.ident;
    let vis = &model.vis;
    let kind = &names.kind.0;
    let root_name = a.root.as_ref().map_or_else(|| kind.clone(), LitStr::value);
    let root = format_ident!(
        "{}",
        root_name,
        span = a.root.as_ref().map_or(names.kind.1, LitStr::span)
    );
    let list = format_ident!("{}List", root_name, span = root.span());
    let (group, version, plural, singular) = (
        &names.group.0,
        &names.version.0,
        &names.plural.0,
        &names.singular.0,
    );
    let api_version = if group.is_empty() {
        version.clone()
    } else {
        format!("{group}/{version}")
    };
    let short_names = names.short_names.iter().map(|(s, _)| s);
    let categories = names.categories.iter().map(|(s, _)| s);
    let namespaced = a.namespaced.is_present();
    let no_spec = a.no_spec.is_present();
    let optional_spec = a.optional_spec.is_present();

    if !matches!(model.data, Data::Struct(_)) {
        diags.error(
            spec.span(),
            "#[derive(KubeResource)] needs a struct with named fields (the spec)",
        );
        return quote!();
    }
    if no_spec && optional_spec {
        diags.error(
            a.optional_spec.span(),
            "`optional_spec` and `no_spec` exclude each other",
        );
    }
    if no_spec && a.status.is_some() {
        diags.error(a.no_spec.span(), "`no_spec` puts the fields at the top level, so there is no spec/status split: drop `status` or `no_spec`");
    }

    let status_ty = a.status.as_ref().map(|s| (**s).clone());
    let status_subresource = a
        .status_subresource
        .as_ref()
        .map_or(status_ty.is_some(), |s| **s);
    if let Some(scale) = &a.scale {
        if !status_subresource {
            diags.error(scale.span(), "the scale subresource needs the status subresource: declare `status = \"...\"` (or `status_subresource = true`)");
        }
        check_simple_path(
            &scale.spec_replicas_path,
            "`spec_replicas_path`",
            Some(".spec."),
            diags,
        );
        check_simple_path(
            &scale.status_replicas_path,
            "`status_replicas_path`",
            Some(".status."),
            diags,
        );
        if let Some(l) = &scale.label_selector_path {
            check_simple_path(l, "`label_selector_path`", None, diags);
        }
    }
    let mut columns = Vec::new();
    for col in &a.printcolumn {
        let t = col.type_.value();
        if !COLUMN_TYPES.contains(&t.as_str()) {
            diags.error(
                col.type_.span(),
                format!(
                    "printcolumn `type` must be one of {}",
                    COLUMN_TYPES.join(", ")
                ),
            );
        }
        if let Some(f) = &col.format
            && !COLUMN_FORMATS.contains(&f.value().as_str())
        {
            diags.error(
                f.span(),
                format!(
                    "printcolumn `format` must be one of {}",
                    COLUMN_FORMATS.join(", ")
                ),
            );
        }
        check_simple_path(&col.json_path, "printcolumn `json_path`", None, diags);
        let (name, json_path) = (&col.name, &col.json_path);
        let description = opt_str(col.description.as_ref().map(LitStr::value).as_deref());
        let format = opt_str(col.format.as_ref().map(LitStr::value).as_deref());
        let priority = col.priority.unwrap_or(0);
        columns.push(quote!(#p::PrintColumn { name: #name, type_: #t, json_path: #json_path, description: #description, format: #format, priority: #priority }));
    }
    crate::lints::check_resource_paths(k, &root, a, &model.levels, diags);
    // `status_optional`: the resource knows which type is its status, so it
    // checks that type's top-level fields through its facts.
    if let Some(st) = &a.status {
        let shown = quote!(#st).to_string().replace(' ', "");
        let lint = crate::lints::LintId::StatusOptional;
        if crate::lints::level(lint, &[&model.levels], crate::lints::Context::Status)
            != crate::lints::Level::Allow
        {
            let msg = crate::lints::message(
                lint,
                &format!("{root}.status"),
                &format!("the status type `{shown}` has a required top-level field"),
                "every top-level status field is optional: the status is written by controllers, piece by piece",
            );
            let cond = quote!(!#p::facts::any_required(<#st as #k::ApiType>::FACTS));
            diags.late_check(crate::lints::types::warn_unless(
                &cond,
                lint,
                &msg,
                st.span(),
            ));
        }
    }
    let mut selectable = Vec::new();
    for s in &a.selectable {
        check_simple_path(s, "`selectable`", None, diags);
        selectable.push(s.value());
    }
    if selectable.len() > 8 {
        diags.error(
            a.selectable[8].span(),
            "a resource can have at most 8 selectable fields",
        );
    }
    let scale = match &a.scale {
        Some(s) => {
            let (sp, st) = (&s.spec_replicas_path, &s.status_replicas_path);
            let ls = opt_str(s.label_selector_path.as_ref().map(LitStr::value).as_deref());
            quote!(::core::option::Option::Some(#p::ScaleInfo { spec_replicas_path: #sp, status_replicas_path: #st, label_selector_path: #ls }))
        }
        None => quote!(::core::option::Option::None),
    };
    let (deprecated, deprecation_warning) = match a.deprecated.as_deref() {
        None => (false, None),
        Some(darling::util::Override::Inherit) => (true, None),
        Some(darling::util::Override::Explicit(w)) => (true, Some(w.clone())),
    };
    if let (Some(w), Some(d)) = (&deprecation_warning, &a.deprecated)
        && (w.trim().is_empty() || w.len() > 256)
    {
        diags.error(
            d.span(),
            "a deprecation warning must be non-empty and at most 256 characters",
        );
    }
    let deprecation_warning = opt_str(deprecation_warning.as_deref());
    let served = a.served.unwrap_or(true);
    let storage = a.storage.unwrap_or(true);
    let description = opt_str(a.doc.as_ref().map(LitStr::value).as_deref());
    let root_rules = rules(
        &p,
        &a.validation
            .iter()
            .map(|r| RuleSrc::Written(r))
            .collect::<Vec<_>>(),
        diags,
    );
    let spec_required = !optional_spec && !no_spec;

    let root_doc = a.doc.as_ref().map_or_else(
        || format!("`{kind}`: the root object of the `{kind}` API ({api_version}), generated from [`{spec}`]."),
        LitStr::value,
    );
    let list_doc = format!("A list of [`{root_name}`] (`kind: {kind}List`).");
    let derives = a.derive.iter().map(|d| {
        let path = &**d;
        quote_spanned!(d.span()=> #[derive(#path)])
    });

    let status_field = status_ty.as_ref().map(|t| {
        quote! {
            /// The observed state, written by controllers; absent until first written.
            pub status: ::core::option::Option<#t>,
        }
    });
    let status_ty_or_unit = status_ty.clone().map_or_else(|| quote!(()), |t| quote!(#t));
    let has_status = status_ty.is_some();
    let status_part = if has_status {
        quote!(self.status.as_ref())
    } else {
        quote!(::core::option::Option::None)
    };
    let status_init = if has_status {
        quote!(status,)
    } else {
        quote!()
    };
    let status_none = if has_status {
        quote!(status: ::core::option::Option::None,)
    } else {
        quote!()
    };
    let status_equal = if has_status {
        quote!(#p::json_eq(&self.status, &other.status))
    } else {
        quote!({
            let _ = other;
            true
        })
    };
    let (clear_status, copy_status) = if has_status {
        (
            quote!(self.status = ::core::option::Option::None;),
            quote!(self.status = ::core::clone::Clone::clone(&from.status);),
        )
    } else {
        (quote!(), quote!(let _ = from;))
    };
    let status_bind = if has_status {
        quote!()
    } else {
        quote!(let _ = status;)
    };

    let has_status_impl = status_ty.as_ref().map(|t| {
        quote! {
            #[automatically_derived]
            impl #k::HasStatus for #root {
                type Status = #t;
                fn status(&self) -> ::core::option::Option<&#t> {
                    self.status.as_ref()
                }
                fn status_mut(&mut self) -> &mut ::core::option::Option<#t> {
                    &mut self.status
                }
            }
        }
    });

    let status_facts = status_ty.as_ref().map(|t| {
        quote!(#p::FieldFacts { name: "status", ty: <#t as #k::ApiType>::FACTS, required: false, defaulted: false, flattened: false, masked: 0 },)
    });
    let spec_facts = if no_spec {
        quote!(#p::FieldFacts { name: "", ty: <#spec as #k::ApiType>::FACTS, required: false, defaulted: false, flattened: true, masked: 0 },)
    } else {
        quote!(#p::FieldFacts { name: "spec", ty: <#spec as #k::ApiType>::FACTS, required: #spec_required, defaulted: false, flattened: false, masked: 0 },)
    };
    let body = if no_spec {
        quote!(#p::RootBody::Flat(<#spec as #k::ApiType>::api_schema(__g)))
    } else {
        let status_schema = match &status_ty {
            Some(t) => quote!(::core::option::Option::Some(<#t as #k::ApiType>::api_schema(__g))),
            None => quote!(::core::option::Option::None),
        };
        quote!(#p::RootBody::SpecStatus { spec: <#spec as #k::ApiType>::api_schema(__g), status: #status_schema })
    };
    let status_defaults =
        has_status.then(|| quote!(#k::ApiType::apply_defaults(&mut self.status);));
    let status_validate = has_status.then(
        || quote!(#k::ApiType::validate(&self.status, &#k::FieldPath::new("status"), __errors);),
    );
    let spec_validate_update = if no_spec {
        quote!(#k::ApiType::validate_update(&self.spec, &__old.spec, &#k::FieldPath::new(""), __errors);)
    } else {
        quote!(#k::ApiType::validate_update(&self.spec, &__old.spec, &#k::FieldPath::new("spec"), __errors);)
    };
    let spec_validate = if no_spec {
        // The fields are at the top level: their paths have no prefix.
        quote!(#k::ApiType::validate(&self.spec, &#k::FieldPath::new(""), __errors);)
    } else {
        quote!(#k::ApiType::validate(&self.spec, &#k::FieldPath::new("spec"), __errors);)
    };

    let serde_impls = if no_spec {
        let serde_crate = format!("{}", quote!(#p::serde)).replace(' ', "");
        quote! {
            #[automatically_derived]
            impl #p::serde::Serialize for #root {
                fn serialize<__S: #p::serde::Serializer>(&self, __s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    #[derive(#p::serde::Serialize)]
                    #[serde(crate = #serde_crate)]
                    struct __Wire<'a> {
                        #[serde(rename = "apiVersion")]
                        api_version: &'static str,
                        kind: &'static str,
                        metadata: &'a #k::ObjectMeta,
                        #[serde(flatten)]
                        spec: &'a #spec,
                    }
                    #p::serde::Serialize::serialize(
                        &__Wire { api_version: #api_version, kind: #kind, metadata: &self.metadata, spec: &self.spec },
                        __s,
                    )
                }
            }
            #[automatically_derived]
            impl<'de> #p::serde::Deserialize<'de> for #root {
                fn deserialize<__D: #p::serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                    #[derive(#p::serde::Deserialize)]
                    #[serde(crate = #serde_crate)]
                    struct __Wire {
                        #[serde(rename = "apiVersion", default)]
                        api_version: ::core::option::Option<::std::string::String>,
                        #[serde(default)]
                        kind: ::core::option::Option<::std::string::String>,
                        #[serde(default)]
                        metadata: #k::ObjectMeta,
                        #[serde(flatten)]
                        spec: #spec,
                    }
                    let __w = <__Wire as #p::serde::Deserialize>::deserialize(__d)?;
                    #p::check_flat_type::<__D::Error>(__w.api_version.as_deref(), __w.kind.as_deref(), #api_version, #kind)?;
                    ::core::result::Result::Ok(#root { metadata: __w.metadata, spec: __w.spec })
                }
            }
        }
    } else {
        quote! {
            #[automatically_derived]
            impl #p::RootParts for #root {
                type Spec = #spec;
                type Status = #status_ty_or_unit;
                const HAS_STATUS: bool = #has_status;
                const SPEC_OPTIONAL: bool = #optional_spec;
                const API_VERSION: &'static str = #api_version;
                fn parts(&self) -> (&#k::ObjectMeta, &#spec, ::core::option::Option<&#status_ty_or_unit>) {
                    (&self.metadata, &self.spec, #status_part)
                }
                fn from_parts(
                    metadata: #k::ObjectMeta,
                    spec: #spec,
                    status: ::core::option::Option<#status_ty_or_unit>,
                ) -> Self {
                    #status_bind
                    #root { metadata, spec, #status_init }
                }
            }
            #[automatically_derived]
            impl #p::serde::Serialize for #root {
                fn serialize<__S: #p::serde::Serializer>(&self, __s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    #p::serialize_root(self, __s)
                }
            }
            #[automatically_derived]
            impl<'de> #p::serde::Deserialize<'de> for #root {
                fn deserialize<__D: #p::serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                    #p::deserialize_root(__d)
                }
            }
        }
    };

    quote! {
        #[doc = #root_doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug)]
        #(#derives)*
        #vis struct #root {
            /// Standard object metadata.
            pub metadata: #k::ObjectMeta,
            /// The desired state.
            pub spec: #spec,
            #status_field
        }

        #[doc = #list_doc]
        #vis type #list = #k::List<#root>;

        impl #root {
            /// A new object named `name` with the given spec and no status.
            #vis fn new(name: impl ::core::convert::Into<::std::string::String>, spec: #spec) -> Self {
                #root {
                    metadata: #k::ObjectMeta { name: ::core::convert::Into::into(name), ..::core::default::Default::default() },
                    spec,
                    #status_none
                }
            }

            /// The CustomResourceDefinition of this version of the resource.
            #vis fn crd() -> #k::crd::CustomResourceDefinition {
                <Self as #k::CustomResourceExt>::crd()
            }
        }

        #[automatically_derived]
        impl #k::Resource for #root {
            const GROUP: &'static str = #group;
            const VERSION: &'static str = #version;
            const KIND: &'static str = #kind;
            const PLURAL: &'static str = #plural;
            const SINGULAR: &'static str = #singular;
            const SHORT_NAMES: &'static [&'static str] = &[#(#short_names),*];
            const CATEGORIES: &'static [&'static str] = &[#(#categories),*];
            const SCOPE: #k::Scope = #p::scope(#namespaced);
            fn api_version() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#api_version)
            }
            fn metadata(&self) -> &#k::ObjectMeta {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut #k::ObjectMeta {
                &mut self.metadata
            }
        }

        #[automatically_derived]
        impl #k::SpecStatus for #root {
            const STATUS_SUBRESOURCE: bool = #status_subresource;
            fn spec_equal(&self, other: &Self) -> bool {
                #p::json_eq(&self.spec, &other.spec)
            }
            fn status_equal(&self, other: &Self) -> bool {
                #status_equal
            }
            fn clear_status(&mut self) {
                #clear_status
            }
            fn copy_status(&mut self, from: &Self) {
                #copy_status
            }
            fn copy_spec(&mut self, from: &Self) {
                self.spec = ::core::clone::Clone::clone(&from.spec);
            }
        }

        #[automatically_derived]
        impl #k::HasSpec for #root {
            type Spec = #spec;
            fn spec(&self) -> &#spec {
                &self.spec
            }
            fn spec_mut(&mut self) -> &mut #spec {
                &mut self.spec
            }
        }

        #has_status_impl

        #serde_impls

        impl #root {
            const __INFO: #p::ResourceInfo = #p::ResourceInfo {
                served: #served,
                storage: #storage,
                deprecated: #deprecated,
                deprecation_warning: #deprecation_warning,
                printcolumns: &[#(#columns),*],
                scale: #scale,
                selectable: &[#(#selectable),*],
                status_subresource: #status_subresource,
                description: #description,
                spec_required: #spec_required,
                validations: #root_rules,
            };
        }

        #[automatically_derived]
        impl #p::schemars::JsonSchema for #root {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#root_name)
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(__g: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                #p::root_schema(&Self::__INFO, #body)
            }
        }

        #[automatically_derived]
        impl #k::ApiType for #root {
            const FACTS: &'static #p::TypeFacts = {
                const __FIELDS: &[#p::FieldFacts] = &[
                    #p::FieldFacts { name: "metadata", ty: <#k::ObjectMeta as #k::ApiType>::FACTS, required: false, defaulted: false, flattened: false, masked: 0 },
                    #spec_facts
                    #status_facts
                ];
                &#p::TypeFacts::object(__FIELDS, 0)
            };
            fn apply_defaults(&mut self) {
                #k::ApiType::apply_defaults(&mut self.spec);
                #status_defaults
            }
            fn validate(&self, _: &#k::FieldPath<'_>, __errors: &mut #k::ErrorList) {
                #spec_validate
                #status_validate
            }
            fn validate_update(&self, __old: &Self, _: &#k::FieldPath<'_>, __errors: &mut #k::ErrorList) {
                #spec_validate_update
            }
        }

        #[automatically_derived]
        impl #k::CustomResourceExt for #root {
            fn crd() -> #k::crd::CustomResourceDefinition {
                let mut __g = #p::generator();
                let __schema = <Self as #p::schemars::JsonSchema>::json_schema(&mut __g);
                #p::build_crd::<Self>(&Self::__INFO, __schema)
            }
        }
    }
}
