//! A schema compiled for rule evaluation: the shape of every node (to
//! give values their CEL types) and the compiled rules where there are
//! some, as apiextensions-apiserver's `cel.NewValidator` builds it.

use std::sync::Arc;

use ::cel::Program;

use api_cel::Type;

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
    pub program: Result<Program, String>,
    pub message_program: Option<Result<Program, String>>,
    /// The rule reads `oldSelf`: a transition rule.
    pub uses_old_self: bool,
}

impl CompiledRule {
    fn compile(rule: &Rule<'_>, decl: Option<&Type>) -> CompiledRule {
        let this = decl.cloned().unwrap_or(Type::Dyn);
        let old = if rule.optional_old_self {
            Type::Optional(Box::new(this.clone()))
        } else {
            this.clone()
        };
        let vars = [("self", this), ("oldSelf", old)];
        let program = compile(
            rule.rule,
            &vars,
            &Type::Bool,
            "cel expression must evaluate to a bool",
        );
        let uses_old_self = program
            .as_ref()
            .is_ok_and(|p| p.references().has_variable("oldSelf"));
        let reason = match rule.reason {
            Some("FieldValueForbidden") => Reason::Forbidden,
            Some("FieldValueRequired") => Reason::Required,
            Some("FieldValueDuplicate") => Reason::Duplicate,
            _ => Reason::Invalid,
        };
        CompiledRule {
            rule: rule.rule.to_string(),
            message: rule.message.map(str::to_string),
            reason,
            field_path: rule.field_path.and_then(normalize_field_path),
            optional_old_self: rule.optional_old_self,
            message_program: rule
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
                }),
            program,
            uses_old_self,
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

/// Parses and type-checks `source` with `vars` declared, as the apiserver
/// compiles a rule: `compilation failed: ERROR: ...` when it does not
/// parse or check, `wrong` when its type is certainly not `want`.
fn compile(
    source: &str,
    vars: &[(&str, Type)],
    want: &Type,
    wrong: &str,
) -> Result<Program, String> {
    let program = super::ENV
        .compile(source)
        .map_err(|e| format!("compilation failed: {e}"))?;
    let found = api_cel::check_parsed(program.expression(), program.source_info(), source, vars)
        .map_err(|e| format!("compilation failed: {e}"))?;
    if found != *want && !found.is_dyn() {
        return Err(wrong.to_string());
    }
    Ok(program)
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
    /// Rules inside `allOf` members, evaluated against this node's value.
    pub all_of: Vec<CelNode>,
    /// `x-kubernetes-list-type: map`: its keys.
    pub list_map_keys: Option<Vec<String>>,
    /// An old value can be matched to this map's entries (granular or
    /// atomic maps, as `MapIsCorrelatable`).
    pub map_correlatable: bool,
    pub rules: Vec<CompiledRule>,
    /// The node's type in rules (`SchemaDeclType`); `None` for a node
    /// without a type, which rules cannot select.
    pub decl: Option<Type>,
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
        let all_of: Vec<CelNode> = validation
            .all_of
            .iter()
            .map(|member| CelNode::build(member, typed, resource_root))
            .filter(|n| n.has_rules)
            .collect();
        let embedded = typed.embedded_resource || resource_root;
        let decl = decl_type(
            shape,
            typed,
            embedded,
            &properties,
            additional.as_deref(),
            items.as_deref(),
        );
        let rules: Vec<CompiledRule> = validation
            .validations
            .iter()
            .map(|r| CompiledRule::compile(r, decl.as_ref()))
            .collect();
        let has_rules = !rules.is_empty()
            || !all_of.is_empty()
            || properties.iter().any(|p| p.node.has_rules)
            || additional.as_ref().is_some_and(|a| a.has_rules)
            || items.as_ref().is_some_and(|i| i.has_rules);
        CelNode {
            shape,
            type_name: typed.ty().to_string(),
            format: typed.format.map(str::to_string),
            preserve_unknown: typed.preserves_unknown(),
            embedded,
            decl,
            properties,
            additional,
            items,
            all_of,
            list_map_keys: (typed.list_type == Some("map"))
                .then(|| {
                    typed
                        .list_map_keys
                        .as_ref()
                        .map(|k| k.iter().map(|s| s.to_string()).collect())
                })
                .flatten(),
            map_correlatable: matches!(typed.map_type, None | Some("granular" | "atomic")),
            rules,
            has_rules,
        }
    }

    /// How many rules the node and those below it have.
    pub(crate) fn rule_count(&self) -> usize {
        self.rules.len()
            + self.all_of.iter().map(CelNode::rule_count).sum::<usize>()
            + self
                .properties
                .iter()
                .map(|p| p.node.rule_count())
                .sum::<usize>()
            + self.additional.as_ref().map_or(0, |a| a.rule_count())
            + self.items.as_ref().map_or(0, |i| i.rule_count())
    }

    /// The property `name`, if the schema specifies it.
    pub(crate) fn property(&self, name: &str) -> Option<&Property> {
        self.properties
            .binary_search_by(|p| p.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.properties[i])
    }
}

/// The type rules see at a node (apiserver `SchemaDeclType`): int-or-string
/// is `dyn`; objects have their typed properties (by escaped name), plus
/// `apiVersion`, `kind` and `metadata.name`/`generateName` at a resource's
/// root; a string's `format` makes it bytes, a duration or a timestamp.
fn decl_type(
    shape: Shape,
    typed: &Node<'_>,
    embedded: bool,
    properties: &[Property],
    additional: Option<&CelNode>,
    items: Option<&CelNode>,
) -> Option<Type> {
    Some(match shape {
        Shape::Any if typed.int_or_string => Type::Dyn,
        Shape::Any => return None,
        Shape::Boolean => Type::Bool,
        Shape::Integer => Type::Int,
        Shape::Number => Type::Double,
        Shape::String => match typed.format {
            Some("byte") => Type::Bytes,
            Some("duration") => Type::Duration,
            Some("date" | "date-time") => Type::Timestamp,
            _ => Type::String,
        },
        Shape::Array => Type::list(items?.decl.clone()?),
        Shape::Object => {
            if typed.additional_schema().is_some() {
                return Some(Type::map(Type::String, additional?.decl.clone()?));
            }
            let mut fields: Vec<(String, Type)> = Vec::new();
            for p in properties {
                let (Some(name), Some(t)) = (&p.escaped, &p.node.decl) else {
                    continue;
                };
                if **name != p.name && api_cel::RESERVED.contains(&p.name.as_str()) {
                    // Reserved words may be selected unescaped too.
                    fields.push((p.name.clone(), t.clone()));
                }
                fields.push((name.to_string(), t.clone()));
            }
            if embedded {
                fields.retain(|(n, _)| n != "apiVersion" && n != "kind");
                fields.push(("apiVersion".into(), Type::String));
                fields.push(("kind".into(), Type::String));
                let mut meta = vec![
                    ("name".to_string(), Type::String),
                    ("generateName".to_string(), Type::String),
                ];
                if let Some((_, Type::Object(declared))) =
                    fields.iter().find(|(n, _)| n == "metadata")
                {
                    meta.extend(declared.fields.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                fields.retain(|(n, _)| n != "metadata");
                fields.push(("metadata".into(), Type::object(meta)));
            }
            Type::object(fields)
        }
    })
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
