//! A schema compiled for rule evaluation: the shape of every node (to
//! give values their CEL types) and the compiled rules where there are
//! some, as apiextensions-apiserver's `cel.NewValidator` builds it.

use std::collections::BTreeMap;
use std::sync::Arc;

use ::cel::common::ast::IdedExpr;
use ::cel::{Context, ResolveResult};

use api_cel::Type;
use api_cel::cost::{self, Estimate, MAX_REQUEST_SIZE_BYTES, SizeEstimator, Sizes};
use api_cel::limits::{self, Depth};

use serde_json::Value;

use super::super::node::{Node, Rule};
use api_cel::escape;

/// The JSON type of a node, as values of it are converted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Object,
    Array,
    String,
    Integer,
    Number,
    Boolean,
    /// `x-kubernetes-int-or-string`, or no type (a value of any kind).
    Any,
}

/// A property: its JSON name, its name in rules (`None`: not reachable).
pub(crate) struct Property {
    pub name: String,
    pub escaped: Option<Arc<String>>,
    pub node: CelNode,
}

/// What a rule's `reason` makes of a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    Invalid,
    Forbidden,
    Required,
    Duplicate,
}

/// One compiled `x-kubernetes-validations` rule.
pub(crate) struct CompiledRule {
    pub rule: String,
    pub message: Option<String>,
    pub reason: Reason,
    /// `fieldPath`, as a path below the node (`a.b`), when given.
    pub field_path: Option<String>,
    pub optional_old_self: bool,
    /// The program, or the compile error (`compilation failed: ERROR: ...`).
    pub program: Result<Executable, String>,
    pub message_program: Option<Result<Executable, String>>,
    /// The rule reads `oldSelf`: a transition rule.
    pub uses_old_self: bool,
    /// How deep the rule is (what evaluating or estimating it recurses).
    pub depth: Depth,
    /// The static cost estimate of the rule (`MaxCost`), and of its
    /// `messageExpression`.
    pub cost: Estimate,
    pub message_cost: Option<Estimate>,
    /// What one evaluation is charged when its cost does not depend on
    /// the data (`sized` is `None`).
    pub run_cost: u64,
    /// What the estimate needs to be recomputed for actual data (`None`
    /// when the cost does not depend on the sizes of the data).
    pub sized: Option<Arc<SizedRule>>,
}

/// A compiled expression, as it runs: with `==`, `+` and `in` of data
/// with list semantics rewritten (see `list_types`), on a stack as deep
/// as the expression needs.
pub(crate) struct Executable {
    expr: IdedExpr,
    depth: Depth,
}

impl Executable {
    fn new(
        mut expr: IdedExpr,
        depth: Depth,
        checked: &api_cel::Checked,
        this: &CelNode,
        optional_old_self: bool,
    ) -> Executable {
        depth.run(|| {
            super::typed::rewrite(&mut expr, checked);
            super::list_types::rewrite(&mut expr, this, optional_old_self);
        });
        Executable { expr, depth }
    }

    /// Evaluates the expression in `scope`.
    pub(crate) fn execute(&self, scope: &Context<'_, '_>) -> ResolveResult {
        self.depth.run(|| ::cel::Value::resolve(&self.expr, scope))
    }
}

/// A rule's checked expression, kept to estimate its cost from the sizes
/// of the values it evaluates.
pub(crate) struct SizedRule {
    pub expr: IdedExpr,
    pub checked: api_cel::Checked,
}

/// The sizes of no data: every path is empty.
struct NoData;

impl SizeEstimator for NoData {
    fn estimate_size(&self, _: &[String]) -> Option<Estimate> {
        Some(Estimate::fixed(0))
    }
}

impl CompiledRule {
    fn compile(rule: &Rule<'_>, node: &CelNode) -> CompiledRule {
        let sizes = &node.sizes;
        let this = node.decl.clone().unwrap_or(Type::Dyn);
        let old = if rule.optional_old_self {
            Type::Optional(Box::new(this.clone()))
        } else {
            this.clone()
        };
        let vars = [("self", this), ("oldSelf", old)];
        let compiled = compile(
            rule.rule,
            &vars,
            &Type::Bool,
            "cel expression must evaluate to a bool",
        );
        let mut cost = Estimate::default();
        let mut run_cost = 0;
        let mut sized = None;
        let mut uses_old_self = false;
        let mut depth = Depth::default();
        if let Ok(p) = &compiled {
            depth = p.depth;
            p.depth.run(|| {
                cost = cost::estimate(&p.expr, &p.checked, sizes);
                run_cost = cost::estimate_evaluation(&p.expr, &p.checked, sizes).max;
                // A rule whose estimate is the same without any data costs
                // the same on every value: it need not be estimated again
                // for each.
                if cost::estimate(&p.expr, &p.checked, &NoData) != cost {
                    sized = Some(p.expr.clone());
                }
                uses_old_self = p.expr.references().has_variable("oldSelf");
            });
        }
        let reason = match rule.reason {
            Some("FieldValueForbidden") => Reason::Forbidden,
            Some("FieldValueRequired") => Reason::Required,
            Some("FieldValueDuplicate") => Reason::Duplicate,
            _ => Reason::Invalid,
        };
        let message = rule
            .message_expression
            .filter(|m| !m.trim().is_empty())
            .map(|m| {
                compile(
                    m,
                    &vars,
                    &Type::String,
                    "messageExpression must evaluate to a string",
                )
                .map_err(|e| format!("messageExpression {e}"))
            });
        let message_cost = message.as_ref().and_then(|m| {
            let p = m.as_ref().ok()?;
            Some(p.depth.run(|| cost::estimate(&p.expr, &p.checked, sizes)))
        });
        let (program, checked) = match compiled {
            Ok(Parsed {
                expr,
                checked,
                depth,
            }) => {
                let program = Executable::new(expr, depth, &checked, node, rule.optional_old_self);
                (Ok(program), Some(checked))
            }
            Err(e) => (Err(e), None),
        };
        CompiledRule {
            rule: rule.rule.to_string(),
            message: rule.message.map(str::to_string),
            reason,
            field_path: rule.field_path.and_then(normalize_field_path),
            optional_old_self: rule.optional_old_self,
            message_program: message.map(|m| {
                m.map(|p| {
                    Executable::new(p.expr, p.depth, &p.checked, node, rule.optional_old_self)
                })
            }),
            program,
            uses_old_self,
            depth,
            cost,
            message_cost,
            run_cost,
            sized: sized
                .zip(checked)
                .map(|(expr, checked)| Arc::new(SizedRule { expr, checked })),
        }
    }

    /// The rule as error messages name it: its message, else its source
    /// (`ruleErrorString`).
    pub(crate) fn error_string(&self) -> &str {
        match &self.message {
            Some(m) if !m.is_empty() => m.trim(),
            _ => self.rule.trim(),
        }
    }

    /// The detail of a failure without a `messageExpression`
    /// (`ruleMessageOrDefault`).
    pub(crate) fn message_or_default(&self) -> String {
        match &self.message {
            Some(m) if !m.is_empty() => m.trim().to_string(),
            _ => format!("failed rule: {}", self.rule.trim()),
        }
    }
}

/// A parsed and checked expression.
struct Parsed {
    expr: IdedExpr,
    checked: api_cel::Checked,
    depth: Depth,
}

/// Parses and type-checks `source` with `vars` declared, as the apiserver
/// compiles a rule: `compilation failed: ERROR: ...` when it does not
/// parse or check (cel-go's size and depth limits included), `wrong` when
/// its type is certainly not `want`.
fn compile(
    source: &str,
    vars: &[(&str, Type)],
    want: &Type,
    wrong: &str,
) -> Result<Parsed, String> {
    let failed = |e: String| format!("compilation failed: {e}");
    let (expr, info, depth) = limits::parse(super::ENV.parser(), source).map_err(failed)?;
    let go_regex = |pattern: &str| super::lib::regex::check(pattern);
    let checked = depth
        .run(|| api_cel::check_ast_with_regex(&expr, &info, source, vars, &go_regex))
        .map_err(failed)?;
    depth.run(|| constant_patterns(&expr))?;
    if checked.ty != *want && !checked.ty.is_dyn() {
        return Err(wrong.to_string());
    }
    Ok(Parsed {
        expr,
        checked,
        depth,
    })
}

/// What cel-go checks when it instantiates a program: the constant
/// patterns of `find` and `findAll` compile (as Go's `regexp`).
fn constant_patterns(e: &IdedExpr) -> Result<(), String> {
    use ::cel::common::ast::{Expr, LiteralValue};
    if let Expr::Call(c) = &e.expr
        && matches!(c.func_name.as_str(), "find" | "findAll")
        && c.target.is_some()
        && let Some(Expr::Literal(LiteralValue::String(p))) = c.args.first().map(|a| &a.expr)
    {
        super::lib::regex::check(p.inner())
            .map_err(|e| format!("program instantiation failed: {e}"))?;
    }
    let mut result = Ok(());
    api_cel::ast::for_each_child(e, |child| {
        if result.is_ok() {
            result = constant_patterns(child);
        }
    });
    result
}

/// A rule's `fieldPath` (`.a.b`, `.a['b.c']`) as the path below the
/// node that errors are reported at (`a.b`, `a.b.c`); `None` when it does
/// not parse (the CRD's validation rejects such a path).
fn normalize_field_path(path: &str) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = path.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return None;
            }
            out.push(r[..end].to_string());
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix("['") {
            let end = r.find("']")?;
            out.push(r[..end].replace("\\'", "'"));
            rest = &r[end + 2..];
        } else {
            return None;
        }
    }
    (!out.is_empty()).then(|| out.join("."))
}

/// A compiled schema node.
pub(crate) struct CelNode {
    pub shape: Shape,
    /// The schema's `type` (`object`, `string`, or empty), as errors show it.
    pub type_name: String,
    pub format: Option<String>,
    pub preserve_unknown: bool,
    /// `x-kubernetes-embedded-resource`, or the resource root: `apiVersion`,
    /// `kind` and `metadata.name`/`generateName` are visible.
    pub embedded: bool,
    /// Sorted by name.
    pub properties: Vec<Property>,
    pub additional: Option<Box<CelNode>>,
    pub items: Option<Box<CelNode>>,
    /// Rules inside `allOf` members (with their index), evaluated against
    /// this node's value.
    pub all_of: Vec<(usize, CelNode)>,
    /// `x-kubernetes-list-type: set`.
    pub list_set: bool,
    /// `x-kubernetes-list-type: map`: its keys.
    pub list_map_keys: Option<Vec<String>>,
    /// An old value can be matched to this map's entries (granular or
    /// atomic maps, as `MapIsCorrelatable`).
    pub map_correlatable: bool,
    pub rules: Vec<CompiledRule>,
    /// The node's type in rules (`SchemaDeclType`); `None` for a node
    /// without a type, which rules cannot select.
    pub decl: Option<Type>,
    /// The sizes of the data at and below this node, as the cost
    /// estimate reads them (`DeclType.MaxElements`).
    pub sizes: Sizes,
    /// The smallest JSON serialization of a value here
    /// (`DeclType.MinSerializedSize`).
    pub min_size: u64,
    /// The schema's `maxItems` (arrays) or `maxProperties` (maps): how
    /// many times the values below may occur (`None`: unbounded; objects
    /// and scalars are 1).
    pub max_children: Option<u64>,
    /// This node or one below has rules.
    pub has_rules: bool,
}

impl CelNode {
    /// Compiles `validation`'s rules over the shape of `typed` (the same
    /// node, except inside `allOf`, whose members have no types).
    pub(super) fn build(validation: &Node<'_>, typed: &Node<'_>, resource_root: bool) -> CelNode {
        let shape = if typed.int_or_string {
            Shape::Any
        } else {
            match typed.ty() {
                "object" => Shape::Object,
                "array" => Shape::Array,
                "string" => Shape::String,
                "integer" => Shape::Integer,
                "number" => Shape::Number,
                "boolean" => Shape::Boolean,
                _ => Shape::Any,
            }
        };
        let mut properties: Vec<Property> = typed
            .properties
            .iter()
            .map(|(name, p)| {
                let v = validation.property(name).unwrap_or(p);
                Property {
                    name: name.to_string(),
                    escaped: escape(name).map(Arc::new),
                    node: CelNode::build(v, p, false),
                }
            })
            .collect();
        properties.sort_by(|a, b| a.name.cmp(&b.name));
        let additional = typed.additional_schema().map(|a| {
            let v = validation.additional_schema().unwrap_or(a);
            Box::new(CelNode::build(v, a, false))
        });
        let items = typed.items_schema().map(|i| {
            let v = validation.items_schema().unwrap_or(i);
            Box::new(CelNode::build(v, i, false))
        });
        let all_of: Vec<(usize, CelNode)> = validation
            .all_of
            .iter()
            .map(|member| CelNode::build(member, typed, resource_root))
            .enumerate()
            .filter(|(_, n)| n.has_rules)
            .collect();
        let embedded = typed.embedded_resource || resource_root;
        let (decl, sizes, min_size) = declare(
            shape,
            typed,
            embedded,
            &properties,
            additional.as_deref(),
            items.as_deref(),
        );
        let non_negative = |n: Option<i64>| n.map(|n| n.max(0) as u64);
        let max_children = match shape {
            Shape::Array => non_negative(typed.max_items),
            Shape::Object if typed.additional_schema().is_some() => {
                non_negative(typed.max_properties)
            }
            _ => Some(1),
        };
        let has_rules = !validation.validations.is_empty()
            || !all_of.is_empty()
            || properties.iter().any(|p| p.node.has_rules)
            || additional.as_ref().is_some_and(|a| a.has_rules)
            || items.as_ref().is_some_and(|i| i.has_rules);
        let mut node = CelNode {
            shape,
            type_name: typed.ty().to_string(),
            format: typed.format.map(str::to_string),
            preserve_unknown: typed.preserves_unknown(),
            embedded,
            decl,
            sizes,
            min_size,
            max_children,
            properties,
            additional,
            items,
            all_of,
            list_set: typed.list_type == Some("set"),
            list_map_keys: (typed.list_type == Some("map"))
                .then(|| {
                    typed
                        .list_map_keys
                        .as_ref()
                        .map(|k| k.iter().map(|s| s.to_string()).collect())
                })
                .flatten(),
            map_correlatable: matches!(typed.map_type, None | Some("granular" | "atomic")),
            rules: Vec::new(),
            has_rules,
        };
        // The rules are compiled against the node they are bound to.
        node.rules = validation
            .validations
            .iter()
            .map(|r| CompiledRule::compile(r, &node))
            .collect();
        node
    }

    /// How many rules the node and those below it have.
    pub(crate) fn rule_count(&self) -> usize {
        self.rules.len()
            + self
                .all_of
                .iter()
                .map(|(_, m)| m.rule_count())
                .sum::<usize>()
            + self
                .properties
                .iter()
                .map(|p| p.node.rule_count())
                .sum::<usize>()
            + self.additional.as_ref().map_or(0, |a| a.rule_count())
            + self.items.as_ref().map_or(0, |i| i.rule_count())
    }

    /// Calls `f` with every rule at and below this node.
    pub(crate) fn each_rule(&self, f: &mut dyn FnMut(&CompiledRule)) {
        self.rules.iter().for_each(&mut *f);
        for (_, m) in &self.all_of {
            m.each_rule(f);
        }
        for p in &self.properties {
            p.node.each_rule(f);
        }
        if let Some(a) = &self.additional {
            a.each_rule(f);
        }
        if let Some(i) = &self.items {
            i.each_rule(f);
        }
    }

    /// The property `name`, if the schema specifies it.
    pub(crate) fn property(&self, name: &str) -> Option<&Property> {
        self.properties
            .binary_search_by(|p| p.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.properties[i])
    }
}

/// The largest string of a request: its bytes less the quotes.
const MAX_STRING: u64 = MAX_REQUEST_SIZE_BYTES - 2;

/// What rules see at a node, as the apiserver's `SchemaDeclType` declares
/// it: the type (`None` for a node without one, which rules cannot
/// select), the sizes the cost estimate assumes (`MaxElements`) and the
/// smallest JSON form of a value there (`MinSerializedSize`).
///
/// Int-or-string is `dyn`; objects have their typed properties (by escaped
/// name; reserved words also unescaped), plus `apiVersion`, `kind` and
/// `metadata.name`/`generateName` at a resource's root; a string's
/// `format` makes it bytes, a duration or a timestamp. A string's size is
/// its `maxLength` (times 4: a character may take 4 bytes), the longest of
/// its `enum` values, or the largest string of a request; a list's
/// `maxItems`, or how many of its smallest items fit in a request; likewise
/// a map's `maxProperties`.
fn declare(
    shape: Shape,
    typed: &Node<'_>,
    embedded: bool,
    properties: &[Property],
    additional: Option<&CelNode>,
    items: Option<&CelNode>,
) -> (Option<Type>, Sizes, u64) {
    let non_negative = |n: i64| n.max(0) as u64;
    let leaf = |t: Type, max: u64, min: u64| (Some(t), Sizes::leaf(max), min);
    match shape {
        Shape::Any if typed.int_or_string => {
            let max = typed
                .max_length
                .map_or(MAX_STRING, |m| non_negative(m).saturating_mul(4));
            leaf(Type::Dyn, max, 1)
        }
        Shape::Any => (None, Sizes::default(), 1),
        Shape::Boolean => leaf(Type::Bool, 0, 4),
        Shape::Integer => leaf(Type::Int, 0, 1),
        Shape::Number => leaf(Type::Double, 0, 1),
        Shape::String => match typed.format {
            Some("byte") => leaf(
                Type::Bytes,
                typed.max_length.map_or(MAX_STRING, non_negative),
                2,
            ),
            Some("duration") => leaf(Type::Duration, 32, 3),
            Some("date") => leaf(Type::Timestamp, 12, 12),
            Some("date-time") => leaf(Type::Timestamp, 32, 21),
            _ => {
                let max = match (typed.max_length, typed.enum_) {
                    (Some(m), _) => non_negative(m).saturating_mul(4),
                    (None, Some(values)) if !values.is_empty() => values
                        .iter()
                        .filter_map(Value::as_str)
                        .map(|v| v.len() as u64)
                        .max()
                        .unwrap_or(0),
                    _ => MAX_STRING,
                };
                leaf(Type::String, max, 2)
            }
        },
        Shape::Array => {
            let Some(items) = items else {
                return (None, Sizes::default(), 2);
            };
            let max = typed
                .max_items
                .map_or(MAX_STRING / (items.min_size + 1), non_negative);
            let ty = items.decl.clone().map(Type::list);
            (ty, Sizes::list(max, items.sizes.clone()), 2)
        }
        Shape::Object if typed.additional_schema().is_some() => {
            let Some(values) = additional else {
                return (None, Sizes::default(), 2);
            };
            let max = typed
                .max_properties
                .map_or(MAX_STRING / (values.min_size + 6), non_negative);
            let ty = values.decl.clone().map(|v| Type::map(Type::String, v));
            (ty, Sizes::map(max, Sizes::leaf(0), values.sizes.clone()), 2)
        }
        Shape::Object => {
            let required: Vec<&str> = typed.required.clone().unwrap_or_default();
            let mut min_size = 2u64;
            let mut fields: Vec<(String, Type, Sizes)> = Vec::new();
            for p in properties {
                let Some(t) = &p.node.decl else {
                    continue;
                };
                if let Some(name) = &p.escaped {
                    if **name != p.name && api_cel::RESERVED.contains(&p.name.as_str()) {
                        // Reserved words may be selected unescaped too.
                        fields.push((p.name.clone(), t.clone(), p.node.sizes.clone()));
                    }
                    fields.push((name.to_string(), t.clone(), p.node.sizes.clone()));
                }
                let defaulted = typed.property(&p.name).is_some_and(|n| n.default.is_some());
                if required.contains(&p.name.as_str()) && !defaulted {
                    min_size += p.name.len() as u64 + p.node.min_size + 4;
                }
            }
            if embedded {
                let declared_meta = fields
                    .iter()
                    .find(|(n, ..)| n == "metadata")
                    .map(|(_, t, s)| (t.clone(), s.fields.clone()));
                fields.retain(|(n, ..)| n != "apiVersion" && n != "kind" && n != "metadata");
                let string = || (Type::String, Sizes::leaf(MAX_STRING));
                for name in ["apiVersion", "kind"] {
                    let (t, s) = string();
                    fields.push((name.into(), t, s));
                }
                let mut meta_types = vec![
                    ("name".to_string(), Type::String),
                    ("generateName".to_string(), Type::String),
                ];
                let mut meta_sizes = BTreeMap::new();
                if let Some((Type::Object(declared), sizes)) = declared_meta {
                    meta_types.extend(declared.fields.iter().map(|(k, v)| (k.clone(), v.clone())));
                    meta_sizes = sizes;
                }
                meta_sizes.insert("name".into(), Sizes::leaf(MAX_STRING));
                meta_sizes.insert("generateName".into(), Sizes::leaf(MAX_STRING));
                fields.push((
                    "metadata".into(),
                    Type::object(meta_types),
                    Sizes::object(meta_sizes),
                ));
            }
            let sizes = Sizes::object(fields.iter().map(|(n, _, s)| (n.clone(), s.clone())));
            let ty = Type::object(fields.into_iter().map(|(n, t, _)| (n, t)));
            (Some(ty), sizes, min_size)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::normalize_field_path;

    #[test]
    fn field_paths_normalize_to_child_paths() {
        assert_eq!(normalize_field_path(".a").as_deref(), Some("a"));
        assert_eq!(normalize_field_path(".a.b").as_deref(), Some("a.b"));
        assert_eq!(normalize_field_path(".a['b.c']").as_deref(), Some("a.b.c"));
        assert_eq!(normalize_field_path("a"), None);
        assert_eq!(normalize_field_path(".a..b"), None);
        assert_eq!(normalize_field_path(""), None);
    }
}
