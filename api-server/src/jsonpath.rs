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
//! The parser (`parser`) turns a template into nodes, the evaluator
//! (`eval`) walks them over a value, and the printer (`print`) writes
//! results as client-go does.
//!
//! [`allow_missing_keys`]: JsonPath::allow_missing_keys

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;

mod eval;
mod parser;
mod print;

use parser::Parser;
#[cfg(test)]
use parser::unquote;
pub use print::{go_format_float, go_json, print_value};

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
}

#[cfg(test)]
#[path = "jsonpath_tests.rs"]
mod tests;
