//! Type checking of Kubernetes CEL validation rules (`x-kubernetes-validations`)
//! against the schema they are written for, as the apiserver checks them
//! when a CRD is written: cel-go's checker with the declarations of the
//! apiserver's CRD environment, over the parser the rules are evaluated
//! with (the `cel` crate's). Shared by api-core (which checks the rules of
//! a schema before it evaluates them) and api-derive (which checks written
//! rules at compile time). Use it through api_core.
//!
//! ```
//! use api_cel::{check, Type};
//!
//! let obj = Type::object([("replicas".to_string(), Type::Int)]);
//! assert_eq!(check("self.replicas > 1", &[("self", obj.clone())]), Ok(Type::Bool));
//! let err = check("self.replicas == 'a'", &[("self", obj)]).unwrap_err();
//! assert!(err.starts_with("ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, string)'"), "{err}");
//! ```

pub mod ast;
mod check;
pub mod cost;
mod decls;
pub mod limits;
pub mod macros;
pub mod types;

use std::sync::LazyLock;

pub use check::{Checked, RegexCheck, check_ast, check_ast_with_regex, check_parsed};
pub use types::{Object, Type};

/// The parser's environment: the standard macros and optional syntax, as
/// the apiserver's (its functions do not matter to parsing).
static PARSER_ENV: LazyLock<cel::Env> = LazyLock::new(|| {
    let mut env = cel::Env::stdlib().with_optional_support(true);
    macros::add_to(&mut env);
    env
});

/// CEL's reserved words: a property so named is `__name__` in a rule.
pub const RESERVED: [&str; 21] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// The name a property has in a rule (k8s.io/apiserver's `cel.Escape`):
/// reserved words become `__word__`; `__`, `.`, `-` and `/` become
/// `__underscores__`, `__dot__`, `__dash__` and `__slash__`. `None` for
/// names no rule can reach (starting with a digit, or with characters
/// outside `[a-zA-Z0-9_.-/]`).
pub fn escape(name: &str) -> Option<String> {
    let first = name.chars().next()?;
    if first.is_ascii_digit() {
        return None;
    }
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("__") {
            out.push_str("__underscores__");
            rest = &rest[2..];
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == '_' => out.push(c),
            _ => return None,
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// Parses `source` and checks it with `vars` declared: its type, or the
/// parse or check errors in cel-go's format.
pub fn check(source: &str, vars: &[(&str, Type)]) -> Result<Type, String> {
    check_source(source, vars).map(|c| c.checked.ty)
}

/// A rule parsed and checked once, kept for what else is asked of it (its
/// cost estimate: [`cost::estimate_checked`]).
pub struct CheckedSource {
    /// The parsed expression.
    pub expr: cel::common::ast::IdedExpr,
    /// What the checker learned about it; `checked.ty` is its type.
    pub checked: Checked,
    /// How deep it is: run what recurses over it in [`limits::Depth::run`].
    pub depth: limits::Depth,
}

/// [`check`], keeping the parsed expression and what the checker learned.
pub fn check_source(source: &str, vars: &[(&str, Type)]) -> Result<CheckedSource, String> {
    let (expr, info, depth) = limits::parse(PARSER_ENV.parser(), source)?;
    let checked = depth.run(|| check_ast(&expr, &info, source, vars))?;
    Ok(CheckedSource {
        expr,
        checked,
        depth,
    })
}

/// Parses `source` into the `cel` crate's AST (with the positions
/// [`check_ast`] reports errors at): cel-go's message when it does not
/// parse.
///
/// cel-go's limits apply (see [`limits`]), and the parse runs on a stack
/// large enough for any source within them.
pub fn parse_ast(
    source: &str,
) -> Result<(cel::common::ast::IdedExpr, cel::common::ast::SourceInfo), String> {
    limits::parse(PARSER_ENV.parser(), source).map(|(expr, info, _)| (expr, info))
}

/// Parses `source`: cel-go's message when it does not parse.
pub fn parse(source: &str) -> Result<(), String> {
    parse_ast(source).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_apiserver() {
        // k8s.io/apiserver pkg/cel/escaping_test.go
        for (name, want) in [
            ("self", Some("self")),
            ("namespace", Some("__namespace__")),
            ("int", Some("int")),
            ("a.b", Some("a__dot__b")),
            ("a-b", Some("a__dash__b")),
            ("a/b", Some("a__slash__b")),
            ("a__b", Some("a__underscores__b")),
            ("a_b", Some("a_b")),
            ("__x__", Some("__underscores__x__underscores__")),
            ("___", Some("__underscores___")),
            ("1a", None),
            ("a@b", None),
            ("", None),
        ] {
            assert_eq!(escape(name).as_deref(), want, "{name}");
        }
    }

    fn spec() -> Type {
        Type::object([
            ("name".to_string(), Type::String),
            ("replicas".to_string(), Type::Int),
            ("tags".to_string(), Type::list(Type::String)),
            ("labels".to_string(), Type::map(Type::String, Type::String)),
            ("port".to_string(), Type::Dyn),
            ("ttl".to_string(), Type::Duration),
        ])
    }

    fn ok(rule: &str) -> Type {
        check(rule, &[("self", spec()), ("oldSelf", spec())])
            .unwrap_or_else(|e| panic!("{rule}: {e}"))
    }

    fn err(rule: &str) -> String {
        check(rule, &[("self", spec())]).expect_err(rule)
    }

    #[test]
    fn well_typed_rules_check() {
        for rule in [
            "self.replicas >= 1 && self.name.startsWith('a')",
            "self.tags.all(t, t.size() < 10)",
            "self.labels.exists(k, k == 'app') && self.labels['app'] != ''",
            "has(self.name) ? self.name.matches('^[a-z]+$') : true",
            "self == oldSelf",
            "self.replicas + 1 > 1.5",
            "type(self.port) == int ? self.port > 0 : self.port.endsWith('%')",
            "self.?name.orValue('') == ''",
            "self.tags.map(t, t.size()).sum() < 100",
            "sets.contains(self.tags, ['a'])",
            "self.ttl > duration('1s')",
            "quantity('1Gi').isGreaterThan(quantity('1Mi'))",
            "format.dns1123Label().validate(self.name) == optional.none()",
            "isCIDR('10.0.0.0/8') && cidr('10.0.0.0/8').containsIP('10.1.2.3')",
            "url('https://x.io').getHost() == 'x.io'",
            "self.tags.sort() == self.tags",
            "[1, 2].exists(x, x == 2)",
            "{'a': 1}.all(k, k == 'a')",
        ] {
            assert_eq!(ok(rule), Type::Bool, "{rule}");
        }
        assert_eq!(ok("self.name"), Type::String);
        assert_eq!(ok("self.tags.map(t, t)"), Type::list(Type::Dyn));
    }

    #[test]
    fn errors_read_as_cel_go_s() {
        assert_eq!(
            err("self.replicsa > 1"),
            "ERROR: <input>:1:5: undefined field 'replicsa'\n | self.replicsa > 1\n | ....^"
        );
        assert!(
            err("self.replicas == 'a'")
                .contains("found no matching overload for '_==_' applied to '(int, string)'")
        );
        assert!(
            err("self.name != null")
                .contains("found no matching overload for '_!=_' applied to '(string, null)'")
        );
        assert!(
            err("['a', 'b'].sum() == 'c'")
                .contains("found no matching overload for 'sum' applied to 'list(string).()'")
        );
        assert!(
            err("slef.name == ''").contains("undeclared reference to 'slef' (in container '')")
        );
        assert!(err("self.name.foo()").contains("undeclared reference to 'foo'"));
        assert!(
            err("self.replicas.x == 1").contains("type 'int' does not support field selection")
        );
        assert!(err("self.name.matches('[')").contains("invalid matches argument"));
        assert!(err("duration('1') > self.ttl").contains("invalid duration argument"));
        assert!(err("self.replicas.all(x, true)").contains("cannot be range of a comprehension"));
        let two = err("self.a == 1 && self.b == 2");
        assert_eq!(two.matches("ERROR:").count(), 2, "{two}");
    }

    #[test]
    fn parse_errors_are_the_parser_s() {
        let e = parse("self.a ==").unwrap_err();
        assert!(e.starts_with("ERROR: <input>:1:10: Syntax error:"), "{e}");
        assert!(parse("self.?a.orValue('')").is_ok());
    }
}
