//! Field paths and sets of them, as structured-merge-diff's `fieldpath`
//! package has them: the unit of ownership in server-side apply, and their
//! `FieldsV1` encoding in `metadata.managedFields`.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::{Map, Value};

/// One step of a path: a field of an object, the element of a list-map by
/// its key fields, the member of a set by its value, or a list position.
///
/// Ordered as structured-merge-diff orders them (fields, then keys, then
/// values, then indexes), which is the order `FieldsV1` is written in.
#[derive(Clone, Debug)]
pub enum PathElement {
    /// `f:<name>`: a field of an object (a struct field or a map key).
    Field(String),
    /// `k:{...}`: the element of an associative list whose key fields have
    /// these values, sorted by field name.
    Key(Vec<(String, Value)>),
    /// `v:<json>`: the member of a set with this value.
    Value(Value),
    /// `i:<n>`: a position in a list.
    Index(usize),
}

impl PathElement {
    /// A field step.
    pub fn field(name: impl Into<String>) -> Self {
        PathElement::Field(name.into())
    }

    /// A key step; the fields are sorted by name.
    pub fn key(mut fields: Vec<(String, Value)>) -> Self {
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        PathElement::Key(fields)
    }

    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }

    /// The `FieldsV1` key of this step (`f:spec`, `k:{"name":"a"}`,
    /// `v:"x"`, `i:0`).
    pub fn to_fields_key(&self) -> String {
        match self {
            PathElement::Field(name) => format!("f:{name}"),
            PathElement::Key(fields) => {
                let mut out = String::from("k:{");
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&go_json(&Value::String(name.clone())));
                    out.push(':');
                    out.push_str(&go_json(value));
                }
                out.push('}');
                out
            }
            PathElement::Value(value) => format!("v:{}", go_json(value)),
            PathElement::Index(i) => format!("i:{i}"),
        }
    }

    /// Reads a `FieldsV1` key; `Ok(None)` for an unknown prefix (skipped,
    /// as structured-merge-diff skips it).
    pub fn from_fields_key(key: &str) -> Result<Option<Self>, String> {
        let bytes = key.as_bytes();
        if bytes.len() < 2 {
            return Err(format!("key must be 2 characters long: {key:?}"));
        }
        if bytes[1] != b':' {
            return Err(format!("missing colon: {key:?}"));
        }
        let rest = &key[2..];
        let element = match bytes[0] {
            b'f' => PathElement::Field(rest.to_string()),
            b'v' => {
                PathElement::Value(serde_json::from_str(rest).map_err(|e| format!("{key:?}: {e}"))?)
            }
            b'k' => {
                let map: Map<String, Value> =
                    serde_json::from_str(rest).map_err(|e| format!("{key:?}: {e}"))?;
                PathElement::key(map.into_iter().collect())
            }
            b'i' => PathElement::Index(rest.parse().map_err(|e| format!("{key:?}: {e}"))?),
            _ => return Ok(None),
        };
        Ok(Some(element))
    }
}

impl PartialEq for PathElement {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathElement {}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PathElement {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PathElement::Field(a), PathElement::Field(b)) => a.cmp(b),
            (PathElement::Key(a), PathElement::Key(b)) => compare_fields(a, b),
            (PathElement::Value(a), PathElement::Value(b)) => compare_values(a, b),
            (PathElement::Index(a), PathElement::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl fmt::Display for PathElement {
    /// As structured-merge-diff prints paths in conflict messages:
    /// `.name`, `[name="a",port=80]`, `[="x"]`, `[0]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(fields) => {
                f.write_str("[")?;
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{name}={}", go_json(value))?;
                }
                f.write_str("]")
            }
            PathElement::Value(value) => write!(f, "[={}]", go_json(value)),
            PathElement::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// structured-merge-diff's `FieldList.Compare`: lexical over (name, value).
fn compare_fields(a: &[(String, Value)], b: &[(String, Value)]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let c = x.0.cmp(&y.0).then_with(|| compare_values(&x.1, &y.1));
        if c != Ordering::Equal {
            return c;
        }
    }
    a.len().cmp(&b.len())
}

/// structured-merge-diff's `value.Compare`: floats and integers by number,
/// then strings, booleans, lists, maps and null, each type before the next.
pub fn compare_values(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Number(_) => 0,
            Value::String(_) => 2,
            Value::Bool(_) => 3,
            Value::Array(_) => 4,
            Value::Object(_) => 5,
            Value::Null => 6,
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare_numbers(x, y),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y) {
                let c = compare_values(p, q);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => {
            // Maps compare by their sorted entries, shorter first on a tie.
            for ((k1, v1), (k2, v2)) in x.iter().zip(y) {
                let c = k1.cmp(k2).then_with(|| compare_values(v1, v2));
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

fn compare_numbers(x: &serde_json::Number, y: &serde_json::Number) -> Ordering {
    match (x.as_i64(), y.as_i64()) {
        (Some(a), Some(b)) => a.cmp(&b),
        _ => {
            let (a, b) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            a.partial_cmp(&b).unwrap_or(Ordering::Equal)
        }
    }
}

/// JSON as Go's `encoding/json` writes it (sorted keys, `<`, `>` and `&`
/// escaped as `\u003c`...), which is how `FieldsV1` keys spell values.
pub(crate) fn go_json(value: &Value) -> String {
    let text = value.to_string();
    if !text.contains(['<', '>', '&', '\u{2028}', '\u{2029}']) {
        return text;
    }
    text.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// A path from the root of an object.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Path(pub Vec<PathElement>);

impl Path {
    /// A path of field names (`Path::fields(&["spec", "size"])`).
    pub fn fields(names: &[&str]) -> Self {
        Path(names.iter().map(|n| PathElement::field(*n)).collect())
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for element in &self.0 {
            write!(f, "{element}")?;
        }
        Ok(())
    }
}

/// A set of paths, stored as a tree: the members at this level, and the
/// sets below each step that has children. A path is in the set when its
/// last step is a member of the node its other steps lead to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Set {
    members: BTreeSet<PathElement>,
    children: BTreeMap<PathElement, Set>,
}

impl Set {
    /// The empty set.
    pub fn new() -> Self {
        Set::default()
    }

    /// A set of these paths.
    pub fn from_paths(paths: impl IntoIterator<Item = Path>) -> Self {
        let mut set = Set::new();
        for p in paths {
            set.insert(&p.0);
        }
        set
    }

    /// Adds the path (the empty path adds nothing).
    pub fn insert(&mut self, path: &[PathElement]) {
        let Some((last, parents)) = path.split_last() else {
            return;
        };
        let mut node = self;
        for element in parents {
            // Clone a step only when its node is new.
            if !node.children.contains_key(element) {
                node.children.insert(element.clone(), Set::new());
            }
            let Some(child) = node.children.get_mut(element) else {
                return;
            };
            node = child;
        }
        if !node.members.contains(last) {
            node.members.insert(last.clone());
        }
    }

    /// Whether the path is in the set.
    pub fn has(&self, path: &[PathElement]) -> bool {
        let Some((last, parents)) = path.split_last() else {
            return false;
        };
        let mut node = self;
        for element in parents {
            match node.children.get(element) {
                Some(child) => node = child,
                None => return false,
            }
        }
        node.members.contains(last)
    }

    /// Whether the set has no path.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.values().all(Set::is_empty)
    }

    /// The paths in either set.
    pub fn union(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.union_with(other);
        out
    }

    /// Adds the paths of `other`, in place: only `other`'s nodes are
    /// visited, so a small set joins a large one cheaply.
    pub fn union_with(&mut self, other: &Set) {
        self.members.extend(other.members.iter().cloned());
        for (element, child) in &other.children {
            match self.children.get_mut(element) {
                Some(mine) => mine.union_with(child),
                None => {
                    self.children.insert(element.clone(), child.clone());
                }
            }
        }
    }

    /// The paths in both sets.
    pub fn intersection(&self, other: &Set) -> Set {
        // Walk the smaller tree of children, look up in the larger.
        let (small, large) = if self.children.len() <= other.children.len() {
            (self, other)
        } else {
            (other, self)
        };
        let members = self.members.intersection(&other.members).cloned().collect();
        let children = small
            .children
            .iter()
            .filter_map(|(element, child)| {
                let theirs = large.children.get(element)?;
                let both = child.intersection(theirs);
                (!both.is_empty()).then(|| (element.clone(), both))
            })
            .collect();
        Set { members, children }
    }

    /// The paths of `self` that are not in `other`.
    pub fn difference(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.difference_with(other);
        out
    }

    /// Removes the paths of `other`, in place (only `other`'s nodes are
    /// visited).
    pub fn difference_with(&mut self, other: &Set) {
        self.remove_all(other, false);
    }

    /// The paths of `self` that are neither in `other` nor below one of
    /// its paths (`RecursiveDifference`: removing `status` removes
    /// everything under it).
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.recursive_difference_with(other);
        out
    }

    /// [`Set::recursive_difference`] in place.
    pub fn recursive_difference_with(&mut self, other: &Set) {
        self.remove_all(other, true);
    }

    fn remove_all(&mut self, other: &Set, recursive: bool) {
        for member in &other.members {
            self.members.remove(member);
            if recursive {
                self.children.remove(member);
            }
        }
        for (element, theirs) in &other.children {
            if let Some(mine) = self.children.get_mut(element) {
                mine.remove_all(theirs, recursive);
                if mine.is_empty() {
                    self.children.remove(element);
                }
            }
        }
    }

    /// The paths that lead to no other path of the set (`Leaves`).
    pub fn leaves(&self) -> Set {
        Set {
            members: self
                .members
                .iter()
                .filter(|m| !self.children.contains_key(*m))
                .cloned()
                .collect(),
            children: self
                .children
                .iter()
                .map(|(e, c)| (e.clone(), c.leaves()))
                .collect(),
        }
    }

    /// The set below one step (empty when there is none).
    pub fn with_prefix(&self, element: &PathElement) -> Set {
        self.children.get(element).cloned().unwrap_or_default()
    }

    /// The paths of the set below one step, borrowed.
    pub(crate) fn child(&self, element: &PathElement) -> Option<&Set> {
        self.children.get(element)
    }

    /// The members and children of the top level (for walkers).
    pub(crate) fn parts_mut(
        &mut self,
    ) -> (&mut BTreeSet<PathElement>, &mut BTreeMap<PathElement, Set>) {
        (&mut self.members, &mut self.children)
    }

    /// Every path, in order.
    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::new();
        self.collect(&mut Vec::new(), &mut out);
        out
    }

    fn collect(&self, prefix: &mut Vec<PathElement>, out: &mut Vec<Path>) {
        // structured-merge-diff iterates members first, then children.
        for member in &self.members {
            prefix.push(member.clone());
            out.push(Path(prefix.clone()));
            prefix.pop();
        }
        for (element, child) in &self.children {
            prefix.push(element.clone());
            child.collect(prefix, out);
            prefix.pop();
        }
    }

    /// The set as `FieldsV1` (`{"f:spec":{"f:size":{}}}`), as
    /// structured-merge-diff writes it: steps in order, a node that is
    /// both a member and has children marked with `".": {}`.
    pub fn to_fields_v1(&self) -> Value {
        Value::Object(self.fields_object(false))
    }

    fn fields_object(&self, include_self: bool) -> Map<String, Value> {
        let mut out = Map::new();
        if include_self && !(self.members.is_empty() && self.children.is_empty()) {
            out.insert(".".into(), Value::Object(Map::new()));
        }
        for member in &self.members {
            if !self.children.contains_key(member) {
                out.insert(member.to_fields_key(), Value::Object(Map::new()));
            }
        }
        for (element, child) in &self.children {
            let inner = child.fields_object(self.members.contains(element));
            out.insert(element.to_fields_key(), Value::Object(inner));
        }
        out
    }

    /// The `FieldsV1` text, byte for byte as the apiserver writes it
    /// (steps in structured-merge-diff's order, not sorted as strings).
    pub fn to_fields_v1_string(&self) -> String {
        let mut out = String::new();
        self.write_fields(false, &mut out);
        out
    }

    fn write_fields(&self, include_self: bool, out: &mut String) {
        out.push('{');
        let mut first = true;
        let mut sep = |out: &mut String| {
            if !std::mem::take(&mut first) {
                out.push(',');
            }
        };
        if include_self && !(self.members.is_empty() && self.children.is_empty()) {
            sep(out);
            out.push_str("\".\":{}");
        }
        // Members and children merged in order, as emitContentsV1 does.
        let mut members = self.members.iter().peekable();
        let mut children = self.children.iter().peekable();
        loop {
            let next_member = members.peek().copied();
            let next_child = children.peek().map(|(e, _)| *e);
            match (next_member, next_child) {
                (None, None) => break,
                (Some(m), c) if c.is_none_or(|c| m < c) => {
                    sep(out);
                    out.push_str(&go_json(&Value::String(m.to_fields_key())));
                    out.push_str(":{}");
                    members.next();
                }
                (m, Some(c)) => {
                    let is_member = m == Some(c);
                    if is_member {
                        members.next();
                    }
                    let (element, child) = children.next().expect("peeked");
                    sep(out);
                    out.push_str(&go_json(&Value::String(element.to_fields_key())));
                    out.push(':');
                    child.write_fields(is_member, out);
                }
                (Some(_), None) => unreachable!("handled above"),
            }
        }
        out.push('}');
    }

    /// Reads `FieldsV1` (a JSON object of `f:`/`k:`/`v:`/`i:` keys).
    pub fn from_fields_v1(value: &Value) -> Result<Set, String> {
        let Value::Object(map) = value else {
            return Err("FieldsV1 must be a JSON object".into());
        };
        let (set, _) = Self::read_fields(map)?;
        Ok(set)
    }

    fn read_fields(map: &Map<String, Value>) -> Result<(Set, bool), String> {
        let mut set = Set::new();
        let mut is_member = false;
        for (key, inner) in map {
            if key == "." {
                is_member = true;
                continue;
            }
            let Some(element) = PathElement::from_fields_key(key)? else {
                continue;
            };
            let Value::Object(inner) = inner else {
                return Err(format!("the value of {key:?} must be an object"));
            };
            let (grandchildren, child_is_member) = Self::read_fields(inner)?;
            if child_is_member {
                set.members.insert(element.clone());
            }
            if !grandchildren.members.is_empty() || !grandchildren.children.is_empty() {
                set.children.insert(element, grandchildren);
            }
        }
        // A node with nothing below it (`{}`) is a member; one with
        // children is a member only when it says so with ".".
        if set.members.is_empty() && set.children.is_empty() {
            is_member = true;
        }
        Ok((set, is_member))
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for path in self.paths() {
            writeln!(f, "{path}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn key(name: &str, value: Value) -> PathElement {
        PathElement::key(vec![(name.to_string(), value)])
    }

    #[test]
    fn fields_v1_is_written_as_the_apiserver_writes_it() {
        // The managedFields of the Kubernetes docs' server-side apply
        // example (a ConfigMap with data.key and a list-map of containers).
        let mut set = Set::new();
        let c = |rest: &[PathElement]| {
            let mut p = vec![
                PathElement::field("spec"),
                PathElement::field("containers"),
                key("name", json!("nginx")),
            ];
            p.extend_from_slice(rest);
            p
        };
        set.insert(&c(&[]));
        set.insert(&c(&[PathElement::field("image")]));
        set.insert(&c(&[PathElement::field("name")]));
        set.insert(&[
            PathElement::field("metadata"),
            PathElement::field("labels"),
            PathElement::field("app"),
        ]);
        assert_eq!(
            set.to_fields_v1_string(),
            r#"{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{}}}}}"#
        );
        let back = Set::from_fields_v1(&serde_json::from_str(&set.to_fields_v1_string()).unwrap())
            .unwrap();
        assert_eq!(back, set);
        assert_eq!(
            set.to_fields_v1(),
            serde_json::from_str::<Value>(&set.to_fields_v1_string()).unwrap()
        );
    }

    /// A number beyond u64 written as a value key reads back as the same
    /// key (found by the `apply` fuzz target: serde_json's default float
    /// parsing may be one unit in the last place off, so a key written from
    /// `1111111111111111111111111` read back as another float; the
    /// workspace turns on its `float_roundtrip`, as exact as Go's).
    #[test]
    fn large_numbers_are_fixed_points_of_value_keys() {
        for text in [
            "1111111111111111111111111",
            "1.1111111111111111e+24",
            "0.1",
            "1e-7",
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            let key = PathElement::Value(v).to_fields_key();
            let back = PathElement::from_fields_key(&key).unwrap().expect("a step");
            assert_eq!(back.to_fields_key(), key, "{text}");
        }
    }

    #[test]
    fn steps_order_fields_keys_values_indexes() {
        let mut steps = [
            PathElement::Index(0),
            PathElement::Value(json!("b")),
            PathElement::Value(json!(1)),
            key("a", json!(2)),
            PathElement::field("z"),
            PathElement::Value(json!(1.5)),
        ];
        steps.sort();
        let keys: Vec<_> = steps.iter().map(PathElement::to_fields_key).collect();
        assert_eq!(
            keys,
            ["f:z", "k:{\"a\":2}", "v:1", "v:1.5", "v:\"b\"", "i:0"]
        );
    }

    #[test]
    fn set_algebra() {
        let p = |names: &[&str]| Path::fields(names);
        let a = Set::from_paths([p(&["a"]), p(&["b", "c"]), p(&["b", "d"])]);
        let b = Set::from_paths([p(&["b", "c"]), p(&["e"])]);
        assert_eq!(a.union(&b).paths().len(), 4);
        assert_eq!(a.intersection(&b).paths(), [p(&["b", "c"])]);
        assert_eq!(a.difference(&b).paths(), [p(&["a"]), p(&["b", "d"])]);
        assert!(a.difference(&a).is_empty());
        assert!(a.has(&p(&["b", "d"]).0) && !a.has(&p(&["b"]).0));
        assert_eq!(p(&["spec", "size"]).to_string(), ".spec.size");
        let k = Path(vec![
            PathElement::field("list"),
            PathElement::key(vec![
                ("port".into(), json!(80)),
                ("name".into(), json!("a")),
            ]),
        ]);
        assert_eq!(k.to_string(), ".list[name=\"a\",port=80]");
    }

    #[test]
    fn go_json_escapes_html() {
        assert_eq!(
            PathElement::Value(json!("<a&b>")).to_fields_key(),
            r#"v:"\u003ca\u0026b\u003e""#
        );
        let back = PathElement::from_fields_key(r#"v:"\u003ca\u0026b\u003e""#)
            .unwrap()
            .unwrap();
        assert_eq!(back, PathElement::Value(json!("<a&b>")));
        assert!(PathElement::from_fields_key("x:1").unwrap().is_none());
        assert!(PathElement::from_fields_key("f").is_err());
    }
}
