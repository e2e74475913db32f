//! The convention lints: a registry of names, default levels and the
//! conventions they enforce; per-container and per-field level overrides;
//! and the collector that turns findings into compile errors (deny) or
//! compiler warnings (warn).

mod field_schema;
mod fields;
pub mod naming;
mod paths;
mod run;
pub mod types;

pub use fields::check_fields;
pub use naming::{check_json_field_names, check_kind_naming};
pub use paths::check_resource_paths;
pub use run::run;
pub use types::{field_mask, type_layer};

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote_spanned};
use syn::spanned::Spanned;

/// How a lint is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

/// Where a lint's default level depends on context.
#[derive(Clone, Copy, Debug)]
pub enum Default {
    Always(Level),
    /// `no_floats`: one level under `spec`, another under `status`.
    SpecStatus {
        spec: Level,
        status: Level,
    },
}

impl Default {
    /// The default level in `context`.
    fn in_context(self, context: Context) -> Level {
        match self {
            Default::Always(l) => l,
            Default::SpecStatus { spec, status } => match context {
                Context::Spec => spec,
                Context::Status | Context::Any => status,
            },
        }
    }
}

/// One lint of the catalogue: a row of [`LINTS`].
pub struct Lint {
    pub id: LintId,
    pub default: Default,
    /// The section of the API conventions it enforces.
    pub convention: &'static str,
}

/// Declares [`LintId`] and [`LINTS`] from one list, in the same order, so
/// that every id has exactly one row of the table and every lookup by id
/// is total.
macro_rules! catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $id:ident => $name:literal, $default:expr, $convention:literal;
    )*) => {
        /// A lint of the catalogue. The derive names its lints by these
        /// variants, so a misspelled lint does not compile; only user input
        /// (`#[kube(allow(..), warn(..), deny(..))]`) names them by string,
        /// read once by [`LintId::from_name`].
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum LintId {
            $( $(#[doc = $doc])* $id, )*
        }

        impl LintId {
            /// The user-facing name: `#[kube(allow(name))]`, `[name]` in
            /// messages. Names are a public contract.
            pub const fn name(self) -> &'static str {
                match self {
                    $( LintId::$id => $name, )*
                }
            }
        }

        /// The catalogue, in the order of [`LintId`]. Names and default
        /// levels are a public contract.
        pub const LINTS: &[Lint] = &[
            $( Lint { id: LintId::$id, default: $default, convention: $convention }, )*
        ];
    };
}

use Level::{Allow, Deny, Warn};

catalogue! {
    /// Integers are `i32` or `i64`.
    IntegerWidth => "integer_width", Default::Always(Deny), "Primitive types";
    /// No `f32`/`f64`.
    NoFloats => "no_floats", Default::SpecStatus { spec: Deny, status: Warn },
        "Primitive types";
    /// Maps only of strings (or quantities).
    NoMaps => "no_maps", Default::Always(Deny),
        "Lists of named subobjects preferred over maps";
    /// `BTreeMap`, not `HashMap`.
    HashMap => "hash_map", Default::Always(Warn), "Primitive types";
    /// JSON names are lowerCamelCase.
    JsonFieldNames => "json_field_names", Default::Always(Deny), "Naming conventions";
    /// Optional fields are `Option`s (or lists/maps), skipped when unset.
    OptionalField => "optional_field", Default::Always(Deny), "Optional vs. Required";
    /// Required fields are not `Option`s, not defaulted, never skipped.
    RequiredField => "required_field", Default::Always(Deny), "Optional vs. Required";
    /// A field with a default is optional.
    DefaultOrRequired => "default_or_required", Default::Always(Deny), "Defaulting";
    /// No `Duration`.
    NoDurations => "no_durations", Default::Always(Deny), "Units";
    /// Integer durations say their unit: `fooSeconds`.
    DurationUnits => "duration_units", Default::Always(Warn), "Units";
    /// `fooTime`, never `fooTimestamp`.
    TimestampNaming => "timestamp_naming", Default::Always(Deny), "Naming conventions";
    /// A `Time` field is named `somethingTime`.
    TimeFieldSuffix => "time_field_suffix", Default::Always(Warn), "Naming conventions";
    /// `fooRef`/`fooRefs`, never `Reference`.
    ReferenceNaming => "reference_naming", Default::Always(Deny), "Object references";
    /// `fooable`, never `isFooable`.
    BoolNaming => "bool_naming", Default::Always(Deny), "Naming conventions";
    /// A string enum instead of a `bool`.
    NoBools => "no_bools", Default::Always(Allow), "Primitive types";
    /// No `phase`; use conditions.
    NoPhase => "no_phase", Default::Always(Warn), "Typical status properties";
    /// Conditions are an optional `Conditions`.
    Conditions => "conditions", Default::Always(Deny), "Typical status properties";
    /// Every top-level field of a resource's status type is optional.
    StatusOptional => "status_optional", Default::Always(Warn), "Optional vs. Required";
    /// `status_subresource = true` on a resource without a status. Beyond
    /// DESIGN.md's catalogue (kube-api-linter's statussubresource).
    StatusSubresource => "status_subresource", Default::Always(Warn), "Spec and Status";
    /// Lists of objects declare `list_type`; list-map keys are valid.
    ListType => "list_type", Default::Always(Warn),
        "Lists of named subobjects preferred over maps";
    /// Enum values are CamelCase.
    EnumValues => "enum_values", Default::Always(Deny), "Constants";
    /// Data-carrying enums map to a structural schema.
    Unions => "unions", Default::Always(Deny), "Unions";
    /// Kind, group, version and resource names.
    KindNaming => "kind_naming", Default::Always(Deny), "Naming conventions";
    /// Printer-column, scale and selectable paths resolve.
    PrintcolumnPath => "printcolumn_path", Default::Always(Deny), "Naming conventions";
    /// Every field has a doc comment.
    FieldDocs => "field_docs", Default::Always(Warn), "Naming conventions";
    /// Strings and lists are bounded.
    MaxLength => "max_length", Default::Always(Allow), "Validation";
    /// A field does not repeat a keyword its type declares. Beyond
    /// DESIGN.md's catalogue (kube-api-linter's uniquemarkers).
    DuplicateKeywords => "duplicate_keywords", Default::Always(Deny), "Validation";
}

impl LintId {
    /// The lint's row of the catalogue.
    pub fn lint(self) -> &'static Lint {
        // `catalogue!` declares the variants and the rows in one order.
        &LINTS[self as usize]
    }

    /// The lint a user-written name means, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        LINTS.iter().map(|l| l.id).find(|id| id.name() == name)
    }
}

/// `enum_values`: CamelCase constants (`^[A-Z][a-zA-Z0-9]*$`).
pub fn is_enum_value(v: &str) -> bool {
    v.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && v.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Which part of a resource a type is checked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// The spec of a `KubeResource`.
    Spec,
    /// A status type (an `ApiType` whose name ends in `Status`).
    Status,
    /// Any other type (`#[derive(ApiType)]`).
    Any,
}

impl Context {
    /// The context a derived type is checked in.
    pub fn of(model: &crate::model::Model) -> Self {
        if model.derive == crate::model::Derive::KubeResource {
            Context::Spec
        } else if model.ident.to_string().ends_with("Status") {
            Context::Status
        } else {
            Context::Any
        }
    }
}

/// The level of lint `id` under the overrides (innermost last) in `context`.
pub fn level(id: LintId, levels: &[&Levels], context: Context) -> Level {
    level_with_origin(id, levels, context).0
}

/// The level of lint `id` under the overrides (innermost last) in
/// `context`, and whether an override set it.
pub fn level_with_origin(id: LintId, levels: &[&Levels], context: Context) -> (Level, bool) {
    match levels.iter().rev().find_map(|l| l.get(id)) {
        Some(l) => (l, true),
        None => (id.lint().default.in_context(context), false),
    }
}

/// The full message of a finding: subject, problem, lint, help, convention.
pub fn message(id: LintId, subject: &str, problem: &str, help: &str) -> String {
    let (name, convention) = (id.name(), id.lint().convention);
    format!(
        "{subject}: {problem} [{name}]\n  help: {help}\n  note: Kubernetes API conventions, \"{convention}\"; to allow it here: #[kube(allow({name}))]"
    )
}

/// Level overrides written with `#[kube(allow(..), warn(..), deny(..))]`.
#[derive(Clone, Debug, Default)]
pub struct Levels(Vec<(LintId, Level)>);

impl Levels {
    /// Reads the three lists; unknown names are errors with a suggestion.
    pub fn parse(
        allow: &[syn::Path],
        warn: &[syn::Path],
        deny: &[syn::Path],
        diags: &mut Diagnostics,
    ) -> Self {
        let mut out = Vec::new();
        for (paths, level) in [(allow, Allow), (warn, Warn), (deny, Deny)] {
            for path in paths {
                let name = path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                match LintId::from_name(&name) {
                    Some(id) => out.push((id, level)),
                    None => {
                        let shown = quote::ToTokens::to_token_stream(path)
                            .to_string()
                            .replace(' ', "");
                        let mut msg = format!("unknown lint `{shown}`");
                        if let Some(s) = suggest(&shown, LINTS.iter().map(|l| l.id.name())) {
                            msg.push_str(&format!("\n  help: did you mean `{s}`?"));
                        }
                        msg.push_str(
                            "\n  note: the lints are listed in the api_core::lints documentation",
                        );
                        diags.error(path.span(), msg);
                    }
                }
            }
        }
        Levels(out)
    }

    fn get(&self, id: LintId) -> Option<Level> {
        self.0.iter().rev().find(|(i, _)| *i == id).map(|(_, l)| *l)
    }
}

/// The closest candidate within a small edit distance.
pub fn suggest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= (c.len().max(word.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A finding of one lint.
pub struct Finding {
    pub lint: LintId,
    pub span: Span,
    /// `Type.field` (with the JSON name where it differs).
    pub subject: String,
    pub problem: String,
    pub help: String,
}

/// Collects attribute errors, lint errors and lint warnings of one derive,
/// so that everything wrong with a type is reported in one build.
#[derive(Default)]
pub struct Diagnostics {
    errors: Vec<syn::Error>,
    warnings: TokenStream,
    checks: TokenStream,
    late_checks: TokenStream,
}

impl Diagnostics {
    /// A plain error (attribute problems).
    pub fn error(&mut self, span: Span, message: impl std::fmt::Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Errors from darling (typos, missing keys, values of the wrong
    /// kind), reworded to say what `context` accepts, with their spans.
    pub fn darling(
        &mut self,
        error: darling::Error,
        context: crate::model::attr_errors::Context,
        attrs: &[syn::Attribute],
    ) {
        self.errors
            .extend(crate::model::attr_errors::errors(error, context, attrs));
    }

    pub fn syn(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// Reports a finding at the level the overrides and the context give it.
    pub fn lint(&mut self, finding: Finding, levels: &[&Levels], context: Context) {
        let id = finding.lint;
        let message = message(id, &finding.subject, &finding.problem, &finding.help);
        match level(id, levels, context) {
            Allow => {}
            Deny => self.error(finding.span, message),
            Warn => {
                // Stable Rust has no proc-macro warnings: use a deprecated
                // constant at the field's span, named after the lint.
                let name = format_ident!("{}", id.name(), span = finding.span);
                self.warnings.extend(quote_spanned! {finding.span=>
                    const _: () = {
                        #[deprecated(note = #message)]
                        #[allow(non_upper_case_globals)]
                        const #name: () = ();
                        #name
                    };
                });
            }
        }
    }

    /// Type-layer checks: `const` items that fail (or warn) when the facts
    /// of a type break a convention. They only name the field types, so
    /// they are emitted even when the derive reports errors: every problem
    /// of a type shows in one build.
    pub fn check(&mut self, tokens: TokenStream) {
        self.checks.extend(tokens);
    }

    /// Checks that name generated items (the root object): emitted only
    /// when the derive succeeds.
    pub fn late_check(&mut self, tokens: TokenStream) {
        self.late_checks.extend(tokens);
    }

    /// The errors as `compile_error!`s (if any), the warnings and
    /// type-layer checks, and the checks that need the generated items.
    pub fn into_tokens(self) -> (Option<TokenStream>, TokenStream, TokenStream) {
        let errors = self.errors.into_iter().reduce(|mut a, b| {
            a.combine(b);
            a
        });
        let (warnings, checks) = (self.warnings, self.checks);
        (
            errors.map(|e| e.to_compile_error()),
            quote::quote!(#warnings #checks),
            self.late_checks,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> impl Iterator<Item = &'static str> {
        LINTS.iter().map(|l| l.id.name())
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            suggest("json_field_name", names()),
            Some("json_field_names")
        );
        assert_eq!(suggest("no_float", names()), Some("no_floats"));
        assert_eq!(suggest("zzzzzz", names()), None);
    }

    #[test]
    fn catalogue_is_complete() {
        assert_eq!(LINTS.len(), 27);
    }

    /// `LintId::lint` indexes the table by the id.
    #[test]
    fn table_is_keyed_by_id() {
        for (i, lint) in LINTS.iter().enumerate() {
            assert_eq!(lint.id as usize, i, "{:?}", lint.id);
            assert_eq!(lint.id.lint().id, lint.id);
            assert_eq!(LintId::from_name(lint.id.name()), Some(lint.id));
        }
        assert_eq!(LintId::from_name("no_such_lint"), None);
    }

    /// How the documentation writes a default level.
    fn doc_default(default: Default) -> String {
        let word = |l: Level| match l {
            Allow => "allow",
            Warn => "warn",
            Deny => "deny",
        };
        match default {
            Default::Always(l) => word(l).to_string(),
            Default::SpecStatus { spec, status } => {
                format!("{} in spec, {} in status", word(spec), word(status))
            }
        }
    }

    /// The (name, default) of each row of the catalogue table in the
    /// documentation of `api_core::lints`:
    /// ``//! | [`name`](#name) | default | rule | convention |``.
    fn documented() -> Vec<(String, String)> {
        let doc = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../api-core/src/lints.rs"
        ));
        let section = doc
            .split_once("//! # The catalogue\n")
            .expect("api_core::lints has a `# The catalogue` section")
            .1;
        let section = section.split("\n//! # ").next().unwrap_or(section);
        let mut rows = Vec::new();
        for line in section.lines() {
            let Some(row) = line.strip_prefix("//! | [`") else {
                continue;
            };
            let (name, rest) = row.split_once('`').expect("a closing backtick");
            let rest = rest
                .strip_prefix(&format!("](#{name}) | "))
                .unwrap_or_else(|| panic!("row of `{name}` links to `#{name}`: {line}"));
            let default = rest.split(" | ").next().unwrap_or_default();
            rows.push((name.to_string(), default.to_string()));
        }
        assert!(
            !rows.is_empty(),
            "no catalogue rows found in api_core::lints"
        );
        rows
    }

    /// The table here and the catalogue in `api_core::lints` list the same
    /// lints with the same default levels.
    #[test]
    fn table_matches_api_core_docs() {
        let documented = documented();
        for lint in LINTS {
            let name = lint.id.name();
            let row = documented.iter().find(|(n, _)| n == name);
            let (_, default) = row.unwrap_or_else(|| {
                panic!("`{name}` is missing from the api_core::lints catalogue")
            });
            assert_eq!(
                *default,
                doc_default(lint.default),
                "default level of `{name}` in the api_core::lints catalogue"
            );
        }
        for (name, _) in &documented {
            assert!(
                LintId::from_name(name).is_some(),
                "`{name}` is in the api_core::lints catalogue but not in the lint table"
            );
        }
        let mut seen: Vec<&str> = documented.iter().map(|(n, _)| n.as_str()).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), documented.len(), "a lint is listed twice");
    }
}
