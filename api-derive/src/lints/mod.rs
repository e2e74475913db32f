//! The convention lints: a registry of names, default levels and the
//! conventions they enforce; per-container and per-field level overrides;
//! and the collector that turns findings into compile errors (deny) or
//! compiler warnings (warn).

mod fields;
pub mod naming;
mod paths;
pub mod types;

pub use fields::check_fields;
pub use naming::{check_json_field_names, check_kind_naming};
pub use paths::check_resource_paths;
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

/// One lint of the catalogue.
pub struct Lint {
    pub name: &'static str,
    pub default: Default,
    /// The section of the API conventions it enforces.
    pub convention: &'static str,
}

use Level::{Allow, Deny, Warn};

/// The catalogue. Names and default levels are a public contract.
pub const LINTS: &[Lint] = &[
    Lint {
        name: "integer_width",
        default: Default::Always(Deny),
        convention: "Primitive types",
    },
    Lint {
        name: "no_floats",
        default: Default::SpecStatus {
            spec: Deny,
            status: Warn,
        },
        convention: "Primitive types",
    },
    Lint {
        name: "no_maps",
        default: Default::Always(Deny),
        convention: "Lists of named subobjects preferred over maps",
    },
    Lint {
        name: "hash_map",
        default: Default::Always(Warn),
        convention: "Primitive types",
    },
    Lint {
        name: "json_field_names",
        default: Default::Always(Deny),
        convention: "Naming conventions",
    },
    Lint {
        name: "optional_field",
        default: Default::Always(Deny),
        convention: "Optional vs. Required",
    },
    Lint {
        name: "required_field",
        default: Default::Always(Deny),
        convention: "Optional vs. Required",
    },
    Lint {
        name: "default_or_required",
        default: Default::Always(Deny),
        convention: "Defaulting",
    },
    Lint {
        name: "no_durations",
        default: Default::Always(Deny),
        convention: "Units",
    },
    Lint {
        name: "duration_units",
        default: Default::Always(Warn),
        convention: "Units",
    },
    Lint {
        name: "timestamp_naming",
        default: Default::Always(Deny),
        convention: "Naming conventions",
    },
    Lint {
        name: "time_field_suffix",
        default: Default::Always(Warn),
        convention: "Naming conventions",
    },
    Lint {
        name: "reference_naming",
        default: Default::Always(Deny),
        convention: "Object references",
    },
    Lint {
        name: "bool_naming",
        default: Default::Always(Deny),
        convention: "Naming conventions",
    },
    Lint {
        name: "no_bools",
        default: Default::Always(Allow),
        convention: "Primitive types",
    },
    Lint {
        name: "no_phase",
        default: Default::Always(Warn),
        convention: "Typical status properties",
    },
    Lint {
        name: "conditions",
        default: Default::Always(Deny),
        convention: "Typical status properties",
    },
    Lint {
        name: "status_optional",
        default: Default::Always(Warn),
        convention: "Optional vs. Required",
    },
    Lint {
        name: "list_type",
        default: Default::Always(Warn),
        convention: "Lists of named subobjects preferred over maps",
    },
    Lint {
        name: "enum_values",
        default: Default::Always(Deny),
        convention: "Constants",
    },
    Lint {
        name: "unions",
        default: Default::Always(Deny),
        convention: "Unions",
    },
    Lint {
        name: "kind_naming",
        default: Default::Always(Deny),
        convention: "Naming conventions",
    },
    Lint {
        name: "printcolumn_path",
        default: Default::Always(Deny),
        convention: "Naming conventions",
    },
    Lint {
        name: "field_docs",
        default: Default::Always(Warn),
        convention: "Naming conventions",
    },
    Lint {
        name: "max_length",
        default: Default::Always(Allow),
        convention: "Validation",
    },
    // Beyond DESIGN.md's catalogue (kube-api-linter's uniquemarkers).
    Lint {
        name: "duplicate_keywords",
        default: Default::Always(Deny),
        convention: "Validation",
    },
];

/// `enum_values`: CamelCase constants (`^[A-Z][a-zA-Z0-9]*$`).
pub fn is_enum_value(v: &str) -> bool {
    v.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && v.chars().all(|c| c.is_ascii_alphanumeric())
}

pub fn lookup(name: &str) -> Option<&'static Lint> {
    LINTS.iter().find(|l| l.name == name)
}

/// The lint `name` and its level where `levels` apply in `context`
/// (`None` only for a name missing from the registry).
pub fn lint_level(
    name: &str,
    levels: &[&Levels],
    context: Context,
) -> Option<(&'static Lint, Level)> {
    let lint = lookup(name)?;
    Some((lint, level(lint, levels, context).0))
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

/// The level of `lint` under the overrides (innermost last) in `context`,
/// and whether an override set it.
pub fn level(lint: &Lint, levels: &[&Levels], context: Context) -> (Level, bool) {
    match levels.iter().rev().find_map(|l| l.get(lint.name)) {
        Some(l) => (l, true),
        None => (
            match lint.default {
                Default::Always(l) => l,
                Default::SpecStatus { spec, status } => match context {
                    Context::Spec => spec,
                    Context::Status | Context::Any => status,
                },
            },
            false,
        ),
    }
}

/// The full message of a finding: subject, problem, lint, help, convention.
pub fn message(lint: &Lint, subject: &str, problem: &str, help: &str) -> String {
    format!(
        "{subject}: {problem} [{}]\n  help: {help}\n  note: Kubernetes API conventions, \"{}\"; to allow it here: #[kube(allow({}))]",
        lint.name, lint.convention, lint.name
    )
}

/// Level overrides written with `#[kube(allow(..), warn(..), deny(..))]`.
#[derive(Clone, Debug, Default)]
pub struct Levels(Vec<(&'static str, Level)>);

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
                match lookup(&name) {
                    Some(lint) => out.push((lint.name, level)),
                    None => {
                        let shown = quote::ToTokens::to_token_stream(path)
                            .to_string()
                            .replace(' ', "");
                        let mut msg = format!("unknown lint `{shown}`");
                        if let Some(s) = suggest(&shown, LINTS.iter().map(|l| l.name)) {
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

    fn get(&self, name: &str) -> Option<Level> {
        self.0
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, l)| *l)
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
    pub lint: &'static str,
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

    /// Errors from darling (typos, missing keys), kept with their spans.
    pub fn darling(&mut self, error: darling::Error) {
        self.errors.push(error.into());
    }

    pub fn syn(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// Reports a finding at the level the overrides and the context give it.
    pub fn lint(&mut self, finding: Finding, levels: &[&Levels], context: Context) {
        let Some(lint) = lookup(finding.lint) else {
            self.error(
                finding.span,
                format!("internal error: unknown lint {}", finding.lint),
            );
            return;
        };
        let (level, _) = level(lint, levels, context);
        let message = message(lint, &finding.subject, &finding.problem, &finding.help);
        match level {
            Allow => {}
            Deny => self.error(finding.span, message),
            Warn => {
                // Stable Rust has no proc-macro warnings: use a deprecated
                // constant at the field's span, named after the lint.
                let name = format_ident!("{}", lint.name, span = finding.span);
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

    #[test]
    fn suggestions() {
        assert_eq!(
            suggest("json_field_name", LINTS.iter().map(|l| l.name)),
            Some("json_field_names")
        );
        assert_eq!(
            suggest("no_float", LINTS.iter().map(|l| l.name)),
            Some("no_floats")
        );
        assert_eq!(suggest("zzzzzz", LINTS.iter().map(|l| l.name)), None);
    }

    #[test]
    fn catalogue_is_complete() {
        assert_eq!(LINTS.len(), 26);
    }
}
