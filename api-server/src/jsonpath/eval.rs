//! Evaluation of parsed JSONPath nodes over a value (client-go
//! `jsonpath.go`: `walk`, `evalList`, `evalField`, `evalArray`,
//! `evalFilter`, ...), with Go's text/template comparison rules.

use std::borrow::Cow;

use serde_json::Value;

use super::{JsonPath, JsonPathError, Node, Op, Param, Result, print_value};

impl JsonPath {
    pub(super) fn walk<'a>(
        &self,
        input: &[Cow<'a, Value>],
        node: &Node,
    ) -> Result<Vec<Cow<'a, Value>>> {
        match node {
            Node::List(nodes) => self.eval_list(input, nodes),
            Node::Text(text) => Ok(vec![Cow::Owned(Value::String(text.clone()))]),
            Node::Int(i) => Ok(input.iter().map(|_| Cow::Owned(Value::from(*i))).collect()),
            Node::Float(f) => Ok(input.iter().map(|_| Cow::Owned(float_value(*f))).collect()),
            Node::Bool(b) => Ok(input.iter().map(|_| Cow::Owned(Value::Bool(*b))).collect()),
            Node::Field(name) => self.eval_field(input, name),
            Node::Wildcard => Ok(eval_wildcard(input)),
            Node::Recursive => Ok(eval_recursive(input)),
            Node::Array(params) => eval_array(input, params),
            Node::Union(lists) => {
                let mut out = Vec::new();
                for list in lists {
                    out.extend(self.eval_list(input, list)?);
                }
                Ok(out)
            }
            Node::Filter {
                left,
                right,
                op,
                op_text,
            } => self.eval_filter(input, left, right, *op, op_text),
        }
    }

    fn eval_list<'a>(
        &self,
        input: &[Cow<'a, Value>],
        nodes: &[Node],
    ) -> Result<Vec<Cow<'a, Value>>> {
        let mut current = input.to_vec();
        for node in nodes {
            current = self.walk(&current, node)?;
        }
        Ok(current)
    }

    fn eval_field<'a>(&self, input: &[Cow<'a, Value>], name: &str) -> Result<Vec<Cow<'a, Value>>> {
        if input.is_empty() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for value in input {
            match value {
                Cow::Borrowed(Value::Object(map)) => {
                    if let Some(v) = map.get(name) {
                        out.push(Cow::Borrowed(v));
                    }
                }
                Cow::Owned(Value::Object(map)) => {
                    if let Some(v) = map.get(name) {
                        out.push(Cow::Owned(v.clone()));
                    }
                }
                _ => {}
            }
        }
        if out.is_empty() && !self.allow_missing_keys {
            return Err(JsonPathError::new(format!("{name} is not found")));
        }
        Ok(out)
    }

    fn eval_filter<'a>(
        &self,
        input: &[Cow<'a, Value>],
        left: &[Node],
        right: &[Node],
        op: Option<Op>,
        op_text: &str,
    ) -> Result<Vec<Cow<'a, Value>>> {
        let mut out = Vec::new();
        for value in input {
            let items = match value.as_ref() {
                Value::Array(items) => items,
                other => {
                    return Err(JsonPathError::new(format!(
                        "{} is not array or slice and cannot be filtered",
                        go_value(other)
                    )));
                }
            };
            for (i, item) in items.iter().enumerate() {
                let element = child(value, i, item);
                let single = [element.clone()];
                let lefts = self.eval_list(&single, left);
                let Some(op) = op else {
                    if op_text == "exists" {
                        if lefts.is_ok_and(|l| !l.is_empty()) {
                            out.push(element);
                        }
                        continue;
                    }
                    return Err(JsonPathError::new(format!(
                        "unrecognized filter operator {op_text}"
                    )));
                };
                let lefts = lefts?;
                let left_value = match lefts.len() {
                    0 => continue,
                    1 => &lefts[0],
                    _ => return Err(JsonPathError::new("can only compare one element at a time")),
                };
                let rights = self.eval_list(&single, right)?;
                let right_value = match rights.len() {
                    0 => continue,
                    1 => &rights[0],
                    _ => return Err(JsonPathError::new("can only compare one element at a time")),
                };
                if compare(left_value, right_value, op)? {
                    out.push(element);
                }
            }
        }
        Ok(out)
    }
}

/// The `i`th element of the list `parent`, borrowed when the parent is.
fn child<'a>(parent: &Cow<'a, Value>, i: usize, item: &Value) -> Cow<'a, Value> {
    match parent {
        Cow::Borrowed(Value::Array(items)) => Cow::Borrowed(&items[i]),
        _ => Cow::Owned(item.clone()),
    }
}

/// The children of a map (values in key order) or a list.
fn children<'a>(value: &Cow<'a, Value>) -> Vec<Cow<'a, Value>> {
    match value {
        Cow::Borrowed(Value::Object(map)) => map.values().map(Cow::Borrowed).collect(),
        Cow::Borrowed(Value::Array(items)) => items.iter().map(Cow::Borrowed).collect(),
        Cow::Owned(Value::Object(map)) => map.values().cloned().map(Cow::Owned).collect(),
        Cow::Owned(Value::Array(items)) => items.iter().cloned().map(Cow::Owned).collect(),
        _ => Vec::new(),
    }
}

fn eval_wildcard<'a>(input: &[Cow<'a, Value>]) -> Vec<Cow<'a, Value>> {
    input.iter().flat_map(children).collect()
}

/// Every value that has children, followed by its descendants (client-go
/// `evalRecursive`: leaves are reached only through the node after `..`).
fn eval_recursive<'a>(input: &[Cow<'a, Value>]) -> Vec<Cow<'a, Value>> {
    let mut out = Vec::new();
    for value in input {
        let kids = children(value);
        if !kids.is_empty() {
            out.push(value.clone());
            out.extend(eval_recursive(&kids));
        }
    }
    out
}

fn eval_array<'a>(input: &[Cow<'a, Value>], params: &[Param; 3]) -> Result<Vec<Cow<'a, Value>>> {
    let mut out = Vec::new();
    for value in input {
        let items = match value.as_ref() {
            Value::Null => continue,
            Value::Array(items) => items,
            other => {
                return Err(JsonPathError::new(format!(
                    "{} is not array or slice",
                    go_type(other)
                )));
            }
        };
        let len = items.len() as i64;
        let mut start = if params[0].known { params[0].value } else { 0 };
        if start < 0 {
            start = start.wrapping_add(len);
        }
        let mut end = if params[1].known {
            params[1].value
        } else {
            len
        };
        if end < 0 || (end == 0 && params[1].derived) {
            end = end.wrapping_add(len);
        }
        if start == end {
            // Asking for zero elements is allowed (and ends the evaluation
            // of this node, as upstream returns early).
            return Ok(out);
        }
        if start >= len || start < 0 {
            return Err(JsonPathError::new(format!(
                "array index out of bounds: index {start}, length {len}"
            )));
        }
        if end > len || end < 0 {
            return Err(JsonPathError::new(format!(
                "array index out of bounds: index {}, length {len}",
                end.wrapping_sub(1)
            )));
        }
        if start > end {
            return Err(JsonPathError::new(format!(
                "starting index {start} is greater than ending index {end}"
            )));
        }
        let step = if params[2].known {
            if params[2].value <= 0 {
                return Err(JsonPathError::new("step must be > 0"));
            }
            params[2].value as usize
        } else {
            1
        };
        for i in (start as usize..end as usize).step_by(step) {
            out.push(child(value, i, &items[i]));
        }
    }
    Ok(out)
}

/// Go's `basicKind` over JSON values: numbers are `int` when integral
/// (how apimachinery decodes JSON), else `float`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bool,
    Int,
    Float,
    String,
}

fn kind(value: &Value) -> Result<Kind> {
    match value {
        Value::Bool(_) => Ok(Kind::Bool),
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(Kind::Int),
        Value::Number(_) => Ok(Kind::Float),
        Value::String(_) => Ok(Kind::String),
        _ => Err(JsonPathError::new("invalid type for comparison")),
    }
}

/// client-go's forked text/template `Equal`, `Less`, ... on two values.
fn compare(left: &Value, right: &Value, op: Op) -> Result<bool> {
    let (kl, kr) = (kind(left)?, kind(right)?);
    if kl != kr {
        return Err(JsonPathError::new("incompatible types for comparison"));
    }
    let equal = left == right
        || matches!((left, right), (Value::Number(a), Value::Number(b)) if kl == Kind::Float && a.as_f64() == b.as_f64());
    let less = || -> Result<bool> {
        match (left, right) {
            (Value::Number(a), Value::Number(b)) => Ok(if kl == Kind::Int {
                a.as_i128() < b.as_i128()
            } else {
                a.as_f64() < b.as_f64()
            }),
            (Value::String(a), Value::String(b)) => Ok(a < b),
            _ => Err(JsonPathError::new("invalid type for comparison")),
        }
    };
    Ok(match op {
        Op::Eq => equal,
        Op::Ne => !equal,
        Op::Lt => less()?,
        Op::Le => less()? || equal,
        Op::Gt => !(less()? || equal),
        Op::Ge => !less()?,
    })
}

/// A float as JSON; non-finite floats (impossible from JSON) become null.
fn float_value(f: f64) -> Value {
    serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// Go's `%v` type name of a decoded JSON value, for messages.
fn go_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

fn go_value(value: &Value) -> String {
    print_value(value)
}
