//! Evaluating `x-kubernetes-validations` rules as apiextensions-apiserver's
//! `pkg/apiserver/schema/cel/validation.go` does (feature `cel`).

mod cost;
mod lib;
mod list_types;
mod tree;
mod typed;
pub(crate) mod value;

use std::sync::{Arc, LazyLock};

use ::cel::objects::OptionalValue;
use ::cel::{Context, Env, ExecutionError, Value as Cel};
use serde_json::Value;

use crate::validation::{ErrorList, ErrorType, FieldError, FieldPath};

use super::json_equal;
use super::node;
use cost::{Budget, Overrun};
use tree::{CelNode, CompiledRule, Reason, Shape};

/// The longest message a `messageExpression` may produce
/// (`celconfig.MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE_EXPRESSION_BYTES: usize = 5 * 1024;

/// The environment of rules: the standard library, optional types, the
/// strings and lists extensions and Kubernetes' libraries, as the
/// apiserver's base environment declares them.
pub(crate) static ENV: LazyLock<Arc<Env>> = LazyLock::new(|| Arc::new(environment()));

/// The root scope over [`ENV`]; each evaluation opens a scope below it.
static LIBRARIES: LazyLock<Context<'static, 'static>> =
    LazyLock::new(|| Context::with_env(ENV.clone()));

fn environment() -> Env {
    let mut env = Env::stdlib().with_optional_support(true);
    // The extensions are fixed sets of distinct overloads: declaring them
    // on a fresh environment cannot collide.
    let _ = env.add_extension(::cel::extensions::strings);
    let _ = env.add_extension(::cel::extensions::lists);
    api_cel::macros::add_to(&mut env);
    let registered = lib::register(&mut env)
        .and_then(|()| list_types::register(&mut env))
        .and_then(|()| typed::register(&mut env));
    if let Err(e) = registered {
        // A library declared an overload twice: a bug in this crate that
        // every test of the rules would show.
        debug_assert!(false, "the Kubernetes CEL libraries collide: {e}");
    }
    env
}

/// The rules of a schema, compiled once, ready to validate values
/// (apiextensions-apiserver's `cel.Validator`).
///
/// ```
/// use api_core::cel::Validator;
/// use api_core::FieldPath;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"spec": {
///     "type": "object",
///     "properties": {"replicas": {"type": "integer"}},
///     "x-kubernetes-validations": [{"rule": "self.replicas <= 10", "message": "too many"}],
/// }}});
/// let rules = Validator::new(&schema);
/// let errors = rules.validate(&json!({"spec": {"replicas": 11}}), None, &FieldPath::new(""));
/// assert_eq!(errors.as_slice()[0].to_string(), "spec: Invalid value: too many");
/// ```
pub struct Validator {
    root: Option<CelNode>,
    per_call_limit: u64,
    budget: u64,
}

impl std::fmt::Debug for Validator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Validator")
            .field("rules", &self.root.as_ref().map_or(0, CelNode::rule_count))
            .finish()
    }
}

impl Validator {
    /// Compiles every rule of a resource's `schema` (its root is an
    /// object whose `apiVersion`, `kind` and `metadata.name`/`generateName`
    /// rules may read). The schema is read leniently, as the validators of
    /// values read it; a rule that does not compile fails every validation
    /// with its compile error.
    pub fn new(schema: &Value) -> Validator {
        Validator::with_root(schema, true)
    }

    /// [`Validator::new`] for the schema of a value that is not a resource
    /// (no `apiVersion`/`kind`/`metadata` at its root).
    pub fn for_value(schema: &Value) -> Validator {
        Validator::with_root(schema, false)
    }

    fn with_root(schema: &Value, resource_root: bool) -> Validator {
        let mut ignored = ErrorList::new();
        let root = node::decode(schema, &FieldPath::new(""), 0, &mut ignored);
        let root = root.map(|n| CelNode::build(&n, &n, resource_root));
        Validator {
            root: root.filter(|r| r.has_rules),
            per_call_limit: api_cel::cost::PER_CALL_LIMIT,
            budget: api_cel::cost::RUNTIME_BUDGET,
        }
    }

    /// The same rules with other cost limits than the apiserver's (10^6
    /// per evaluation of a rule, 10^7 for all the evaluations of one
    /// object), as its own tests set them.
    pub fn with_cost_limits(mut self, per_call: u64, budget: u64) -> Validator {
        self.per_call_limit = per_call;
        self.budget = budget;
        self
    }

    /// Whether the schema has no rule at all.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// Evaluates the rules against `new` (and `old`, on an update), with
    /// errors at and below `path`.
    pub fn validate(&self, new: &Value, old: Option<&Value>, path: &FieldPath<'_>) -> ErrorList {
        let mut errors = ErrorList::new();
        self.validate_into(new, old, path, &mut errors);
        errors
    }

    /// [`Validator::validate`], adding to `errors`.
    pub fn validate_into(
        &self,
        new: &Value,
        old: Option<&Value>,
        path: &FieldPath<'_>,
        errors: &mut ErrorList,
    ) {
        self.validate_with_cost(new, old, path, errors);
    }

    /// [`Validator::validate_into`], returning the cost the evaluations
    /// were charged against the object's budget of 10^7 (each evaluation
    /// is charged cel-go's estimate with the sizes of the values
    /// evaluated: the `cel` crate does not count its steps).
    /// Evaluation stops, with the apiserver's error, at a rule whose cost
    /// exceeds the per-call limit or what is left of the budget.
    pub fn validate_with_cost(
        &self,
        new: &Value,
        old: Option<&Value>,
        path: &FieldPath<'_>,
        errors: &mut ErrorList,
    ) -> u64 {
        let mut budget = Budget::new(self.budget, self.per_call_limit);
        if let Some(root) = &self.root {
            let old = old.filter(|o| !o.is_null());
            let ratchet = old.map(|o| Unchanged {
                new,
                old: o,
                root: true,
            });
            walk(root, path, new, old, ratchet, &mut budget, errors);
        }
        budget.settle();
        self.budget - budget.remaining
    }

    /// Each rule's static cost estimate (cel-go's `MaxCost` for the rule
    /// alone, before the apiserver multiplies it by how often the rule may
    /// run in one object), with the rule's source, in schema order.
    pub fn estimated_costs(&self) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        if let Some(root) = &self.root {
            root.each_rule(&mut |r| out.push((r.rule.clone(), r.cost.max)));
        }
        out
    }
}

/// Compiles the rules of a resource's root schema and checks them as the
/// apiserver's CRD validation does (compile errors, static cost limits).
pub(super) fn check_rules(root: &node::Node<'_>, path: &FieldPath<'_>, errors: &mut ErrorList) {
    let root = CelNode::build(root, root, true);
    if root.has_rules {
        cost::check_static(&root, path, errors);
    }
}

/// The nearest value (with its old value) whose equality decides whether
/// errors below it are ratcheted: an update that leaves a value as it was
/// does not fail for rules that already failed before (the apiserver's
/// CRD validation ratcheting, on by default since Kubernetes 1.30).
#[derive(Clone, Copy)]
struct Unchanged<'v> {
    new: &'v Value,
    old: &'v Value,
    /// The value validated (no correlated value above it).
    root: bool,
}

impl Unchanged<'_> {
    fn holds(&self) -> bool {
        json_equal(self.new, self.old)
    }
}

/// `Validator.validate`: the node's rules, its `allOf` members' rules, and
/// the rules below it (object properties, map values, list items).
fn walk<'a>(
    node: &'a CelNode,
    path: &FieldPath<'_>,
    new: &'a Value,
    old: Option<&'a Value>,
    ratchet: Option<Unchanged<'_>>,
    budget: &mut Budget<'a>,
    errors: &mut ErrorList,
) {
    if !node.has_rules || new.is_null() || budget.exhausted {
        return;
    }
    expressions(node, node, path, new, old, ratchet, budget, errors);
    for (_, member) in &node.all_of {
        // allOf errors are not ratcheted, as for the schema's own checks.
        walk_all_of(member, node, path, new, old, budget, errors);
    }
    descend(node, path, new, old, ratchet, budget, errors);
}

fn walk_all_of<'a>(
    member: &'a CelNode,
    typed: &'a CelNode,
    path: &FieldPath<'_>,
    new: &'a Value,
    old: Option<&'a Value>,
    budget: &mut Budget<'a>,
    errors: &mut ErrorList,
) {
    if budget.exhausted {
        return;
    }
    expressions(member, typed, path, new, old, None, budget, errors);
    descend(member, path, new, old, None, budget, errors);
}

#[allow(clippy::too_many_arguments)]
fn descend<'a>(
    node: &'a CelNode,
    path: &FieldPath<'_>,
    new: &'a Value,
    old: Option<&'a Value>,
    ratchet: Option<Unchanged<'_>>,
    budget: &mut Budget<'a>,
    errors: &mut ErrorList,
) {
    match new {
        Value::Object(m) => {
            let old_map = old
                .and_then(Value::as_object)
                .filter(|_| node.map_correlatable);
            for (k, v) in m {
                let o = old_map.and_then(|o| o.get(k)).filter(|o| !o.is_null());
                // A property or map value of a correlated object is its own
                // ratcheting anchor; below an uncorrelated value (an item of
                // a set or atomic list) the nearest correlated one decides.
                let r = match (ratchet, old) {
                    // `apiVersion` and `kind` of the root are never
                    // ratcheted, nor anything below them: the old object
                    // was converted to the new one's version and kind.
                    (Some(r), _) if r.root && (k == "apiVersion" || k == "kind") => None,
                    (Some(_), Some(_)) => Some(Unchanged {
                        new: v,
                        old: o.unwrap_or(&ABSENT),
                        root: false,
                    }),
                    (r, _) => r.map(|r| Unchanged { root: false, ..r }),
                };
                if let Some(values) = &node.additional {
                    walk(values, &path.key(k), v, o, r, budget, errors);
                } else if let Some(p) = node.property(k) {
                    walk(&p.node, &path.child(k), v, o, r, budget, errors);
                }
            }
        }
        Value::Array(items) => {
            let Some(item_node) = &node.items else {
                return;
            };
            let old_items = old.and_then(Value::as_array);
            for (i, v) in items.iter().enumerate() {
                let o = match (&node.list_map_keys, old_items) {
                    (Some(keys), Some(olds)) => olds
                        .iter()
                        .find(|o| same_keys(keys, v, o))
                        .filter(|o| !o.is_null()),
                    _ => None,
                };
                // Items of other lists are not correlated: their errors
                // ratchet with the nearest correlated value above.
                let r = match o {
                    Some(o) => ratchet.map(|_| Unchanged {
                        new: v,
                        old: o,
                        root: false,
                    }),
                    None => ratchet.map(|r| Unchanged { root: false, ..r }),
                };
                walk(item_node, &path.index(i), v, o, r, budget, errors);
            }
        }
        _ => {}
    }
}

/// The old value of a property that had none: nothing it equals.
static ABSENT: Value = Value::Null;

/// Whether two items of a list-map have the same key fields.
fn same_keys(keys: &[String], a: &Value, b: &Value) -> bool {
    keys.iter()
        .all(|k| match (a.get(k.as_str()), b.get(k.as_str())) {
            (Some(x), Some(y)) => json_equal(x, y),
            (None, None) => true,
            _ => false,
        })
}

/// `validateExpressions`: the rules of `rules_node` against the value at
/// `typed` (the same node, except for `allOf` members).
#[allow(clippy::too_many_arguments)]
fn expressions<'a>(
    rules_node: &'a CelNode,
    typed: &'a CelNode,
    path: &FieldPath<'_>,
    new: &'a Value,
    old: Option<&'a Value>,
    ratchet: Option<Unchanged<'_>>,
    budget: &mut Budget<'a>,
    errors: &mut ErrorList,
) {
    if rules_node.rules.is_empty() {
        return;
    }
    let out_of_budget = |errors: &mut ErrorList| {
        push(
            errors,
            FieldError::invalid(
                path,
                typed.type_name.as_str(),
                "validation failed due to running out of cost budget, no further validation rules will be run",
            ),
        );
    };
    if budget.remaining == 0 {
        // (Deferred charges never spend the whole budget.)
        budget.exhausted = true;
        out_of_budget(errors);
        return;
    }
    let this = value::to_cel(new, Some(typed));
    let before = old.map(|o| value::to_cel(o, Some(typed)));
    // One scope for the node's rules (their variables are the same), and
    // one with an optional `oldSelf` for `optionalOldSelf` rules, made when
    // first needed: binding a value converts it, which costs as much as
    // many evaluations.
    let mut plain_scope = LIBRARIES.new_inner_scope();
    plain_scope.add_variable_from_value("self", this.clone());
    if let Some(b) = &before {
        plain_scope.add_variable_from_value("oldSelf", b.clone());
    }
    let mut optional_scope: Option<Context<'_, '_>> = None;
    for rule in &rules_node.rules {
        let program = match &rule.program {
            Ok(p) => p,
            Err(e) => {
                push(
                    errors,
                    FieldError::invalid(
                        path,
                        typed.type_name.as_str(),
                        format!("rule compile error: {e}"),
                    ),
                );
                continue;
            }
        };
        if rule.uses_old_self && before.is_none() && !rule.optional_old_self {
            // Transition rules run only where there is an old value.
            continue;
        }
        let scope = if rule.optional_old_self {
            optional_scope.get_or_insert_with(|| {
                let mut scope = LIBRARIES.new_inner_scope();
                scope.add_variable_from_value("self", this.clone());
                let old = match &before {
                    Some(b) => OptionalValue::of(b.clone()),
                    None => OptionalValue::none(),
                };
                scope.add_variable_from_value("oldSelf", Cel::Opaque(Arc::new(old)));
                scope
            })
        } else {
            &plain_scope
        };
        match rule
            .depth
            .run(|| cost::charge(rule, typed, new, old, budget))
        {
            Ok(()) => {}
            Err(Overrun::Budget) => {
                out_of_budget(errors);
                return;
            }
            Err(Overrun::CallLimit) => {
                push(
                    errors,
                    FieldError::invalid(
                        path,
                        typed.type_name.as_str(),
                        format!(
                            "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: {}",
                            rule.error_string()
                        ),
                    ),
                );
                return;
            }
        }
        match program.execute(scope) {
            Ok(Cel::Bool(true)) => continue,
            Ok(_) => {}
            Err(e) => {
                push(
                    errors,
                    FieldError::invalid(path, typed.type_name.as_str(), evaluation_error(&e, rule)),
                );
                continue;
            }
        }
        if !rule.uses_old_self && ratchet.is_some_and(|r| r.holds()) {
            // Ratcheted: the value was as invalid before this update.
            continue;
        }
        let at;
        let error_path = match &rule.field_path {
            Some(p) => {
                at = path.child(p);
                &at
            }
            None => path,
        };
        let detail = rule
            .message_program
            .as_ref()
            .and_then(|p| p.as_ref().ok())
            .and_then(|p| message(p.execute(&plain_scope).ok()?))
            .unwrap_or_else(|| rule.message_or_default());
        let bad_value = match typed.shape {
            Shape::Object | Shape::Array => None,
            _ => Some(new.clone()),
        };
        push(errors, failure(rule.reason, error_path, bad_value, detail));
    }
}

/// Adds `error`, naming the root `<nil>` as the apiserver does (it
/// validates with a nil `field.Path`).
fn push(errors: &mut ErrorList, mut error: FieldError) {
    if error.field.is_empty() {
        error.field = "<nil>".to_string();
    }
    errors.push(error);
}

/// The error of a rule that evaluated to false (`fieldErrorForReason`).
fn failure(
    reason: Reason,
    path: &FieldPath<'_>,
    bad_value: Option<Value>,
    detail: String,
) -> FieldError {
    let (error_type, bad_value, detail) = match reason {
        Reason::Invalid => (ErrorType::Invalid, bad_value, detail),
        Reason::Forbidden => (ErrorType::Forbidden, None, detail),
        Reason::Required => (ErrorType::Required, None, detail),
        Reason::Duplicate => (ErrorType::Duplicate, bad_value, String::new()),
    };
    FieldError {
        error_type,
        field: path.to_string(),
        bad_value,
        detail,
    }
}

/// A `messageExpression`'s result as the message, when it is a non-empty
/// single-line string within the size limit (otherwise the rule's message
/// is used, as the apiserver does).
fn message(result: Cel) -> Option<String> {
    let Cel::String(s) = result else {
        return None;
    };
    let s = s.trim();
    (!s.is_empty() && s.len() <= MAX_MESSAGE_EXPRESSION_BYTES && !s.contains('\n'))
        .then(|| s.to_string())
}

/// The detail of a rule whose evaluation failed, in the apiserver's words
/// (cel-go's error texts).
fn evaluation_error(e: &ExecutionError, rule: &CompiledRule) -> String {
    let name = rule.error_string();
    let text = match e {
        ExecutionError::NoSuchOverload(_)
        | ExecutionError::UnsupportedBinaryOperator(..)
        | ExecutionError::ValuesNotComparable(..)
        | ExecutionError::UnexpectedType { .. }
        | ExecutionError::UnsupportedTargetType { .. }
        | ExecutionError::NotSupportedAsMethod { .. } => {
            return format!(
                "'no such overload': call arguments did not match a supported operator, function or macro signature for rule: {name}"
            );
        }
        ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        ExecutionError::IndexOutOfBounds(i) => format!("index out of bounds: {}", plain(i)),
        ExecutionError::DivisionByZero(_) => "division by zero".to_string(),
        ExecutionError::RemainderByZero(_) => "modulus by zero".to_string(),
        ExecutionError::Overflow(_, Cel::UInt(_), _) => "unsigned integer overflow".to_string(),
        ExecutionError::Overflow(..) => "integer overflow".to_string(),
        ExecutionError::FunctionError { message, .. } => message.clone(),
        other => other.to_string(),
    };
    format!("{text} evaluating rule: {name}")
}

/// A scalar CEL value as cel-go prints it.
fn plain(v: &Cel) -> String {
    match v {
        Cel::Int(i) => i.to_string(),
        Cel::UInt(u) => u.to_string(),
        Cel::Float(f) => f.to_string(),
        Cel::String(s) => s.to_string(),
        Cel::Bool(b) => b.to_string(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests;
