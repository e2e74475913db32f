//! The cost limits of rules: the static estimate a CRD's rules must stay
//! under when it is written (apiextensions-apiserver's CRD validation), and
//! the per-call limit and per-object budget of evaluation.

use api_cel::cost::{self, Estimate, STATIC_CRD_LIMIT, STATIC_RULE_LIMIT, SizeEstimator};
use serde_json::Value;

use crate::validation::{ErrorList, FieldError, FieldPath};

use super::tree::{CelNode, CompiledRule, Shape};

/// Checks every rule under `root` as the apiserver does when a CRD is
/// written: each compiles and type-checks (errors with the rule's source
/// as the value, where the apiserver prints its Go struct), and each rule's estimate times how often it
/// may run in one object (the product of the `maxItems`/`maxProperties`
/// above it, else how many of its smallest values fit in a request) must
/// not exceed 10^7, nor all of them together 10^8. Errors are at
/// `<path>...x-kubernetes-validations[i].rule`.
pub(crate) fn check_static(root: &CelNode, path: &FieldPath<'_>, errors: &mut ErrorList) {
    let mut total = Total::default();
    walk_static(root, path, Some(1), &mut total, errors);
    if total.sum > STATIC_CRD_LIMIT {
        for (at, _) in &total.most_expensive {
            errors.push(FieldError {
                field: at.clone(),
                ..FieldError::forbidden(
                    path,
                    "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
                )
            });
        }
        errors.push(FieldError::forbidden(
            path,
            cost::cost_error_message(
                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                total.sum,
                STATIC_CRD_LIMIT,
            ),
        ));
    }
}

/// The running total of a CRD's rule costs (`TotalCost`): the sum, and
/// the four most expensive rules of at least 1% of the limit.
#[derive(Default)]
struct Total {
    sum: u64,
    most_expensive: Vec<(String, u64)>,
}

impl Total {
    fn observe(&mut self, at: &FieldPath<'_>, cost: u64) {
        self.sum = self.sum.saturating_add(cost);
        if cost < STATIC_CRD_LIMIT / 100 {
            return;
        }
        self.most_expensive.push((at.to_string(), cost));
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.1));
        self.most_expensive.truncate(4);
    }
}

fn walk_static(
    node: &CelNode,
    path: &FieldPath<'_>,
    cardinality: Option<u64>,
    total: &mut Total,
    errors: &mut ErrorList,
) {
    if !node.has_rules {
        return;
    }
    let rules_path = path.child("x-kubernetes-validations");
    for (i, rule) in node.rules.iter().enumerate() {
        let at = rules_path.index(i);
        if let Err(e) = &rule.program {
            errors.push(FieldError::invalid(
                &at.child("rule"),
                rule.rule.as_str(),
                e.as_str(),
            ));
        }
        if let Some(Err(e)) = &rule.message_program {
            let e = e.strip_prefix("messageExpression ").unwrap_or(e);
            errors.push(FieldError::invalid(
                &at.child("messageExpression"),
                rule.rule.as_str(),
                e,
            ));
        }
        let times = cardinality.unwrap_or_else(|| cost::max_cardinality(node.min_size));
        rule_cost(
            &at.child("rule"),
            "estimated rule cost",
            rule.cost,
            times,
            total,
            errors,
        );
        if let Some(m) = rule.message_cost {
            rule_cost(
                &at.child("messageExpression"),
                "estimated messageExpression cost",
                m,
                times,
                total,
                errors,
            );
        }
    }
    let all_of = path.child("allOf");
    for (i, member) in &node.all_of {
        walk_static(member, &all_of.index(*i), cardinality, total, errors);
    }
    let below = cardinality
        .zip(node.max_children)
        .map(|(c, n)| c.saturating_mul(n));
    let properties = path.child("properties");
    for p in &node.properties {
        walk_static(&p.node, &properties.key(&p.name), below, total, errors);
    }
    if let Some(a) = &node.additional {
        walk_static(a, &path.child("additionalProperties"), below, total, errors);
    }
    if let Some(i) = &node.items {
        walk_static(i, &path.child("items"), below, total, errors);
    }
}

fn rule_cost(
    at: &FieldPath<'_>,
    name: &str,
    cost: Estimate,
    times: u64,
    total: &mut Total,
    errors: &mut ErrorList,
) {
    let cost = if cost.max == 0 {
        0
    } else {
        cost.max.saturating_mul(times)
    };
    if cost > STATIC_RULE_LIMIT {
        errors.push(FieldError::forbidden(
            at,
            cost::cost_error_message(name, cost, STATIC_RULE_LIMIT),
        ));
    }
    total.observe(at, cost);
}

/// What is left of an object's evaluation budget (`RuntimeCELCostBudget`);
/// once spent, no further rule runs.
///
/// Estimating a charge from the data takes a third of an evaluation's
/// time, so it is put off while it cannot matter: a rule whose static
/// maximum (from the schema's bounds, which the data of a request stays
/// within) is under the per-call limit, and fits in the budget with the
/// other put-off charges, cannot run out of either. The put-off charges
/// are estimated when one would not fit (or a caller asks for the total),
/// so the outcome is the same as estimating each at once.
pub(crate) struct Budget<'a> {
    /// The budget less the estimated charges.
    pub remaining: u64,
    /// The most one evaluation may cost.
    pub per_call: u64,
    pub exhausted: bool,
    deferred: Vec<Deferred<'a>>,
    /// The sum of the put-off charges' static maxima.
    deferred_max: u64,
}

/// An evaluation whose charge is not estimated yet.
struct Deferred<'a> {
    rule: &'a CompiledRule,
    node: &'a CelNode,
    value: &'a Value,
    old: Option<&'a Value>,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(total: u64, per_call: u64) -> Budget<'a> {
        Budget {
            remaining: total,
            per_call,
            exhausted: false,
            deferred: Vec::new(),
            deferred_max: 0,
        }
    }

    /// Estimates every put-off charge (they fit: their maxima did).
    pub(crate) fn settle(&mut self) {
        for d in std::mem::take(&mut self.deferred) {
            let cost = estimate_charge(d.rule, d.node, d.value, d.old);
            self.remaining = self.remaining.saturating_sub(cost);
        }
        self.deferred_max = 0;
    }
}

/// Why a rule may not run: its cost on this value exceeds the per-call
/// limit, or what is left of the budget.
pub(crate) enum Overrun {
    CallLimit,
    Budget,
}

/// Charges the cost of evaluating `rule` on `value` (at `node`) to
/// `budget`. The `cel` crate does not count the steps it takes, so the
/// cost is cel-go's estimate of the optimized program (constants folded)
/// with the exact sizes of this value's strings, lists and maps in place of
/// the schema's bounds, assuming every branch and item is evaluated (the
/// estimate's maximum). On apiextensions-apiserver's cost tests that is
/// cel-go's own count for 232 of 329 rules and between 0.57 and 2.42
/// times it for the rest (`api-core-tests/tests/cel_cost.rs`). A rule whose
/// estimate does not depend on sizes costs its static maximum.
pub(crate) fn charge<'a>(
    rule: &'a CompiledRule,
    node: &'a CelNode,
    value: &'a Value,
    old: Option<&'a Value>,
    budget: &mut Budget<'a>,
) -> Result<(), Overrun> {
    // A rule whose cost does not depend on the data costs its static
    // estimate, known already; another is bounded by its static maximum.
    let bound = match rule.sized {
        None => rule.run_cost,
        Some(_) => rule.cost.max,
    };
    if bound <= budget.per_call && budget.deferred_max.saturating_add(bound) <= budget.remaining {
        if rule.sized.is_none() {
            budget.remaining -= bound;
        } else {
            budget.deferred_max += bound;
            budget.deferred.push(Deferred {
                rule,
                node,
                value,
                old,
            });
        }
        return Ok(());
    }
    budget.settle();
    let cost = estimate_charge(rule, node, value, old);
    if cost > budget.per_call {
        // cel-go stops the evaluation past the limit and charges what it
        // spent: more than the budget's rest means out of budget.
        budget.exhausted = true;
        if budget.remaining < budget.per_call {
            return Err(Overrun::Budget);
        }
        return Err(Overrun::CallLimit);
    }
    if cost > budget.remaining {
        budget.exhausted = true;
        return Err(Overrun::Budget);
    }
    budget.remaining -= cost;
    Ok(())
}

/// What evaluating `rule` on `value` costs.
fn estimate_charge(rule: &CompiledRule, node: &CelNode, value: &Value, old: Option<&Value>) -> u64 {
    match &rule.sized {
        None => rule.run_cost,
        Some(sized) => {
            let actual = Actual { node, value, old };
            cost::estimate_evaluation(&sized.expr, &sized.checked, &actual).max
        }
    }
}

/// The sizes of the values a rule evaluates: `self` (and `oldSelf`),
/// walked by the path the estimator asks for; through `@items`, `@keys`
/// and `@values` the largest of all the elements.
struct Actual<'a> {
    node: &'a CelNode,
    value: &'a Value,
    old: Option<&'a Value>,
}

impl SizeEstimator for Actual<'_> {
    fn estimate_size(&self, path: &[String]) -> Option<Estimate> {
        let (root, rest) = path.split_first()?;
        let value = match root.as_str() {
            "self" => self.value,
            "oldSelf" => self.old.unwrap_or(&Value::Null),
            _ => return None,
        };
        largest(self.node, value, rest).map(Estimate::fixed)
    }
}

/// The largest size of the values at `path` below `value` (of `node`);
/// `None` for values without a size (numbers, booleans, objects).
fn largest(node: &CelNode, value: &Value, path: &[String]) -> Option<u64> {
    let Some((step, rest)) = path.split_first() else {
        return size_of(node, value);
    };
    match step.as_str() {
        "@items" | "@values" => {
            let child = node.items.as_deref().or(node.additional.as_deref())?;
            let all: Box<dyn Iterator<Item = &Value>> = match value {
                Value::Array(items) => Box::new(items.iter()),
                Value::Object(map) => Box::new(map.values()),
                _ => return Some(0),
            };
            all.filter_map(|v| largest(child, v, rest)).max()
        }
        "@keys" => Some(match value {
            Value::Object(map) => map
                .keys()
                .map(|k| k.chars().count() as u64)
                .max()
                .unwrap_or(0),
            _ => 0,
        }),
        field => {
            let p = node
                .properties
                .iter()
                .find(|p| p.escaped.as_deref().is_some_and(|e| e == field) || p.name == field)?;
            let v = value.get(p.name.as_str()).unwrap_or(&Value::Null);
            largest(&p.node, v, rest)
        }
    }
}

/// The size cel-go counts for a value: characters of a string, bytes,
/// items of a list, entries of a map; `None` for the rest.
fn size_of(node: &CelNode, value: &Value) -> Option<u64> {
    Some(match value {
        Value::String(s) if node.format.as_deref() == Some("byte") => {
            // Bytes are counted, and base64 takes 4 characters per 3.
            (s.len() as u64).div_ceil(4) * 3
        }
        Value::String(s) => s.chars().count() as u64,
        Value::Array(items) => items.len() as u64,
        Value::Object(map) if node.shape != Shape::Object || node.additional.is_some() => {
            map.len() as u64
        }
        _ => return None,
    })
}
