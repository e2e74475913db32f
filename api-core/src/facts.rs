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
/// A duration whose value does not say its unit (`no_durations`):
/// `std::time::Duration`, meta/v1 `Duration` ([`crate::Duration`]), and a
/// derived newtype named `Duration` over an integer or a float. Not a
/// type merely named `Duration`: a string newtype with a pattern
/// (Gateway API's `Duration`) carries its unit in the value.
pub const DURATION: u32 = 1 << 4;
/// A `Time`/`MicroTime`.
pub const TIME: u32 = 1 << 5;
/// A set (`BTreeSet`): `x-kubernetes-list-type: set`.
pub const SET: u32 = 1 << 6;
/// A map whose values are not strings (`no_maps`).
pub const NON_STRING_MAP: u32 = 1 << 7;
/// The type is `Conditions`.
pub const CONDITIONS: u32 = 1 << 8;
/// A `bool`.
pub const BOOL: u32 = 1 << 9;
/// An object declared `x-kubernetes-map-type: atomic`.
pub const ATOMIC: u32 = 1 << 10;
/// A string whose length is bounded by its type (a newtype with
/// `max_length`, a string enum).
pub const BOUNDED: u32 = 1 << 11;

/// A type whose decoding fills in missing required fields instead of
/// failing (k8s-openapi's types): `decode` then checks the JSON itself for
/// required fields, as the apiserver does.
pub const LENIENT_DECODE: u32 = 1 << 12;

/// In a field's `masked`: the field may be required in a status
/// (`allow(status_optional)` on the field or its type).
pub const ALLOW_REQUIRED: u32 = 1 << 13;

/// The stand-in facts of a type whose derive failed (its errors are
/// reported there): checks that read them pass, so that one mistake gives
/// one error, not more in the types that use it.
pub const UNCHECKED: u32 = 1 << 14;

/// The type's schema has a description of its own: a derived type with a
/// doc comment (and a newtype or alias of one). A field without a doc
/// comment gets it as its description, as controller-gen does, so
/// `field_docs` does not ask for one.
pub const DESCRIBED: u32 = 1 << 15;

/// In a field's `masked`: a status' `conditions` field may be required
/// (`allow(conditions)` on the field or its type).
pub const ALLOW_REQUIRED_CONDITIONS: u32 = 1 << 16;

// api-derive writes these constants into generated code by name
// (`facts::FLOAT | facts::UNSIGNED`), never by value; its `facts` module
// lists the names and a test there checks them against this file.

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
    /// Flags of the field's type that do not count for the parent: the
    /// derive has already rejected them, or the field allows them.
    pub masked: u32,
}

impl FieldFacts {
    /// A field with nothing masked.
    pub const fn new(name: &'static str, ty: &'static TypeFacts, required: bool) -> Self {
        FieldFacts {
            name,
            ty,
            required,
            defaulted: false,
            flattened: false,
            masked: 0,
        }
    }
}

/// What the derives know about a type.
#[derive(Debug)]
pub struct TypeFacts {
    /// The JSON shape.
    pub kind: Kind,
    /// The type's own flags.
    pub flags: u32,
    /// The flags of the type and of everything below it (minus what the
    /// derives below have already dealt with).
    pub deep_flags: u32,
    /// The fields of an object.
    pub fields: &'static [FieldFacts],
    /// The items of a list, or the values of a map.
    pub item: Option<&'static TypeFacts>,
    /// How deep the type nests (a scalar is 1).
    pub depth: u32,
    /// The schema keywords the type itself declares (a newtype's
    /// `max_length`, ...): `KW_*` bits.
    pub keywords: u32,
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
            keywords: 0,
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
            keywords: 0,
        }
    }

    /// A map with string keys and `value`s. Values that are strings or
    /// int-or-strings (`Quantity`: Kubernetes' `ResourceList`) are fine for
    /// `no_maps`; any other value sets `NON_STRING_MAP`.
    pub const fn map(value: &'static TypeFacts, flags: u32) -> Self {
        let flags = if matches!(value.kind, Kind::String | Kind::IntOrString) {
            flags
        } else {
            flags | NON_STRING_MAP
        };
        TypeFacts {
            kind: Kind::Map,
            flags,
            deep_flags: flags | value.deep_flags,
            fields: &[],
            item: Some(value),
            depth: value.depth + 1,
            keywords: 0,
        }
    }

    /// An object with `fields`.
    pub const fn object(fields: &'static [FieldFacts], flags: u32) -> Self {
        let mut deep = flags;
        let mut depth = 0;
        let mut i = 0;
        while i < fields.len() {
            deep |= fields[i].ty.deep_flags & !fields[i].masked;
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
            keywords: 0,
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
            keywords: 0,
        }
    }

    /// The field with JSON name `name`, looking through flattened fields.
    pub const fn field(&'static self, name: &str) -> Option<&'static FieldFacts> {
        field_in(self.fields, name.as_bytes(), 0, name.len())
    }
}

const fn eq(a: &[u8], start: usize, end: usize, b: &[u8]) -> bool {
    if end - start != b.len() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if a[start + i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn field_in(
    fields: &'static [FieldFacts],
    path: &[u8],
    start: usize,
    end: usize,
) -> Option<&'static FieldFacts> {
    let mut i = 0;
    while i < fields.len() {
        let f = &fields[i];
        if f.flattened {
            if let Some(found) = field_in(f.ty.fields, path, start, end) {
                return Some(found);
            }
        } else if eq(path, start, end, f.name.as_bytes()) {
            return Some(f);
        }
        i += 1;
    }
    None
}

/// Resolves a JSON path (`.spec.replicas`, `.spec.ports[0].port`,
/// `.status.conditions[?(@.type=="Ready")].status`) through the facts,
/// as printer columns, scale and selectable fields use them. `None` when a
/// segment does not exist or the path does not parse.
pub const fn resolve(root: &'static TypeFacts, path: &str) -> Option<&'static TypeFacts> {
    let p = path.as_bytes();
    let mut cur = root;
    let mut i = 0;
    if p.is_empty() {
        return None;
    }
    while i < p.len() {
        match p[i] {
            b'.' => {
                let start = i + 1;
                let mut end = start;
                while end < p.len() && p[end] != b'.' && p[end] != b'[' {
                    end += 1;
                }
                if end == start {
                    return None;
                }
                if matches!(cur.kind, Kind::Any) {
                    return Some(cur);
                }
                if matches!(cur.kind, Kind::Map) {
                    match cur.item {
                        Some(v) => cur = v,
                        None => return None,
                    }
                } else {
                    match field_in(cur.fields, p, start, end) {
                        Some(f) => cur = f.ty,
                        None => return None,
                    }
                }
                i = end;
            }
            b'[' => {
                // `[n]`, `[*]` or a filter `[?(...)]`: all select list items.
                let mut end = i + 1;
                let mut depth = 1;
                while end < p.len() && depth > 0 {
                    if p[end] == b'[' {
                        depth += 1;
                    } else if p[end] == b']' {
                        depth -= 1;
                    }
                    end += 1;
                }
                if depth != 0 || end == i + 2 {
                    return None;
                }
                if matches!(cur.kind, Kind::Any) {
                    return Some(cur);
                }
                match (cur.kind, cur.item) {
                    (Kind::Array, Some(item)) => cur = item,
                    _ => return None,
                }
                i = end;
            }
            _ => return None,
        }
    }
    Some(cur)
}

/// Whether a field of this type holds time (`timestamp_naming`): a
/// `Time`/`MicroTime` (or a newtype of one), or a list of them.
pub const fn holds_time(facts: &TypeFacts) -> bool {
    if facts.flags & TIME != 0 {
        return true;
    }
    match (facts.kind, facts.item) {
        (Kind::Array, Some(item)) => item.flags & TIME != 0,
        _ => false,
    }
}

/// Whether `facts` fits a printer-column type (`integer`, `number`,
/// `string`, `boolean`, `date`).
pub const fn fits_column(facts: &TypeFacts, column_type: &str) -> bool {
    let t = column_type.as_bytes();
    match facts.kind {
        Kind::Any => true,
        Kind::Integer => eq(t, 0, t.len(), b"integer") || eq(t, 0, t.len(), b"number"),
        Kind::Number => eq(t, 0, t.len(), b"number"),
        Kind::Boolean => eq(t, 0, t.len(), b"boolean"),
        Kind::String => {
            eq(t, 0, t.len(), b"string") || (eq(t, 0, t.len(), b"date") && facts.flags & TIME != 0)
        }
        Kind::IntOrString => eq(t, 0, t.len(), b"string") || eq(t, 0, t.len(), b"integer"),
        // A list of scalars in a `string` column: the apiserver takes any
        // path, and the column prints the list (`[a b]`). Other column
        // types cannot show a list (the cell stays empty).
        Kind::Array => match facts.item {
            Some(item) => {
                eq(t, 0, t.len(), b"string")
                    && matches!(
                        item.kind,
                        Kind::String
                            | Kind::Integer
                            | Kind::Number
                            | Kind::Boolean
                            | Kind::IntOrString
                    )
            }
            None => false,
        },
        Kind::Object | Kind::Map => false,
    }
}

/// The type-layer check of a field: panics (a compile error where the
/// derive put the check, naming the field) when the facts carry a flag of
/// a lint that is denied there. The messages are static so that every
/// derive does not have to write them out.
pub const fn deny_flags(flags: u32, denied: u32) {
    let bad = flags & denied;
    if bad & (UNSIGNED | NARROW_INT) != 0 {
        panic!(
            "this field's type is or contains an integer other than `i32`/`i64` [integer_width]\n  help: use `i32` or `i64` (bounded with `minimum = 0` if needed)\n  note: Kubernetes API conventions, \"Primitive types\"; to allow it: #[kube(allow(integer_width))] on this field, or where the type is defined"
        );
    }
    if bad & FLOAT != 0 {
        panic!(
            "this field's type is or contains a float, and floats are errors under spec [no_floats]\n  help: use an integer with the unit in the name, or a string (a `Quantity`)\n  note: Kubernetes API conventions, \"Primitive types\"; to allow it: #[kube(allow(no_floats))] on this field, or where the type is defined"
        );
    }
    if bad & NON_STRING_MAP != 0 {
        panic!(
            "this field's type is or contains a map whose values are not strings [no_maps]\n  help: use a list of named objects with `list_type = \"map\"`\n  note: Kubernetes API conventions, \"Lists of named subobjects preferred over maps\"; to allow it: #[kube(allow(no_maps))] on this field, or where the type is defined"
        );
    }
    if bad & DURATION != 0 {
        panic!(
            "this field's type is or contains a `Duration` [no_durations]\n  help: use an integer with the unit in the name (`timeoutSeconds`)\n  note: Kubernetes API conventions, \"Units\"; to allow it: #[kube(allow(no_durations))] on this field, or where the type is defined"
        );
    }
    if bad & BOOL != 0 {
        panic!(
            "this field's type is or contains a `bool` [no_bools]\n  help: use a string enum\n  note: Kubernetes API conventions, \"Primitive types\"; to allow it: #[kube(allow(no_bools))] on this field, or where the type is defined"
        );
    }
    if bad & HASH_MAP != 0 {
        panic!(
            "this field's type is or contains a `HashMap` or `HashSet` [hash_map]\n  help: use `BTreeMap`/`BTreeSet`\n  note: Kubernetes API conventions, \"Primitive types\"; to allow it: #[kube(allow(hash_map))] on this field, or where the type is defined"
        );
    }
}

/// The type-layer check of `list_type = "set"`: object items must be
/// atomic (`x-kubernetes-map-type: atomic`), or the apiserver rejects the CRD.
pub const fn check_set_items(item: &TypeFacts) {
    if matches!(item.kind, Kind::Object) && item.flags & ATOMIC == 0 {
        panic!(
            "`list_type = \"set\"` on a list of objects whose type is not atomic [list_type]\n  help: use `list_type = \"map\"` with `list_map_keys`, or `\"atomic\"`, or mark the item type `#[kube(map_type = \"atomic\")]`\n  note: the apiserver rejects such a CRD, so this cannot be allowed"
        );
    }
}

/// The type-layer check of `max_length` when it is denied: a string (seen
/// through an alias) must declare `max_length`.
pub const fn deny_unbounded_string(facts: &TypeFacts) {
    if matches!(facts.kind, Kind::String) && facts.flags & (TIME | BOUNDED) == 0 {
        panic!(
            "this field's type is a string without `max_length` [max_length]\n  help: bound it with `#[kube(max_length = N)]` (for list items: `items(max_length = N)`)\n  note: unbounded strings make CEL rules expensive; to allow it: #[kube(allow(max_length))]"
        );
    }
}

/// A newtype's facts: its inner type's, with extra own flags (a number
/// named `Duration`, a bounded string) and the keywords it declares.
pub const fn flagged(inner: &'static TypeFacts, flags: u32, keywords: u32) -> TypeFacts {
    TypeFacts {
        kind: inner.kind,
        flags: inner.flags | flags,
        deep_flags: inner.deep_flags | flags,
        fields: inner.fields,
        item: inner.item,
        depth: inner.depth,
        keywords: inner.keywords | keywords,
    }
}

// The keyword bits (`KW_MINIMUM`, ...): one per row of api-keywords'
// table, which api-derive reads too.
pub use api_keywords::bits::*;

/// The check of `int_or_string`: the value is an integer, a string, an
/// int-or-string already, or schemaless (an untagged enum whose schema the
/// attribute replaces).
pub const fn check_int_or_string(facts: &TypeFacts) {
    if !matches!(
        facts.kind,
        Kind::Integer | Kind::String | Kind::IntOrString | Kind::Any
    ) {
        panic!(
            "`int_or_string` needs a type that is an integer or a string\n  help: use `IntOrString`, an integer, a string, or an untagged enum of an integer and a string\n  note: with any other type the schema fails the apiserver's structural checks"
        );
    }
}

/// The check of `enum = [...]`: integer values on an integer, string
/// values on a string (either on an int-or-string or a schemaless value).
pub const fn check_enum_kind(facts: &TypeFacts, ints: bool) {
    let fits = match facts.kind {
        Kind::IntOrString | Kind::Any => true,
        Kind::Integer => ints,
        Kind::String => !ints,
        _ => false,
    };
    if !fits {
        if ints {
            panic!(
                "`enum` lists integers, but this field's type is not an integer\n  help: list strings (`enum = [\"A\", \"B\"]`) for a string, or change the type"
            );
        }
        panic!(
            "`enum` lists strings, but this field's type is not a string\n  help: list integers (`enum = [301, 302]`) for an integer, or change the type"
        );
    }
}

/// The type-layer check of `duplicate_keywords`: a field may not declare a
/// keyword its type already declares (one would silently replace the other).
pub const fn check_unique_keywords(type_keywords: u32, field_keywords: u32) {
    if type_keywords & field_keywords != 0 {
        panic!(
            "this field declares a schema keyword its type already declares [duplicate_keywords]\n  help: keep one: on the type (for every use) or on the field (for this use)\n  note: the field's value would silently replace the type's; to allow it: #[kube(allow(duplicate_keywords))]"
        );
    }
}

/// Whether any field of an object is required (`status_optional`), not
/// counting fields that allow it.
pub const fn any_required(facts: &TypeFacts) -> bool {
    let mut i = 0;
    while i < facts.fields.len() {
        let f = &facts.fields[i];
        let allowed = f.masked & ALLOW_REQUIRED != 0;
        if !allowed && ((f.flattened && any_required(f.ty)) || (!f.flattened && f.required)) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether a resource's status type has a required `conditions` field that
/// the field does not allow: the `conditions` lint, which concerns the
/// conditions of a resource's top-level status (condition lists nested
/// deeper may be required by design, as Gateway API's per-parent and
/// per-listener conditions are).
pub const fn required_conditions(status: &'static TypeFacts) -> bool {
    match status.field("conditions") {
        Some(f) => f.required && f.masked & ALLOW_REQUIRED_CONDITIONS == 0,
        None => false,
    }
}

/// The type-layer check of one `list_map_keys` entry (always an error:
/// the apiserver rejects such a CRD).
pub const fn check_list_map_key(item: &'static TypeFacts, key: &str) {
    match list_map_key_problem(item, key) {
        0 => {}
        1 => panic!(
            "this list-map key is not a field of the item type [list_type]\n  help: list map keys name fields of the items, by JSON name\n  note: the apiserver rejects such a CRD, so this cannot be allowed"
        ),
        2 => panic!(
            "this list-map key is not a scalar field of the item type [list_type]\n  help: a list-map key must be a string, integer or boolean field\n  note: the apiserver rejects such a CRD, so this cannot be allowed"
        ),
        _ => panic!(
            "this list-map key is neither required nor defaulted in the item type [list_type]\n  help: make the key field required, or give it a `#[default(...)]`\n  note: the apiserver rejects such a CRD, so this cannot be allowed"
        ),
    }
}

/// Why a `list_map_keys` entry is not usable, or 0: 1 no such field,
/// 2 not a scalar, 3 neither required nor defaulted.
pub const fn list_map_key_problem(item: &'static TypeFacts, key: &str) -> u8 {
    if item.flags & UNCHECKED != 0 {
        return 0;
    }
    match item.field(key) {
        None => 1,
        Some(f) => {
            if matches!(f.ty.kind, Kind::Object | Kind::Array | Kind::Map) {
                2
            } else if !f.required && !f.defaulted {
                3
            } else {
                0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static STRING: TypeFacts = TypeFacts::scalar(Kind::String, 0);
    static TIME_F: TypeFacts = TypeFacts::scalar(Kind::String, TIME);
    static INT: TypeFacts = TypeFacts::scalar(Kind::Integer, 0);
    static PORT_FIELDS: [FieldFacts; 2] = [
        FieldFacts::new("name", &STRING, true),
        FieldFacts::new("port", &INT, false),
    ];
    static PORT: TypeFacts = TypeFacts::object(&PORT_FIELDS, 0);
    static PORTS: TypeFacts = TypeFacts::array(&PORT, 0);
    static EXTRA_FIELDS: [FieldFacts; 1] = [FieldFacts::new("since", &TIME_F, false)];
    static EXTRA: TypeFacts = TypeFacts::object(&EXTRA_FIELDS, 0);
    static SPEC_FIELDS: [FieldFacts; 3] = [
        FieldFacts::new("replicas", &INT, false),
        FieldFacts::new("ports", &PORTS, false),
        FieldFacts {
            name: "",
            ty: &EXTRA,
            required: false,
            defaulted: false,
            flattened: true,
            masked: 0,
        },
    ];
    static SPEC: TypeFacts = TypeFacts::object(&SPEC_FIELDS, 0);
    static ROOT_FIELDS: [FieldFacts; 1] = [FieldFacts::new("spec", &SPEC, true)];
    static ROOT: TypeFacts = TypeFacts::object(&ROOT_FIELDS, 0);

    #[test]
    fn paths_resolve_through_fields_lists_and_flattening() {
        assert_eq!(
            resolve(&ROOT, ".spec.replicas").map(|f| f.kind),
            Some(Kind::Integer)
        );
        assert_eq!(
            resolve(&ROOT, ".spec.ports[0].name").map(|f| f.kind),
            Some(Kind::String)
        );
        assert_eq!(
            resolve(&ROOT, ".spec.ports[?(@.name==\"http\")].port").map(|f| f.kind),
            Some(Kind::Integer)
        );
        assert_eq!(resolve(&ROOT, ".spec.since").map(|f| f.flags), Some(TIME));
        assert!(resolve(&ROOT, ".spec.replica").is_none());
        assert!(resolve(&ROOT, ".spec.replicas[0]").is_none());
        assert!(resolve(&ROOT, "spec").is_none());
        assert!(resolve(&ROOT, ".spec..x").is_none());
        assert!(resolve(&ROOT, ".spec.ports[").is_none());
        assert!(resolve(&ROOT, "").is_none());
    }

    #[test]
    fn columns_and_keys() {
        assert!(fits_column(&INT, "integer"));
        assert!(fits_column(&INT, "number"));
        assert!(!fits_column(&INT, "string"));
        assert!(fits_column(&TIME_F, "date"));
        assert!(!fits_column(&STRING, "date"));
        static STRINGS: TypeFacts = TypeFacts::array(&STRING, 0);
        assert!(fits_column(&STRINGS, "string"));
        assert!(!fits_column(&STRINGS, "integer"));
        assert!(!fits_column(&PORTS, "string"));
        assert!(holds_time(&TIME_F));
        static TIMES: TypeFacts = TypeFacts::array(&TIME_F, 0);
        assert!(holds_time(&TIMES));
        assert!(!holds_time(&STRINGS));
        assert!(!holds_time(&EXTRA));
        assert_eq!(list_map_key_problem(&PORT, "name"), 0);
        assert_eq!(list_map_key_problem(&PORT, "nope"), 1);
        assert_eq!(list_map_key_problem(&PORT, "port"), 3);
    }

    const _: () = assert!(resolve(&ROOT, ".spec.ports[0].port").is_some());
}
