//! Rules checked when the type is compiled (feature `cel`): a rule the
//! apiserver could not compile fails `cargo build` at the rule, with the
//! CEL parser's or checker's message, instead of failing when the CRD is
//! applied.
//!
//! The derive sees the type being derived, not the types of its fields:
//! `self` is typed from the Rust syntax (strings, integers, lists, maps,
//! `Option`, the meta types, and the fields of the struct itself), and any
//! type the syntax cannot tell (another struct, an enum, an alias) is
//! `dyn`, which checks leniently. The runtime checks every rule again
//! against the whole schema.

use std::cell::RefCell;

use api_cel::Type;
use api_cel::cost::{
    self, Estimate, MAX_REQUEST_SIZE_BYTES, STATIC_RULE_LIMIT, SizeEstimator, Sizes,
};

use crate::model::attrs::Validations;
use crate::model::shape::{Known, Prim, Shape};
use crate::model::{Data, Field, Model};

/// What the derive knows of `self` in a rule: its type, and the sizes of
/// its data as far as the attributes tell (`max_length`, `max_items`,
/// `max_properties`, or the apiserver's estimates from the largest
/// request), with the places that have no declared bound.
pub struct SelfType {
    /// The CEL type.
    pub ty: Type,
    /// The sizes, where the derive can tell them.
    pub sizes: Sizes,
    /// Paths below `self` whose size is the request-size estimate, with
    /// the attribute that would bound them (`max_items on names`).
    pub unbounded: Vec<(Vec<String>, String)>,
}

/// The largest string of a request: its bytes less the quotes.
const MAX_STRING: u64 = MAX_REQUEST_SIZE_BYTES - 2;

/// Checks that a compiled rule's estimated cost is within the apiserver's
/// limit for one rule, as far as the derive can tell: the estimate of what
/// it knows (data it cannot size counts as empty, and the rule as run
/// once) is a lower bound of the apiserver's, so an error here is certain.
pub fn check_cost(
    rule: &api_cel::CheckedSource,
    this: &SelfType,
    what: &str,
) -> Result<(), String> {
    let read = Recorder {
        sizes: &this.sizes,
        paths: RefCell::new(Vec::new()),
    };
    let estimate = rule.depth.run(|| cost::estimate_checked(rule, &read));
    if estimate.max <= STATIC_RULE_LIMIT {
        return Ok(());
    }
    let read = read.paths.into_inner();
    let mut hints: Vec<&str> = this
        .unbounded
        .iter()
        .filter(|(path, _)| {
            read.iter()
                .any(|r| r.len() > path.len() && r[1..=path.len()] == path[..])
        })
        .map(|(_, hint)| hint.as_str())
        .collect();
    hints.dedup();
    let hint = if hints.is_empty() {
        String::new()
    } else {
        format!("; it reads data without a bound: add {}", hints.join(", "))
    };
    let shown = if estimate.max == u64::MAX {
        "unbounded".to_string()
    } else {
        estimate.max.to_string()
    };
    Err(format!(
        "the apiserver would reject this {what}: its estimated cost is {shown}, over the limit of {STATIC_RULE_LIMIT} per rule ({}){hint}",
        cost::cost_error_message(
            &format!("estimated {what} cost"),
            estimate.max,
            STATIC_RULE_LIMIT
        )
    ))
}

/// The sizes the derive knows, recording the paths the estimate reads;
/// what it does not know counts as empty.
struct Recorder<'a> {
    sizes: &'a Sizes,
    paths: RefCell<Vec<Vec<String>>>,
}

impl SizeEstimator for Recorder<'_> {
    fn estimate_size(&self, path: &[String]) -> Option<Estimate> {
        self.paths.borrow_mut().push(path.to_vec());
        Some(self.sizes.estimate_size(path).unwrap_or(Estimate::fixed(0)))
    }
}

/// The sizes of a field's data and its smallest JSON size, with the paths
/// (below the field, prefixed with `at`) that have no declared bound.
fn field_sizes(
    f: &Field,
    at: &[String],
    unbounded: &mut Vec<(Vec<String>, String)>,
) -> (Sizes, u64) {
    let a = &f.attrs;
    if a.int_or_string.is_present() {
        let max = a
            .validations
            .max_length
            .as_ref()
            .map_or(MAX_STRING, |m| (m.0 as u64).saturating_mul(4));
        return (Sizes::leaf(max), 1);
    }
    if a.preserve_unknown_fields.is_present() || a.schema_with.is_some() {
        return (Sizes::leaf(0), 0);
    }
    shape_sizes(
        &Shape::of(&f.ty),
        &a.validations,
        a.items.as_ref(),
        &f.json_name,
        at,
        unbounded,
    )
}

fn shape_sizes(
    shape: &Shape,
    v: &Validations,
    items: Option<&Validations>,
    name: &str,
    at: &[String],
    unbounded: &mut Vec<(Vec<String>, String)>,
) -> (Sizes, u64) {
    match shape {
        Shape::Option(s) | Shape::Box(s) => shape_sizes(s, v, items, name, at, unbounded),
        Shape::Vec(item) | Shape::Set { item, .. } => {
            let mut below = at.to_vec();
            below.push("@items".into());
            let none = Validations::default();
            let (elem, min) =
                shape_sizes(item, items.unwrap_or(&none), None, name, &below, unbounded);
            let max = match &v.max_items {
                Some(m) => m.0 as u64,
                None => {
                    unbounded.push((at.to_vec(), format!("`max_items` to `{name}`")));
                    // Items of unknown size may all be tiny: as many as
                    // the estimate of the apiserver, or none if unknown.
                    if min == 0 { 0 } else { MAX_STRING / (min + 1) }
                }
            };
            (Sizes::list(max, elem), 2)
        }
        Shape::Map { value, .. } => {
            let mut below = at.to_vec();
            below.push("@values".into());
            let none = Validations::default();
            let (elem, min) = shape_sizes(value, &none, None, name, &below, unbounded);
            let max = match &v.max_properties {
                Some(m) => m.0 as u64,
                None => {
                    unbounded.push((at.to_vec(), format!("`max_properties` to `{name}`")));
                    if min == 0 { 0 } else { MAX_STRING / (min + 6) }
                }
            };
            (Sizes::map(max, Sizes::leaf(0), elem), 2)
        }
        Shape::Prim(Prim::String | Prim::Char, _) => {
            match v.format.as_ref().map(|f| f.value()).as_deref() {
                Some("duration") => return (Sizes::leaf(32), 3),
                Some("date") => return (Sizes::leaf(12), 12),
                Some("date-time") => return (Sizes::leaf(32), 21),
                _ => {}
            }
            let max = match &v.max_length {
                Some(m) => (m.0 as u64).saturating_mul(4),
                None => {
                    let attr = match at.last().map(String::as_str) {
                        Some("@items") => format!("`items(max_length = ...)` to `{name}`"),
                        Some("@values") => {
                            format!("a value type with `max_length` to `{name}`")
                        }
                        _ => format!("`max_length` to `{name}`"),
                    };
                    unbounded.push((at.to_vec(), attr));
                    MAX_STRING
                }
            };
            (Sizes::leaf(max), 2)
        }
        Shape::Prim(Prim::Bool, _) => (Sizes::leaf(0), 4),
        Shape::Prim(..) => (Sizes::leaf(0), 1),
        Shape::Known(Known::Time | Known::MicroTime, _) => (Sizes::leaf(32), 21),
        // Types the derive cannot see into: their sizes count as nothing.
        Shape::Known(..) | Shape::Other(_) => (Sizes::leaf(0), 0),
    }
}

/// `self` in a field's rules.
pub fn field_self(f: &Field) -> SelfType {
    let mut unbounded = Vec::new();
    let (sizes, _) = field_sizes(f, &[], &mut unbounded);
    SelfType {
        ty: field_type(f),
        sizes,
        unbounded,
    }
}

/// The sizes of a struct's fields, by escaped name, below `at`.
fn struct_sizes(
    fields: &[Field],
    at: &[String],
    unbounded: &mut Vec<(Vec<String>, String)>,
) -> Sizes {
    Sizes::object(fields.iter().filter_map(|f| {
        let name = api_cel::escape(&f.json_name)?;
        let mut below = at.to_vec();
        below.push(name.clone());
        Some((name, field_sizes(f, &below, unbounded).0))
    }))
}

/// `self` in a type's own rules.
pub fn model_self(model: &Model) -> SelfType {
    let mut unbounded = Vec::new();
    let sizes = match &model.data {
        Data::Struct(fields) => struct_sizes(fields, &[], &mut unbounded),
        Data::Newtype(f) => field_sizes(f, &[], &mut unbounded).0,
        Data::Enum(_) => Sizes::leaf(0),
    };
    SelfType {
        ty: model_type(model),
        sizes,
        unbounded,
    }
}

/// `self` in a resource's root rules.
pub fn root_self(model: &Model, no_spec: bool, has_status: bool) -> SelfType {
    let mut unbounded = Vec::new();
    let string = || Sizes::leaf(MAX_STRING);
    let mut fields = vec![
        ("apiVersion".to_string(), string()),
        ("kind".to_string(), string()),
        (
            "metadata".to_string(),
            Sizes::object([
                ("name".to_string(), string()),
                ("generateName".to_string(), string()),
            ]),
        ),
    ];
    if let Data::Struct(own) = &model.data {
        if no_spec {
            fields.extend(struct_sizes(own, &[], &mut unbounded).fields);
        } else {
            fields.push((
                "spec".to_string(),
                struct_sizes(own, &["spec".to_string()], &mut unbounded),
            ));
        }
    }
    SelfType {
        ty: root_type(model, no_spec, has_status),
        sizes: Sizes::object(fields),
        unbounded,
    }
}

/// Parses and checks `source` with `self` (and `oldSelf`, optional when
/// `optional_old_self`) of type `this`; `want` is the type it must have.
/// The checked rule is kept for [`check_cost`].
pub fn compile(
    source: &str,
    this: &SelfType,
    optional_old_self: bool,
    want: &Type,
) -> Result<api_cel::CheckedSource, String> {
    let this = &this.ty;
    let old = if optional_old_self {
        Type::Optional(Box::new(this.clone()))
    } else {
        this.clone()
    };
    let rule = api_cel::check_source(source, &[("self", this.clone()), ("oldSelf", old)])?;
    let found = &rule.checked.ty;
    if found != want && !found.is_dyn() {
        return Err(format!("it is a {found}, not a {want}"));
    }
    Ok(rule)
}

/// The type of a field's value.
pub fn field_type(f: &Field) -> Type {
    let a = &f.attrs;
    if a.int_or_string.is_present()
        || a.preserve_unknown_fields.is_present()
        || a.schema_with.is_some()
    {
        return Type::Dyn;
    }
    let format = a.validations.format.as_ref().map(|s| s.value());
    match (rust_type(&f.ty), format.as_deref()) {
        (Type::String, Some("date" | "date-time")) => Type::Timestamp,
        (Type::String, Some("duration")) => Type::Duration,
        (Type::String, Some("byte")) => Type::Bytes,
        (t, _) => t,
    }
}

/// The type of a value of the derived type: an object of its fields (by
/// JSON name) for a struct; `dyn` when a field is flattened or it is an enum.
pub fn model_type(model: &Model) -> Type {
    match &model.data {
        Data::Struct(fields) => struct_type(fields).unwrap_or(Type::Dyn),
        Data::Newtype(f) => field_type(f),
        Data::Enum(_) => Type::Dyn,
    }
}

fn struct_type(fields: &[Field]) -> Option<Type> {
    let mut out = Vec::new();
    for f in fields {
        if f.is_flattened() {
            return None;
        }
        if let Some(name) = api_cel::escape(&f.json_name) {
            out.push((name, field_type(f)));
        }
    }
    Some(Type::object(out))
}

/// The type of a resource's root: `apiVersion`, `kind`,
/// `metadata.name`/`generateName`, and the spec (or, with `no_spec`, the
/// spec's fields) and status.
pub fn root_type(model: &Model, no_spec: bool, has_status: bool) -> Type {
    let meta = Type::object([
        ("name".to_string(), Type::String),
        ("generateName".to_string(), Type::String),
    ]);
    let mut fields = vec![
        ("apiVersion".to_string(), Type::String),
        ("kind".to_string(), Type::String),
        ("metadata".to_string(), meta),
    ];
    if no_spec {
        match &model.data {
            Data::Struct(own) => match struct_type(own) {
                Some(Type::Object(o)) => {
                    fields.extend(o.fields.iter().map(|(k, v)| (k.clone(), v.clone())))
                }
                _ => return Type::Dyn,
            },
            _ => return Type::Dyn,
        }
    } else {
        fields.push(("spec".to_string(), model_type(model)));
    }
    if has_status {
        fields.push(("status".to_string(), Type::Dyn));
    }
    Type::object(fields)
}

/// The CEL type of a Rust type, as far as its syntax tells (the derive's
/// own reading of it, [`Shape`]); what syntax cannot see into is `dyn`.
fn rust_type(ty: &syn::Type) -> Type {
    shape_type(&Shape::of(ty))
}

fn shape_type(shape: &Shape) -> Type {
    match shape {
        Shape::Option(s) | Shape::Box(s) => shape_type(s),
        Shape::Vec(item) | Shape::Set { item, .. } => Type::list(shape_type(item)),
        Shape::Map { value, .. } => Type::map(Type::String, shape_type(value)),
        Shape::Prim(Prim::String | Prim::Char, _) => Type::String,
        Shape::Prim(Prim::Bool, _) => Type::Bool,
        Shape::Prim(Prim::I32 | Prim::I64 | Prim::Narrow(_) | Prim::Unsigned(_), _) => Type::Int,
        Shape::Prim(Prim::Float(_), _) => Type::Double,
        Shape::Known(Known::Time | Known::MicroTime, _) => Type::Timestamp,
        Shape::Known(..) | Shape::Other(_) => Type::Dyn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_types_as_cel_types() {
        let t = |s: &str| rust_type(&syn::parse_str::<syn::Type>(s).unwrap());
        assert_eq!(t("Option<Vec<String>>"), Type::list(Type::String));
        assert_eq!(
            t("BTreeMap<String, i32>"),
            Type::map(Type::String, Type::Int)
        );
        assert_eq!(t("api_core::Time"), Type::Timestamp);
        assert_eq!(t("Quantity"), Type::Dyn);
        assert_eq!(t("MySpec"), Type::Dyn);
    }

    fn check(source: &str, this: &SelfType, optional: bool, want: &Type) -> Result<(), String> {
        compile(source, this, optional, want).map(drop)
    }

    #[test]
    fn rules_check_or_name_the_place_of_the_error() {
        let obj = SelfType {
            ty: Type::object([("a".to_string(), Type::Int), ("b".to_string(), Type::Dyn)]),
            sizes: Sizes::default(),
            unbounded: Vec::new(),
        };
        assert!(
            check(
                "self.a == oldSelf.a && has(self.b)",
                &obj,
                false,
                &Type::Bool
            )
            .is_ok()
        );
        assert!(check("self.?a.orValue(0) == 0", &obj, false, &Type::Bool).is_ok());
        assert!(
            check(
                "!oldSelf.hasValue() || oldSelf.value().a == self.a",
                &obj,
                true,
                &Type::Bool
            )
            .is_ok()
        );
        assert!(check("self.b.anything == 1", &obj, false, &Type::Bool).is_ok());
        let e = check("self.a ==", &obj, false, &Type::Bool).unwrap_err();
        assert!(e.starts_with("ERROR: <input>:1:10: Syntax error:"), "{e}");
        let e = check("self.c == 1", &obj, false, &Type::Bool).unwrap_err();
        assert!(e.contains("undefined field 'c'"), "{e}");
        let e = check("self.a == 'x'", &obj, false, &Type::Bool).unwrap_err();
        assert!(
            e.contains("found no matching overload for '_==_' applied to '(int, string)'"),
            "{e}"
        );
        assert_eq!(
            check("self.a", &obj, false, &Type::Bool).unwrap_err(),
            "it is a int, not a bool"
        );
    }
}
