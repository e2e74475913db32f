//! The regex library of k8s.io/apiserver (`pkg/cel/library/regex.go`):
//! `<string>.find(<string>)`, `<string>.findAll(<string>)` and
//! `<string>.findAll(<string>, <int>)`.
//!
//! Patterns are RE2's, as Go's `regexp` reads them: they are translated
//! and compiled by [`crate::go_regex`], whose cache they share with schema
//! `pattern`s (its documentation says where the two dialects differ).
//!
//! Errors are Go's runtime ones (`Illegal regex: error parsing regexp: ...`).
//! A constant pattern that does not compile fails the rule's compilation,
//! as in cel-go: `invalid matches argument: ...` from the checker (cel-go's
//! `ValidateRegexLiterals`), `program instantiation failed: ...` for `find`
//! and `findAll` (`tree::constant_patterns`).

use std::sync::Arc;

use ::cel::common::types::{CelBool, CelInt, CelList, CelString};
use ::cel::common::value::Val;
use ::cel::{DeclarationError, Env, ExecutionError};
use regex::Regex;

use crate::go_regex;

/// Declares the library's functions on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    // The standard library's `matches` (the `cel` crate's `regex` feature
    // is off): Go's syntax and meaning, and compiled patterns kept.
    ::cel::add_member_overload!(env,
        fn matches: (CelString<'_>, CelString<'_>) -> Result<CelBool>,
        id = "matches_string")?;
    ::cel::add_overload!(env,
        fn matches: (CelString<'_>, CelString<'_>) -> Result<CelBool>,
        id = "matches")?;
    ::cel::add_member_overload!(env,
        fn find: (CelString<'_>, CelString<'_>) -> Result<CelString<'_>>,
        id = "string_find_string")?;
    ::cel::add_member_overload!(env,
        fn find_all: (CelString<'_>, CelString<'_>) -> Result<CelList<'_>>,
        id = "string_find_all_string")?;
    ::cel::add_member_overload!(env,
        fn find_all_limit: (CelString<'_>, CelString<'_>, CelInt) -> Result<CelList<'_>>,
        name = "findAll", id = "string_find_all_string_int")?;
    Ok(())
}

/// `s.matches(pattern)`: whether `pattern` matches anywhere in `s`.
fn matches(s: &CelString<'_>, pattern: &CelString<'_>) -> Result<CelBool, ExecutionError> {
    let re = compile("matches", pattern.inner())?;
    Ok(CelBool::from(re.is_match(s.inner())))
}

/// `s.find(pattern)`: the leftmost match, or `''`.
fn find(s: &CelString<'_>, pattern: &CelString<'_>) -> Result<CelString<'static>, ExecutionError> {
    let re = compile("find", pattern.inner())?;
    let found = re.find(s.inner()).map_or("", |m| m.as_str());
    Ok(CelString::from(found.to_owned()))
}

/// `s.findAll(pattern)`: every match, left to right.
fn find_all(
    s: &CelString<'_>,
    pattern: &CelString<'_>,
) -> Result<CelList<'static>, ExecutionError> {
    find_n("findAll", s, pattern, -1)
}

/// `s.findAll(pattern, n)`: at most `n` matches when `n` is not negative.
fn find_all_limit(
    s: &CelString<'_>,
    pattern: &CelString<'_>,
    n: &CelInt,
) -> Result<CelList<'static>, ExecutionError> {
    find_n("findAll", s, pattern, *n.inner())
}

fn find_n(
    function: &str,
    s: &CelString<'_>,
    pattern: &CelString<'_>,
    n: i64,
) -> Result<CelList<'static>, ExecutionError> {
    let re = compile(function, pattern.inner())?;
    // Go's FindAllString: a negative limit is no limit. Both skip an empty
    // match right after a match, and never split a character.
    let limit = usize::try_from(n).unwrap_or(usize::MAX);
    let matches: Vec<Box<dyn Val>> = re
        .find_iter(s.inner())
        .take(limit)
        .map(|m| Box::new(CelString::from(m.as_str().to_owned())) as Box<dyn Val>)
        .collect();
    Ok(CelList::from(matches))
}

/// `pattern` compiled with Go's syntax and meaning, or the `Illegal regex`
/// error of `function`.
fn compile(function: &str, pattern: &str) -> Result<Arc<Regex>, ExecutionError> {
    go_regex::compile(pattern).map_err(|e| {
        ExecutionError::function_error(function, format!("Illegal regex: {}", e.message()))
    })
}

/// `Ok(())` when `pattern` can be matched (a constant pattern that cannot
/// fails the rule's compilation), else Go's error.
pub(in crate::schema::structural::cel) fn check(pattern: &str) -> Result<(), String> {
    go_regex::compile(pattern)
        .map(drop)
        .map_err(|e| e.message().to_owned())
}

#[cfg(test)]
mod tests {

    use super::super::testing::assert_true;

    use super::super::testing::function_error as error;

    /// The examples of `regex.go`'s documentation, and the regex cases of
    /// apiextensions-apiserver's `TestValidationExpressions` ("stdlib regex
    /// functions", with `self.str` spelled out).
    #[test]
    fn find_and_find_all() {
        assert_true("'abc 123'.find('[0-9]*') == ''");
        assert_true("'abc 123'.find('[0-9]+') == '123'");
        assert_true("'abc 123'.find('xyz') == ''");
        assert_true("'123 abc 456'.findAll('[0-9]+') == ['123', '456']");
        assert_true("'123 abc 456'.findAll('[0-9]+', 1) == ['123']");
        assert_true("'123 abc 456'.findAll('xyz') == []");
        let s = "'this is a 123 string 456'";
        for rule in [
            "S.find('[0-9]+') == '123'",
            "S.find('[0-9]+') != '456'",
            "S.find('xyz') == ''",
            "S.findAll('[0-9]+') == ['123', '456']",
            "S.findAll('[0-9]+', 0) == []",
            "S.findAll('[0-9]+', 1) == ['123']",
            "S.findAll('[0-9]+', 2) == ['123', '456']",
            "S.findAll('[0-9]+', 3) == ['123', '456']",
            "S.findAll('[0-9]+', -1) == ['123', '456']",
            "S.findAll('xyz') == []",
            "S.findAll('xyz', 1) == []",
        ] {
            assert_true(&rule.replace('S', s));
        }
        for rule in ["S.find(')')", "S.findAll(')')", "S.findAll(')', 1)"] {
            assert_eq!(
                error(&rule.replace('S', s)),
                "Illegal regex: error parsing regexp: unexpected ): `)`"
            );
        }
    }

    /// Empty matches: Go's `FindAllString` semantics.
    #[test]
    fn empty_matches_are_go_s() {
        assert_true("'baaab'.findAll('a*') == ['', 'aaa', '']");
        assert_true("'héé'.findAll('') == ['', '', '', '']");
        assert_true("'abc'.find('') == ''");
    }

    /// Where RE2 and the `regex` crate read a pattern differently.
    #[test]
    fn go_s_meaning() {
        // ASCII classes and word boundaries.
        assert_true("'٣3'.find('\\\\d+') == '3'");
        assert_true("'é_a1'.find('\\\\w+') == '_a1'");
        assert_true("'a\\u000bb'.findAll('\\\\s') == []");
        assert_true("'éa'.findAll('\\\\b') == ['', '']");
        // Class members the regex crate would read as syntax.
        assert_true("'a[b&&c'.findAll('[[&]') == ['[', '&', '&']");
        assert_true("'a-~b'.findAll('[a-b~-]') == ['a', '-', '~', 'b']");
        assert_true("'x[:y'.find('[[:]+') == '[:'");
        assert_true("'ab0'.findAll('[^\\\\D]') == ['0']");
        assert_true("'aB1'.findAll('[[:upper:]\\\\d]') == ['B', '1']");
        // Literal braces, \\Q...\\E, octal and hex escapes.
        assert_true("'a{,3}'.find('a{,3}') == 'a{,3}'");
        assert_true("'x{'.find('x{') == 'x{'");
        assert_true("'a.b*'.find('\\\\Q.b*\\\\E') == '.b*'");
        assert_true("'a.b*'.find('\\\\Q.b*') == '.b*'");
        assert_true("'A'.find('\\\\101') == 'A'");
        assert_true("'A'.find('\\\\x41') == 'A'");
        assert_true("'é'.find('\\\\x{e9}') == 'é'");
        // Unicode classes, negated Go's way.
        assert_true("'aé1'.findAll('\\\\p{^L}') == ['1']");
        assert_true("'aé1'.findAll('\\\\pL') == ['a', 'é']");
        assert_true("'aé1'.findAll('[\\\\P{^L}]') == ['a', 'é']");
        // Flags, named groups, lazy repetitions.
        assert_true("'ABC'.find('(?i)b') == 'B'");
        assert_true("'aaa'.find('a+?') == 'a'");
        assert_true("'aaa'.find('(?U)a+') == 'a'");
        assert_true("'ab'.find('(?P<x>a)(?<y>b)') == 'ab'");
        assert_true("'ab'.find('(?i-s:A)') == 'a'");
        assert_true("'aaa'.find('a(?i)*') == 'aaa'");
        assert_true("'aaaa'.find('(a{2}){2}') == 'aaaa'");
    }

    /// Go's `regexp/syntax` errors.
    #[test]
    fn go_s_errors() {
        for (pattern, message) in [
            ("x++", "invalid nested repetition operator: `++`"),
            ("a**", "invalid nested repetition operator: `**`"),
            ("a*?*", "invalid nested repetition operator: `*?*`"),
            ("a{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
            ("*a", "missing argument to repetition operator: `*`"),
            ("(*)", "missing argument to repetition operator: `*`"),
            ("a|+", "missing argument to repetition operator: `+`"),
            ("a{1001}", "invalid repeat count: `{1001}`"),
            ("a{2,1}", "invalid repeat count: `{2,1}`"),
            ("(a{500}){3}", "invalid repeat count: `{3}`"),
            ("(abc", "missing closing ): `(abc`"),
            ("a)", "unexpected ): `a)`"),
            ("[a", "missing closing ]: `[a`"),
            ("[]", "missing closing ]: `[]`"),
            ("[z-a]", "invalid character class range: `z-a`"),
            ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
            (r"\pX", r"invalid character class range: `\pX`"),
            (r"\p{Foo}", r"invalid character class range: `\p{Foo}`"),
            (r"\8", r"invalid escape sequence: `\8`"),
            (r"\1", r"invalid escape sequence: `\1`"),
            (r"\C", r"invalid escape sequence: `\C`"),
            (r"\Z", r"invalid escape sequence: `\Z`"),
            (r"\x{zz}", r"invalid escape sequence: `\x{z`"),
            (r"\xg1", r"invalid escape sequence: `\xg1`"),
            (r"\x{110000}", r"invalid escape sequence: `\x{110000`"),
            (r"[\b]", r"invalid escape sequence: `\b`"),
            (r"a\", "trailing backslash at end of expression: ``"),
            ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
            ("(?x)a", "invalid or unsupported Perl syntax: `(?x`"),
            ("(?i-)a", "invalid or unsupported Perl syntax: `(?i-)`"),
            ("(?P<a-b>x)", "invalid named capture: `(?P<a-b>`"),
            ("(?P<a", "invalid named capture: `(?P<a`"),
        ] {
            let expr = format!("'x'.find('{}')", pattern.replace('\\', "\\\\"));
            assert_eq!(
                error(&expr),
                format!("Illegal regex: error parsing regexp: {message}"),
                "{expr}"
            );
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}a{}", "(".repeat(600), ")*".repeat(600));
        let message = error(&format!("'a'.find('{deep}')"));
        assert!(
            message.starts_with("Illegal regex: error parsing regexp: expression nests too deeply"),
            "{message}"
        );
    }
}
