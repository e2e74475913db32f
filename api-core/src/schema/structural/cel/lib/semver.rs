//! The semver library of k8s.io/apiserver (`pkg/cel/library/semverlib.go`,
//! with the `kubernetes.Semver` type of `pkg/cel/semver.go`), at
//! `SemverVersion(1)` as the apiserver's base environment has it:
//! `semver(<string>)`, `semver(<string>, <bool>)`, `isSemver(<string>)`,
//! `isSemver(<string>, <bool>)`, and `major`, `minor`, `patch`,
//! `isGreaterThan`, `isLessThan` and `compareTo` on a version.
//!
//! Versions are parsed as `github.com/blang/semver/v4`'s `Parse` does, by
//! hand, for its error messages (`No Major.Minor.Patch elements found`),
//! which rules may show and which the `semver` crate words otherwise. Two
//! versions are equal when they compare equal: build metadata is checked,
//! but ignored.

use std::cmp::Ordering;

use ::cel::common::types::{CelBool, CelInt, CelString, Type};
use ::cel::{DeclarationError, Env, ExecutionError};

use super::urls::go_quote;

/// Declares the library's functions, and its type, on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_type(SEMVER_TYPE.to_owned())?;
    ::cel::add_overload!(env, fn semver: (CelString<'_>) -> Result<Semver>,
        id = "string_to_semver")?;
    ::cel::add_overload!(env, fn semver_normalize: (CelString<'_>, CelBool) -> Result<Semver>,
        name = "semver", id = "string_bool_to_semver")?;
    ::cel::add_overload!(env, fn is_semver: (CelString<'_>) -> CelBool, id = "is_semver_string")?;
    ::cel::add_overload!(env, fn is_semver_normalize: (CelString<'_>, CelBool) -> CelBool,
        name = "isSemver", id = "is_semver_string_bool")?;
    ::cel::add_member_overload!(env, fn is_greater_than: (Semver, Semver) -> CelBool,
        id = "semver_is_greater_than")?;
    ::cel::add_member_overload!(env, fn is_less_than: (Semver, Semver) -> CelBool,
        id = "semver_is_less_than")?;
    ::cel::add_member_overload!(env, fn compare_to: (Semver, Semver) -> CelInt,
        id = "semver_compare_to")?;
    ::cel::add_member_overload!(env, fn major: (Semver) -> CelInt, id = "semver_major")?;
    ::cel::add_member_overload!(env, fn minor: (Semver) -> CelInt, id = "semver_minor")?;
    ::cel::add_member_overload!(env, fn patch: (Semver) -> CelInt, id = "semver_patch")?;
    Ok(())
}

/// `kubernetes.Semver`, the type of [`Semver`].
static SEMVER_TYPE: Type = Type::new_unspecified_type("kubernetes.Semver");

/// A pre-release identifier: a number, or alphanumerics.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pre {
    Num(u64),
    Alpha(String),
}

impl Pre {
    /// Numbers order before alphanumerics, which order by their bytes.
    fn compare(&self, other: &Pre) -> Ordering {
        match (self, other) {
            (Pre::Num(a), Pre::Num(b)) => a.cmp(b),
            (Pre::Num(_), Pre::Alpha(_)) => Ordering::Less,
            (Pre::Alpha(_), Pre::Num(_)) => Ordering::Greater,
            (Pre::Alpha(a), Pre::Alpha(b)) => a.cmp(b),
        }
    }
}

/// A semantic version of a rule (`semver('1.2.3')`): blang/semver's
/// `Version`, without its build metadata, which nothing reads.
#[derive(Clone, Debug)]
pub(crate) struct Semver {
    major: u64,
    minor: u64,
    patch: u64,
    pre: Vec<Pre>,
}

impl Semver {
    /// blang/semver's `Compare`: by number, then a version without
    /// pre-release identifiers orders after one with, then identifier by
    /// identifier, a longer list after its prefix. Build metadata does not
    /// count.
    fn compare(&self, other: &Semver) -> Ordering {
        let numbers =
            (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if numbers != Ordering::Equal {
            return numbers;
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            (false, false) => {}
        }
        for (a, b) in self.pre.iter().zip(&other.pre) {
            let order = a.compare(b);
            if order != Ordering::Equal {
                return order;
            }
        }
        self.pre.len().cmp(&other.pre.len())
    }
}

super::library_value!(Semver, SEMVER_TYPE, |a, b| a.compare(b) == Ordering::Equal);

const NUMBERS: &str = "0123456789";

/// blang/semver's `containsOnly` (true of an empty string).
fn contains_only(s: &str, set: &str) -> bool {
    s.chars().all(|c| set.contains(c))
}

/// Letters, digits and `-`, blang/semver's `alphanum`.
fn is_alphanum(s: &str) -> bool {
    s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

fn has_leading_zeroes(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go's `strconv.ParseUint(s, 10, 64)` of digits.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            go_quote(s.as_bytes())
        ));
    }
    s.parse::<u64>().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: value out of range",
            go_quote(s.as_bytes())
        )
    })
}

/// A number of a version (`part` is `major`, `minor` or `patch`).
fn number(s: &str, part: &str) -> Result<u64, String> {
    if !contains_only(s, NUMBERS) {
        return Err(format!(
            "Invalid character(s) found in {part} number {}",
            go_quote(s.as_bytes())
        ));
    }
    if has_leading_zeroes(s) {
        let mut capitalized = part.to_owned();
        capitalized[..1].make_ascii_uppercase();
        return Err(format!(
            "{capitalized} number must not contain leading zeroes {}",
            go_quote(s.as_bytes())
        ));
    }
    parse_uint(s)
}

/// blang/semver's `NewPRVersion`.
fn pre_release(s: &str) -> Result<Pre, String> {
    if s.is_empty() {
        return Err("Prerelease is empty".to_owned());
    }
    if contains_only(s, NUMBERS) {
        if has_leading_zeroes(s) {
            return Err(format!(
                "Numeric PreRelease version must not contain leading zeroes {}",
                go_quote(s.as_bytes())
            ));
        }
        return parse_uint(s).map(Pre::Num);
    }
    if is_alphanum(s) {
        return Ok(Pre::Alpha(s.to_owned()));
    }
    Err(format!(
        "Invalid character(s) found in prerelease {}",
        go_quote(s.as_bytes())
    ))
}

/// blang/semver's `Parse`: `major.minor.patch[-pre.release][+build.meta]`.
fn parse(s: &str) -> Result<Semver, String> {
    if s.is_empty() {
        return Err("Version string empty".to_owned());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts.as_slice() else {
        return Err("No Major.Minor.Patch elements found".to_owned());
    };
    let major = number(major, "major")?;
    let minor = number(minor, "minor")?;
    let (rest, build) = match rest.split_once('+') {
        Some((r, b)) => (r, b.split('.').collect()),
        None => (*rest, Vec::new()),
    };
    let (patch, pre) = match rest.split_once('-') {
        Some((p, pre)) => (p, pre.split('.').collect()),
        None => (rest, Vec::new()),
    };
    let patch = number(patch, "patch")?;
    let pre = pre
        .into_iter()
        .map(pre_release)
        .collect::<Result<Vec<_>, _>>()?;
    for b in build {
        if b.is_empty() {
            return Err("Build meta data is empty".to_owned());
        }
        if !is_alphanum(b) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                go_quote(b.as_bytes())
            ));
        }
    }
    Ok(Semver {
        major,
        minor,
        patch,
        pre,
    })
}

/// The library's `normalizeAndParse`: no `v` prefix, no leading zeros, and
/// missing minor and patch numbers are `0`.
fn normalize_and_parse(s: &str) -> Result<Semver, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s
        .splitn(3, '.')
        .map(|p| {
            if p.len() <= 1 {
                return p.to_owned();
            }
            let trimmed = p.trim_start_matches('0');
            if trimmed.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                trimmed.to_owned()
            } else {
                format!("0{trimmed}")
            }
        })
        .collect();
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".to_owned());
        }
        parts.resize(3, "0".to_owned());
    }
    parse(&parts.join("."))
}

fn parse_with(s: &str, normalize: bool) -> Result<Semver, String> {
    if normalize {
        normalize_and_parse(s)
    } else {
        parse(s)
    }
}

/// `semver(s)`.
fn semver(s: &CelString<'_>) -> Result<Semver, ExecutionError> {
    semver_normalize(s, &CelBool::from(false))
}

/// `semver(s, normalize)`.
fn semver_normalize(s: &CelString<'_>, normalize: &CelBool) -> Result<Semver, ExecutionError> {
    parse_with(s.inner(), *normalize.inner())
        .map_err(|e| ExecutionError::function_error("semver", e))
}

/// `isSemver(s)`: whether `semver(s)` succeeds.
fn is_semver(s: &CelString<'_>) -> CelBool {
    is_semver_normalize(s, &CelBool::from(false))
}

/// `isSemver(s, normalize)`.
fn is_semver_normalize(s: &CelString<'_>, normalize: &CelBool) -> CelBool {
    CelBool::from(parse_with(s.inner(), *normalize.inner()).is_ok())
}

fn is_greater_than(v: &Semver, other: &Semver) -> CelBool {
    CelBool::from(v.compare(other) == Ordering::Greater)
}

fn is_less_than(v: &Semver, other: &Semver) -> CelBool {
    CelBool::from(v.compare(other) == Ordering::Less)
}

fn compare_to(v: &Semver, other: &Semver) -> CelInt {
    CelInt::from(match v.compare(other) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    })
}

/// Go's `int64(n)` of a `uint64`: numbers past `i64::MAX` wrap.
fn int(n: u64) -> CelInt {
    CelInt::from(i64::from_ne_bytes(n.to_ne_bytes()))
}

fn major(v: &Semver) -> CelInt {
    int(v.major)
}

fn minor(v: &Semver) -> CelInt {
    int(v.minor)
}

fn patch(v: &Semver) -> CelInt {
    int(v.patch)
}

#[cfg(test)]
mod tests {
    use ::cel::{ExecutionError, Value};

    use super::super::testing::eval;

    use super::super::testing::function_error as error;

    /// k8s.io/apiserver `pkg/cel/library/semver_test.go` (`TestSemver`),
    /// but for its compile-time check of `isSemver([1, 2, 3])`, which fails
    /// when it runs here.
    #[test]
    fn semver_test() {
        for (expr, want) in [
            (r#"semver("1.2.3") == semver("1.2.3")"#, Value::Bool(true)),
            (r#"isSemver("1.2.3-beta.1+build.1")"#, Value::Bool(true)),
            (r#"isSemver("")"#, Value::Bool(false)),
            (r#"isSemver("v1.0.0")"#, Value::Bool(false)),
            (r#"isSemver(" 1.0.0")"#, Value::Bool(false)),
            (r#"isSemver("1. 0.0")"#, Value::Bool(false)),
            (r#"isSemver("1.0.0 ")"#, Value::Bool(false)),
            (r#"isSemver("01.01.01")"#, Value::Bool(false)),
            (r#"isSemver("1")"#, Value::Bool(false)),
            (r#"isSemver("1.1")"#, Value::Bool(false)),
            (r#"isSemver("", true)"#, Value::Bool(false)),
            (r#"isSemver(" 1.0.0", true)"#, Value::Bool(false)),
            (r#"isSemver("1. 0.0", true)"#, Value::Bool(false)),
            (r#"isSemver("1.0.0 ", true)"#, Value::Bool(false)),
            (r#"isSemver("v1.0.0", true)"#, Value::Bool(true)),
            (r#"isSemver("01.01.01", true)"#, Value::Bool(true)),
            (r#"isSemver("1", true)"#, Value::Bool(true)),
            (r#"isSemver("1.1", true)"#, Value::Bool(true)),
            (
                r#"semver("v01.01", true) == semver("1.1.0")"#,
                Value::Bool(true),
            ),
            (r#"semver("1.2.3") == semver("1.2.3")"#, Value::Bool(true)),
            (r#"semver("1.2.3") == semver("1.0.0")"#, Value::Bool(false)),
            (
                r#"semver("1.0.0").isLessThan(semver("1.2.3"))"#,
                Value::Bool(true),
            ),
            (
                r#"semver("1.0.0").isLessThan(semver("1.0.0"))"#,
                Value::Bool(false),
            ),
            (
                r#"semver("1.2.3").isGreaterThan(semver("1.0.0"))"#,
                Value::Bool(true),
            ),
            (
                r#"semver("1.0.0").isGreaterThan(semver("1.0.0"))"#,
                Value::Bool(false),
            ),
            (
                r#"semver("1.2.3").compareTo(semver("1.2.3"))"#,
                Value::Int(0),
            ),
            (
                r#"semver("1.0.0").compareTo(semver("1.2.3"))"#,
                Value::Int(-1),
            ),
            (
                r#"semver("1.2.3").compareTo(semver("1.0.0"))"#,
                Value::Int(1),
            ),
            (r#"semver("1.2.3").major()"#, Value::Int(1)),
            (r#"semver("1.2.3").minor()"#, Value::Int(2)),
            (r#"semver("1.2.3").patch()"#, Value::Int(3)),
        ] {
            assert_eq!(eval(expr), Ok(want), "{expr}");
        }
        assert_eq!(
            error(r#"semver("v1.0")"#),
            "No Major.Minor.Patch elements found"
        );
        assert!(matches!(
            eval("isSemver([1, 2, 3])"),
            Err(ExecutionError::NoSuchOverload(_))
        ));
    }

    /// The examples of `semverlib.go`'s documentation.
    #[test]
    fn documented_examples() {
        for expr in [
            "semver('1.0.0') == semver('1.0.0')",
            "semver('0.1.0-alpha.1').minor() == 1",
            "semver('v1.0.0', true) == semver('1.0.0')",
            "semver('1.0', true) == semver('1.0.0')",
            "semver('01.01.01', true) == semver('1.1.1')",
            "isSemver('1.0.0')",
            "!isSemver('hello')",
            "!isSemver('v1.0')",
            "isSemver('v1.0', true)",
            "semver('1.2.3').compareTo(semver('2.0.0')) == -1",
            "semver('1.2.3').compareTo(semver('0.1.2')) == 1",
            "type(semver('1.0.0')) == kubernetes.Semver",
        ] {
            assert_eq!(eval(expr), Ok(Value::Bool(true)), "{expr}");
        }
        for expr in ["semver('200K')", "semver('Three')", "semver('Mi')"] {
            assert_eq!(error(expr), "No Major.Minor.Patch elements found", "{expr}");
        }
    }

    /// blang/semver's parsing and ordering (SemVer 2.0.0's precedence).
    #[test]
    fn blang_semver() {
        for expr in [
            // Pre-releases order before the release, identifier by identifier.
            "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))",
            "semver('1.0.0-alpha').isLessThan(semver('1.0.0-alpha.1'))",
            "semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))",
            "semver('1.0.0-alpha.beta').isLessThan(semver('1.0.0-beta'))",
            "semver('1.0.0-beta.2').isLessThan(semver('1.0.0-beta.11'))",
            "semver('1.0.0-beta.11').isLessThan(semver('1.0.0-rc.1'))",
            "semver('1.0.0-Z').isLessThan(semver('1.0.0-a'))",
            // Build metadata does not count.
            "semver('1.0.0+a') == semver('1.0.0+b')",
            "semver('1.0.0+a').compareTo(semver('1.0.0')) == 0",
            // Accepted forms.
            "isSemver('1.0.0-0.3.7')",
            "isSemver('1.0.0-x-y-z.--')",
            "isSemver('1.0.0+001')",
            "isSemver('1.0.0-rc.1+build.1-x')",
            "isSemver('18446744073709551615.0.0')",
            "semver('18446744073709551615.0.0').major() == -1",
            // Normalization.
            "semver('v00.000.0001-rc', true) == semver('0.0.1-rc')",
            "semver('1.01.0-a', true) == semver('1.1.0-a')",
            "!isSemver('1.01-a', true)",
            "!isSemver('1.1-a', true)",
            "!isSemver('1+b', true)",
            "!isSemver('vv1', true)",
            "isSemver('0a.1.2', true) == false",
        ] {
            assert_eq!(eval(expr), Ok(Value::Bool(true)), "{expr}");
        }
        for (input, message) in [
            ("", "Version string empty"),
            ("1.2", "No Major.Minor.Patch elements found"),
            ("a.2.3", r#"Invalid character(s) found in major number "a""#),
            (
                "01.2.3",
                r#"Major number must not contain leading zeroes "01""#,
            ),
            ("1.x.3", r#"Invalid character(s) found in minor number "x""#),
            (
                "1.02.3",
                r#"Minor number must not contain leading zeroes "02""#,
            ),
            (
                "1.2.3.4",
                r#"Invalid character(s) found in patch number "3.4""#,
            ),
            (
                "1.2.03",
                r#"Patch number must not contain leading zeroes "03""#,
            ),
            ("1..3", r#"strconv.ParseUint: parsing "": invalid syntax"#),
            (
                "18446744073709551616.0.0",
                r#"strconv.ParseUint: parsing "18446744073709551616": value out of range"#,
            ),
            ("1.2.3-", "Prerelease is empty"),
            ("1.2.3-a..b", "Prerelease is empty"),
            (
                "1.2.3-01",
                r#"Numeric PreRelease version must not contain leading zeroes "01""#,
            ),
            (
                "1.2.3-a_b",
                r#"Invalid character(s) found in prerelease "a_b""#,
            ),
            ("1.2.3+", "Build meta data is empty"),
            (
                "1.2.3+a_b",
                r#"Invalid character(s) found in build meta data "a_b""#,
            ),
            ("1.2.3-ü", r#"Invalid character(s) found in prerelease "ü""#),
        ] {
            assert_eq!(error(&format!("semver('{input}')")), message, "{input}");
        }
        assert_eq!(
            error("semver('1-a', true)"),
            "short version cannot contain PreRelease/Build meta data"
        );
    }
}
