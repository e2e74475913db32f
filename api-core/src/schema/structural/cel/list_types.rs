//! What `x-kubernetes-list-type` makes of `==`, `!=`, `+` and `in`, as
//! the apiserver's values do (k8s.io/apiserver `pkg/cel/common`'s
//! `unstructuredSetList` and `unstructuredMapList`):
//!
//! - a `set` list equals a list with the same elements in any order, and
//!   `X + Y` is a union: `X` as it is, then the elements of `Y` not in `X`;
//! - a `map` list equals a list with the same entries (by their keys) in
//!   any order, and `X + Y` is a merge: the entries of `X` in place, each
//!   replaced by the entry of `Y` with the same keys, then `Y`'s other
//!   entries;
//! - an object, map or atomic list compares its values, items or
//!   elements with their own semantics.
//!
//! cel-go asks the left operand (`X.Equal(Y)`, `X.Add(Y)`): a list literal
//! on the left compares in order. The values here are the `cel` crate's
//! plain lists, so the semantics are given by where a value comes from,
//! which is known when a rule is compiled. [`rewrite`] turns `X == Y`
//! into `@listTypesEqual(X, Y, n)` (and `!=`, `+` and `in` likewise) when
//! `X` is data of the schema whose type has such a list at or below it;
//! `n` names the [`Semantics`] of `X`, which the functions
//! [`register`]ed here read. Every other expression is left as it is, so
//! rules without such lists evaluate exactly as before.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, LazyLock, RwLock};

use ::cel::common::ast::{CallExpr, Expr, IdedExpr, LiteralValue};
use ::cel::common::types::{
    CelBool, CelBytes, CelDouble, CelDuration, CelInt, CelList, CelNull, CelString, CelTimestamp,
    CelUInt, DYN_TYPE, INT_TYPE, Kind,
};
use ::cel::common::value::{CowVal, Val};
use ::cel::{DeclarationError, Env, ExecutionError};

use super::tree::{CelNode, Shape};

/// `X == Y` with `X`'s list semantics.
const EQUAL: &str = "@listTypesEqual";
/// `X + Y` of a set or map list `X`.
const ADD: &str = "@listTypesAdd";
/// `Y in X` for a list `X` whose elements have list semantics.
const IN: &str = "@listTypesIn";

/// How values of a schema node compare (only where that differs from CEL's
/// own equality somewhere at or below the node).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Semantics {
    /// CEL's equality.
    Plain,
    /// `x-kubernetes-list-type: set`.
    Set,
    /// `x-kubernetes-list-type: map`: its keys, as map keys of the items'
    /// values (escaped names), and how the items compare.
    MapList {
        keys: Vec<String>,
        items: Box<Semantics>,
    },
    /// An atomic list whose items compare with their semantics.
    List(Box<Semantics>),
    /// An object: the properties (by their names in values) that compare
    /// with their semantics; the others compare as CEL does.
    Object(Vec<(String, Semantics)>),
    /// A map (`additionalProperties`) whose values compare with their
    /// semantics.
    Map(Box<Semantics>),
}

impl Semantics {
    /// The semantics of values of `node`.
    pub(crate) fn of(node: &CelNode) -> Semantics {
        match node.shape {
            Shape::Array => {
                let items = node
                    .items
                    .as_deref()
                    .map_or(Semantics::Plain, Semantics::of);
                if node.list_set {
                    Semantics::Set
                } else if let Some(keys) = &node.list_map_keys {
                    Semantics::MapList {
                        keys: keys.iter().map(|k| value_key(k)).collect(),
                        items: Box::new(items),
                    }
                } else if items == Semantics::Plain {
                    Semantics::Plain
                } else {
                    Semantics::List(Box::new(items))
                }
            }
            Shape::Object => {
                if let Some(values) = &node.additional {
                    return match Semantics::of(values) {
                        Semantics::Plain => Semantics::Plain,
                        s => Semantics::Map(Box::new(s)),
                    };
                }
                let mut fields = Vec::new();
                for p in &node.properties {
                    let s = Semantics::of(&p.node);
                    if s == Semantics::Plain {
                        continue;
                    }
                    if let Some(escaped) = &p.escaped
                        && **escaped != p.name
                        && api_cel::RESERVED.contains(&p.name.as_str())
                    {
                        // Values hold reserved words under both names.
                        fields.push((p.name.clone(), s.clone()));
                    }
                    fields.push((value_key(&p.name), s));
                }
                if fields.is_empty() {
                    Semantics::Plain
                } else {
                    Semantics::Object(fields)
                }
            }
            _ => Semantics::Plain,
        }
    }
}

/// The key a property is held under in values: its escaped name, or its
/// own name when it cannot be escaped (rules cannot select it, but it
/// takes part in equality, as the apiserver's values do).
pub(crate) fn value_key(name: &str) -> String {
    api_cel::escape(name).unwrap_or_else(|| name.to_string())
}

/// Every [`Semantics`] rules have been compiled with, by the number the
/// rewritten calls carry. Schemas repeat few shapes, and each is kept once.
static INTERNED: LazyLock<RwLock<Interned>> = LazyLock::new(Default::default);

#[derive(Default)]
struct Interned {
    ids: HashMap<Arc<Semantics>, i64>,
    all: Vec<Arc<Semantics>>,
}

fn intern(s: Semantics) -> i64 {
    let s = Arc::new(s);
    if let Some(id) = INTERNED.read().ok().and_then(|i| i.ids.get(&s).copied()) {
        return id;
    }
    let mut interned = INTERNED.write().unwrap_or_else(|e| e.into_inner());
    if let Some(id) = interned.ids.get(&s) {
        return *id;
    }
    let id = interned.all.len() as i64;
    interned.all.push(s.clone());
    interned.ids.insert(s, id);
    id
}

fn interned(id: &dyn Val) -> Result<Arc<Semantics>, ExecutionError> {
    let found = id.downcast_ref::<CelInt>().and_then(|id| {
        let all = INTERNED.read().ok()?;
        all.all.get(usize::try_from(*id.inner()).ok()?).cloned()
    });
    found.ok_or_else(|| ExecutionError::function_error(EQUAL, "unknown list semantics"))
}

/// Rewrites the operators of `expr` whose left operand is data with list
/// semantics (see the module's documentation). `this` is the node `self`
/// (and `oldSelf`, unless it is optional) is bound to. Returns whether
/// anything was rewritten.
pub(crate) fn rewrite(expr: &mut IdedExpr, this: &CelNode, optional_old_self: bool) -> bool {
    let next_id = max_id(expr) + 1;
    let mut r = Rewriter {
        this,
        optional_old_self,
        scopes: Vec::new(),
        changed: false,
        next_id,
    };
    r.visit(expr);
    r.changed
}

fn max_id(e: &IdedExpr) -> u64 {
    let mut max = e.id;
    api_cel::ast::for_each_child(e, |c| max = max.max(max_id(c)));
    max
}

struct Rewriter<'n> {
    this: &'n CelNode,
    optional_old_self: bool,
    /// Comprehension variables in scope, innermost last, with the node of
    /// their values (`None`: not data of the schema).
    scopes: Vec<(String, Option<&'n CelNode>)>,
    changed: bool,
    next_id: u64,
}

impl<'n> Rewriter<'n> {
    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn literal(&mut self, n: i64) -> IdedExpr {
        IdedExpr {
            id: self.id(),
            expr: Expr::Literal(LiteralValue::Int(n.into())),
        }
    }

    fn visit(&mut self, e: &mut IdedExpr) {
        if let Expr::Call(call) = &mut e.expr {
            self.rewrite_call(call);
        }
        match &mut e.expr {
            Expr::Comprehension(c) => {
                self.visit(&mut c.iter_range);
                self.visit(&mut c.accu_init);
                let range = self.node_of(&c.iter_range).and_then(element);
                let range = match &c.iter_range.expr {
                    // `@keysOrIndices(x)` (two-variable macros) iterates
                    // over indices or keys.
                    Expr::Call(k) if k.func_name == api_cel::macros::KEYS => None,
                    _ => range,
                };
                self.scopes.push((c.accu_var.clone(), None));
                self.scopes.push((c.iter_var.clone(), range));
                if let Some(v2) = &c.iter_var2 {
                    self.scopes.push((v2.clone(), None));
                }
                self.visit(&mut c.loop_cond);
                self.visit(&mut c.loop_step);
                if c.iter_var2.is_some() {
                    self.scopes.pop();
                }
                self.scopes.pop();
                self.visit(&mut c.result);
                self.scopes.pop();
            }
            _ => api_cel::ast::for_each_child_mut(e, |child| self.visit(child)),
        }
    }

    /// Rewrites `call` itself when its left operand has list semantics.
    fn rewrite_call(&mut self, call: &mut CallExpr) {
        if call.target.is_some() || call.args.len() != 2 {
            return;
        }
        let (name, operand) = match call.func_name.as_str() {
            "_==_" | "_!=_" => (EQUAL, 0),
            "_+_" => (ADD, 0),
            "@in" => (IN, 1),
            _ => return,
        };
        let Some(node) = self.node_of(&call.args[operand]) else {
            return;
        };
        let semantics = match name {
            EQUAL => Semantics::of(node),
            ADD => match Semantics::of(node) {
                s @ (Semantics::Set | Semantics::MapList { .. }) => s,
                _ => return,
            },
            // `in` of a map looks for a key: only lists are rewritten.
            _ if node.shape != Shape::Array => return,
            _ => match element(node).map(Semantics::of) {
                Some(Semantics::Plain) | None => return,
                Some(s) => s,
            },
        };
        if semantics == Semantics::Plain {
            return;
        }
        self.changed = true;
        let id = self.literal(intern(semantics));
        let mut args = std::mem::take(&mut call.args);
        if name == IN {
            // `@listTypesIn(list, element, n)`.
            args.swap(0, 1);
        }
        args.push(id);
        let rewritten = CallExpr {
            func_name: name.to_string(),
            target: None,
            args,
        };
        if call.func_name == "_!=_" {
            call.func_name = "!_".to_string();
            call.args = vec![IdedExpr {
                id: self.id(),
                expr: Expr::Call(rewritten),
            }];
        } else {
            *call = rewritten;
        }
    }

    /// The schema node whose data `e` certainly is, as far as the
    /// expression's form tells.
    fn node_of(&self, e: &IdedExpr) -> Option<&'n CelNode> {
        match &e.expr {
            Expr::Ident(name) => {
                if let Some((_, node)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
                    return *node;
                }
                match name.as_str() {
                    "self" => Some(self.this),
                    "oldSelf" if !self.optional_old_self => Some(self.this),
                    _ => None,
                }
            }
            Expr::Select(s) if !s.test => field(self.node_of(&s.operand)?, &s.field),
            Expr::Call(c) => match (c.func_name.as_str(), c.target.as_deref(), &c.args[..]) {
                ("_[_]" | api_cel::macros::ITEM, None, [list, _]) => element(self.node_of(list)?),
                ("_+_" | ADD, None, [left, _]) => {
                    let node = self.node_of(left)?;
                    (node.list_set || node.list_map_keys.is_some()).then_some(node)
                }
                ("_?_:_", None, [_, a, b]) => {
                    let (a, b) = (self.node_of(a)?, self.node_of(b)?);
                    std::ptr::eq(a, b).then_some(a)
                }
                ("value" | "orValue", Some(target), _) => self.optional_node_of(target),
                _ => None,
            },
            _ => None,
        }
    }

    /// The node of the value an optional `e` holds.
    fn optional_node_of(&self, e: &IdedExpr) -> Option<&'n CelNode> {
        match &e.expr {
            Expr::Ident(name) if name == "oldSelf" && self.optional_old_self => {
                let shadowed = self.scopes.iter().any(|(n, _)| n == name);
                (!shadowed).then_some(self.this)
            }
            Expr::Call(c) => match (c.func_name.as_str(), &c.args[..]) {
                ("_?._", [operand, name]) => match &name.expr {
                    Expr::Literal(LiteralValue::String(f)) => {
                        field(self.value_node_of(operand)?, f)
                    }
                    _ => None,
                },
                ("_[?_]", [list, _]) => element(self.value_node_of(list)?),
                _ => None,
            },
            _ => None,
        }
    }

    /// The node of `e`'s data, or of the data it holds when it is optional.
    fn value_node_of(&self, e: &IdedExpr) -> Option<&'n CelNode> {
        self.node_of(e).or_else(|| self.optional_node_of(e))
    }
}

/// The node of a property (by its name in rules), or of a map's values.
fn field<'n>(node: &'n CelNode, name: &str) -> Option<&'n CelNode> {
    if node.shape != Shape::Object {
        return None;
    }
    if let Some(values) = &node.additional {
        return Some(values);
    }
    node.properties
        .iter()
        .find(|p| {
            p.escaped.as_deref().is_some_and(|e| e == name)
                || (p.name == name && api_cel::RESERVED.contains(&name))
        })
        .map(|p| &p.node)
}

/// The node of a list's items or a map's values.
fn element(node: &CelNode) -> Option<&CelNode> {
    match node.shape {
        Shape::Array => node.items.as_deref(),
        Shape::Object => node.additional.as_deref(),
        _ => None,
    }
}

/// Declares the rewritten operators' functions on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_overload(
        EQUAL,
        "list_types_equal",
        vec![DYN_TYPE, DYN_TYPE, INT_TYPE],
        equal_fn,
    )?;
    env.add_overload(
        ADD,
        "list_types_add",
        vec![DYN_TYPE, DYN_TYPE, INT_TYPE],
        add_fn,
    )?;
    env.add_overload(
        IN,
        "list_types_in",
        vec![DYN_TYPE, DYN_TYPE, INT_TYPE],
        in_fn,
    )?;
    Ok(())
}

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;

fn equal_fn<'b, 'v>(args: Args<'b, 'v>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [a, b, id] = super::lib::take(args)?;
    let equal = equal(&*interned(id.as_ref())?, a.as_ref(), b.as_ref())?;
    Ok(CowVal::owned(CelBool::from(equal)))
}

fn in_fn<'b, 'v>(args: Args<'b, 'v>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [list, wanted, id] = super::lib::take(args)?;
    let semantics = interned(id.as_ref())?;
    let Some(items) = items(list.as_ref()) else {
        // A map: `in` looks for a key.
        let found = list
            .as_container()
            .ok_or_else(|| no_overload("@in"))?
            .contains(wanted.as_ref())?;
        return Ok(CowVal::owned(CelBool::from(found)));
    };
    // cel-go's `Contains`: a match wins over an error.
    let mut error = None;
    for item in items {
        match equal(&semantics, item, wanted.as_ref()) {
            Ok(true) => return Ok(CowVal::owned(CelBool::from(true))),
            Ok(false) => {}
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    match error {
        Some(e) => Err(e),
        None => Ok(CowVal::owned(CelBool::from(false))),
    }
}

fn add_fn<'b, 'v>(args: Args<'b, 'v>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [a, b, id] = super::lib::take(args)?;
    let semantics = interned(id.as_ref())?;
    let (Some(left), Some(right)) = (items(a.as_ref()), items(b.as_ref())) else {
        return Err(no_overload("_+_"));
    };
    let mut out: Vec<Box<dyn Val + 'v>> = left.iter().map(|v| v.clone_as_boxed()).collect();
    match &*semantics {
        Semantics::Set => {
            let mut seen = HashSet::with_capacity(out.len());
            for v in &left {
                seen.insert(set_key(*v)?);
            }
            for v in right {
                if seen.insert(set_key(v)?) {
                    out.push(v.clone_as_boxed());
                }
            }
        }
        Semantics::MapList { keys, .. } => {
            let mut at: HashMap<Vec<Option<ScalarKey>>, usize> = HashMap::new();
            for (i, v) in left.iter().enumerate() {
                at.insert(map_key(*v, keys)?, i);
            }
            for v in right {
                let k = map_key(v, keys)?;
                match at.get(&k) {
                    Some(i) => out[*i] = v.clone_as_boxed(),
                    None => {
                        at.insert(k, out.len());
                        out.push(v.clone_as_boxed());
                    }
                }
            }
        }
        _ => out.extend(right.iter().map(|v| v.clone_as_boxed())),
    }
    Ok(CowVal::owned(CelList::from(out)))
}

fn no_overload(operator: &str) -> ExecutionError {
    ExecutionError::no_such_overload(operator, Vec::new())
}

/// The elements of a list (`None` for any other value).
fn items<'a, 'v>(list: &'a (dyn Val + 'v)) -> Option<Vec<&'a (dyn Val + 'v)>> {
    if list.get_type().kind() != Kind::List {
        return None;
    }
    super::lib::elements(list).ok()
}

/// `a == b` with `a`'s semantics.
fn equal(semantics: &Semantics, a: &dyn Val, b: &dyn Val) -> Result<bool, ExecutionError> {
    match semantics {
        Semantics::Plain => Ok(a.equals(b)),
        Semantics::Object(_) | Semantics::Map(_) => equal_maps(semantics, a, b),
        Semantics::Set | Semantics::MapList { .. } | Semantics::List(_) => {
            let Some(left) = items(a) else {
                // Not a list (null): as CEL compares it.
                return Ok(a.equals(b));
            };
            let right = items(b).ok_or_else(|| no_overload("_==_"))?;
            if left.len() != right.len() {
                return Ok(false);
            }
            equal_lists(semantics, left, right)
        }
    }
}

/// `a == b` for two lists of the same size, with `a`'s semantics.
fn equal_lists(
    semantics: &Semantics,
    left: Vec<&dyn Val>,
    right: Vec<&dyn Val>,
) -> Result<bool, ExecutionError> {
    match semantics {
        Semantics::Set => {
            let mut set = HashSet::with_capacity(left.len());
            for v in left {
                set.insert(set_key(v)?);
            }
            let mut seen = HashSet::with_capacity(set.len());
            for v in right {
                let k = set_key(v)?;
                if !set.contains(&k) {
                    return Ok(false);
                }
                seen.insert(k);
            }
            Ok(seen.len() == set.len())
        }
        Semantics::MapList { keys, items: of } => {
            let mut by_key = HashMap::with_capacity(left.len());
            for v in left {
                by_key.insert(map_key(v, keys)?, v);
            }
            let mut seen = HashSet::with_capacity(by_key.len());
            for v in right {
                let k = map_key(v, keys)?;
                let Some(mine) = by_key.get(&k) else {
                    return Ok(false);
                };
                if !equal(of, *mine, v)? {
                    return Ok(false);
                }
                seen.insert(k);
            }
            Ok(seen.len() == by_key.len())
        }
        // Atomic lists compare element by element.
        other => {
            let of = match other {
                Semantics::List(of) => of,
                _ => &Semantics::Plain,
            };
            for (x, y) in left.into_iter().zip(right) {
                if !equal(of, x, y)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
    }
}

/// `a == b` for an object or a map, with `a`'s semantics.
fn equal_maps(semantics: &Semantics, a: &dyn Val, b: &dyn Val) -> Result<bool, ExecutionError> {
    let (Some(left), Some(right)) = (a.as_indexer(), b.as_indexer()) else {
        return Ok(a.equals(b));
    };
    if a.get_type().kind() != Kind::Map || b.get_type().kind() != Kind::Map {
        return Ok(a.equals(b));
    }
    let size = |m: &dyn Val| m.as_sizer().map(|s| *s.size().inner());
    if size(a) != size(b) {
        return Ok(false);
    }
    for key in super::lib::elements(a)? {
        let of = match semantics {
            Semantics::Map(of) => of,
            Semantics::Object(fields) => {
                let name = key.downcast_ref::<CelString<'_>>().map(|s| s.inner());
                fields
                    .iter()
                    .find(|(n, _)| Some(n.as_str()) == name)
                    .map_or(&Semantics::Plain, |(_, s)| s)
            }
            _ => &Semantics::Plain,
        };
        let mine = left.get(key)?;
        let Ok(theirs) = right.get(key) else {
            return Ok(false);
        };
        if !equal(of, mine.as_ref(), theirs.as_ref())? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A scalar as a Go map key: values of different types are different
/// keys (`1`, `1u` and `1.0` are three elements of a set), as the
/// apiserver's sets compare the raw values.
#[derive(Debug, PartialEq, Eq, Hash)]
enum ScalarKey {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Double(u64),
    String(String),
    Bytes(Vec<u8>),
    Duration(i64),
    Timestamp(i64, u32),
    Other(String),
}

fn scalar_key(v: &dyn Val) -> ScalarKey {
    if let Some(s) = v.downcast_ref::<CelString<'_>>() {
        ScalarKey::String(s.inner().to_string())
    } else if let Some(i) = v.downcast_ref::<CelInt>() {
        ScalarKey::Int(*i.inner())
    } else if let Some(u) = v.downcast_ref::<CelUInt>() {
        ScalarKey::UInt(*u.inner())
    } else if let Some(d) = v.downcast_ref::<CelDouble>() {
        // Go's float keys: -0 is 0.
        let d = *d.inner();
        ScalarKey::Double(if d == 0.0 { 0 } else { d.to_bits() })
    } else if let Some(b) = v.downcast_ref::<CelBool>() {
        ScalarKey::Bool(*b.inner())
    } else if let Some(b) = v.downcast_ref::<CelBytes<'_>>() {
        ScalarKey::Bytes(b.inner().to_vec())
    } else if v.downcast_ref::<CelNull>().is_some() {
        ScalarKey::Null
    } else if let Some(d) = v.downcast_ref::<CelDuration>() {
        ScalarKey::Duration(d.inner().num_nanoseconds().unwrap_or(i64::MAX))
    } else if let Some(t) = v.downcast_ref::<CelTimestamp>() {
        ScalarKey::Timestamp(t.inner().timestamp(), t.inner().timestamp_subsec_nanos())
    } else {
        ScalarKey::Other(format!("{v:?}"))
    }
}

/// An element of a set list as a key (`setElementKey`).
fn set_key(v: &dyn Val) -> Result<ScalarKey, ExecutionError> {
    if matches!(v.get_type().kind(), Kind::List | Kind::Map) {
        return Err(ExecutionError::function_error(
            "_==_",
            "listSet operations are only supported on lists of scalar values",
        ));
    }
    Ok(scalar_key(v))
}

/// The key fields of an entry of a map list (`None` where one is absent).
fn map_key(v: &dyn Val, keys: &[String]) -> Result<Vec<Option<ScalarKey>>, ExecutionError> {
    let entry = v
        .as_indexer()
        .filter(|_| v.get_type().kind() == Kind::Map)
        .ok_or_else(|| {
            ExecutionError::function_error(
                "_==_",
                format!(
                    "unexpected data format for element of array with x-kubernetes-list-type=map: {}",
                    v.get_type().name()
                ),
            )
        })?;
    Ok(keys
        .iter()
        .map(|k| {
            entry
                .get(&CelString::from(k.as_str()))
                .ok()
                .map(|v| scalar_key(v.as_ref()))
        })
        .collect())
}
