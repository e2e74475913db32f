//! Facts about API types, carried as associated consts so that the derives
//! can check conventions through type aliases and nested types at compile
//! time. Not a public API: generated code uses it.

/// The JSON shape of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A JSON string.
    String,
    /// A JSON integer.
    Integer,
    /// A JSON number that may have a fraction.
    Number,
    /// `true` or `false`.
    Boolean,
    /// An object with known properties.
    Object,
    /// A list.
    Array,
    /// An object with arbitrary keys (`additionalProperties`).
    Map,
    /// An integer or a string (`x-kubernetes-int-or-string`).
    IntOrString,
    /// Any JSON (`x-kubernetes-preserve-unknown-fields`).
    Any,
}

/// A float (`f32`, `f64`).
pub const FLOAT: u32 = 1;
/// An unsigned integer.
pub const UNSIGNED: u32 = 1 << 1;
/// A signed integer other than `i32`/`i64`.
pub const NARROW_INT: u32 = 1 << 2;
/// A `HashMap` (random order).
pub const HASH_MAP: u32 = 1 << 3;
/// A `std::time::Duration`.
pub const DURATION: u32 = 1 << 4;
/// A `Time`/`MicroTime`.
pub const TIME: u32 = 1 << 5;
/// A set (`BTreeSet`): `x-kubernetes-list-type: set`.
pub const SET: u32 = 1 << 6;
/// A map whose values are objects (maps of subobjects).
pub const OBJECT_MAP: u32 = 1 << 7;
/// The type is `Conditions`.
pub const CONDITIONS: u32 = 1 << 8;

/// One field of an object type.
#[derive(Debug)]
pub struct FieldFacts {
    /// The JSON name.
    pub name: &'static str,
    /// The field's type.
    pub ty: &'static TypeFacts,
    /// Whether the field is required.
    pub required: bool,
    /// Whether the field has a static default.
    pub defaulted: bool,
    /// Whether the field is `#[serde(flatten)]`ed: its type's fields are
    /// this object's fields.
    pub flattened: bool,
}

/// What the derives know about a type.
#[derive(Debug)]
pub struct TypeFacts {
    /// The JSON shape.
    pub kind: Kind,
    /// The type's own flags.
    pub flags: u32,
    /// The flags of the type and of everything below it.
    pub deep_flags: u32,
    /// The fields of an object.
    pub fields: &'static [FieldFacts],
    /// The items of a list, or the values of a map.
    pub item: Option<&'static TypeFacts>,
    /// How deep the type nests (a scalar is 1).
    pub depth: u32,
}

impl TypeFacts {
    /// A scalar (or opaque) type.
    pub const fn scalar(kind: Kind, flags: u32) -> Self {
        TypeFacts {
            kind,
            flags,
            deep_flags: flags,
            fields: &[],
            item: None,
            depth: 1,
        }
    }

    /// A list of `item`.
    pub const fn array(item: &'static TypeFacts, flags: u32) -> Self {
        TypeFacts {
            kind: Kind::Array,
            flags,
            deep_flags: flags | item.deep_flags,
            fields: &[],
            item: Some(item),
            depth: item.depth + 1,
        }
    }

    /// A map with string keys and `value`s.
    pub const fn map(value: &'static TypeFacts, flags: u32) -> Self {
        let object_values = matches!(value.kind, Kind::Object | Kind::Map | Kind::Array);
        let flags = if object_values {
            flags | OBJECT_MAP
        } else {
            flags
        };
        TypeFacts {
            kind: Kind::Map,
            flags,
            deep_flags: flags | value.deep_flags,
            fields: &[],
            item: Some(value),
            depth: value.depth + 1,
        }
    }

    /// An object with `fields`.
    pub const fn object(fields: &'static [FieldFacts], flags: u32) -> Self {
        let mut deep = flags;
        let mut depth = 0;
        let mut i = 0;
        while i < fields.len() {
            deep |= fields[i].ty.deep_flags;
            if fields[i].ty.depth > depth {
                depth = fields[i].ty.depth;
            }
            i += 1;
        }
        TypeFacts {
            kind: Kind::Object,
            flags,
            deep_flags: deep,
            fields,
            item: None,
            depth: depth + 1,
        }
    }

    /// The same facts with a different kind (string enums, newtypes).
    pub const fn with_kind(kind: Kind, inner: &'static TypeFacts) -> Self {
        TypeFacts {
            kind,
            flags: inner.flags,
            deep_flags: inner.deep_flags,
            fields: inner.fields,
            item: inner.item,
            depth: inner.depth,
        }
    }
}
