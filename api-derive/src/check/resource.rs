//! The checks of a `KubeResource`'s resource attributes: the spec/status
//! layout, the scale subresource, printer columns, selectable fields and
//! deprecation, plus the lints on the paths they name and on the status
//! type. The result, [`ResourceChecked`], is what code generation reads.

use quote::{format_ident, quote};
use syn::{Ident, LitStr, Type};

use super::keywords::{self, Rule};
use crate::lints::{self, Context, Diagnostics, Level, LintId};
use crate::model::attrs::{self, ContainerAttrs, KeyValue};
use crate::model::{Data, Model, ResourceNames};

/// The type of a printer column's values (`printcolumn(type = "...")`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    Integer,
    Number,
    String,
    Boolean,
    Date,
}

impl ColumnType {
    /// Every column type, in the order error messages list them.
    const ALL: [ColumnType; 5] = [
        ColumnType::Integer,
        ColumnType::Number,
        ColumnType::String,
        ColumnType::Boolean,
        ColumnType::Date,
    ];

    /// The name in the CRD.
    pub const fn name(self) -> &'static str {
        match self {
            ColumnType::Integer => "integer",
            ColumnType::Number => "number",
            ColumnType::String => "string",
            ColumnType::Boolean => "boolean",
            ColumnType::Date => "date",
        }
    }

    /// The column type named `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The names of all column types, for error messages.
    fn names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }
}

/// The format of a printer column's values (`printcolumn(format = "...")`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnFormat {
    Int32,
    Int64,
    Float,
    Double,
    Byte,
    Date,
    DateTime,
    Password,
}

impl ColumnFormat {
    /// Every column format, in the order error messages list them.
    const ALL: [ColumnFormat; 8] = [
        ColumnFormat::Int32,
        ColumnFormat::Int64,
        ColumnFormat::Float,
        ColumnFormat::Double,
        ColumnFormat::Byte,
        ColumnFormat::Date,
        ColumnFormat::DateTime,
        ColumnFormat::Password,
    ];

    /// The name in the CRD.
    pub const fn name(self) -> &'static str {
        match self {
            ColumnFormat::Int32 => "int32",
            ColumnFormat::Int64 => "int64",
            ColumnFormat::Float => "float",
            ColumnFormat::Double => "double",
            ColumnFormat::Byte => "byte",
            ColumnFormat::Date => "date",
            ColumnFormat::DateTime => "date-time",
            ColumnFormat::Password => "password",
        }
    }

    /// The column format named `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The names of all column formats, for error messages.
    fn names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }
}

/// A checked printer column. The name and the path keep the literals as
/// written, so generated code points at them.
pub struct PrintColumn<'m> {
    /// The column's header.
    pub name: &'m LitStr,
    /// The type of its values.
    pub type_: ColumnType,
    /// The JSON path of its values.
    pub json_path: &'m LitStr,
    /// What the column shows.
    pub description: Option<String>,
    /// The format of its values, if given.
    pub format: Option<ColumnFormat>,
    /// 0 for the standard view, more for the wide one.
    pub priority: i32,
}

/// The checked scale subresource. The replica paths keep the literals as
/// written.
pub struct Scale<'m> {
    /// The desired replicas, under `.spec.`.
    pub spec_replicas_path: &'m LitStr,
    /// The observed replicas, under `.status.`.
    pub status_replicas_path: &'m LitStr,
    /// The label selector, if given.
    pub label_selector_path: Option<String>,
}

/// Whether this version of the resource is deprecated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deprecation {
    /// Not deprecated.
    Active,
    /// Deprecated, with the warning clients get, if one was written (at
    /// most 256 characters, not blank).
    Deprecated { warning: Option<String> },
}

/// Where the spec's fields go in the root object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecLayout {
    /// Under a required `spec`.
    Required,
    /// Under an optional `spec` (`optional_spec`).
    Optional,
    /// At the top level, next to `metadata` (`no_spec`).
    Flat,
}

/// A `KubeResource` after its checks: everything code generation needs
/// that the attributes do not give as they are.
pub struct ResourceChecked<'m> {
    /// group, version, kind and the resource names.
    pub names: &'m ResourceNames,
    /// The name of the root struct (`root = "..."`, or the kind).
    pub root_name: String,
    /// The root struct, spanned at `root = "..."` or at the kind.
    pub root: Ident,
    /// The list alias, `{root}List`.
    pub list: Ident,
    /// `group/version`, or the version alone for the core group.
    pub api_version: String,
    /// Where the spec's fields go.
    pub spec_layout: SpecLayout,
    /// The status type, if any.
    pub status: Option<&'m Type>,
    /// The CRD's annotations and labels, checked, in the order written.
    pub annotations: Vec<(String, String)>,
    /// See `annotations`.
    pub labels: Vec<(String, String)>,
    /// `status_default = expr`, only with a status.
    pub status_default: Option<&'m syn::Expr>,
    /// Whether the CRD enables the status subresource.
    pub status_subresource: bool,
    /// The printer columns, in the order written.
    pub printcolumns: Vec<PrintColumn<'m>>,
    /// The scale subresource, if declared.
    pub scale: Option<Scale<'m>>,
    /// The selectable fields' JSON paths, at most 8.
    pub selectable: Vec<String>,
    /// Whether this version is deprecated, and the warning.
    pub deprecation: Deprecation,
    /// The root's CEL rules (the spec's `validation(...)`), in order.
    pub validations: Vec<Rule>,
}

/// Checks a `KubeResource`: reports its problems to `diags`, in the order
/// of the attributes' sections (the root's rules last), and returns the checked resource; `None`
/// when it has no names (already reported) or is not a struct with named
/// fields. With errors reported the checked value may leave out what was
/// wrong (a column of an unknown type); nothing is generated then anyway.
pub fn check<'m>(model: &'m Model, diags: &mut Diagnostics) -> Option<ResourceChecked<'m>> {
    let names = model.resource.as_ref()?;
    let a = &model.attrs;
    let kind = &names.kind.0;
    let root_name = a.root.as_ref().map_or_else(|| kind.clone(), LitStr::value);
    let root = format_ident!(
        "{}",
        root_name,
        span = a.root.as_ref().map_or(names.kind.1, LitStr::span)
    );
    let list = format_ident!("{}List", root_name, span = root.span());
    let (group, version) = (&names.group.0, &names.version.0);
    let api_version = if group.is_empty() {
        version.clone()
    } else {
        format!("{group}/{version}")
    };
    if !matches!(model.data, Data::Struct(_)) {
        diags.error(
            model.ident.span(),
            "#[derive(KubeResource)] needs a struct with named fields (the spec)",
        );
        return None;
    }
    let spec_layout = spec_layout(a, diags);
    let status = a.status.as_deref();
    let status_default = a.status_default.as_ref().map(|d| &d.0);
    if let (Some(d), None) = (status_default, status) {
        diags.error(
            syn::spanned::Spanned::span(d),
            "`status_default` needs a status: add `status = \"...\"`",
        );
    }
    let status_subresource = a
        .status_subresource
        .as_ref()
        .map_or(status.is_some(), |s| **s);
    if let (Some(s), None) = (&a.status_subresource, status)
        && **s
    {
        diags.lint(
            lints::Finding {
                lint: LintId::StatusSubresource,
                span: s.span(),
                subject: root.to_string(),
                problem: "has the status subresource but no status".into(),
                help: "the subresource serves `.status`: declare `status = \"...\"` (which turns the subresource on by itself), or drop `status_subresource = true`".into(),
            },
            &[&model.levels],
            Context::of(model),
        );
    }
    let scale = a
        .scale
        .as_ref()
        .map(|s| scale(s, status_subresource, diags));
    let printcolumns = a
        .printcolumn
        .iter()
        .filter_map(|c| print_column(c, diags))
        .collect();
    lints::check_resource_paths(&model.krate, &root, a, &model.levels, diags);
    status_optional(model, &root, diags);
    status_conditions(model, &root, diags);
    let selectable = selectable(a, diags);
    let deprecation = deprecation(a, diags);
    #[cfg(feature = "cel")]
    let this = super::cel::root_self(model, a.no_spec.is_present(), a.status.is_some());
    #[cfg(not(feature = "cel"))]
    let this = ();
    let validations = keywords::written_rules(a.validation.iter().map(|r| &r.value), &this, diags);
    let annotations = metadata_pairs(&a.annotation, "annotation", diags);
    let labels = metadata_pairs(&a.label, "label", diags);
    Some(ResourceChecked {
        annotations,
        labels,
        names,
        root_name,
        root,
        list,
        api_version,
        spec_layout,
        status_default: status_default.filter(|_| status.is_some()),
        status,
        status_subresource,
        printcolumns,
        scale,
        selectable,
        deprecation,
        validations,
    })
}

/// A JSON path of the CRD (`.spec.replicas`), under `prefix` if given.
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

/// `optional_spec` and `no_spec`: at most one, and `no_spec` without a
/// status.
fn spec_layout(a: &ContainerAttrs, diags: &mut Diagnostics) -> SpecLayout {
    let no_spec = a.no_spec.is_present();
    let optional_spec = a.optional_spec.is_present();
    if no_spec && optional_spec {
        diags.error(
            a.optional_spec.span(),
            "`optional_spec` and `no_spec` exclude each other",
        );
    }
    if no_spec && a.status.is_some() {
        diags.error(a.no_spec.span(), "`no_spec` puts the fields at the top level, so there is no spec/status split: drop `status` or `no_spec`");
    }
    if no_spec {
        SpecLayout::Flat
    } else if optional_spec {
        SpecLayout::Optional
    } else {
        SpecLayout::Required
    }
}

/// `scale(...)`: needs the status subresource; the replica paths go under
/// `.spec.` and `.status.`.
fn scale<'m>(
    scale: &'m darling::util::SpannedValue<attrs::Scale>,
    status_subresource: bool,
    diags: &mut Diagnostics,
) -> Scale<'m> {
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
    Scale {
        spec_replicas_path: &scale.spec_replicas_path,
        status_replicas_path: &scale.status_replicas_path,
        label_selector_path: scale.label_selector_path.as_ref().map(LitStr::value),
    }
}

/// `printcolumn(...)`: a known type and format, and a JSON path. `None`
/// when the type or the format is unknown (reported).
fn print_column<'m>(
    col: &'m attrs::PrintColumn,
    diags: &mut Diagnostics,
) -> Option<PrintColumn<'m>> {
    let type_ = ColumnType::from_name(&col.type_.value());
    if type_.is_none() {
        diags.error(
            col.type_.span(),
            format!("printcolumn `type` must be one of {}", ColumnType::names()),
        );
    }
    let format = match &col.format {
        None => Some(None),
        Some(f) => {
            let format = ColumnFormat::from_name(&f.value());
            if format.is_none() {
                diags.error(
                    f.span(),
                    format!(
                        "printcolumn `format` must be one of {}",
                        ColumnFormat::names()
                    ),
                );
            }
            format.map(Some)
        }
    };
    check_simple_path(&col.json_path, "printcolumn `json_path`", None, diags);
    Some(PrintColumn {
        name: &col.name,
        type_: type_?,
        json_path: &col.json_path,
        description: col.description.as_ref().map(LitStr::value),
        format: format?,
        priority: col.priority.unwrap_or(0),
    })
}

/// `status_optional`: the resource knows which type is its status, so it
/// checks that type's top-level fields through its facts.
fn status_optional(model: &Model, root: &Ident, diags: &mut Diagnostics) {
    let Some(st) = &model.attrs.status else {
        return;
    };
    let (k, p) = (&model.krate, crate::expand::private(model));
    let shown = quote!(#st).to_string().replace(' ', "");
    let lint = LintId::StatusOptional;
    if lints::level(lint, &[&model.levels], Context::Status) != Level::Allow {
        let msg = lints::message(
            lint,
            &format!("{root}.status"),
            &format!("the status type `{shown}` has a required top-level field"),
            "every top-level status field is optional: the status is written by controllers, piece by piece",
        );
        let cond = quote!(!#p::facts::any_required(<#st as #k::ApiType>::FACTS));
        diags.late_check(lints::types::warn_unless(&cond, lint, &msg, st.span()));
    }
}

/// `conditions` at the resource: the conditions of its status type are
/// optional (controllers add them one by one; a new object has none).
/// Only the top-level status is concerned: condition lists nested deeper
/// may be required by design.
fn status_conditions(model: &Model, root: &Ident, diags: &mut Diagnostics) {
    let Some(st) = &model.attrs.status else {
        return;
    };
    let (k, p) = (&model.krate, crate::expand::private(model));
    let lint = LintId::Conditions;
    let level = lints::level(lint, &[&model.levels], Context::Status);
    let msg = lints::message(
        lint,
        &format!("{root}.status.conditions"),
        "the status' conditions are required",
        "conditions are optional: add `#[serde(default, skip_serializing_if = \"Conditions::is_empty\")]` to the status' `conditions`",
    );
    let required = quote!(#p::facts::required_conditions(<#st as #k::ApiType>::FACTS));
    let span = st.span();
    match level {
        Level::Allow => {}
        Level::Warn => diags.late_check(lints::types::warn_unless(
            &quote!(!#required),
            lint,
            &msg,
            span,
        )),
        Level::Deny => diags.late_check(quote::quote_spanned! {span=>
            const _: () = if #required { ::core::panic!(#msg) };
        }),
    }
}

/// `annotation(...)` / `label(...)`: keys are qualified names
/// (`example.com/name`), given once; label values are empty or names of at
/// most 63 characters, as the apiserver validates the CRD's metadata.
fn metadata_pairs(
    pairs: &[darling::util::SpannedValue<KeyValue>],
    what: &str,
    diags: &mut Diagnostics,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for pair in pairs {
        let (key, value) = (pair.key.value(), pair.value.value());
        if let Some(problem) = qualified_name_problem(&key) {
            diags.error(
                pair.key.span(),
                format!("`{key}` is not a valid {what} key: {problem}"),
            );
        }
        if what == "label"
            && !value.is_empty()
            && let Some(problem) = name_problem(&value)
        {
            diags.error(
                pair.value.span(),
                format!("`{value}` is not a valid label value: {problem}"),
            );
        }
        if out.iter().any(|(k, _)| *k == key) {
            diags.error(
                pair.key.span(),
                format!("the {what} `{key}` is given twice"),
            );
            continue;
        }
        out.push((key, value));
    }
    out
}

/// Why `key` is not a qualified name (`[prefix/]name`, the prefix a DNS
/// subdomain), if it is not.
fn qualified_name_problem(key: &str) -> Option<String> {
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        let label_ok = |l: &str| {
            !l.is_empty()
                && l.len() <= 63
                && l.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        };
        if prefix.is_empty() || prefix.len() > 253 || !prefix.split('.').all(label_ok) {
            return Some("the prefix must be a lowercase DNS subdomain (`example.com`)".into());
        }
    }
    if name.is_empty() {
        return Some("the name part is empty".into());
    }
    name_problem(name)
}

/// Why `name` is not a name part (at most 63 characters, alphanumerics
/// with `-`, `_` or `.` between), if it is not.
fn name_problem(name: &str) -> Option<String> {
    let alnum = |c: char| c.is_ascii_alphanumeric();
    if name.len() > 63 {
        return Some(format!(
            "it has {} characters, at most 63 are allowed",
            name.len()
        ));
    }
    let ok = name.starts_with(alnum)
        && name.ends_with(alnum)
        && name
            .chars()
            .all(|c| alnum(c) || matches!(c, '-' | '_' | '.'));
    (!ok).then(|| {
        "it must start and end with a letter or digit, with only letters, digits, `-`, `_` and `.` between".into()
    })
}

/// `selectable = "..."`: JSON paths, at most 8.
fn selectable(a: &ContainerAttrs, diags: &mut Diagnostics) -> Vec<String> {
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
    selectable
}

/// `deprecated` or `deprecated = "warning"`: a warning is not blank and at
/// most 256 characters.
fn deprecation(a: &ContainerAttrs, diags: &mut Diagnostics) -> Deprecation {
    let Some(d) = &a.deprecated else {
        return Deprecation::Active;
    };
    let warning = match &**d {
        darling::util::Override::Inherit => None,
        darling::util::Override::Explicit(w) => Some(w.clone()),
    };
    if let Some(w) = &warning
        && (w.trim().is_empty() || w.len() > 256)
    {
        diags.error(
            d.span(),
            "a deprecation warning must be non-empty and at most 256 characters",
        );
    }
    Deprecation::Deprecated { warning }
}
