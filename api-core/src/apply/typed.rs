//! Objects walked with their schema, as structured-merge-diff's `typed`
//! package walks them: the field set of an object, the merge of an apply
//! configuration into a live object, the comparison of two objects, and
//! the removal of a set of fields.
//!
//! The schema is a CRD's structural OpenAPI v3 schema, read the way
//! kube-openapi's `schemaconv` converts it for the apiserver: objects are
//! granular maps unless `x-kubernetes-map-type: atomic`; lists are atomic
//! unless `x-kubernetes-list-type` is `set` or `map` (keyed by
//! `x-kubernetes-list-map-keys`); a node without a type accepts anything;
//! fields kept by `x-kubernetes-preserve-unknown-fields` are "deduced"
//! (maps granular, lists atomic).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::fieldpath::{PathElement, Set};

/// An index into a [`Schema`]'s atoms.
pub type TypeRef = usize;

/// `__untyped_atomic_`: anything, atomic all the way down.
const UNTYPED: TypeRef = 0;
/// `__untyped_deduced_`: anything; maps granular, lists atomic.
const DEDUCED: TypeRef = 1;
/// No type (an object without unknown fields has no element type).
const NONE: TypeRef = usize::MAX;

#[derive(Clone, Debug, Default)]
struct Atom {
    scalar: bool,
    list: Option<ListDef>,
    map: Option<MapDef>,
}

#[derive(Clone, Debug)]
struct ListDef {
    /// Not atomic: a set (no keys) or a list-map.
    associative: bool,
    keys: Vec<String>,
    items: TypeRef,
}

#[derive(Clone, Debug, Default)]
struct MapDef {
    fields: BTreeMap<String, (TypeRef, Option<Value>)>,
    element: TypeRef,
    atomic: bool,
}

impl MapDef {
    fn field_type(&self, key: &str) -> (TypeRef, bool) {
        match self.fields.get(key) {
            Some((tr, _)) => (*tr, true),
            None => (self.element, false),
        }
    }
}

/// A schema compiled for walking objects.
#[derive(Clone, Debug)]
pub struct Schema {
    atoms: Vec<Atom>,
    root: TypeRef,
}

impl Schema {
    /// Compiles a structural OpenAPI v3 schema (a CRD version's
    /// `openAPIV3Schema`).
    pub fn new(schema: &Value) -> Self {
        // kube-openapi's two schemaless types: anything, with lists atomic
        // and maps atomic (`__untyped_atomic_`) or granular with deduced
        // values (`__untyped_deduced_`).
        let anything = |element, atomic| Atom {
            scalar: true,
            list: Some(ListDef {
                associative: false,
                keys: Vec::new(),
                items: UNTYPED,
            }),
            map: Some(MapDef {
                element,
                atomic,
                ..MapDef::default()
            }),
        };
        let mut out = Schema {
            atoms: vec![anything(UNTYPED, true), anything(DEDUCED, false)],
            root: UNTYPED,
        };
        out.root = out.compile(schema, false);
        out
    }

    /// The root type.
    pub fn root(&self) -> TypeRef {
        self.root
    }

    fn compile(&mut self, schema: &Value, preserve: bool) -> TypeRef {
        let preserve = preserve
            || schema
                .get("x-kubernetes-preserve-unknown-fields")
                .and_then(Value::as_bool)
                .unwrap_or(false);
        let atom = match schema.get("type").and_then(Value::as_str).unwrap_or("") {
            "" => Atom {
                scalar: true,
                list: Some(self.list(schema, preserve)),
                map: Some(self.object(schema, preserve)),
            },
            "object" => Atom {
                map: Some(self.object(schema, preserve)),
                ..Atom::default()
            },
            "array" => Atom {
                list: Some(self.list(schema, preserve)),
                ..Atom::default()
            },
            _ => Atom {
                scalar: true,
                ..Atom::default()
            },
        };
        self.atoms.push(atom);
        self.atoms.len() - 1
    }

    fn object(&mut self, schema: &Value, preserve: bool) -> MapDef {
        let empty = Map::new();
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let fields = properties
            .iter()
            .map(|(name, s)| {
                (
                    name.clone(),
                    (self.compile(s, preserve), s.get("default").cloned()),
                )
            })
            .collect();
        let element = match schema.get("additionalProperties") {
            None if preserve || properties.is_empty() => DEDUCED,
            None | Some(Value::Bool(false)) => NONE,
            Some(Value::Bool(true)) => DEDUCED,
            Some(s) => self.compile(s, preserve),
        };
        MapDef {
            fields,
            element,
            atomic: schema.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic"),
        }
    }

    fn list(&mut self, schema: &Value, preserve: bool) -> ListDef {
        let kind = schema.get("x-kubernetes-list-type").and_then(Value::as_str);
        let keys = schema
            .get("x-kubernetes-list-map-keys")
            .and_then(Value::as_array)
            .map(|k| {
                k.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let items = match schema.get("items") {
            Some(s) => self.compile(s, preserve),
            None => UNTYPED,
        };
        ListDef {
            associative: matches!(kind, Some("set" | "map")),
            keys: if kind == Some("map") {
                keys
            } else {
                Vec::new()
            },
            items,
        }
    }

    fn atom(&self, tr: TypeRef) -> Option<&Atom> {
        self.atoms.get(tr)
    }

    /// The part of the atom a value selects (`deduceAtom`), as what to do.
    fn resolve(&self, tr: TypeRef, value: Option<&Value>) -> Kind<'_> {
        let Some(atom) = self.atom(tr) else {
            return Kind::Invalid;
        };
        let deduced = match value {
            Some(Value::Number(_) | Value::String(_) | Value::Bool(_)) if atom.scalar => {
                return Kind::Scalar;
            }
            Some(Value::Array(_)) if atom.list.is_some() => atom.list.as_ref().map(Kind::List),
            Some(Value::Object(_)) if atom.map.is_some() => atom.map.as_ref().map(Kind::Map),
            _ => None,
        };
        if let Some(kind) = deduced {
            return kind;
        }
        // handleAtom's order: map, scalar, list.
        if let Some(m) = &atom.map {
            Kind::Map(m)
        } else if atom.scalar {
            Kind::Scalar
        } else if let Some(l) = &atom.list {
            Kind::List(l)
        } else {
            Kind::Invalid
        }
    }

    /// The path element of a list item (`listItemToPathElement`).
    fn item_element(&self, list: &ListDef, item: &Value) -> Result<PathElement, String> {
        if !list.associative {
            return Err("invalid indexing of non-associative list".into());
        }
        if list.keys.is_empty() {
            return match item {
                Value::Object(_) => {
                    Err("associative list without keys has an element that's a map type".into())
                }
                Value::Array(_) => {
                    Err("not supported: associative list with lists as elements".into())
                }
                Value::Null => Err(
                    "associative list without keys has an element that's an explicit null".into(),
                ),
                v => Ok(PathElement::Value(v.clone())),
            };
        }
        let Value::Object(fields) = item else {
            return Err(if item.is_null() {
                "associative list with keys may not have a null element".into()
            } else {
                "associative list with keys may not have non-map elements".into()
            });
        };
        let defaults = self.atom(list.items).and_then(|a| a.map.as_ref());
        let mut key = Vec::new();
        for name in &list.keys {
            if let Some(v) = fields.get(name) {
                key.push((name.clone(), v.clone()));
            } else if let Some(d) = defaults
                .and_then(|m| m.fields.get(name))
                .and_then(|(_, d)| d.clone())
            {
                key.push((name.clone(), d));
            }
        }
        if key.is_empty() {
            return Err(format!(
                "associative list with keys has an element that omits all key fields {:?} (and doesn't have default values for any key fields)",
                list.keys
            ));
        }
        Ok(PathElement::key(key))
    }

    /// Removes the fields the schema does not know (an object's property
    /// that is neither declared nor allowed by `additionalProperties` or
    /// `x-kubernetes-preserve-unknown-fields`), as the apiserver prunes a
    /// body before it applies it; returns their paths (`spec.bogus`,
    /// `spec.ports[0].x`).
    pub fn prune_unknown(&self, value: &mut Value) -> Vec<String> {
        let mut unknown = Vec::new();
        self.prune_at(value, self.root, &mut Vec::new(), &mut unknown);
        unknown
    }

    /// The fields [`prune_unknown`](Self::prune_unknown) would remove,
    /// without removing them (nor copying the value).
    pub fn unknown_fields(&self, value: &Value) -> Vec<String> {
        let mut unknown = Vec::new();
        self.unknown_at(value, self.root, &mut Vec::new(), &mut unknown);
        unknown
    }

    // The walks keep the path as segments and write it out only for an
    // unknown field (most objects have none).
    fn prune_at<'v>(
        &self,
        value: &'v mut Value,
        tr: TypeRef,
        path: &mut Vec<Segment<'v>>,
        unknown: &mut Vec<String>,
    ) {
        match (self.resolve(tr, Some(value)), value) {
            (Kind::Map(map), Value::Object(fields)) => {
                fields.retain(|key, _| {
                    let keep = map.element != NONE || map.fields.contains_key(key);
                    if !keep {
                        unknown.push(dotted(path, key));
                    }
                    keep
                });
                for (key, child) in fields.iter_mut() {
                    let (ctr, _) = map.field_type(key);
                    path.push(Segment::Key(key));
                    self.prune_at(child, ctr, path, unknown);
                    path.pop();
                }
            }
            (Kind::List(list), Value::Array(items)) => {
                for (i, item) in items.iter_mut().enumerate() {
                    path.push(Segment::Index(i));
                    self.prune_at(item, list.items, path, unknown);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    fn unknown_at<'v>(
        &self,
        value: &'v Value,
        tr: TypeRef,
        path: &mut Vec<Segment<'v>>,
        unknown: &mut Vec<String>,
    ) {
        match (self.resolve(tr, Some(value)), value) {
            (Kind::Map(map), Value::Object(fields)) => {
                for (key, child) in fields {
                    if map.element == NONE && !map.fields.contains_key(key) {
                        unknown.push(dotted(path, key));
                        continue;
                    }
                    let (ctr, _) = map.field_type(key);
                    path.push(Segment::Key(key));
                    self.unknown_at(child, ctr, path, unknown);
                    path.pop();
                }
            }
            (Kind::List(list), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(Segment::Index(i));
                    self.unknown_at(item, list.items, path, unknown);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    /// The set of fields `value` sets (`ToFieldSet`).
    pub fn to_field_set(&self, value: &Value) -> Set {
        let mut set = Set::new();
        self.field_set(value, self.root, &mut Vec::new(), &mut set);
        set
    }

    fn field_set(&self, value: &Value, tr: TypeRef, path: &mut Vec<PathElement>, set: &mut Set) {
        match self.resolve(tr, Some(value)) {
            Kind::Invalid => {}
            Kind::Scalar => set.insert(path),
            Kind::List(list) => {
                if !list.associative {
                    set.insert(path);
                    return;
                }
                let Value::Array(items) = value else { return };
                let elements: Vec<_> = items
                    .iter()
                    .map(|i| self.item_element(list, i).ok())
                    .collect();
                let mut seen = std::collections::BTreeSet::new();
                let mut duplicates = std::collections::BTreeSet::new();
                for pe in elements.iter().flatten() {
                    if !seen.insert(pe.clone()) && duplicates.insert(pe.clone()) {
                        path.push(pe.clone());
                        set.insert(path);
                        path.pop();
                    }
                }
                for (item, pe) in items.iter().zip(&elements) {
                    let Some(pe) = pe else { continue };
                    if duplicates.contains(pe) {
                        continue;
                    }
                    path.push(pe.clone());
                    self.field_set(item, list.items, path, set);
                    set.insert(path);
                    path.pop();
                }
            }
            Kind::Map(map) => {
                if map.atomic {
                    set.insert(path);
                    return;
                }
                let Value::Object(fields) = value else { return };
                for (key, child) in fields {
                    let (ctr, declared) = map.field_type(key);
                    path.push(PathElement::Field(key.clone()));
                    self.field_set(child, ctr, path, set);
                    let empty = child.is_null() || child.as_object().is_some_and(Map::is_empty);
                    if empty || !declared {
                        set.insert(path);
                    }
                    path.pop();
                }
            }
        }
    }

    /// `config` merged into `live` (`Merge` with "keep the right-hand
    /// side" at leaves): the object an apply produces before pruning.
    pub fn merge(&self, live: &Value, config: &Value) -> Result<Value, String> {
        Ok(self
            .merge_at(Some(live), Some(config), self.root)?
            .unwrap_or(Value::Null))
    }

    fn merge_at(
        &self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        tr: TypeRef,
    ) -> Result<Option<Value>, String> {
        // With differing atoms, the right-hand side's decides.
        let kind = self.resolve(tr, rhs.or(lhs));
        let leaf = || Ok(rhs.or(lhs).cloned());
        match kind {
            Kind::Invalid => Err("schema error: invalid atom".into()),
            Kind::Scalar => leaf(),
            Kind::List(list) => {
                let l = lhs.and_then(Value::as_array);
                let r = rhs.and_then(Value::as_array);
                let empty = l.is_none_or(Vec::is_empty) && r.is_none_or(Vec::is_empty);
                if !list.associative || empty {
                    return leaf();
                }
                self.merge_list(list, l, r)
            }
            Kind::Map(map) => {
                let l = lhs.and_then(Value::as_object);
                let r = rhs.and_then(Value::as_object);
                let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
                if map.atomic || empty {
                    return leaf();
                }
                let mut out = Map::new();
                let keys: std::collections::BTreeSet<&String> =
                    l.into_iter().chain(r).flat_map(Map::keys).collect();
                for key in keys {
                    let (ctr, _) = map.field_type(key);
                    let merged =
                        self.merge_at(l.and_then(|m| m.get(key)), r.and_then(|m| m.get(key)), ctr)?;
                    if let Some(v) = merged {
                        out.insert(key.clone(), v);
                    }
                }
                Ok((!out.is_empty()).then_some(Value::Object(out)))
            }
        }
    }

    /// The elements of an associative list with their path elements; the
    /// value at a duplicated element is null when duplicates are allowed.
    #[allow(clippy::type_complexity)]
    fn index_list<'v>(
        &self,
        list: &ListDef,
        items: Option<&'v Vec<Value>>,
        allow_duplicates: bool,
    ) -> Result<(Vec<PathElement>, BTreeMap<PathElement, Option<&'v Value>>), String> {
        let mut elements = Vec::new();
        let mut observed: BTreeMap<PathElement, Option<&Value>> = BTreeMap::new();
        for (i, item) in items.into_iter().flatten().enumerate() {
            let pe = self
                .item_element(list, item)
                .map_err(|e| format!("element {i}: {e}"))?;
            match observed.get_mut(&pe) {
                Some(_) if !allow_duplicates => {
                    return Err(format!("duplicate entries for key {pe}"));
                }
                Some(v) => *v = None,
                None => {
                    observed.insert(pe.clone(), Some(item));
                }
            }
            elements.push(pe);
        }
        Ok((elements, observed))
    }

    /// `visitListItems` of the merging walker: the live order, with the
    /// configuration's elements placed as structured-merge-diff places them.
    fn merge_list(
        &self,
        list: &ListDef,
        lhs: Option<&Vec<Value>>,
        rhs: Option<&Vec<Value>>,
    ) -> Result<Option<Value>, String> {
        const NULL: &Value = &Value::Null;
        let (rhs_pes, observed_rhs) = self.index_list(list, rhs, false)?;
        let (lhs_pes, observed_lhs) = self.index_list(list, lhs, true)?;
        // A duplicated live element merges as an explicit null.
        let live = |pe: &PathElement| observed_lhs.get(pe).map(|v| v.unwrap_or(NULL));
        let config = |pe: &PathElement| observed_rhs.get(pe).copied().flatten();
        let mut shared: std::collections::VecDeque<&PathElement> = rhs_pes
            .iter()
            .filter(|pe| observed_lhs.contains_key(*pe))
            .collect();
        let mut next_shared = shared.pop_front();
        let mut merged_rhs = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        let (mut li, mut ri) = (0, 0);
        while li < lhs_pes.len() || ri < rhs_pes.len() {
            if li < lhs_pes.len() && ri < rhs_pes.len() {
                let pe = &lhs_pes[li];
                if *pe == rhs_pes[ri] {
                    merged_rhs.insert(pe.clone());
                    out.extend(self.merge_at(live(pe), config(pe), list.items)?);
                    li += 1;
                    ri += 1;
                    next_shared = shared.pop_front();
                    continue;
                }
                if observed_rhs.contains_key(pe) && next_shared.is_some_and(|n| n != pe) {
                    li += 1;
                    continue;
                }
            }
            if li < lhs_pes.len() {
                let pe = &lhs_pes[li];
                if !observed_rhs.contains_key(pe) {
                    let item = lhs.and_then(|l| l.get(li));
                    out.extend(self.merge_at(item, None, list.items)?);
                    li += 1;
                    continue;
                } else if merged_rhs.contains(pe) {
                    li += 1;
                }
            }
            if ri < rhs_pes.len() {
                let pe = &rhs_pes[ri];
                merged_rhs.insert(pe.clone());
                out.extend(self.merge_at(live(pe), config(pe), list.items)?);
                ri += 1;
                if next_shared == Some(pe) {
                    next_shared = shared.pop_front();
                }
            }
        }
        Ok((!out.is_empty()).then_some(Value::Array(out)))
    }

    /// What changed from `old` to `new` (`Compare`).
    pub fn compare(&self, old: &Value, new: &Value) -> Comparison {
        let mut c = Comparison::default();
        self.compare_at(Some(old), Some(new), self.root, &mut Vec::new(), &mut c);
        c
    }

    fn compare_at(
        &self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        tr: TypeRef,
        path: &mut Vec<PathElement>,
        c: &mut Comparison,
    ) {
        let kind = self.resolve(tr, rhs.or(lhs));
        // With differing atoms (a map replaced by a scalar under
        // preserve-unknown-fields...), the live value's atom is walked too,
        // as `mergingWalker.merge` walks it on a copy (`w2`): what was
        // under the old value is removed, an old scalar is modified.
        if let Some(l) = lhs
            && rhs.is_some()
        {
            let old = self.resolve(tr, Some(l));
            if !old.same(&kind) {
                self.compare_kind(old, lhs, rhs, path, c);
            }
        }
        let in_leaf = self.compare_kind(kind, lhs, rhs, path, c);
        if !in_leaf {
            if lhs.is_none() {
                c.added.insert(path);
            } else if rhs.is_none() {
                c.removed.insert(path);
            }
        }
    }

    /// One atom's comparison; whether it was a leaf.
    fn compare_kind(
        &self,
        kind: Kind<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        path: &mut Vec<PathElement>,
        c: &mut Comparison,
    ) -> bool {
        let leaf = |c: &mut Comparison, path: &[PathElement]| match (lhs, rhs) {
            (None, _) => c.added.insert(path),
            (_, None) => c.removed.insert(path),
            (Some(l), Some(r)) if l != r => c.modified.insert(path),
            _ => {}
        };
        match kind {
            Kind::Invalid => false,
            Kind::Scalar => {
                leaf(c, path);
                true
            }
            Kind::List(list) => {
                let l = lhs.and_then(Value::as_array);
                let r = rhs.and_then(Value::as_array);
                let empty = l.is_none_or(Vec::is_empty) && r.is_none_or(Vec::is_empty);
                if !list.associative || empty {
                    leaf(c, path);
                    true
                } else {
                    self.compare_list(list, l, r, path, c);
                    false
                }
            }
            Kind::Map(map) => {
                let l = lhs.and_then(Value::as_object);
                let r = rhs.and_then(Value::as_object);
                let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
                if map.atomic || empty {
                    leaf(c, path);
                    true
                } else {
                    // Every key of either side once, without collecting
                    // them: the result is sets, so the order is free.
                    let only_right = r
                        .into_iter()
                        .flatten()
                        .filter(|(k, _)| l.is_none_or(|l| !l.contains_key(*k)));
                    let pairs = l
                        .into_iter()
                        .flatten()
                        .map(|(k, v)| (k, Some(v), r.and_then(|m| m.get(k))))
                        .chain(only_right.map(|(k, v)| (k, None, Some(v))));
                    for (key, lv, rv) in pairs {
                        let (ctr, _) = map.field_type(key);
                        path.push(PathElement::Field(key.clone()));
                        self.compare_at(lv, rv, ctr, path, c);
                        path.pop();
                    }
                    false
                }
            }
        }
    }

    fn compare_list(
        &self,
        list: &ListDef,
        lhs: Option<&Vec<Value>>,
        rhs: Option<&Vec<Value>>,
        path: &mut Vec<PathElement>,
        c: &mut Comparison,
    ) {
        let mut order: Vec<PathElement> = Vec::new();
        let group = |items: Option<&Vec<Value>>,
                     order: &mut Vec<PathElement>,
                     other: Option<&BTreeMap<PathElement, Vec<Value>>>| {
            let mut values: BTreeMap<PathElement, Vec<Value>> = BTreeMap::new();
            for item in items.into_iter().flatten() {
                let Ok(pe) = self.item_element(list, item) else {
                    continue;
                };
                match values.get_mut(&pe) {
                    Some(v) => v.push(item.clone()),
                    None => {
                        if other.is_none_or(|o| !o.contains_key(&pe)) {
                            order.push(pe.clone());
                        }
                        values.insert(pe, vec![item.clone()]);
                    }
                }
            }
            values
        };
        let l_values = group(lhs, &mut order, None);
        let r_values = group(rhs, &mut order, Some(&l_values));
        for pe in order {
            let l = l_values.get(&pe).map(Vec::as_slice).unwrap_or_default();
            let r = r_values.get(&pe).map(Vec::as_slice).unwrap_or_default();
            path.push(pe);
            match (l.len(), r.len()) {
                (0, 0) => {}
                (0 | 1, 0 | 1) => self.compare_at(l.first(), r.first(), list.items, path, c),
                (2.., 2..) => {
                    if l != r {
                        c.modified.insert(path);
                    }
                }
                (2.., _) => {
                    if let Some(first) = r.first() {
                        self.compare_at(None, Some(first), list.items, path, c);
                    }
                    c.removed.insert(path);
                }
                (_, 2..) => {
                    if let Some(first) = l.first() {
                        self.compare_at(Some(first), None, list.items, path, c);
                    }
                    c.added.insert(path);
                }
            }
            path.pop();
        }
    }

    /// `value` without the fields of `set` (`RemoveItems`): null when
    /// nothing remains.
    pub fn remove_items(&self, value: &Value, set: &Set) -> Value {
        self.remove_at(value, set, self.root, false)
    }

    /// Only the fields of `set` in `value` (`ExtractItems`): what a
    /// manager's set holds of an object.
    pub fn extract_items(&self, value: &Value, set: &Set) -> Value {
        self.remove_at(value, set, self.root, true)
    }

    fn remove_at(&self, value: &Value, set: &Set, tr: TypeRef, extract: bool) -> Value {
        match self.resolve(tr, Some(value)) {
            Kind::Invalid => Value::Null,
            Kind::Scalar => value.clone(),
            Kind::List(list) => {
                let Value::Array(items) = value else {
                    return Value::Null;
                };
                if items.is_empty() || !list.associative {
                    return if extract { value.clone() } else { Value::Null };
                }
                let mut out = Vec::new();
                for item in items {
                    let pe = self.item_element(list, item).ok();
                    let exact = pe
                        .as_ref()
                        .is_some_and(|pe| set.has(std::slice::from_ref(pe)));
                    let below = pe
                        .as_ref()
                        .and_then(|pe| set.child(pe))
                        .filter(|s| !s.is_empty());
                    if !extract && exact {
                        continue;
                    }
                    let kept = match below {
                        Some(sub) => self.remove_at(item, sub, list.items, extract),
                        None => item.clone(),
                    };
                    if !extract || exact || below.is_some() {
                        out.push(kept);
                    }
                }
                if out.is_empty() {
                    Value::Null
                } else {
                    Value::Array(out)
                }
            }
            Kind::Map(map) => {
                let Value::Object(fields) = value else {
                    return Value::Null;
                };
                if fields.is_empty() || map.atomic {
                    return if extract { value.clone() } else { Value::Null };
                }
                let mut out = Map::new();
                for (key, child) in fields {
                    let pe = PathElement::Field(key.clone());
                    let (ctr, _) = map.field_type(key);
                    if set.has(std::slice::from_ref(&pe)) {
                        if extract {
                            // As upstream: the whole set, not the subset.
                            out.insert(key.clone(), self.remove_at(child, set, ctr, extract));
                        }
                        continue;
                    }
                    let kept = match set.child(&pe).filter(|s| !s.is_empty()) {
                        Some(sub) => self.remove_at(child, sub, ctr, extract),
                        None if extract => continue,
                        None => child.clone(),
                    };
                    out.insert(key.clone(), kept);
                }
                if out.is_empty() {
                    Value::Null
                } else {
                    Value::Object(out)
                }
            }
        }
    }

    /// The set with every step that names a declared field of an object
    /// also a member (`EnsureNamedFieldsAreMembers`), so that removing the
    /// set removes such fields whole.
    pub fn ensure_named_fields_are_members(&self, set: &Set) -> Set {
        self.ensure_at(set, self.root)
    }

    fn ensure_at(&self, set: &Set, tr: TypeRef) -> Set {
        let atom = self.atom(tr);
        let map = atom.and_then(|a| a.map.as_ref());
        let list = atom.and_then(|a| a.list.as_ref());
        let mut out = set.clone();
        let (members, children) = out.parts_mut();
        for (element, child) in children.iter_mut() {
            let ctr = match (element, map, list) {
                (PathElement::Field(name), Some(m), _) => {
                    let (ctr, declared) = m.field_type(name);
                    if declared {
                        members.insert(element.clone());
                    }
                    ctr
                }
                (PathElement::Key(_), _, Some(l)) => l.items,
                _ => NONE,
            };
            *child = self.ensure_at(child, ctr);
        }
        out
    }
}

/// One step of a path into a value.
enum Segment<'v> {
    Key(&'v str),
    Index(usize),
}

/// `path` and then `key` written as the decoder's warnings write them:
/// `spec.items[0].name`.
fn dotted(path: &[Segment<'_>], key: &str) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Segment::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    if !out.is_empty() {
        out.push('.');
    }
    out.push_str(key);
    out
}

/// What a node's type does with a given value.
enum Kind<'s> {
    Invalid,
    Scalar,
    List(&'s ListDef),
    Map(&'s MapDef),
}

impl Kind<'_> {
    /// The same part of the same atom (`Atom.Equals` of deduced atoms).
    fn same(&self, other: &Kind<'_>) -> bool {
        match (self, other) {
            (Kind::Invalid, Kind::Invalid) | (Kind::Scalar, Kind::Scalar) => true,
            (Kind::List(a), Kind::List(b)) => std::ptr::eq(*a, *b),
            (Kind::Map(a), Kind::Map(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

/// The fields that differ between two objects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Fields in the old object only.
    pub removed: Set,
    /// Fields in both, with different values.
    pub modified: Set,
    /// Fields in the new object only.
    pub added: Set,
}

impl Comparison {
    /// Whether nothing changed.
    pub fn is_same(&self) -> bool {
        self.removed.is_empty() && self.modified.is_empty() && self.added.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::apply::fieldpath::Path;

    fn unknown() -> Schema {
        Schema::new(&json!({"type": "object", "properties": {
            "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}))
    }

    /// `unknown_fields` reports what `prune_unknown` removes, at the same
    /// paths, in the same order, without changing the value.
    #[test]
    fn unknown_fields_are_what_pruning_removes() {
        let schema = Schema::new(&json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "ports": {"type": "array", "items": {"type": "object", "properties": {
                    "port": {"type": "integer"}}}},
                "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}));
        let value = json!({"bogus": 1, "spec": {
            "ports": [{"port": 1}, {"port": 2, "x": true, "y": {"z": 1}}],
            "extra": {"anything": {"goes": 1}}, "other": []}});
        let unknown = schema.unknown_fields(&value);
        assert_eq!(
            unknown,
            ["bogus", "spec.other", "spec.ports[1].x", "spec.ports[1].y"]
        );
        let mut pruned = value.clone();
        assert_eq!(schema.prune_unknown(&mut pruned), unknown);
        assert_eq!(
            pruned,
            json!({"spec": {"ports": [{"port": 1}, {"port": 2}], "extra": {"anything": {"goes": 1}}}})
        );
    }

    /// A map replaced by a scalar (and back) under preserve-unknown-fields:
    /// what was under the map is removed, the old scalar modified, as
    /// structured-merge-diff walks both atoms. Found by the `apply`
    /// property tests (issue 17): without it a manager kept owning
    /// `.extra.a.a` after another's forced apply set `extra.a: 0`.
    #[test]
    fn a_value_that_changes_atom_is_compared_as_both() {
        let schema = unknown();
        let map = json!({"extra": {"a": {"a": 0}}});
        let scalar = json!({"extra": {"a": 0}});
        let c = schema.compare(&map, &scalar);
        assert_eq!(
            c.removed,
            Set::from_paths([Path::fields(&["extra", "a", "a"])])
        );
        assert_eq!(c.modified, Set::from_paths([Path::fields(&["extra", "a"])]));
        assert!(c.added.is_empty(), "{c:?}");

        let c = schema.compare(&scalar, &map);
        assert_eq!(
            c.added,
            Set::from_paths([Path::fields(&["extra", "a", "a"])])
        );
        assert_eq!(c.modified, Set::from_paths([Path::fields(&["extra", "a"])]));
        assert!(c.removed.is_empty(), "{c:?}");
    }
}
