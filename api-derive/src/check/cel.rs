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

use api_cel::Type;

use crate::model::shape::{Known, Prim, Shape};
use crate::model::{Data, Field, Model};

/// Parses and checks `source` with `self` (and `oldSelf`, optional when
/// `optional_old_self`) of type `this`; `want` is the type it must have.
pub fn check(
    source: &str,
    this: &Type,
    optional_old_self: bool,
    want: &Type,
) -> Result<(), String> {
    let old = if optional_old_self {
        Type::Optional(Box::new(this.clone()))
    } else {
        this.clone()
    };
    let found = api_cel::check(source, &[("self", this.clone()), ("oldSelf", old)])?;
    if found != *want && !found.is_dyn() {
        return Err(format!("it is a {found}, not a {want}"));
    }
    Ok(())
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

    #[test]
    fn rules_check_or_name_the_place_of_the_error() {
        let obj = Type::object([("a".to_string(), Type::Int), ("b".to_string(), Type::Dyn)]);
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
