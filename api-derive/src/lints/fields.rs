//! Lints about one field: optionality, naming, docs, conditions (the
//! lints of its schema keywords are in `field_schema`), over a [`FieldCx`].

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::field_schema;
use super::types::{check_name, warn_unless};
use super::{Context, Diagnostics, Finding, Level, Levels, LintId, level, message};
use crate::model::Field;
use crate::model::shape::{Known, Prim, Shape};

/// Unit suffixes that say what an integer duration counts.
const UNITS: &[&str] = &[
    "Seconds",
    "Millis",
    "Milliseconds",
    "Micros",
    "Microseconds",
    "Nanos",
    "Nanoseconds",
    "Minutes",
    "Hours",
    "Days",
];
/// Words that make an integer a duration.
const DURATION_WORDS: &[&str] = &[
    "timeout", "period", "interval", "deadline", "delay", "duration", "ttl", "backoff", "grace",
];

/// The `skip_serializing_if` function that tells an unset value of `shape`.
fn skip_fn(shape: &Shape) -> &'static str {
    match shape {
        Shape::Option(_) => "Option::is_none",
        Shape::Vec(_) => "Vec::is_empty",
        Shape::Map { hash: false, .. } => "BTreeMap::is_empty",
        Shape::Map { hash: true, .. } => "HashMap::is_empty",
        Shape::Set { hash: false, .. } => "BTreeSet::is_empty",
        Shape::Known(Known::Conditions, _) => "Conditions::is_empty",
        _ => "Option::is_none",
    }
}

/// What every lint of one field needs.
pub(super) struct FieldCx<'a> {
    /// The runtime crate (`::api_core`), for type-layer checks.
    pub(super) k: &'a TokenStream,
    /// The type the field belongs to (`Type`, or `Enum::Variant`).
    pub(super) type_name: &'a str,
    pub(super) f: &'a Field,
    /// The field's type as written.
    pub(super) shape: &'a Shape,
    /// The level overrides that apply, the field's own last.
    pub(super) levels: Vec<&'a Levels>,
    pub(super) context: Context,
    /// `Type.field` (with the JSON name where it differs).
    pub(super) subject: String,
    /// The JSON name.
    pub(super) json: &'a str,
    /// The JSON name in lower case, to look for words in it.
    pub(super) lower: String,
    pub(super) diags: &'a mut Diagnostics,
}

impl FieldCx<'_> {
    /// Reports a finding of `lint` about the field, at the level the
    /// overrides and the context give it.
    pub(super) fn report(&mut self, lint: LintId, span: Span, problem: String, help: String) {
        self.diags.lint(
            Finding {
                lint,
                span,
                subject: self.subject.clone(),
                problem,
                help,
            },
            &self.levels,
            self.context,
        );
    }

    /// The level of `lint` for this field.
    pub(super) fn level(&self, lint: LintId) -> Level {
        level(lint, &self.levels, self.context)
    }

    /// Where lints point: the field's name (its type for tuple fields).
    pub(super) fn name_span(&self) -> Span {
        self.f.name_span()
    }

    /// The span of the field's type.
    pub(super) fn type_span(&self) -> Span {
        self.f.ty.span()
    }

    /// `::api_core::__private`
    pub(super) fn private(&self) -> TokenStream {
        let k = self.k;
        quote!(#k::__private)
    }

    /// The name of a type-layer check of this field: `Type_field_{suffix}`.
    pub(super) fn check_ident(&self, suffix: &str, span: Span) -> syn::Ident {
        format_ident!(
            "{}_{suffix}",
            check_name(self.type_name, self.f),
            span = span
        )
    }
}

/// The lints of one (not flattened) field, in the order they report.
const FIELD_LINTS: &[fn(&mut FieldCx<'_>)] = &[
    optional_field,
    required_field,
    timestamp_naming,
    reference_naming,
    no_phase,
    bool_naming,
    duration_units,
    time_field_suffix,
    conditions,
    field_docs,
    field_schema::max_length,
    field_schema::max_length_type_layer,
    field_schema::duplicate_keywords,
    field_schema::list_type,
];

/// The lints of the fields of one struct (or struct variant): the type
/// layer of every field, and the field lints of every field that is not
/// flattened.
pub fn check_fields(
    k: &TokenStream,
    type_name: &str,
    fields: &[Field],
    outer: &[&Levels],
    context: Context,
    diags: &mut Diagnostics,
) {
    for f in fields.iter().filter(|f| !f.serde.skip) {
        let shape = Shape::of(&f.ty);
        super::types::type_layer(k, type_name, f, &shape, outer, context, diags);
        if f.is_flattened() {
            continue;
        }
        let mut cx = FieldCx {
            k,
            type_name,
            f,
            shape: &shape,
            levels: outer.iter().copied().chain([&f.levels]).collect(),
            context,
            subject: f.subject(type_name),
            json: &f.json_name,
            lower: f.json_name.to_ascii_lowercase(),
            diags,
        };
        for lint in FIELD_LINTS {
            lint(&mut cx);
        }
    }
}

/// `optional_field`: an optional field is an `Option` (or a list or map),
/// defaulted on input and skipped when unset.
fn optional_field(cx: &mut FieldCx<'_>) {
    const LINT: LintId = LintId::OptionalField;
    if !cx.f.optional {
        return;
    }
    let (f, shape) = (cx.f, cx.shape);
    if let Shape::Option(inner) = shape
        && matches!(
            &**inner,
            Shape::Vec(_) | Shape::Map { .. } | Shape::Set { .. } | Shape::Option(_)
        )
    {
        cx.report(
            LINT,
            cx.type_span(),
            "wraps a list, map or `Option` in an `Option`".into(),
            "drop the outer `Option`: a list or map is optional by being empty (`#[serde(default, skip_serializing_if = \"Vec::is_empty\")]`), and `null` is not a value".into(),
        );
    }
    if !shape.is_option() && !shape.is_collection() {
        cx.report(
            LINT,
            cx.type_span(),
            "is optional but not an `Option` (or a list or map), so an unset value cannot be told from a zero value".into(),
            "make it `Option<T>` with `#[serde(default, skip_serializing_if = \"Option::is_none\")]`, or make it required".into(),
        );
    } else if f.serde.skip_serializing_if.is_none() {
        cx.report(
            LINT,
            cx.name_span(),
            format!(
                "is optional but always serialized: an unset value is written as {}",
                if shape.is_option() {
                    "`null`"
                } else {
                    "an empty value"
                }
            ),
            format!(
                "add `#[serde(skip_serializing_if = \"{}\")]`",
                skip_fn(shape)
            ),
        );
    }
    if shape.is_collection() && !shape.is_option() && f.serde.default.is_none() {
        cx.report(
            LINT,
            cx.name_span(),
            "is optional but must be present on input (no serde default)".into(),
            format!(
                "add `#[serde(default, skip_serializing_if = \"{}\")]`",
                skip_fn(shape)
            ),
        );
    }
}

/// `required_field`: a required field is not an `Option`, has no serde
/// default and is never skipped.
fn required_field(cx: &mut FieldCx<'_>) {
    const LINT: LintId = LintId::RequiredField;
    let f = cx.f;
    if f.optional {
        return;
    }
    if cx.shape.is_option() {
        cx.report(
            LINT,
            cx.type_span(),
            "is required but an `Option`".into(),
            "make it `T` instead of `Option<T>`, or mark it `#[kube(optional)]`".into(),
        );
    }
    if f.serde.default.is_some() && f.default.is_none() {
        cx.report(
            LINT,
            cx.name_span(),
            "is required but has a serde default, so it may be omitted".into(),
            "drop `#[serde(default)]`, or make the field optional".into(),
        );
    }
    if let Some(skip) = &f.serde.skip_serializing_if {
        cx.report(
            LINT,
            skip.span(),
            "is required but may be skipped when serializing".into(),
            "drop `skip_serializing_if`: a required field is always written".into(),
        );
    }
}

/// Reports `problem` about the field where the const `cond` (over the
/// facts of its type) is false: a compile error when `lint` is denied
/// here, a warning when it warns. For what only the field's type can tell.
fn report_unless(cx: &mut FieldCx<'_>, lint: LintId, cond: TokenStream, problem: &str, help: &str) {
    let span = cx.name_span();
    let msg = message(lint, &cx.subject, problem, help);
    match cx.level(lint) {
        Level::Allow => {}
        Level::Warn => cx.diags.check(warn_unless(&cond, lint, &msg, span)),
        Level::Deny => {
            let ident = cx.check_ident(lint.name(), span);
            // The message is the literal format string of a const panic.
            let msg = msg.replace('{', "{{").replace('}', "}}");
            cx.diags.check(quote_spanned! {span=>
                const _: () = {
                    #[allow(non_upper_case_globals)]
                    const #ident: () = ::core::assert!(#cond, #msg);
                    #ident
                };
            });
        }
    }
}

/// Whether the field's schema is a `date-time` string by its own
/// `format` (or its items').
fn is_date_time_string(f: &Field) -> bool {
    [Some(&f.attrs.validations), f.attrs.items.as_ref()]
        .into_iter()
        .flatten()
        .any(|v| v.format.as_ref().is_some_and(|l| l.value() == "date-time"))
}

/// `timestamp_naming`: a time field is `fooTime`, never `fooTimestamp`.
/// Only time fields: a `Time`/`MicroTime` (or a list of them, or a type
/// whose facts say it is one: `facts::holds_time`) or a string with
/// `format = "date-time"`; a boolean such as `honorTimestamps` is not.
fn timestamp_naming(cx: &mut FieldCx<'_>) {
    const LINT: LintId = LintId::TimestampNaming;
    let json = cx.json;
    if !cx.lower.contains("timestamp") || cx.level(LINT) == Level::Allow {
        return;
    }
    let problem = format!("time field `{json}` says `Timestamp`");
    let help = format!(
        "call it `{}`: the conventions use `fooTime`",
        json.replace("Timestamp", "Time")
            .replace("timestamp", "time")
    );
    if is_date_time_string(cx.f) {
        cx.report(LINT, cx.name_span(), problem, help);
        return;
    }
    // Scalars (and lists of them) are not times; anything else is asked
    // through its facts, so that aliases and newtypes of `Time` count and
    // a type merely named `Time` does not.
    let scalar = |s: &Shape| matches!(s.unwrapped(), Shape::Prim(..));
    let not_time = match cx.shape.unwrapped() {
        Shape::Vec(item) | Shape::Set { item, .. } => scalar(item),
        Shape::Map { .. } => true,
        s => scalar(s),
    };
    if not_time {
        return;
    }
    let (k, ty) = (cx.k, &cx.f.ty);
    let p = cx.private();
    let cond = quote!(!#p::facts::holds_time(<#ty as #k::ApiType>::FACTS));
    report_unless(cx, LINT, cond, &problem, &help);
}

/// `reference_naming`: `fooRef`/`fooRefs`, never `Reference`.
fn reference_naming(cx: &mut FieldCx<'_>) {
    let json = cx.json;
    // `Reference` as a word (`secretReference`, `referenceName`), not
    // inside another word (`preference`).
    if json.contains("Reference") || json.starts_with("reference") {
        cx.report(
            LintId::ReferenceNaming,
            cx.name_span(),
            format!("JSON name `{json}` says `Reference`"),
            format!(
                "call it `{}`: references are `fooRef` (`fooRefs` for lists)",
                json.replace("References", "Refs")
                    .replace("Reference", "Ref")
                    .replace("references", "refs")
                    .replace("reference", "ref")
            ),
        );
    }
}

/// `no_phase`: no `phase`; state is reported with conditions.
fn no_phase(cx: &mut FieldCx<'_>) {
    let json = cx.json;
    if cx.lower.contains("phase") {
        cx.report(
            LintId::NoPhase,
            cx.name_span(),
            format!("JSON name `{json}` is a phase"),
            "phases are deprecated: report state with conditions (`Conditions`, keyed by type)"
                .into(),
        );
    }
}

/// `bool_naming`: `fooable`, never `isFooable`.
fn bool_naming(cx: &mut FieldCx<'_>) {
    let json = cx.json;
    if !matches!(cx.shape.unwrapped(), Shape::Prim(Prim::Bool, _)) {
        return;
    }
    let b = json.as_bytes();
    if b.len() > 2 && json.starts_with("is") && b[2].is_ascii_uppercase() {
        let rule = "booleans are adjectives (`fooable`), not questions";
        let help = match super::naming::without_is(json) {
            Some(fixed) => format!("call it `{fixed}`: {rule}"),
            None => rule.to_string(),
        };
        cx.report(
            LintId::BoolNaming,
            cx.name_span(),
            format!("boolean `{json}` starts with `is`"),
            help,
        );
    }
}

/// `duration_units`: an integer duration says its unit (`fooSeconds`).
fn duration_units(cx: &mut FieldCx<'_>) {
    let json = cx.json;
    if matches!(cx.shape.unwrapped(), Shape::Prim(Prim::I32 | Prim::I64, _))
        && DURATION_WORDS.iter().any(|w| cx.lower.contains(w))
        && !UNITS.iter().any(|u| json.contains(u))
    {
        cx.report(
            LintId::DurationUnits,
            cx.name_span(),
            format!("integer `{json}` looks like a duration but does not say its unit"),
            format!("name the unit: `{json}Seconds` (or Millis, Minutes, ...)"),
        );
    }
}

/// `time_field_suffix`: a `Time` field is named `somethingTime`.
fn time_field_suffix(cx: &mut FieldCx<'_>) {
    let json = cx.json;
    if matches!(
        cx.shape.unwrapped(),
        Shape::Known(Known::Time | Known::MicroTime, _)
    ) && !json.ends_with("Time")
    {
        cx.report(
            LintId::TimeFieldSuffix,
            cx.name_span(),
            format!("timestamp field `{json}` does not end in `Time`"),
            format!("call it `{json}Time` (for example `lastUpdateTime`)"),
        );
    }
}

/// `conditions`: conditions are an optional `api_core::Conditions`, not a
/// list of `Condition`s.
fn conditions(cx: &mut FieldCx<'_>) {
    const LINT: LintId = LintId::Conditions;
    let unwrapped = cx.shape.unwrapped();
    let is_conditions = matches!(unwrapped, Shape::Known(Known::Conditions, _));
    let mut has_condition_list = false;
    cx.shape.walk(|s, _| {
        if let Shape::Vec(item) = s {
            has_condition_list |= matches!(item.unwrapped(), Shape::Known(Known::Condition, _));
        }
    });
    if has_condition_list {
        cx.report(
            LINT,
            cx.type_span(),
            "is a list of `Condition`s".into(),
            "use `api_core::Conditions`: a list keyed by condition type, with the list-map schema and the condition helpers".into(),
        );
    } else if cx.json == "conditions" && !is_conditions {
        cx.report(
            LINT,
            cx.type_span(),
            "is named `conditions` but is not `Conditions`".into(),
            "use `api_core::Conditions`, with `#[serde(default, skip_serializing_if = \"Conditions::is_empty\")]`".into(),
        );
    }
    // Whether conditions must be optional is decided by the resource for
    // its status type (`check::resource::status_conditions`): the
    // convention concerns a resource's top-level status, and condition
    // lists nested deeper may be required by design (Gateway API's
    // `RouteParentStatus.conditions` and `ListenerStatus.conditions`).
    if is_conditions && matches!(cx.shape, Shape::Option(_)) {
        cx.report(
            LINT,
            cx.type_span(),
            "is an `Option<Conditions>`".into(),
            "`Conditions` is optional by being empty: use `Conditions` with `#[serde(default, skip_serializing_if = \"Conditions::is_empty\")]`".into(),
        );
    }
}

/// `field_docs`: every field has a description: its own doc comment, or
/// (as controller-gen does) the doc comment of its type, which becomes
/// the field's description when the field has none (`facts::DESCRIBED`:
/// a documented derived type, seen through `Option` and `Box`; a list's
/// items carry their type's description, the list itself none).
fn field_docs(cx: &mut FieldCx<'_>) {
    const LINT: LintId = LintId::FieldDocs;
    if cx.f.docs.is_some() || cx.level(LINT) == Level::Allow {
        return;
    }
    let json = cx.json;
    let problem = "has no doc comment, and its type gives it no description";
    let help = format!(
        "document it (`/// {json} is ...`): the comment becomes the field's description in the schema and `kubectl explain`"
    );
    match cx.shape.unwrapped() {
        // Only a type's facts tell whether it has a description.
        Shape::Other(_) | Shape::Known(..) => {
            let (k, ty) = (cx.k, &cx.f.ty);
            let p = cx.private();
            let cond = quote!((<#ty as #k::ApiType>::FACTS.flags & #p::facts::DESCRIBED) != 0);
            report_unless(cx, LINT, cond, problem, &help);
        }
        _ => cx.report(LINT, cx.name_span(), "has no doc comment".into(), help),
    }
}
