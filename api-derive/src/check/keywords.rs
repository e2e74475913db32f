//! The checks of schema keywords and CEL rules: a field's, an `items(...)`
//! list's or a type's keyword attributes, and `validation(...)` rules. Each
//! check reports every problem once and returns the checked value,
//! [`CheckedKeywords`] or [`Rule`]s, that code generation emits as it is.

use darling::util::SpannedValue;
use syn::LitStr;

use crate::lints::Diagnostics;
use crate::model::Field;
use crate::model::attrs::{EnumValues, ExternalDocs, Number, ValidationRule, Validations};

/// `list_type = "..."`: how server-side apply merges a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListType {
    /// Replaced as a whole.
    Atomic,
    /// Merged as a set of unique scalars.
    Set,
    /// Merged by the `list_map_keys` of its items.
    Map,
}

impl ListType {
    /// Every list type, in the order error messages list them.
    const ALL: [ListType; 3] = [ListType::Atomic, ListType::Set, ListType::Map];

    /// The name in the CRD.
    pub const fn name(self) -> &'static str {
        match self {
            ListType::Atomic => "atomic",
            ListType::Set => "set",
            ListType::Map => "map",
        }
    }

    /// The list type named `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// `map_type = "..."`: how server-side apply merges a map or an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapType {
    /// Replaced as a whole.
    Atomic,
    /// Merged key by key.
    Granular,
}

impl MapType {
    /// Every map type.
    const ALL: [MapType; 2] = [MapType::Atomic, MapType::Granular];

    /// The name in the CRD.
    pub const fn name(self) -> &'static str {
        match self {
            MapType::Atomic => "atomic",
            MapType::Granular => "granular",
        }
    }

    /// The map type named `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// A checked `map_type`, with the literal it was written as (generated
/// code repeats the literal, tokens and span).
#[derive(Clone, Copy, Debug)]
pub struct MapTypeAttr<'m> {
    /// The map type.
    pub value: MapType,
    /// `"atomic"` or `"granular"` as written.
    pub lit: &'m LitStr,
}

/// A lower or upper bound: `minimum`/`exclusive_minimum`, or
/// `maximum`/`exclusive_maximum` (never both).
#[derive(Clone, Debug)]
pub struct Bound {
    /// The bound, as written (integers stay integers).
    pub value: Number,
    /// Whether the bound itself is excluded.
    pub exclusive: bool,
}

/// The `reason`s a CEL rule can give.
const REASONS: &[&str] = &[
    "FieldValueRequired",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueDuplicate",
];

/// A checked CEL rule, written in a `validation(...)` attribute or
/// generated (unions, immutability).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The CEL expression.
    pub rule: String,
    /// The message when it fails: non-blank and on one line.
    pub message: Option<String>,
    /// A CEL expression computing the message.
    pub message_expression: Option<String>,
    /// One of [`REASONS`].
    pub reason: Option<String>,
    /// The path the error is reported at.
    pub field_path: Option<String>,
    /// Whether the rule also runs on creation (`oldSelf` unset).
    pub optional_old_self: Option<bool>,
}

impl Rule {
    /// A generated rule with its message.
    pub fn generated(rule: String, message: String) -> Self {
        Rule {
            rule,
            message: Some(message),
            message_expression: None,
            reason: None,
            field_path: None,
            optional_old_self: None,
        }
    }
}

/// A source of a rule: a written attribute, still to check, or a rule
/// generated from valid attributes.
pub enum RuleSrc<'a> {
    /// `validation(...)`.
    Written(&'a ValidationRule),
    /// Generated: nothing to check.
    Generated(Rule),
}

/// Checked keywords of a field, an `items(...)` list or a type: everything
/// the runtime `Keywords` value holds, validated. Literals are kept where
/// generated code repeats them as written.
#[derive(Clone, Debug, Default)]
pub struct CheckedKeywords<'m> {
    /// The doc comment.
    pub description: Option<&'m str>,
    /// `title = "..."`.
    pub title: Option<&'m LitStr>,
    /// `format = "..."`.
    pub format: Option<&'m LitStr>,
    /// `pattern = "..."`, known to be a valid regular expression.
    pub pattern: Option<&'m LitStr>,
    /// The lower bound.
    pub minimum: Option<Bound>,
    /// The upper bound.
    pub maximum: Option<Bound>,
    /// `multiple_of`, greater than 0.
    pub multiple_of: Option<Number>,
    /// `min_length`, at most `max_length`.
    pub min_length: Option<i64>,
    /// `max_length`.
    pub max_length: Option<i64>,
    /// `min_items`, at most `max_items`.
    pub min_items: Option<i64>,
    /// `max_items`.
    pub max_items: Option<i64>,
    /// `min_properties`, at most `max_properties`.
    pub min_properties: Option<i64>,
    /// `max_properties`.
    pub max_properties: Option<i64>,
    /// `enum = [...]`: the allowed values as written.
    pub enum_values: Option<&'m [LitStr]>,
    /// `enum = [301, 302]`: the allowed integers.
    pub int_enum_values: Option<&'m [i64]>,
    /// `list_type`.
    pub list_type: Option<ListType>,
    /// `list_map_keys`, as written; only with `list_type = "map"`.
    pub list_map_keys: Vec<&'m LitStr>,
    /// `map_type`.
    pub map_type: Option<MapTypeAttr<'m>>,
    /// `int_or_string`.
    pub int_or_string: bool,
    /// `preserve_unknown_fields`.
    pub preserve_unknown_fields: bool,
    /// `embedded_resource`.
    pub embedded_resource: bool,
    /// `external_docs(...)`.
    pub external_docs: Option<&'m ExternalDocs>,
    /// The CEL rules, in order.
    pub rules: Vec<Rule>,
    /// `items(...)`: the keywords of a list's items.
    pub items: Option<Box<CheckedKeywords<'m>>>,
}

impl<'m> CheckedKeywords<'m> {
    /// Only the keywords checked at runtime by `validate()`: the value
    /// keywords and the items', without docs, merge strategies or rules.
    pub fn value_checks(&self) -> Self {
        CheckedKeywords {
            format: self.format,
            pattern: self.pattern,
            minimum: self.minimum.clone(),
            maximum: self.maximum.clone(),
            multiple_of: self.multiple_of.clone(),
            min_length: self.min_length,
            max_length: self.max_length,
            min_items: self.min_items,
            max_items: self.max_items,
            min_properties: self.min_properties,
            max_properties: self.max_properties,
            enum_values: self.enum_values,
            int_enum_values: self.int_enum_values,
            items: self.items.clone(),
            ..CheckedKeywords::default()
        }
    }
}

/// Checks a field's keywords: the merge strategies and their exclusions
/// first, then (unless flattened: no schema of its own) the value
/// keywords, the rules (with `immutable`'s) and `items(...)`.
pub fn field<'m>(f: &'m Field, diags: &mut Diagnostics) -> CheckedKeywords<'m> {
    let a = &f.attrs;
    let list_type = a.list_type.as_ref().and_then(|t| list_type(f, t, diags));
    if let Some(keys) = &a.list_map_keys
        && a.list_type.as_ref().is_none_or(|t| t.value() != "map")
    {
        diags.error(keys.span(), "`list_map_keys` needs `list_type = \"map\"`");
    }
    let map_type = a.map_type.as_ref().and_then(|t| map_type(t, diags));
    if a.int_or_string.is_present() && a.preserve_unknown_fields.is_present() {
        diags.error(
            a.int_or_string.span(),
            "`int_or_string` and `preserve_unknown_fields` exclude each other",
        );
    }
    if f.default.is_some() && f.is_flattened() {
        diags.error(
            f.default_span,
            "a flattened field has no value of its own to default",
        );
    }
    if f.is_flattened() {
        return CheckedKeywords::default();
    }
    let mut kw = validations(&a.validations, diags);
    let written = a.validation.iter().map(|r| RuleSrc::Written(r));
    let immutable = a.immutable.is_present().then(|| {
        RuleSrc::Generated(Rule::generated(
            "self == oldSelf".into(),
            "field is immutable".into(),
        ))
    });
    let srcs: Vec<RuleSrc<'_>> = written.chain(immutable).collect();
    kw.description = f.docs.as_deref();
    kw.title = a.title.as_ref();
    kw.external_docs = a.external_docs.as_ref();
    kw.list_type = list_type;
    kw.list_map_keys = a.list_map_keys.iter().flat_map(|k| k.iter()).collect();
    kw.map_type = map_type;
    kw.int_or_string = a.int_or_string.is_present();
    kw.preserve_unknown_fields = a.preserve_unknown_fields.is_present();
    kw.embedded_resource = a.embedded_resource.is_present();
    #[cfg(feature = "cel")]
    let this = super::cel::field_self(f);
    #[cfg(not(feature = "cel"))]
    let this = ();
    kw.rules = rules(&srcs, &this, diags);
    kw.items = a
        .items
        .as_ref()
        .map(|items| Box::new(validations(items, diags)));
    kw
}

/// `list_type`: a known list type; `"map"` needs `list_map_keys`.
fn list_type(f: &Field, t: &LitStr, diags: &mut Diagnostics) -> Option<ListType> {
    let value = ListType::from_name(&t.value());
    if value.is_none() {
        diags.error(
            t.span(),
            "`list_type` must be \"atomic\", \"set\" or \"map\"",
        );
    }
    if value == Some(ListType::Map) && f.attrs.list_map_keys.as_ref().is_none_or(|k| k.is_empty()) {
        diags.error(t.span(), "`list_type = \"map\"` needs the item fields that identify an item: `list_map_keys = [\"name\"]`");
    }
    value
}

/// `map_type`, on a field or a type: a known map type.
pub fn map_type<'m>(t: &'m LitStr, diags: &mut Diagnostics) -> Option<MapTypeAttr<'m>> {
    let value = MapType::from_name(&t.value());
    if value.is_none() {
        diags.error(t.span(), "`map_type` must be \"atomic\" or \"granular\"");
    }
    value.map(|value| MapTypeAttr { value, lit: t })
}

/// The value keywords (a field's, or its items'): a pattern that compiles,
/// one bound of each side, a positive `multiple_of`, and minimum counts no
/// larger than the maximum ones.
pub fn validations<'m>(v: &'m Validations, diags: &mut Diagnostics) -> CheckedKeywords<'m> {
    if let Some(pat) = &v.pattern
        && let Err(e) = regex_syntax::Parser::new().parse(&pat.value())
    {
        diags.error(
            pat.span(),
            format!("`pattern` is not a valid regular expression: {e}"),
        );
    }
    let minimum = bound(
        v.minimum.as_deref(),
        v.exclusive_minimum.as_ref(),
        "give either `minimum` or `exclusive_minimum`, not both",
        diags,
    );
    let maximum = bound(
        v.maximum.as_deref(),
        v.exclusive_maximum.as_ref(),
        "give either `maximum` or `exclusive_maximum`, not both",
        diags,
    );
    if let Some(m) = &v.multiple_of
        && match **m {
            Number::Int(i) => i <= 0,
            Number::Float(f) => f <= 0.0,
        }
    {
        diags.error(m.span(), "`multiple_of` must be greater than 0");
    }
    for (lo, hi, what) in [
        (&v.min_length, &v.max_length, "length"),
        (&v.min_items, &v.max_items, "items"),
        (&v.min_properties, &v.max_properties, "properties"),
    ] {
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo.0 > hi.0
        {
            diags.error(
                lo.span(),
                format!("min {what} {} is larger than max {what} {}", lo.0, hi.0),
            );
        }
    }
    let count = |c: &Option<SpannedValue<crate::model::attrs::Count>>| c.as_ref().map(|c| c.0);
    CheckedKeywords {
        format: v.format.as_ref(),
        pattern: v.pattern.as_ref(),
        minimum,
        maximum,
        multiple_of: v.multiple_of.as_deref().cloned(),
        min_length: count(&v.min_length),
        max_length: count(&v.max_length),
        min_items: count(&v.min_items),
        max_items: count(&v.max_items),
        min_properties: count(&v.min_properties),
        max_properties: count(&v.max_properties),
        enum_values: match v.enum_.as_deref() {
            Some(EnumValues::Strings(s)) => Some(s),
            _ => None,
        },
        int_enum_values: match v.enum_.as_deref() {
            Some(EnumValues::Ints(i)) => Some(i),
            _ => None,
        },
        ..CheckedKeywords::default()
    }
}

/// One side's bound: inclusive or exclusive, not both (`both` says so).
fn bound(
    inclusive: Option<&Number>,
    exclusive: Option<&SpannedValue<Number>>,
    both: &str,
    diags: &mut Diagnostics,
) -> Option<Bound> {
    match (inclusive, exclusive) {
        (Some(_), Some(e)) => {
            diags.error(e.span(), both);
            None
        }
        (Some(m), None) => Some(Bound {
            value: m.clone(),
            exclusive: false,
        }),
        (None, Some(e)) => Some(Bound {
            value: (**e).clone(),
            exclusive: true,
        }),
        (None, None) => None,
    }
}

/// What `self` is in a rule, for checking it at compile time (feature
/// `cel`; nothing without it).
#[cfg(feature = "cel")]
pub type SelfType = super::cel::SelfType;
/// What `self` is in a rule (nothing to know without feature `cel`).
#[cfg(not(feature = "cel"))]
pub type SelfType = ();

/// Checks the written rules among `srcs` (in order) and returns them all;
/// `this` is the type of `self` in them.
pub fn rules(srcs: &[RuleSrc<'_>], this: &SelfType, diags: &mut Diagnostics) -> Vec<Rule> {
    srcs.iter()
        .map(|src| match src {
            RuleSrc::Generated(rule) => rule.clone(),
            RuleSrc::Written(r) => written_rule(r, this, diags),
        })
        .collect()
}

/// The written rules of a root object or a type, checked in order.
pub fn written_rules<'a>(
    rules: impl IntoIterator<Item = &'a SpannedValue<ValidationRule>>,
    this: &SelfType,
    diags: &mut Diagnostics,
) -> Vec<Rule> {
    rules
        .into_iter()
        .map(|r| written_rule(r, this, diags))
        .collect()
}

/// `validation(...)`: a rule that is not blank, a message on one line (and
/// one for a multi-line rule without `message_expression`), a known
/// `reason`.
fn written_rule(r: &ValidationRule, this: &SelfType, diags: &mut Diagnostics) -> Rule {
    let rule = r.rule.value();
    if rule.trim().is_empty() {
        diags.error(r.rule.span(), "a validation rule cannot be blank");
    }
    if let Some(m) = &r.message {
        if m.value().trim().is_empty() || m.value().contains('\n') {
            diags.error(
                m.span(),
                "a validation message must be non-blank and on one line",
            );
        }
    } else if rule.contains('\n') && r.message_expression.is_none() {
        diags.error(r.rule.span(), "a multi-line rule needs a `message`");
    }
    #[cfg(feature = "cel")]
    {
        let optional = r.optional_old_self == Some(true);
        let checked = [
            (Some(&r.rule), "rule", api_cel::Type::Bool, "this CEL rule"),
            (
                r.message_expression.as_ref(),
                "messageExpression",
                api_cel::Type::String,
                "this `message_expression`",
            ),
        ];
        for (source, what, want, named) in checked {
            // A blank rule is reported above; a blank message expression
            // does not parse.
            let Some(source) = source.filter(|s| what != "rule" || !s.value().trim().is_empty())
            else {
                continue;
            };
            match super::cel::compile(&source.value(), this, optional, &want) {
                Err(e) => diags.error(source.span(), format!("{named} does not compile:\n{e}")),
                Ok(compiled) => {
                    if let Err(e) = super::cel::check_cost(&compiled, this, what) {
                        diags.error(source.span(), e);
                    }
                }
            }
        }
    }
    #[cfg(not(feature = "cel"))]
    let () = *this;
    if let Some(reason) = &r.reason
        && !REASONS.contains(&reason.as_str())
    {
        diags.error(
            reason.span(),
            format!("`reason` must be one of {}", REASONS.join(", ")),
        );
    }
    Rule {
        rule,
        message: r.message.as_ref().map(LitStr::value),
        message_expression: r.message_expression.as_ref().map(LitStr::value),
        reason: r.reason.as_ref().map(|s| s.as_str().to_owned()),
        field_path: r.field_path.as_ref().map(LitStr::value),
        optional_old_self: r.optional_old_self,
    }
}
