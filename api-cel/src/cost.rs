//! The apiserver's static cost estimate of a rule: cel-go's estimator
//! (`checker/cost.go`) with the cost functions of the apiserver's CRD
//! environment (k8s.io/apiserver `pkg/cel/library/cost.go`, cel-go's lists
//! and sets extensions) and the sizes of the data a rule reads
//! (apiextensions-apiserver's `sizeEstimator` over the schema's
//! `maxItems`, `maxLength` and `maxProperties`, or their estimates from the
//! largest request).
//!
//! The estimate is a range of cost units (one unit is about one step of
//! evaluation); the apiserver rejects a CRD whose rule's maximum, times the
//! number of times the rule may run in one object, exceeds
//! [`STATIC_RULE_LIMIT`], or whose rules together exceed
//! [`STATIC_CRD_LIMIT`].
//!
//! ```
//! use api_cel::cost::{estimate_source, Sizes};
//! use api_cel::Type;
//!
//! let tags = Type::list(Type::String);
//! // A list of at most 10 strings of at most 4 bytes each.
//! let sizes = Sizes::list(10, Sizes::leaf(4));
//! let cost = estimate_source("self.all(t, t.startsWith('a'))", &[("self", tags)], &sizes).unwrap();
//! assert_eq!((cost.min, cost.max), (2, 52));
//! ```

use std::collections::{BTreeMap, HashMap};

use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};

use crate::check::{Checked, Resolved};
use crate::decls::Overload;
use crate::types::Type;

/// The largest static cost of one rule (times how often it may run in one
/// object) the apiserver accepts (`StaticEstimatedCostLimit`).
pub const STATIC_RULE_LIMIT: u64 = 10_000_000;
/// The largest static cost of all the rules of a CRD together
/// (`StaticEstimatedCRDCostLimit`).
pub const STATIC_CRD_LIMIT: u64 = 100_000_000;
/// The most one evaluation of a rule may cost at run time (`PerCallLimit`).
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// The most all the evaluations of an object's rules may cost together
/// (`RuntimeCELCostBudget`).
pub const RUNTIME_BUDGET: u64 = 10_000_000;
/// The largest request the apiserver takes, which bounds the data of
/// schemas without limits (`MaxRequestSizeBytes`, 3 MiB).
pub const MAX_REQUEST_SIZE_BYTES: u64 = 3 * 1024 * 1024;

const SELECT_AND_IDENT_COST: u64 = 1;
const LIST_CREATE_BASE_COST: u64 = 10;
const MAP_CREATE_BASE_COST: u64 = 30;
const STRUCT_CREATE_BASE_COST: u64 = 40;
const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;
/// The longest pattern of a named format (`MaxNameFormatRegexSize`).
const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;
/// The longest name of a format (`MaxFormatSize`).
const MAX_FORMAT_SIZE: u64 = 64;

/// A range of costs, or of sizes (characters of a string, bytes, items of
/// a list, entries of a map); additions and products saturate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Estimate {
    /// The least.
    pub min: u64,
    /// The most.
    pub max: u64,
}

impl Estimate {
    /// `[0, u64::MAX]`: nothing is known.
    pub const UNKNOWN: Estimate = Estimate {
        min: 0,
        max: u64::MAX,
    };

    /// Exactly `n`.
    pub const fn fixed(n: u64) -> Estimate {
        Estimate { min: n, max: n }
    }

    /// `[min, max]`.
    pub const fn range(min: u64, max: u64) -> Estimate {
        Estimate { min, max }
    }

    fn add(self, o: Estimate) -> Estimate {
        Estimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }

    fn mul(self, o: Estimate) -> Estimate {
        Estimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    fn factor(self, f: f64) -> Estimate {
        Estimate {
            min: multiply_by_cost_factor(self.min, f),
            max: multiply_by_cost_factor(self.max, f),
        }
    }

    fn union(self, o: Estimate) -> Estimate {
        Estimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

/// `x * y` rounded up, saturating (cel-go's `multiplyByCostFactor`).
fn multiply_by_cost_factor(x: u64, y: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && y > 0.0 && xf > u64::MAX as f64 / y {
        return u64::MAX;
    }
    let ceil = (xf * y).ceil();
    if ceil >= 18_446_744_073_709_551_616.0 {
        u64::MAX
    } else {
        ceil as u64
    }
}

/// What the estimator knows of the size of the data at a path of a
/// variable: `path[0]` is the variable, then field names, `@items`,
/// `@keys` and `@values` (`@indices` for a list's indices).
pub trait SizeEstimator {
    /// The size of the values at `path`, if known.
    fn estimate_size(&self, path: &[String]) -> Option<Estimate>;
}

/// The sizes a schema allows, as a tree by path (the apiserver's
/// `DeclType.MaxElements`): the root stands for every variable a rule
/// sees (`self` and `oldSelf`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sizes {
    /// The most characters (strings), bytes, items (lists) or entries
    /// (maps) a value here has; 0 for other types.
    pub max_elements: u64,
    /// An object's fields, by escaped name.
    pub fields: BTreeMap<String, Sizes>,
    /// A list's items or a map's values.
    pub elem: Option<Box<Sizes>>,
    /// A map's keys.
    pub key: Option<Box<Sizes>>,
}

impl Sizes {
    /// A scalar or string of at most `max_elements`.
    pub fn leaf(max_elements: u64) -> Sizes {
        Sizes {
            max_elements,
            ..Sizes::default()
        }
    }

    /// A list of at most `max_items` items of `elem`.
    pub fn list(max_items: u64, elem: Sizes) -> Sizes {
        Sizes {
            max_elements: max_items,
            elem: Some(Box::new(elem)),
            ..Sizes::default()
        }
    }

    /// A map of at most `max_properties` entries, keys of `key`.
    pub fn map(max_properties: u64, key: Sizes, value: Sizes) -> Sizes {
        Sizes {
            max_elements: max_properties,
            elem: Some(Box::new(value)),
            key: Some(Box::new(key)),
            ..Sizes::default()
        }
    }

    /// An object with `fields`.
    pub fn object(fields: impl IntoIterator<Item = (String, Sizes)>) -> Sizes {
        Sizes {
            fields: fields.into_iter().collect(),
            ..Sizes::default()
        }
    }
}

impl SizeEstimator for Sizes {
    fn estimate_size(&self, path: &[String]) -> Option<Estimate> {
        let (_, rest) = path.split_first()?;
        let mut node = self;
        for step in rest {
            node = match step.as_str() {
                "@items" | "@values" => node.elem.as_deref()?,
                "@keys" => node.key.as_deref()?,
                field => node.fields.get(field)?,
            };
        }
        Some(Estimate::range(0, node.max_elements))
    }
}

/// How many times a value whose smallest JSON form is `min_size` bytes
/// may occur in one request (apiextensions-apiserver's `maxCardinality`):
/// how often a rule under unbounded lists or maps may run.
pub fn max_cardinality(min_size: u64) -> u64 {
    MAX_REQUEST_SIZE_BYTES / (min_size + 1)
}

/// The apiserver's message for a cost over its limit
/// (`getCostErrorMessage`): `"estimated rule cost exceeds budget by
/// factor of 1.5x (try simplifying the rule, or adding maxItems,
/// maxProperties, and maxLength where arrays, maps, and strings are
/// declared)"`.
pub fn cost_error_message(cost_name: &str, cost: u64, limit: u64) -> String {
    let exceed = cost as f64 / limit as f64;
    let factor = if exceed > 100.0 {
        "more than 100x".to_string()
    } else if exceed < 1.5 {
        format!("{exceed:.6}x")
    } else {
        format!("{exceed:.1}x")
    };
    format!(
        "{cost_name} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// Parses and checks `source` with `vars`, then estimates its cost with
/// the variables' data sized by `sizes`.
pub fn estimate_source(
    source: &str,
    vars: &[(&str, Type)],
    sizes: &dyn SizeEstimator,
) -> Result<Estimate, String> {
    Ok(estimate_checked(&crate::check_source(source, vars)?, sizes))
}

/// [`estimate`] of a rule checked by [`crate::check_source`].
pub fn estimate_checked(rule: &crate::CheckedSource, sizes: &dyn SizeEstimator) -> Estimate {
    estimate(&rule.expr, &rule.checked, sizes)
}

/// The static cost of a checked expression, with the variables' data
/// sized by `sizes`.
pub fn estimate(expr: &IdedExpr, checked: &Checked, sizes: &dyn SizeEstimator) -> Estimate {
    Coster::new(checked, sizes, false).cost(expr)
}

/// The cost of one evaluation as the apiserver's optimized program counts
/// it, estimated: [`estimate`] with constant subexpressions (literal lists
/// and maps of constants, type conversions of constants, membership in a
/// constant list) costing nothing, as cel-go's `OptOptimize` folds them
/// before evaluation, and values of unknown size counting as 1, as cel-go's
/// evaluation counts them. With `sizes` giving the exact sizes of the
/// values evaluated, the estimate's `max` is close to what cel-go counts
/// (above it where a branch or a macro stops early).
pub fn estimate_evaluation(
    expr: &IdedExpr,
    checked: &Checked,
    sizes: &dyn SizeEstimator,
) -> Estimate {
    Coster::new(checked, sizes, true).cost(expr)
}

/// The sizes of a container's keys (or indices) and values.
#[derive(Clone, Copy, Debug)]
struct EntrySize {
    list: bool,
    key: Estimate,
    val: Estimate,
}

fn union_entries(a: Option<EntrySize>, b: Option<EntrySize>) -> Option<EntrySize> {
    let (a, b) = (a?, b?);
    Some(EntrySize {
        list: a.list,
        key: a.key.union(b.key),
        val: a.val.union(b.val),
    })
}

struct Local {
    path: Option<Vec<String>>,
    size: Option<Estimate>,
    entry: Option<EntrySize>,
}

struct Coster<'a> {
    checked: &'a Checked,
    sizes: &'a dyn SizeEstimator,
    /// Constant subexpressions cost nothing (an optimized program).
    folded: bool,
    paths: HashMap<u64, Vec<String>>,
    locals: HashMap<String, Vec<Local>>,
    computed_sizes: HashMap<u64, Estimate>,
    entry_sizes: HashMap<u64, EntrySize>,
}

/// What a cost function sees of an argument (cel-go's `AstNode`).
struct Node<'e> {
    expr: Option<&'e IdedExpr>,
    path: Option<Vec<String>>,
    ty: Type,
    computed: Option<Estimate>,
}

fn is_accumulator(name: &str) -> bool {
    name == "@result" || name == "__result__"
}

impl<'a> Coster<'a> {
    fn new(checked: &'a Checked, sizes: &'a dyn SizeEstimator, folded: bool) -> Coster<'a> {
        Coster {
            checked,
            sizes,
            folded,
            paths: HashMap::new(),
            locals: HashMap::new(),
            computed_sizes: HashMap::new(),
            entry_sizes: HashMap::new(),
        }
    }

    /// Whether cel-go's optimizer folds `e` into a constant: a literal, a
    /// list or map of constants, a type conversion of a constant.
    fn is_constant(&self, e: &IdedExpr) -> bool {
        match &e.expr {
            Expr::Literal(_) => true,
            Expr::List(l) => {
                l.optional_indices.is_empty() && l.elements.iter().all(|x| self.is_constant(x))
            }
            Expr::Map(m) => m.entries.iter().all(|entry| match &entry.expr {
                EntryExpr::MapEntry(m) => {
                    !m.optional && self.is_constant(&m.key) && self.is_constant(&m.value)
                }
                EntryExpr::StructField(_) => false,
            }),
            Expr::Call(c) => {
                c.target.is_none()
                    && c.args.len() == 1
                    && matches!(
                        c.func_name.as_str(),
                        "bool"
                            | "bytes"
                            | "double"
                            | "duration"
                            | "dyn"
                            | "int"
                            | "string"
                            | "timestamp"
                            | "type"
                            | "uint"
                    )
                    && self.is_constant(&c.args[0])
            }
            _ => false,
        }
    }

    fn ty(&self, e: &IdedExpr) -> Type {
        self.checked.type_of(e.id).clone()
    }

    fn path(&self, e: &IdedExpr) -> Option<Vec<String>> {
        if let Expr::Ident(name) = &e.expr
            && let Some(local) = self.locals.get(name).and_then(|s| s.last())
        {
            return local.path.clone();
        }
        self.paths.get(&e.id).cloned()
    }

    /// The path of `e` and one more step. As cel-go's estimator, a value
    /// without a path gets a one-step path, which the apiserver's sizes
    /// resolve to the root's.
    fn path_below(&self, e: &IdedExpr, step: &str) -> Vec<String> {
        let mut p = self.path(e).unwrap_or_default();
        p.push(step.to_string());
        p
    }

    fn node<'e>(&self, e: &'e IdedExpr) -> Node<'e> {
        let path = self
            .path(e)
            .filter(|p| !p.first().is_some_and(|v| is_accumulator(v)));
        Node {
            expr: Some(e),
            path,
            ty: self.ty(e),
            computed: self.compute_size(e),
        }
    }

    /// The k8s estimator's `sizeEstimate`: the computed size, else the
    /// size at the node's path, else unknown.
    fn size_estimate(&self, n: &Node<'_>) -> Estimate {
        n.computed
            .or_else(|| n.path.as_deref().and_then(|p| self.sizes.estimate_size(p)))
            .unwrap_or(self.unknown())
    }

    fn size_or_unknown(&self, e: &IdedExpr) -> Estimate {
        self.compute_size(e).unwrap_or(self.unknown())
    }

    /// The size of a value of unknown size: anything, to the estimator;
    /// 1 to an evaluation (cel-go counts values without a size as 1).
    fn unknown(&self) -> Estimate {
        if self.folded {
            Estimate::fixed(1)
        } else {
            Estimate::UNKNOWN
        }
    }

    fn compute_size(&self, e: &IdedExpr) -> Option<Estimate> {
        if let Some(s) = self.computed_sizes.get(&e.id) {
            return Some(*s);
        }
        if let Some(s) = expr_size(e) {
            return Some(s);
        }
        if let Some(s) = self
            .path(e)
            .as_deref()
            .and_then(|p| self.sizes.estimate_size(p))
        {
            return Some(s);
        }
        if is_scalar(&self.ty(e)) {
            return Some(Estimate::fixed(1));
        }
        if let Expr::Ident(name) = &e.expr
            && let Some(local) = self.locals.get(name).and_then(|s| s.last())
        {
            return local.size;
        }
        None
    }

    fn entry_size(&self, e: &IdedExpr) -> Option<EntrySize> {
        if let Some(s) = self.entry_sizes.get(&e.id) {
            return Some(*s);
        }
        if let Expr::Ident(name) = &e.expr
            && let Some(local) = self.locals.get(name).and_then(|s| s.last())
        {
            return local.entry;
        }
        None
    }

    fn set_size(&mut self, e: &IdedExpr, s: Option<Estimate>) {
        if let Some(s) = s {
            self.computed_sizes.insert(e.id, s);
        }
    }

    fn set_entry_size(&mut self, e: &IdedExpr, s: Option<EntrySize>) {
        if let Some(s) = s {
            self.entry_sizes.insert(e.id, s);
        }
    }

    fn push_local(&mut self, name: &str, local: Local) {
        self.locals.entry(name.to_string()).or_default().push(local);
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(s) = self.locals.get_mut(name) {
            s.pop();
        }
    }

    fn is_list(&self, range: &IdedExpr, entry: Option<EntrySize>) -> bool {
        match entry {
            Some(e) => e.list,
            None => matches!(self.ty(range), Type::List(_)),
        }
    }

    /// An iteration variable: a list's items or a map's keys (one
    /// variable), or a list's indices / a map's keys (the first of two).
    fn push_iter(&mut self, name: &str, range: &IdedExpr, first_of_two: bool) {
        let entry = self.entry_size(range);
        let list = self.is_list(range, entry);
        let (size, sub) = match (list, first_of_two) {
            (true, false) => (entry.map(|e| e.val), "@items"),
            (true, true) => (entry.map(|e| e.key), "@indices"),
            (false, _) => (entry.map(|e| e.key), "@keys"),
        };
        let path = Some(self.path_below(range, sub));
        self.push_local(
            name,
            Local {
                path,
                size,
                entry: None,
            },
        );
    }

    /// The second variable of a two-variable comprehension: the items of
    /// a list or the values of a map.
    fn push_iter_value(&mut self, name: &str, range: &IdedExpr) {
        let entry = self.entry_size(range);
        let sub = if self.is_list(range, entry) {
            "@items"
        } else {
            "@values"
        };
        let path = Some(self.path_below(range, sub));
        self.push_local(
            name,
            Local {
                path,
                size: entry.map(|e| e.val),
                entry: None,
            },
        );
    }

    fn cost(&mut self, e: &IdedExpr) -> Estimate {
        let cost = self.node_cost(e);
        if self.folded && !matches!(e.expr, Expr::Literal(_)) && self.is_constant(e) {
            return Estimate::default();
        }
        cost
    }

    fn node_cost(&mut self, e: &IdedExpr) -> Estimate {
        match &e.expr {
            Expr::Literal(_) | Expr::Unspecified => Estimate::default(),
            Expr::Ident(name) => {
                let path = match self.locals.get(name).and_then(|s| s.last()) {
                    Some(local) => local.path.clone(),
                    None => Some(vec![name.clone()]),
                };
                if let Some(p) = path {
                    self.paths.insert(e.id, p);
                }
                Estimate::fixed(SELECT_AND_IDENT_COST)
            }
            Expr::Select(_) if self.checked.type_names.contains_key(&e.id) => {
                let name = self.checked.type_names[&e.id].clone();
                self.paths.insert(e.id, vec![name]);
                Estimate::fixed(SELECT_AND_IDENT_COST)
            }
            Expr::Select(s) => {
                if s.test {
                    // has(): the apiserver gives presence tests no cost.
                    return self.cost(&s.operand);
                }
                let mut sum = self.cost(&s.operand);
                if matches!(self.ty(&s.operand), Type::Map(..) | Type::Object(_)) {
                    sum = sum.add(Estimate::fixed(SELECT_AND_IDENT_COST));
                }
                let p = self.path_below(&s.operand, &s.field);
                self.paths.insert(e.id, p);
                sum
            }
            Expr::Call(call) => {
                self.cost_call(e, &call.func_name, call.target.as_deref(), &call.args)
            }
            Expr::List(list) => {
                let mut sum = Estimate::default();
                let mut item = Estimate::range(u64::MAX, 0);
                if list.elements.is_empty() {
                    item.min = 0;
                }
                for el in &list.elements {
                    sum = sum.add(self.cost(el));
                    item = item.union(self.size_or_unknown(el));
                }
                self.set_entry_size(
                    e,
                    Some(EntrySize {
                        list: true,
                        key: Estimate::fixed(1),
                        val: item,
                    }),
                );
                sum.add(Estimate::fixed(LIST_CREATE_BASE_COST))
            }
            Expr::Map(map) => {
                let mut sum = Estimate::default();
                let mut key = Estimate::range(u64::MAX, 0);
                let mut val = Estimate::range(u64::MAX, 0);
                if map.entries.is_empty() {
                    key.min = 0;
                    val.min = 0;
                }
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(m) = &entry.expr {
                        sum = sum.add(self.cost(&m.key)).add(self.cost(&m.value));
                        key = key.union(self.size_or_unknown(&m.key));
                        val = val.union(self.size_or_unknown(&m.value));
                    }
                }
                self.set_entry_size(
                    e,
                    Some(EntrySize {
                        list: false,
                        key,
                        val,
                    }),
                );
                sum.add(Estimate::fixed(MAP_CREATE_BASE_COST))
            }
            Expr::Struct(st) => {
                let mut sum = Estimate::default();
                for entry in &st.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        sum = sum.add(self.cost(&f.value));
                    }
                }
                sum.add(Estimate::fixed(STRUCT_CREATE_BASE_COST))
            }
            Expr::Comprehension(c) => {
                let mut sum = self.cost(&c.iter_range).add(self.cost(&c.accu_init));
                let accu = Local {
                    path: self.path(&c.accu_init),
                    size: self.compute_size(&c.accu_init),
                    entry: self.entry_size(&c.accu_init),
                };
                self.push_local(&c.accu_var, accu);
                match &c.iter_var2 {
                    Some(second) => {
                        self.push_iter(&c.iter_var, &c.iter_range, true);
                        self.push_iter_value(second, &c.iter_range);
                    }
                    None => self.push_iter(&c.iter_var, &c.iter_range, false),
                }
                let loop_cost = self.cost(&c.loop_cond);
                let step_cost = self.cost(&c.loop_step);
                self.pop_local(&c.iter_var);
                if let Some(second) = &c.iter_var2 {
                    self.pop_local(second);
                }
                sum = sum.add(self.cost(&c.result));
                self.pop_local(&c.accu_var);
                let range = self.size_or_unknown(&c.iter_range);
                sum = sum.add(range.mul(step_cost.add(loop_cost)));
                match &c.accu_init.expr {
                    Expr::Literal(_) => {
                        let s = self.compute_size(&c.accu_init);
                        self.set_size(e, s);
                    }
                    Expr::List(_) | Expr::Map(_) => {
                        self.set_size(e, Some(range));
                        let step = self.entry_size(&c.loop_step);
                        self.set_entry_size(e, step);
                    }
                    _ => {}
                }
                sum
            }
        }
    }

    fn cost_call(
        &mut self,
        e: &IdedExpr,
        name: &str,
        target: Option<&IdedExpr>,
        args: &[IdedExpr],
    ) -> Estimate {
        if name == "dyn" && args.len() == 1 && target.is_none() {
            let cost = self.cost(&args[0]);
            let (s, en) = (self.compute_size(&args[0]), self.entry_size(&args[0]));
            self.set_size(e, s);
            self.set_entry_size(e, en);
            return Estimate::fixed(1).add(cost);
        }
        let arg_costs: Vec<Estimate> = args.iter().map(|a| self.cost(a)).collect();
        if name == crate::macros::ITEM && args.len() == 2 {
            // A two-variable comprehension's second variable: one read.
            let list = matches!(self.ty(&args[0]), Type::List(_));
            let sub = if list { "@items" } else { "@values" };
            let size = self.entry_size(&args[0]).map(|en| en.val);
            let p = self.path_below(&args[0], sub);
            self.paths.insert(e.id, p);
            let size = size.or_else(|| self.compute_size(e));
            self.set_size(e, size);
            return Estimate::fixed(SELECT_AND_IDENT_COST);
        }
        let arg_sum = arg_costs.iter().fold(Estimate::default(), |s, c| s.add(*c));
        if name == "_?._" {
            // Optional field selection: one O(1) call.
            return Estimate::fixed(1).add(arg_sum);
        }
        let Some(resolved) = self.checked.calls.get(&e.id) else {
            return Estimate::default();
        };
        if resolved.overloads.is_empty() {
            return Estimate::default();
        }
        let mut sum = Estimate::default();
        let target = if resolved.member {
            let t = target.expect("a member call has a target");
            sum = sum.add(self.cost(t));
            Some(t)
        } else {
            None
        };
        let target_node = target.map(|t| self.node(t));
        let arg_nodes: Vec<Node<'_>> = args.iter().map(|a| self.node(a)).collect();
        let mut fn_cost = Estimate::range(u64::MAX, 0);
        let mut result_size: Option<Estimate> = None;
        for overload in &resolved.overloads {
            let call = Call {
                resolved,
                overload,
                target: target_node.as_ref(),
                args: &arg_nodes,
                arg_costs: &arg_costs,
                arg_sum,
            };
            let (cost, size) = self.function_cost(e, &call);
            fn_cost = fn_cost.union(cost);
            if let Some(size) = size {
                result_size = Some(result_size.map_or(size, |r| r.union(size)));
            }
            if name == "_[_]" && !args.is_empty() {
                let sub = match overload.params.first() {
                    Some(Type::List(_)) => Some("@items"),
                    Some(Type::Map(..)) => Some("@values"),
                    _ => None,
                };
                if let Some(sub) = sub {
                    result_size = self.entry_size(&args[0]).map(|en| en.val);
                    let p = self.path_below(&args[0], sub);
                    self.paths.insert(e.id, p);
                }
            }
            if result_size.is_none() {
                result_size = self.compute_size(e);
            }
        }
        self.set_size(e, result_size);
        sum.add(fn_cost)
    }

    fn function_cost(&mut self, e: &IdedExpr, call: &Call<'_, '_>) -> (Estimate, Option<Estimate>) {
        if let Some((cost, size)) = self.extension_cost(call) {
            return (cost.add(call.arg_sum), size);
        }
        if let Some((cost, size)) = self.kubernetes_cost(call) {
            return (cost.add(call.arg_sum), size);
        }
        self.standard_cost(e, call)
    }

    /// cel-go's lists (version 3) and sets extensions' estimators.
    fn extension_cost(&self, call: &Call<'_, '_>) -> Option<(Estimate, Option<Estimate>)> {
        let allocating = |factor: f64, size: Estimate| {
            let cost = size
                .factor(factor)
                .add(Estimate::fixed(1))
                .add(Estimate::fixed(LIST_CREATE_BASE_COST));
            Some((cost, Some(size)))
        };
        let target = call.target;
        let args = call.args;
        match call.resolved.name.as_str() {
            "slice" if target.is_some() && args.len() == 2 => {
                let sz = self.size_estimate(target?);
                let start = literal_uint(&args[0], 0);
                let end = literal_uint(&args[1], sz.max);
                // cel-go's estimate wraps around when end < start; an
                // evaluation fails there instead, having sliced nothing.
                let len = if self.folded {
                    end.saturating_sub(start)
                } else {
                    end.wrapping_sub(start)
                };
                allocating(1.0, Estimate::fixed(len))
            }
            "lists.range" if target.is_none() && args.len() == 1 => {
                allocating(1.0, Estimate::fixed(literal_uint(&args[0], u64::MAX)))
            }
            "reverse" if target.is_some() && args.is_empty() => {
                allocating(1.0, self.size_estimate(target?))
            }
            "flatten" if target.is_some() && args.len() <= 1 => {
                let depth = args.first().map_or(1, |a| literal_uint(a, u64::MAX));
                allocating(depth as f64, self.size_estimate(target?))
            }
            "distinct" if target.is_some() && args.is_empty() => {
                let sz = self.size_estimate(target?);
                allocating(2.0, sz.mul(sz))
            }
            "sort" if target.is_some() && args.is_empty() => {
                let sz = self.size_estimate(target?);
                let elem = match &call.overload.receiver {
                    Some(Type::List(el)) => (**el).clone(),
                    _ => Type::Dyn,
                };
                allocating(sort_factor(&elem), sz.mul(sz))
            }
            "@sortByAssociatedKeys" if target.is_some() && args.len() == 1 => {
                let sz = self.size_estimate(&args[0]);
                let elem = match call.overload.params.first() {
                    Some(Type::List(el)) => (**el).clone(),
                    _ => Type::Dyn,
                };
                allocating(sort_factor(&elem), sz.mul(sz))
            }
            // The range of a two-variable comprehension (crate::macros):
            // cel-go iterates over the list or map itself, at no cost.
            crate::macros::KEYS if args.len() == 1 => {
                Some((Estimate::default(), Some(self.size_estimate(&args[0]))))
            }
            name @ ("sets.contains" | "sets.intersects" | "sets.equivalent") if args.len() == 2 => {
                let factor = if name == "sets.equivalent" { 2.0 } else { 1.0 };
                let a = self.size_estimate(&args[0]);
                let b = self.size_estimate(&args[1]);
                Some((a.mul(b).factor(factor).add(Estimate::fixed(1)), None))
            }
            _ => None,
        }
    }

    /// k8s.io/apiserver's `CostEstimator.EstimateCallCost`.
    fn kubernetes_cost(&self, call: &Call<'_, '_>) -> Option<(Estimate, Option<Estimate>)> {
        let one = Some((Estimate::fixed(1), None));
        let target = call.target;
        let args = call.args;
        let scan = |n: &Node<'_>| self.size_estimate(n).factor(STRING_TRAVERSAL_COST_FACTOR);
        match call.resolved.name.as_str() {
            "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
                let target = target?;
                let size = self.size_estimate(target);
                if let Type::List(el) = &target.ty {
                    let mut el_cost = Estimate::fixed(1);
                    if matches!(**el, Type::String | Type::Bytes) {
                        let el_path = target.path.clone().map(|mut p| {
                            p.push("@items".to_string());
                            p
                        });
                        let el_size = el_path
                            .as_deref()
                            .and_then(|p| self.sizes.estimate_size(p))
                            .unwrap_or(self.unknown());
                        el_cost = el_cost.add(el_size.factor(STRING_TRAVERSAL_COST_FACTOR));
                    }
                    Some((size.mul(el_cost), None))
                } else if let Type::Map(..) = &target.ty {
                    // A map's first type parameter is its key: cel-go
                    // reads it as the element type.
                    Some((size, None))
                } else if call.resolved.name == "includes" {
                    Some((size, None))
                } else {
                    Some((size.factor(STRING_TRAVERSAL_COST_FACTOR), None))
                }
            }
            "url" | "jsonpatch.escapeKey" if args.len() == 1 => {
                let sz = self.size_estimate(&args[0]);
                Some((sz.factor(STRING_TRAVERSAL_COST_FACTOR), Some(sz)))
            }
            "lowerAscii" | "upperAscii" | "substring" | "trim" => {
                let sz = self.size_estimate(target?);
                Some((sz.factor(STRING_TRAVERSAL_COST_FACTOR), Some(sz)))
            }
            "replace" if target.is_some() && args.len() >= 2 => {
                let sz = self.size_estimate(target?);
                let to_replace = self.size_estimate(&args[0]);
                let with = self.size_estimate(&args[1]);
                let mut count = Estimate::default();
                let mut retained = Estimate::default();
                if to_replace.min == 0 {
                    count.max = if sz.max < u64::MAX {
                        sz.max + 1
                    } else {
                        sz.max
                    };
                    retained.max = sz.max;
                } else if with.max <= to_replace.min {
                    retained.max = sz.max;
                } else {
                    count.max = (sz.max as f64 / to_replace.min as f64).ceil() as u64;
                }
                if to_replace.max == 0 {
                    count.min = if sz.min < u64::MAX {
                        sz.min + 1
                    } else {
                        sz.min
                    };
                    retained.min = sz.min;
                } else if to_replace.max <= with.min {
                    retained.min = sz.min;
                } else {
                    count.min = (sz.min as f64 / to_replace.max as f64).ceil() as u64;
                }
                let size = count.mul(with).add(retained);
                Some((sz.factor(2.0 * STRING_TRAVERSAL_COST_FACTOR), Some(size)))
            }
            "split" => {
                let sz = self.size_estimate(target?);
                let max = args.get(1).map_or(sz.max, |a| literal_uint(a, sz.max));
                Some((
                    sz.factor(2.0 * STRING_TRAVERSAL_COST_FACTOR),
                    Some(Estimate::range(0, max)),
                ))
            }
            "join" => {
                let target = target?;
                let list = self.size_estimate(target);
                let mut sz = Estimate::default();
                if let Type::List(_) = &target.ty {
                    let el_path = target.path.clone().map(|mut p| {
                        p.push("@items".to_string());
                        p
                    });
                    let el = el_path
                        .as_deref()
                        .and_then(|p| self.sizes.estimate_size(p))
                        .unwrap_or(self.unknown());
                    sz = list.mul(el);
                }
                if let Some(sep) = args.first() {
                    let sep = self.size_estimate(sep);
                    let separators =
                        Estimate::range(list.min.saturating_sub(1), list.max.saturating_sub(1));
                    sz = sz.add(sep.mul(separators));
                }
                Some((sz.factor(STRING_TRAVERSAL_COST_FACTOR), Some(sz)))
            }
            "find" | "findAll" if target.is_some() && !args.is_empty() => {
                let sz = self.size_estimate(target?);
                let str_cost = sz
                    .add(Estimate::fixed(1))
                    .factor(STRING_TRAVERSAL_COST_FACTOR);
                let regex_cost = self
                    .size_estimate(&args[0])
                    .factor(REGEX_STRING_LENGTH_COST_FACTOR);
                Some((str_cost.mul(regex_cost), Some(Estimate::range(0, sz.max))))
            }
            "cidr" | "isIP" | "isCIDR" if !args.is_empty() => Some((scan(&args[0]), None)),
            "ip" if call.resolved.member => one,
            "ip" if !args.is_empty() => Some((scan(&args[0]), None)),
            "ip.isCanonical" if !args.is_empty() => Some((
                self.size_estimate(&args[0])
                    .factor(2.0 * STRING_TRAVERSAL_COST_FACTOR),
                None,
            )),
            "masked"
            | "prefixLength"
            | "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast" => one,
            name @ ("containsIP" | "containsCIDR") if !args.is_empty() => {
                let ip = Estimate::range(4, 16);
                let mut cost = ip.add(ip).factor(STRING_TRAVERSAL_COST_FACTOR);
                if name == "containsCIDR" {
                    cost = cost
                        .add(ip.factor(STRING_TRAVERSAL_COST_FACTOR))
                        .add(Estimate::fixed(1));
                }
                if call.overload.params.first() == Some(&Type::String) {
                    cost = cost.add(scan(&args[0]));
                }
                Some((cost, None))
            }
            "quantity" | "isQuantity" | "semver" | "isSemver" if !args.is_empty() => {
                Some((scan(&args[0]), None))
            }
            "validate" if !args.is_empty() => Some((
                scan(&args[0]).factor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR),
                None,
            )),
            "format.named" => one,
            "sign" | "asInteger" | "isInteger" | "asApproximateFloat" | "isGreaterThan"
            | "isLessThan" | "compareTo" | "add" | "sub" | "major" | "minor" | "patch" => one,
            "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath" | "getQuery" => {
                one
            }
            "_==_" if args.len() == 2 && args[0].ty == args[1].ty => match &args[0].ty {
                Type::Opaque(
                    "net.IP" | "net.CIDR" | "kubernetes.Quantity" | "kubernetes.Semver",
                ) => one,
                Type::Opaque("kubernetes.NamedFormat") => Some((
                    Estimate::range(1, MAX_FORMAT_SIZE).factor(STRING_TRAVERSAL_COST_FACTOR),
                    None,
                )),
                Type::Opaque("kubernetes.URL") => {
                    let size = args[1].computed.unwrap_or(Estimate::fixed(1));
                    Some((
                        Estimate::range(1, size.max).factor(STRING_TRAVERSAL_COST_FACTOR),
                        None,
                    ))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// cel-go's own cost functions (`functionCost`).
    fn standard_cost(&mut self, e: &IdedExpr, call: &Call<'_, '_>) -> (Estimate, Option<Estimate>) {
        let (args, arg_sum) = (call.args, call.arg_sum);
        let first = call.overload.params.first();
        let unknown = self.unknown();
        let size = |n: &Node<'_>| n.computed.unwrap_or(unknown);
        let fallback = (Estimate::fixed(1).add(arg_sum), None);
        match call.resolved.name.as_str() {
            "format" if call.target.is_some() => (
                size(call.target.expect("a target"))
                    .factor(STRING_TRAVERSAL_COST_FACTOR)
                    .add(arg_sum),
                None,
            ),
            "bytes" if args.len() == 1 && first == Some(&Type::String) => {
                let sz = size(&args[0]);
                (
                    sz.factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum),
                    Some(Estimate::range(sz.min, sz.max.saturating_mul(4))),
                )
            }
            "string" if args.len() == 1 && first == Some(&Type::Bytes) => {
                let sz = size(&args[0]);
                (
                    sz.factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum),
                    Some(Estimate::range(sz.min / 4, sz.max)),
                )
            }
            "strings.quote" if args.len() == 1 => {
                let sz = size(&args[0]);
                (
                    sz.factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum),
                    Some(Estimate::range(
                        sz.min.saturating_add(2),
                        sz.max.saturating_mul(2).saturating_add(2),
                    )),
                )
            }
            "startsWith" | "endsWith" if args.len() == 1 && call.target.is_some() => (
                size(&args[0])
                    .factor(STRING_TRAVERSAL_COST_FACTOR)
                    .add(arg_sum),
                None,
            ),
            "@in"
                if args.len() == 2
                    && matches!(call.overload.params.get(1), Some(Type::List(_))) =>
            {
                (size(&args[1]).factor(1.0).add(arg_sum), None)
            }
            "matches" if call.target.is_some() && args.len() == 1 => {
                let str_cost = size(call.target.expect("a target"))
                    .add(Estimate::fixed(1))
                    .factor(STRING_TRAVERSAL_COST_FACTOR);
                let regex_cost = size(&args[0]).factor(REGEX_STRING_LENGTH_COST_FACTOR);
                (str_cost.mul(regex_cost).add(arg_sum), None)
            }
            "contains" if call.target.is_some() && args.len() == 1 => {
                let str_cost =
                    size(call.target.expect("a target")).factor(STRING_TRAVERSAL_COST_FACTOR);
                let sub_cost = size(&args[0]).factor(STRING_TRAVERSAL_COST_FACTOR);
                (str_cost.mul(sub_cost).add(arg_sum), None)
            }
            "_&&_" | "_||_" if call.arg_costs.len() == 2 => {
                let (l, r) = (call.arg_costs[0], call.arg_costs[1]);
                (Estimate::range(l.min, l.add(r).max), None)
            }
            "_?_:_" if args.len() == 3 => {
                let sz = size(&args[1]).union(size(&args[2]));
                let entries = union_entries(
                    args[1].expr.and_then(|a| self.entry_size(a)),
                    args[2].expr.and_then(|a| self.entry_size(a)),
                );
                self.set_entry_size(e, entries);
                let c = call.arg_costs;
                (c[0].add(c[1].union(c[2])), Some(sz))
            }
            "_+_"
                if args.len() == 2
                    && matches!(first, Some(Type::String | Type::Bytes | Type::List(_))) =>
            {
                let result = size(&args[0]).add(size(&args[1]));
                let entries = union_entries(
                    args[0].expr.and_then(|a| self.entry_size(a)),
                    args[1].expr.and_then(|a| self.entry_size(a)),
                );
                self.set_entry_size(e, entries);
                if let Some(Type::List(_)) = first {
                    (Estimate::fixed(1).add(arg_sum), Some(result))
                } else {
                    (
                        result.factor(STRING_TRAVERSAL_COST_FACTOR).add(arg_sum),
                        Some(result),
                    )
                }
            }
            "_<_" | "_>_" | "_<=_" | "_>=_" | "_==_" | "_!=_"
                if args.len() == 2
                    && (matches!(call.resolved.name.as_str(), "_==_" | "_!=_")
                        || matches!(first, Some(Type::String | Type::Bytes))) =>
            {
                let smallest = size(&args[0]).max.min(size(&args[1]).max);
                let min = u64::from(smallest > 0);
                (
                    Estimate::range(min, smallest)
                        .factor(STRING_TRAVERSAL_COST_FACTOR)
                        .add(arg_sum),
                    None,
                )
            }
            _ => fallback,
        }
    }
}

/// One overload of a call, as the cost functions see it.
struct Call<'c, 'e> {
    resolved: &'c Resolved,
    overload: &'c Overload,
    target: Option<&'c Node<'e>>,
    args: &'c [Node<'e>],
    arg_costs: &'c [Estimate],
    arg_sum: Estimate,
}

/// The factor of an O(n²) sort of elements of `elem`.
fn sort_factor(elem: &Type) -> f64 {
    if matches!(elem, Type::String | Type::Bytes) {
        2.0 + STRING_TRAVERSAL_COST_FACTOR
    } else {
        2.0
    }
}

/// A literal integer argument's value (negative ones are 0), else
/// `default` (cel-go's `nodeAsUintValue`).
fn literal_uint(n: &Node<'_>, default: u64) -> u64 {
    match n.expr.map(|e| &e.expr) {
        Some(Expr::Literal(LiteralValue::Int(i))) => u64::try_from(*i.inner()).unwrap_or(0),
        _ => default,
    }
}

/// The size of a literal, list or map written in the expression.
fn expr_size(e: &IdedExpr) -> Option<Estimate> {
    let n = match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => s.inner().chars().count() as u64,
        Expr::Literal(LiteralValue::Bytes(b)) => b.len() as u64,
        Expr::Literal(_) => 1,
        Expr::List(l) => l.elements.len() as u64,
        Expr::Map(m) => m.entries.len() as u64,
        _ => return None,
    };
    Some(Estimate::fixed(n))
}

/// Whether values of `t` have a constant size.
fn is_scalar(t: &Type) -> bool {
    match t {
        Type::Bool | Type::Double | Type::Duration | Type::Int | Type::Timestamp | Type::Uint => {
            true
        }
        Type::Optional(inner) => is_scalar(inner),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(rule: &str, ty: Type, sizes: &Sizes) -> (u64, u64) {
        let e =
            estimate_source(rule, &[("self", ty)], sizes).unwrap_or_else(|e| panic!("{rule}: {e}"));
        (e.min, e.max)
    }

    #[test]
    fn factors_round_up_and_saturate() {
        assert_eq!(multiply_by_cost_factor(3, 0.1), 1);
        assert_eq!(multiply_by_cost_factor(10, 0.1), 1);
        assert_eq!(multiply_by_cost_factor(11, 0.1), 2);
        assert_eq!(multiply_by_cost_factor(u64::MAX, 2.0), u64::MAX);
        assert_eq!(Estimate::UNKNOWN.add(Estimate::fixed(1)).max, u64::MAX);
    }

    #[test]
    fn messages_read_as_the_apiserver_s() {
        assert!(
            cost_error_message("estimated rule cost", 14_000_000, STATIC_RULE_LIMIT)
                .starts_with("estimated rule cost exceeds budget by factor of 1.400000x (try")
        );
        assert!(
            cost_error_message("estimated rule cost", 25_000_000, STATIC_RULE_LIMIT)
                .contains("factor of 2.5x")
        );
        assert!(cost_error_message("x", u64::MAX, STATIC_RULE_LIMIT).contains("more than 100x"));
    }

    #[test]
    fn sizes_follow_paths() {
        let obj = Type::object([
            ("n".to_string(), Type::Int),
            ("s".to_string(), Type::String),
            ("l".to_string(), Type::list(Type::String)),
        ]);
        let sizes = Sizes::object([
            ("n".to_string(), Sizes::leaf(0)),
            ("s".to_string(), Sizes::leaf(40)),
            ("l".to_string(), Sizes::list(10, Sizes::leaf(20))),
        ]);
        // self (1) + select on an object (1), twice; int equality is free.
        assert_eq!(est("self.n == self.n", obj.clone(), &sizes), (4, 4));
        // A string of at most 40 characters against a 3-character one.
        assert_eq!(est("self.s == 'abc'", obj.clone(), &sizes), (3, 3));
        // startsWith costs a tenth of its argument.
        assert_eq!(
            est("self.s.startsWith('abcdefghijk')", obj.clone(), &sizes),
            (4, 4)
        );
        // all(): per item, the loop condition (@not_strictly_false, 1 +
        // the accumulator, 1) and the step (&& of the accumulator, 1, and
        // the predicate: the item (1) compared (20 → 2)).
        assert_eq!(
            est("self.l.all(x, x == 'a')", obj.clone(), &sizes),
            (3, 3 + 10 * (2 + 1 + 2))
        );
        // An unbounded list makes the estimate unbounded.
        let unbounded = Sizes::object([("l".to_string(), Sizes::list(u64::MAX, Sizes::leaf(1)))]);
        assert_eq!(est("self.l.all(x, x == 'a')", obj, &unbounded).1, u64::MAX);
    }
}
