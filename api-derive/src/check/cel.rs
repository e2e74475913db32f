//! Rules parsed when the type is compiled (feature `cel`): a rule the
//! apiserver could not compile fails `cargo build` at the rule, with the
//! parser's message, instead of failing when the CRD is applied.

use std::sync::LazyLock;

use cel::Env;

/// The parser's environment: the standard macros and optional syntax, as
/// the runtime's (its functions do not matter to parsing).
static ENV: LazyLock<Env> = LazyLock::new(|| Env::stdlib().with_optional_support(true));

/// `Err` with cel-go's message (`ERROR: <input>:1:9: Syntax error: ...`,
/// with the line and a caret) when `source` does not parse.
pub fn parse(source: &str) -> Result<(), String> {
    ENV.parser()
        .parse(source)
        .map(drop)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn rules_parse_or_name_the_place_of_the_error() {
        assert!(parse("self.a == oldSelf.a && has(self.b)").is_ok());
        assert!(parse("self.?a.orValue('') == ''").is_ok());
        assert!(parse("self.all(x, x > 0)").is_ok());
        let e = parse("self.a ==").unwrap_err();
        assert!(e.starts_with("ERROR: <input>:1:10: Syntax error:"), "{e}");
        assert!(parse("self.").is_err());
        assert!(parse("'unterminated").is_err());
    }
}
