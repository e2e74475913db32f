//! CEL types as the apiserver's checker sees them: the standard types,
//! schema objects (a fixed set of fields), and Kubernetes' opaque types.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A CEL type.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// Any value (`dyn`): what int-or-string and untyped values are.
    Dyn,
    /// `null_type`.
    Null,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `double`.
    Double,
    /// `string`.
    String,
    /// `bytes`.
    Bytes,
    /// `google.protobuf.Duration`.
    Duration,
    /// `google.protobuf.Timestamp`.
    Timestamp,
    /// `list(T)`.
    List(Box<Type>),
    /// `map(K, V)`.
    Map(Box<Type>, Box<Type>),
    /// An object of a schema: its properties, by their escaped names.
    Object(Arc<Object>),
    /// `optional_type(T)`.
    Optional(Box<Type>),
    /// A type value (`int`, `type(x)`): `type(T)`.
    Type(Box<Type>),
    /// One of Kubernetes' library types (`kubernetes.URL`, `net.IP`, ...).
    Opaque(&'static str),
    /// A type parameter of an overload (`A`, `K`, `V`).
    Param(&'static str),
    /// The type of an expression that did not check (no further errors
    /// are reported about it).
    Error,
}

/// An object type of a schema.
#[derive(Debug, PartialEq, Default)]
pub struct Object {
    /// The type's name, as errors show it (`object`).
    pub name: String,
    /// The fields rules may select, by escaped name.
    pub fields: BTreeMap<String, Type>,
}

impl Type {
    /// `list(elem)`.
    pub fn list(elem: Type) -> Type {
        Type::List(Box::new(elem))
    }

    /// `map(key, value)`.
    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Box::new(key), Box::new(value))
    }

    /// An object type with `fields`.
    pub fn object(fields: impl IntoIterator<Item = (String, Type)>) -> Type {
        Type::Object(Arc::new(Object {
            name: "object".to_string(),
            fields: fields.into_iter().collect(),
        }))
    }

    /// Whether this is `dyn` (or an error, which checks like `dyn`).
    pub fn is_dyn(&self) -> bool {
        matches!(self, Type::Dyn | Type::Error)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Dyn => f.write_str("dyn"),
            Type::Null => f.write_str("null"),
            Type::Bool => f.write_str("bool"),
            Type::Int => f.write_str("int"),
            Type::Uint => f.write_str("uint"),
            Type::Double => f.write_str("double"),
            Type::String => f.write_str("string"),
            Type::Bytes => f.write_str("bytes"),
            Type::Duration => f.write_str("google.protobuf.Duration"),
            Type::Timestamp => f.write_str("google.protobuf.Timestamp"),
            Type::List(e) => write!(f, "list({e})"),
            Type::Map(k, v) => write!(f, "map({k}, {v})"),
            Type::Object(o) => f.write_str(&o.name),
            Type::Optional(t) => write!(f, "optional_type({t})"),
            Type::Type(t) => write!(f, "type({t})"),
            Type::Opaque(name) => f.write_str(name),
            Type::Param(p) => f.write_str(p),
            Type::Error => f.write_str("*error*"),
        }
    }
}

/// Type parameters bound while an overload is matched.
#[derive(Default, Debug)]
pub(crate) struct Bindings(Vec<(&'static str, Type)>);

impl Bindings {
    fn get(&self, p: &str) -> Option<&Type> {
        self.0.iter().find(|(n, _)| *n == p).map(|(_, t)| t)
    }

    /// `t` with its bound parameters replaced (unbound ones are `dyn`).
    pub(crate) fn substitute(&self, t: &Type) -> Type {
        match t {
            Type::Param(p) => self.get(p).cloned().unwrap_or(Type::Dyn),
            Type::List(e) => Type::list(self.substitute(e)),
            Type::Map(k, v) => Type::map(self.substitute(k), self.substitute(v)),
            Type::Optional(e) => Type::Optional(Box::new(self.substitute(e))),
            Type::Type(e) => Type::Type(Box::new(self.substitute(e))),
            other => other.clone(),
        }
    }

    /// Whether a value of type `arg` may be passed where `param` is
    /// expected, binding `param`'s parameters (cel-go's `isAssignable`).
    pub(crate) fn assign(&mut self, param: &Type, arg: &Type) -> bool {
        if arg.is_dyn() {
            if let Type::Param(p) = param
                && self.get(p).is_none()
            {
                self.0.push((p, Type::Dyn));
            }
            return true;
        }
        match (param, arg) {
            (Type::Param(p), _) => match self.get(p).cloned() {
                Some(bound) if bound.is_dyn() => true,
                Some(bound) => {
                    // The parameter already stands for a type: the argument
                    // must agree with it, or widen it to `dyn` when the two
                    // are different types of one kind (list(int) and
                    // list(dyn)).
                    if self.assign_plain(&bound, arg) {
                        true
                    } else if self.assign_plain(arg, &bound) {
                        self.0.retain(|(n, _)| n != p);
                        self.0.push((p, arg.clone()));
                        true
                    } else {
                        false
                    }
                }
                None => {
                    self.0.push((p, arg.clone()));
                    true
                }
            },
            (Type::Dyn, _) => true,
            _ => self.assign_plain(param, arg),
        }
    }

    fn assign_plain(&mut self, param: &Type, arg: &Type) -> bool {
        match (param, arg) {
            (_, a) if a.is_dyn() => true,
            (Type::Dyn, _) | (Type::Param(_), _) => self.assign(param, arg),
            (Type::List(p), Type::List(a)) => self.assign(p, a),
            (Type::Map(pk, pv), Type::Map(ak, av)) => self.assign(pk, ak) && self.assign(pv, av),
            (Type::Optional(p), Type::Optional(a)) => self.assign(p, a),
            (Type::Type(_), Type::Type(_)) => true,
            (Type::Object(p), Type::Object(a)) => Arc::ptr_eq(p, a) || p == a,
            // null is assignable to objects, optionals and durations /
            // timestamps (the protobuf message types), as in cel-go.
            (
                Type::Object(_) | Type::Duration | Type::Timestamp | Type::Optional(_),
                Type::Null,
            ) => true,
            (p, a) => p == a,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cel_go_s() {
        assert_eq!(
            Type::map(Type::String, Type::list(Type::Int)).to_string(),
            "map(string, list(int))"
        );
        assert_eq!(
            Type::Optional(Box::new(Type::Int)).to_string(),
            "optional_type(int)"
        );
        assert_eq!(Type::Duration.to_string(), "google.protobuf.Duration");
    }

    #[test]
    fn parameters_bind_and_widen() {
        let mut b = Bindings::default();
        assert!(b.assign(&Type::Param("A"), &Type::Int));
        assert!(!b.assign(&Type::Param("A"), &Type::String));
        assert!(b.assign(&Type::Param("A"), &Type::Dyn));
        let mut b = Bindings::default();
        assert!(b.assign(&Type::list(Type::Param("A")), &Type::list(Type::Dyn)));
        assert!(b.assign(&Type::list(Type::Param("A")), &Type::list(Type::Int)));
        assert_eq!(b.substitute(&Type::Param("A")), Type::Dyn);
        let obj = Type::object([("a".to_string(), Type::Int)]);
        let mut b = Bindings::default();
        assert!(!b.assign(&obj, &Type::map(Type::String, Type::String)));
        assert!(b.assign(&obj, &Type::Null));
    }
}
