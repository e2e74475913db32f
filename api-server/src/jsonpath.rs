//! Kubernetes JSONPath (k8s.io/client-go `util/jsonpath`), the dialect of
//! `kubectl -o jsonpath` and of CRD `additionalPrinterColumns`.
//!
//! A template is text with actions in braces (`{.spec.replicas}`); the
//! apiextensions table convertor wraps a column's `jsonPath` as
//! `{<path>}` ([`JsonPath::parse_column`]). Parse once, evaluate many times
//! over `serde_json::Value`s. Inside an action (client-go `parser.go`):
//!
//! - `.name` a field (a `\` escapes the next character: `.a\.b` is the key
//!   `a.b`); `.*` every value of a map or list; `@` and `$` are no-ops;
//! - `[n]`, `[-n]`, `[a:b]`, `[a:b:step]`, `[*]` index and slice lists;
//! - `['name']` is *re-parsed as `.name`* (so `['a.b']` is `.a.b`, two
//!   fields, exactly as upstream); `[x, y]` is a union;
//! - `..name` recursive descent;
//! - `[?(@.a == "x")]` filters with `==`, `!=`, `<`, `>`, `<=`, `>=`
//!   between one value and a literal (string in `"…"` or `'…'`, integer,
//!   float, `true`/`false`) or another path, and `[?(@.a)]` keeps elements
//!   where the path exists; comparisons follow Go's text/template rules
//!   (both sides of the same basic kind, else an error);
//! - `"text"` literals.
//!
//! `range`/`end` (kubectl's loops) are rejected with an error: no column
//! can use them meaningfully. Two small divergences: `.*`/`..` do not walk
//! into the bytes of a string (Go's reflection does), and map values are
//! visited in key order (Go's are random).
//!
//! Evaluation errors (index out of range, a field of a list, ...) are
//! [`JsonPathError`]s, never panics. With [`allow_missing_keys`]
//! (`AllowMissingKeys(true)`, what the table convertor sets) a missing
//! field yields no result instead of an error.
//!
//! [`allow_missing_keys`]: JsonPath::allow_missing_keys

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;

/// Why a JSONPath could not be parsed or evaluated; the message is
/// upstream's where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonPathError {
    message: String,
}

impl JsonPathError {
    fn new(message: impl Into<String>) -> Self {
        JsonPathError {
            message: message.into(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for JsonPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for JsonPathError {}

type Result<T> = std::result::Result<T, JsonPathError>;

/// One bound of a slice (client-go `ParamsEntry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Param {
    value: i64,
    known: bool,
    derived: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    List(Vec<Node>),
    Text(String),
    Field(String),
    Wildcard,
    Recursive,
    Array([Param; 3]),
    Union(Vec<Vec<Node>>),
    Filter {
        left: Vec<Node>,
        right: Vec<Node>,
        op: Option<Op>,
        op_text: String,
    },
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// A parsed JSONPath template.
///
/// ```
/// use api_server::jsonpath::JsonPath;
/// use serde_json::json;
///
/// let path = JsonPath::parse_column(r#".status.conditions[?(@.type=="Ready")].status"#).unwrap();
/// let obj = json!({"status": {"conditions": [
///     {"type": "Synced", "status": "False"},
///     {"type": "Ready", "status": "True"}]}});
/// assert_eq!(path.find(&obj).unwrap(), vec![json!("True")]);
/// assert_eq!(path.execute(&obj).unwrap(), "True");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct JsonPath {
    /// Top-level segments: `Text` or `List` (one per `{...}` action).
    segments: Vec<Node>,
    allow_missing_keys: bool,
}

impl JsonPath {
    /// Parses a template (`name: {.metadata.name}`).
    pub fn parse(template: &str) -> Result<Self> {
        Ok(JsonPath {
            segments: Parser::new(template).parse_text()?,
            allow_missing_keys: false,
        })
    }

    /// Parses a printer column's `jsonPath` as the apiextensions table
    /// convertor does (`{<path>}`), with missing keys allowed.
    pub fn parse_column(path: &str) -> Result<Self> {
        let mut parsed = Self::parse(&format!("{{{path}}}"))?;
        parsed.allow_missing_keys = true;
        Ok(parsed)
    }

    /// Whether a missing field yields nothing (`true`) or an error.
    pub fn allow_missing_keys(mut self, allow: bool) -> Self {
        self.allow_missing_keys = allow;
        self
    }

    /// The results of each segment (text or action), as client-go's
    /// `FindResults`: one list per segment.
    pub fn find_results<'a>(&self, data: &'a Value) -> Result<Vec<Vec<Cow<'a, Value>>>> {
        let input = vec![Cow::Borrowed(data)];
        self.segments
            .iter()
            .map(|segment| self.walk(&input, segment))
            .collect()
    }

    /// All results of all segments, owned and flattened.
    pub fn find(&self, data: &Value) -> Result<Vec<Value>> {
        Ok(self
            .find_results(data)?
            .into_iter()
            .flatten()
            .map(Cow::into_owned)
            .collect())
    }

    /// The template's text output (client-go `Execute`): each segment's
    /// results printed with [`print_value`] and joined by a space.
    pub fn execute(&self, data: &Value) -> Result<String> {
        let mut out = String::new();
        for results in self.find_results(data)? {
            let texts: Vec<String> = results.iter().map(|v| print_value(v)).collect();
            out.push_str(&texts.join(" "));
        }
        Ok(out)
    }

    fn walk<'a>(&self, input: &[Cow<'a, Value>], node: &Node) -> Result<Vec<Cow<'a, Value>>> {
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

/// How client-go prints one result (`PrintResults`): maps and lists as
/// compact JSON (Go's `json.Marshal`, which escapes `<`, `>`, `&`), `null`
/// for null, other scalars as Go's `fmt.Print` does (`true`, `42`, `3.14`,
/// `1e+06`).
pub fn print_value(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => go_format_float(f),
            _ => n.to_string(),
        },
        Value::Array(_) | Value::Object(_) => go_json(value),
    }
}

/// Go's `json.Marshal` of a decoded JSON value: compact, keys sorted, HTML
/// characters escaped. (Floats are written by serde_json; Go differs only
/// for magnitudes of 1e16 and above, written without an exponent until 1e21.)
pub fn go_json(value: &Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Go's `fmt.Print` of a `float64` (`%v`, i.e. `strconv.FormatFloat(f,
/// 'g', -1, 64)`): the shortest digits that round-trip, in exponent form
/// (`1e+06`, `1.5e-07`) when the decimal exponent is below -4 or at least 6.
pub fn go_format_float(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    if !f.is_finite() {
        return if f.is_nan() {
            "NaN".into()
        } else if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    // Shortest round-trip digits and decimal exponent, from Rust's `{:e}`.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if f < 0.0 { "-" } else { "" };
    if !(-4..6).contains(&exp) {
        let mut m = digits[..1].to_string();
        if digits.len() > 1 {
            m.push('.');
            m.push_str(&digits[1..]);
        }
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{m}e{esign}{:02}", exp.abs());
    }
    let point = exp + 1; // digits before the decimal point
    let s = if point <= 0 {
        format!("0.{}{}", "0".repeat((-point) as usize), digits)
    } else if point as usize >= digits.len() {
        format!("{}{}", digits, "0".repeat(point as usize - digits.len()))
    } else {
        format!(
            "{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    };
    format!("{sign}{s}")
}

// ---------------------------------------------------------------------------
// Parser (client-go `parser.go`), over chars.

struct Parser {
    input: Vec<char>,
    pos: usize,
    start: usize,
}

fn is_terminator(c: Option<char>) -> bool {
    match c {
        None => true,
        Some(c) => matches!(
            c,
            ' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'
        ),
    }
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphabetic() || c.is_numeric()
}

impl Parser {
    fn new(text: &str) -> Self {
        Parser {
            input: text.chars().collect(),
            pos: 0,
            start: 0,
        }
    }

    fn rest_starts_with(&self, prefix: &str) -> bool {
        prefix
            .chars()
            .enumerate()
            .all(|(i, c)| self.input.get(self.pos + i) == Some(&c))
    }

    fn next(&mut self) -> Option<char> {
        let c = self.input.get(self.pos).copied();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    fn peek(&self) -> Option<char> {
        self.input.get(self.pos).copied()
    }

    fn consume(&mut self) -> String {
        let s: String = self.input[self.start..self.pos].iter().collect();
        self.start = self.pos;
        s
    }

    /// Top level: text and `{actions}`.
    fn parse_text(&mut self) -> Result<Vec<Node>> {
        let mut segments = Vec::new();
        loop {
            if self.rest_starts_with("{") {
                if self.pos > self.start {
                    segments.push(Node::Text(self.consume()));
                }
                self.pos += 1;
                self.consume();
                segments.push(Node::List(self.parse_action()?));
                continue;
            }
            if self.next().is_none() {
                break;
            }
        }
        if self.pos > self.start {
            segments.push(Node::Text(self.consume()));
        }
        Ok(segments)
    }

    /// Inside `{...}` until the closing `}` (consumed).
    fn parse_action(&mut self) -> Result<Vec<Node>> {
        let mut nodes: Vec<Node> = Vec::new();
        loop {
            if self.rest_starts_with("}") {
                self.pos += 1;
                self.consume();
                return Ok(nodes);
            }
            if self.rest_starts_with("[?(") {
                nodes.push(self.parse_filter()?);
                continue;
            }
            if self.rest_starts_with("..") {
                if matches!(nodes.last(), Some(Node::Recursive)) {
                    return Err(JsonPathError::new("invalid multiple recursive descent"));
                }
                self.pos += 2;
                self.consume();
                nodes.push(Node::Recursive);
                if self.peek().is_some_and(is_alphanumeric) {
                    nodes.push(self.parse_field());
                }
                continue;
            }
            let Some(c) = self.next() else {
                return Err(JsonPathError::new("unclosed action"));
            };
            match c {
                '\r' | '\n' => return Err(JsonPathError::new("unclosed action")),
                ' ' | '@' | '$' => {
                    self.consume();
                }
                '[' => nodes.extend(self.parse_array()?),
                '"' | '\'' => nodes.push(self.parse_quote(c)?),
                '.' => nodes.push(self.parse_field()),
                '+' | '-' => {
                    self.pos -= 1;
                    nodes.push(self.parse_number()?);
                }
                c if c.is_ascii_digit() => {
                    self.pos -= 1;
                    nodes.push(self.parse_number()?);
                }
                c if is_alphanumeric(c) => {
                    self.pos -= 1;
                    nodes.push(self.parse_identifier()?);
                }
                c => {
                    return Err(JsonPathError::new(format!(
                        "unrecognized character in action: U+{:04X} '{c}'",
                        c as u32
                    )));
                }
            }
        }
    }

    fn parse_identifier(&mut self) -> Result<Node> {
        while !is_terminator(self.peek()) {
            self.pos += 1;
        }
        let value = self.consume();
        match value.as_str() {
            "true" => Ok(Node::Bool(true)),
            "false" => Ok(Node::Bool(false)),
            "range" | "end" => Err(JsonPathError::new(format!(
                "{value} is not supported in this JSONPath"
            ))),
            _ => Err(JsonPathError::new(format!(
                "unrecognized identifier {value}"
            ))),
        }
    }

    fn parse_number(&mut self) -> Result<Node> {
        if matches!(self.peek(), Some('+' | '-')) {
            self.pos += 1;
        }
        while matches!(self.peek(), Some(c) if c == '.' || c.is_ascii_digit()) {
            self.pos += 1;
        }
        let value = self.consume();
        if let Ok(i) = value.parse::<i64>() {
            return Ok(Node::Int(i));
        }
        match value.parse::<f64>() {
            Ok(f) => Ok(Node::Float(f)),
            _ => Err(JsonPathError::new(format!("cannot parse number {value}"))),
        }
    }

    /// After `.`: the field name up to an unescaped terminator.
    fn parse_field(&mut self) -> Node {
        self.consume();
        loop {
            match self.peek() {
                Some('\\') => {
                    self.pos += 1;
                    if self.peek().is_some() {
                        self.pos += 1;
                    }
                }
                c if is_terminator(c) => break,
                _ => self.pos += 1,
            }
        }
        let value = self.consume();
        if value == "*" {
            Node::Wildcard
        } else {
            Node::Field(value.replace('\\', ""))
        }
    }

    /// After `[`: an index, slice, `'key'` or union, up to `]`.
    fn parse_array(&mut self) -> Result<Vec<Node>> {
        loop {
            match self.next() {
                None | Some('\n') => return Err(JsonPathError::new("unterminated array")),
                Some(']') => break,
                Some(_) => {}
            }
        }
        let text = self.consume();
        let mut text = text[1..text.len() - 1].to_string();
        if text == "*" {
            text = ":".into();
        }
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() > 1 {
            let mut union = Vec::new();
            for part in parts {
                union.push(parse_sub_action(&format!("[{}]", part.trim_matches(' ')))?);
            }
            return Ok(vec![Node::Union(union)]);
        }
        // `'key'` is re-parsed as `.key`.
        if text.len() >= 2 && text.starts_with('\'') && text.ends_with('\'') {
            let key = &text[1..text.len() - 1];
            if !key.contains('\'') {
                return parse_sub_action(&format!(".{key}"));
            }
        }
        Ok(vec![Node::Array(parse_slice(&text)?)])
    }

    /// After `[?(`: the filter up to `)]`.
    fn parse_filter(&mut self) -> Result<Node> {
        self.pos += 3;
        self.consume();
        let mut begin = false;
        let mut end = false;
        let mut pair = '"';
        loop {
            let Some(c) = self.next() else {
                return Err(JsonPathError::new("unterminated filter"));
            };
            match c {
                '\n' => return Err(JsonPathError::new("unterminated filter")),
                '"' | '\'' => {
                    if !begin {
                        begin = true;
                        pair = c;
                        continue;
                    }
                    if self.input[self.pos - 2] != '\\' && c == pair {
                        end = true;
                    }
                }
                ')' if begin == end => break,
                _ => {}
            }
        }
        if self.next() != Some(']') {
            return Err(JsonPathError::new("unclosed array expect ]"));
        }
        let text = self.consume();
        let text: String = {
            let chars: Vec<char> = text.chars().collect();
            chars[..chars.len() - 2].iter().collect()
        };
        // `^([^!<>=]+)([!<>=]+)(.+?)$`
        let is_op = |c: char| matches!(c, '!' | '<' | '>' | '=');
        let split = text.find(is_op).filter(|&i| i > 0).and_then(|i| {
            let rest = &text[i..];
            let op_len = rest.find(|c: char| !is_op(c)).unwrap_or(rest.len());
            let right = &rest[op_len..];
            (!right.is_empty()).then(|| (&text[..i], &rest[..op_len], right))
        });
        match split {
            None => Ok(Node::Filter {
                left: parse_sub_action(&text)?,
                right: Vec::new(),
                op: None,
                op_text: "exists".into(),
            }),
            Some((left, op_text, right)) => {
                let op = match op_text {
                    "==" => Some(Op::Eq),
                    "!=" => Some(Op::Ne),
                    "<" => Some(Op::Lt),
                    ">" => Some(Op::Gt),
                    "<=" => Some(Op::Le),
                    ">=" => Some(Op::Ge),
                    _ => None,
                };
                Ok(Node::Filter {
                    left: parse_sub_action(left)?,
                    right: parse_sub_action(right)?,
                    op,
                    op_text: op_text.into(),
                })
            }
        }
    }

    /// A `"..."` or `'...'` literal (Go's `strconv.Unquote`, extended to
    /// single quotes).
    fn parse_quote(&mut self, quote: char) -> Result<Node> {
        loop {
            match self.next() {
                None | Some('\n') => return Err(JsonPathError::new("unterminated quoted string")),
                Some(c) if c == quote && self.input[self.pos - 2] != '\\' => break,
                Some(_) => {}
            }
        }
        let value = self.consume();
        unquote(&value).map(Node::Text).ok_or_else(|| {
            JsonPathError::new(format!("unquote string {value} error invalid syntax"))
        })
    }
}

/// Parses `text` as the inside of one action (client-go `parseAction`).
fn parse_sub_action(text: &str) -> Result<Vec<Node>> {
    let mut parser = Parser::new(&format!("{{{text}}}"));
    let segments = parser.parse_text()?;
    match segments.into_iter().next() {
        Some(Node::List(nodes)) => Ok(nodes),
        _ => Ok(Vec::new()),
    }
}

/// `^(-?\d*)(:-?\d*)?(:-?\d*)?$` into the three slice parameters.
fn parse_slice(text: &str) -> Result<[Param; 3]> {
    let invalid = || JsonPathError::new(format!("invalid array index {text}"));
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() > 3 {
        return Err(invalid());
    }
    let number_ok = |s: &str| {
        let digits = s.strip_prefix('-').unwrap_or(s);
        digits.bytes().all(|b| b.is_ascii_digit())
    };
    if !parts.iter().all(|p| number_ok(p)) {
        return Err(invalid());
    }
    let parse = |s: &str| -> Result<i64> {
        s.parse::<i64>()
            .map_err(|_| JsonPathError::new(format!("array index {s} is not a number")))
    };
    let unknown = Param {
        value: 0,
        known: false,
        derived: false,
    };
    let mut params = [unknown; 3];
    if !parts[0].is_empty() {
        params[0] = Param {
            value: parse(parts[0])?,
            known: true,
            derived: false,
        };
    }
    match parts.get(1) {
        None => {
            params[1] = Param {
                value: params[0].value.wrapping_add(1),
                known: true,
                derived: true,
            }
        }
        Some(&"") => {}
        Some(s) => {
            params[1] = Param {
                value: parse(s)?,
                known: true,
                derived: false,
            }
        }
    }
    if let Some(s) = parts.get(2).filter(|s| !s.is_empty()) {
        params[2] = Param {
            value: parse(s)?,
            known: true,
            derived: false,
        };
    }
    Ok(params)
}

/// Go's `strconv.Unquote` for `"..."` and the same escapes in `'...'`.
fn unquote(s: &str) -> Option<String> {
    let mut chars = s.chars();
    let quote = chars.next()?;
    if !matches!(quote, '"' | '\'') || !s.ends_with(quote) || s.chars().count() < 2 {
        return None;
    }
    let inner: Vec<char> = s[quote.len_utf8()..s.len() - quote.len_utf8()]
        .chars()
        .collect();
    let mut out = String::new();
    let mut i = 0;
    while i < inner.len() {
        let c = inner[i];
        i += 1;
        if c == quote {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = *inner.get(i)?;
        i += 1;
        match e {
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '\\' => out.push('\\'),
            '\'' | '"' if e == quote => out.push(e),
            'x' | 'u' | 'U' => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = inner.get(i..i + n)?.iter().collect();
                i += n;
                let code = u32::from_str_radix(&hex, 16).ok()?;
                out.push(char::from_u32(code)?);
            }
            '0'..='7' => {
                let oct: String = inner.get(i - 1..i + 2)?.iter().collect();
                i += 2;
                out.push(char::from_u32(u32::from_str_radix(&oct, 8).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
#[path = "jsonpath_tests.rs"]
mod tests;
