//! The CEL validation tests of apiextensions-apiserver
//! (`pkg/apiserver/schema/cel/validation_test.go` of
//! kubernetes/apiextensions-apiserver at
//! 1aa2717a552ee6ca1e2a18f1f8ffccde981db923), translated into
//! `tests/cel_conformance/*.json` and run against [`api_core::cel::Validator`].
//!
//! # The data
//!
//! Each file is a list of cases, one per upstream test case, named by
//! `upstream` (`TestFunction/case name`). A case has a `schema` (OpenAPI
//! v3 as a CRD writes it), an `object`, maybe an `oldObject` (an update;
//! `null` is an old value that is null, as opposed to no old value), and
//! `isRoot` (the schema is a resource's root: `apiVersion`, `kind` and
//! `metadata.name` are visible). It is checked in one of two ways.
//!
//! * Rule tables (`TestValidationExpressions`, `TestCELMaxRecursionDepth`):
//!   every rule of `valid` and `errors` is put alone in the root schema's
//!   `x-kubernetes-validations` (upstream's `withRule`). A `valid` rule
//!   must give no error (validated with `isRoot`); an `errors` rule must
//!   give at least one error, every one of type `FieldValueInvalid` and
//!   containing `contains` (validated as a resource root, as upstream's
//!   runner does with `NewValidator(&s, true, ...)`).
//! * Whole schemas (the other tests), whose rules are in the schema:
//!   `expectErrors` lists substrings; every error must be of type
//!   `FieldValueInvalid` and contain a distinct one of them, and each must
//!   be matched (so `[]` means no error). `expectFieldErrors` lists
//!   `{type, field}`: the errors' types and fields must be exactly these
//!   (`TestReasonAndFldPath`, which ignores details). Ratcheting cases
//!   also list `ratchetedWarnings`, the errors the apiserver turns into
//!   warnings; they must not be errors here.
//!
//! Every field path starts at `root`, as upstream's `field.NewPath("root")`.
//! Upstream runs only `TestRatcheting` with ratcheting; the engine always
//! ratchets when there is an old value, which changes no upstream verdict
//! here (the other cases' old values differ from the new ones, or their
//! failing rules read `oldSelf`, or fail to evaluate, none of which is
//! ratcheted). Cost budgets and `expectedCost` are not translated; the
//! cases that only test them are left out.
//!
//! # Agreement
//!
//! Each check has an id: the case's `upstream` name, plus the rule (cut at
//! 127 characters, `#01`... for repeats, as Go names subtests) for rule
//! tables. [`KNOWN_GAPS`] lists the checks where the engine is known to
//! disagree with upstream, with the reason; the test fails when any other
//! check disagrees, and when a listed one agrees (prune the list). Run
//! with `CEL_CONFORMANCE_VERBOSE=1` and `--nocapture` to print what each
//! disagreeing check got.

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use api_core::cel::Validator;
use api_core::{ErrorList, ErrorType, FieldPath};
use serde_json::{Value, json};

// Why checks disagree with upstream (the categories of KNOWN_GAPS).

/// `optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00Z'))` is not
/// `optional.none()`: the `cel` crate does not take the zero timestamp for
/// a zero value.
const OPTIONAL_EQUALITY: &str = "zero timestamp not a zero value";

/// `'%e'.format([3.14])` gives `3.140000e+00` (cel-go: `3.140000×10⁰⁰`).
const FORMAT_STRING: &str = "string.format() of duration/timestamp/%e";

/// `no viable alternative at input '.true'` for `mismatched input 'true' expecting IDENTIFIER`.
const WORDING_SYNTAX: &str = "message wording: syntax error";

/// A value that does not match its schema (an array for an object, a bool for
/// int-or-string, `null` in a non-nullable list) is an `invalid data, ...`
/// error when a rule reads it; here it is converted as is.
const INVALID_DATA: &str = "invalid data not reported";

/// The checks known to disagree with upstream, by reason.
const KNOWN_GAPS: &[(&str, &[&str])] = &[
    (
        OPTIONAL_EQUALITY,
        &[
            "TestValidationExpressions/optionals/optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00.000+00:00')) == optional.none()",
        ],
    ),
    (
        FORMAT_STRING,
        &["TestValidationExpressions/unicode strings/'%e'.format([3.14]) == '3.140000×10⁰⁰'"],
    ),
    (
        WORDING_SYNTAX,
        &["TestValidationExpressions/escaping/self.true == 1"],
    ),
    (
        INVALID_DATA,
        &[
            "TestValidationExpressions/invalid data/has(self.o)",
            "TestValidationExpressions/invalid data/has(self.m)",
            "TestValidationExpressions/invalid data/has(self.l)",
            "TestValidationExpressions/invalid data/has(self.s)",
            "TestValidationExpressions/invalid data/has(self.lm)",
            "TestValidationExpressions/invalid data/has(self.intorstring)",
            "TestValidationExpressions/invalid data/self.nullable[0] == 'x'",
        ],
    ),
];

/// One check's verdict: `Err` says what the engine did instead.
type Verdict = Result<(), String>;

struct Check {
    id: String,
    verdict: Verdict,
}

fn type_name(t: ErrorType) -> &'static str {
    t.as_str()
}

fn show(errors: &ErrorList) -> String {
    if errors.is_empty() {
        return "no error".to_string();
    }
    let all: Vec<String> = errors
        .iter()
        .map(|e| format!("[{}] {e}", type_name(e.error_type)))
        .collect();
    all.join(" | ")
}

/// Validates `object` (and `old`) against `schema`'s rules, at `root`.
/// A panic of the engine is a verdict too.
fn validate(
    schema: &Value,
    is_root: bool,
    object: &Value,
    old: Option<&Value>,
) -> Result<ErrorList, String> {
    catch_unwind(AssertUnwindSafe(|| {
        let validator = if is_root {
            Validator::new(schema)
        } else {
            Validator::for_value(schema)
        };
        validator.validate(object, old, &FieldPath::new("root"))
    }))
    .map_err(|p| {
        let what = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("engine panicked: {what}")
    })
}

/// `schema` with `rule` as its only root rule (upstream's `withRule`).
fn with_rule(schema: &Value, rule: &str) -> Value {
    let mut s = schema.clone();
    s.as_object_mut()
        .expect("a rule table's schema is an object")
        .insert(
            "x-kubernetes-validations".to_string(),
            json!([{ "rule": rule }]),
        );
    s
}

fn valid_rule(case: &Case<'_>, rule: &str) -> Verdict {
    let errors = validate(
        &with_rule(case.schema, rule),
        case.is_root,
        case.object,
        case.old,
    )?;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(show(&errors))
    }
}

fn error_rule(case: &Case<'_>, rule: &str, contains: &str) -> Verdict {
    let errors = validate(&with_rule(case.schema, rule), true, case.object, case.old)?;
    let ok = !errors.is_empty()
        && errors
            .iter()
            .all(|e| e.error_type == ErrorType::Invalid && e.to_string().contains(contains));
    if ok { Ok(()) } else { Err(show(&errors)) }
}

/// Upstream's matching of `TestValidationExpressionsAtSchemaLevels` and
/// the others: each error is Invalid and takes one unmatched expectation.
fn expect_errors(case: &Case<'_>, expected: &[Value]) -> Verdict {
    let errors = validate(case.schema, case.is_root, case.object, case.old)?;
    let mut unmatched: Vec<&str> = expected
        .iter()
        .map(|e| e.as_str().expect("expectErrors: strings"))
        .collect();
    let mut ok = true;
    for e in errors.iter() {
        let text = e.to_string();
        match unmatched.iter().position(|x| text.contains(x)) {
            Some(i) if e.error_type == ErrorType::Invalid => {
                unmatched.remove(i);
            }
            _ => ok = false,
        }
    }
    if ok && unmatched.is_empty() {
        Ok(())
    } else {
        Err(show(&errors))
    }
}

/// `TestReasonAndFldPath`: the errors' (type, field) pairs, in any order.
fn expect_field_errors(case: &Case<'_>, expected: &[Value]) -> Verdict {
    let errors = validate(case.schema, case.is_root, case.object, case.old)?;
    let mut want: Vec<(String, String)> = expected
        .iter()
        .map(|e| {
            (
                e["type"].as_str().expect("type").to_string(),
                e["field"].as_str().expect("field").to_string(),
            )
        })
        .collect();
    let mut got: Vec<(String, String)> = errors
        .iter()
        .map(|e| (type_name(e.error_type).to_string(), e.field.clone()))
        .collect();
    want.sort();
    got.sort();
    if want == got {
        Ok(())
    } else {
        Err(show(&errors))
    }
}

struct Case<'a> {
    upstream: &'a str,
    schema: &'a Value,
    object: &'a Value,
    old: Option<&'a Value>,
    is_root: bool,
}

/// Go's subtest name of a rule: the rule cut at 127 characters.
fn rule_name(rule: &str) -> String {
    rule.chars().take(127).collect()
}

fn run_case(raw: &Value, checks: &mut Vec<Check>, names: &mut HashMap<String, usize>) {
    let case = Case {
        upstream: raw["upstream"].as_str().expect("upstream"),
        schema: &raw["schema"],
        object: &raw["object"],
        old: raw.get("oldObject"),
        is_root: raw.get("isRoot").and_then(Value::as_bool).unwrap_or(false),
    };
    let mut push = |name: String, verdict: Verdict| {
        let n = names.entry(name.clone()).or_insert(0);
        let id = if *n == 0 {
            name
        } else {
            format!("{name}#{:02}", *n)
        };
        *n += 1;
        checks.push(Check { id, verdict });
    };
    if raw.get("valid").is_some() || raw.get("errors").is_some() {
        // The harness itself: a rule-table case whose root rule `false`
        // did not fail would make every `valid` rule pass for nothing. (No
        // old value: an unchanged value would be ratcheted.)
        let sentinel = validate(
            &with_rule(case.schema, "false"),
            case.is_root,
            case.object,
            None,
        );
        assert!(
            sentinel.as_ref().is_ok_and(|e| !e.is_empty()),
            "{}: the rule `false` must fail, got {sentinel:?}",
            case.upstream
        );
    }
    for rule in raw
        .get("valid")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let rule = rule.as_str().expect("valid: strings");
        push(
            format!("{}/{}", case.upstream, rule_name(rule)),
            valid_rule(&case, rule),
        );
    }
    for e in raw
        .get("errors")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let rule = e["rule"].as_str().expect("errors: rule");
        let contains = e["contains"].as_str().expect("errors: contains");
        push(
            format!("{}/{}", case.upstream, rule_name(rule)),
            error_rule(&case, rule, contains),
        );
    }
    if let Some(expected) = raw.get("expectErrors").and_then(Value::as_array) {
        push(case.upstream.to_string(), expect_errors(&case, expected));
    }
    if let Some(expected) = raw.get("expectFieldErrors").and_then(Value::as_array) {
        push(
            case.upstream.to_string(),
            expect_field_errors(&case, expected),
        );
    }
}

fn load() -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cel_conformance");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/cel_conformance")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read a case file");
            let v: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_name().unwrap().to_string_lossy().into_owned(), v)
        })
        .collect()
}

#[test]
fn cel_conformance() {
    // Deeply nested rules (TestCELMaxRecursionDepth) need a deep stack in
    // an unoptimized build.
    let checks = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let mut checks = Vec::new();
            let mut names = HashMap::new();
            for (_, cases) in load() {
                for case in cases.as_array().expect("a file is a list of cases") {
                    run_case(case, &mut checks, &mut names);
                }
            }
            checks
        })
        .expect("spawn")
        .join()
        .expect("the conformance run");

    let mut gaps: BTreeMap<&str, &str> = BTreeMap::new();
    for (category, ids) in KNOWN_GAPS {
        for id in *ids {
            assert!(
                gaps.insert(id, category).is_none(),
                "KNOWN_GAPS lists {id:?} twice"
            );
        }
    }
    let verbose = std::env::var_os("CEL_CONFORMANCE_VERBOSE").is_some();

    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut by_category: BTreeMap<&str, usize> = BTreeMap::new();
    let mut passing = 0;
    for c in &checks {
        match (&c.verdict, gaps.get(c.id.as_str())) {
            (Ok(()), None) => passing += 1,
            (Ok(()), Some(_)) => fixed.push(c.id.clone()),
            (Err(got), None) => unexpected.push(format!("{:?}\n    got: {got}", c.id)),
            (Err(got), Some(category)) => {
                *by_category.entry(category).or_default() += 1;
                if verbose {
                    println!("gap [{category}] {:?}\n    got: {got}", c.id);
                }
            }
        }
    }
    let ids: std::collections::HashSet<&str> = checks.iter().map(|c| c.id.as_str()).collect();
    let unknown: Vec<&str> = gaps
        .keys()
        .copied()
        .filter(|id| !ids.contains(id))
        .collect();

    println!(
        "CEL conformance: {} checks, {passing} agree with upstream",
        checks.len()
    );
    for (category, n) in &by_category {
        println!("  known gap {category}: {n}");
    }
    let mut problems = String::new();
    for u in &unexpected {
        problems.push_str(&format!("disagrees with upstream: {u}\n"));
    }
    for f in &fixed {
        problems.push_str(&format!("now agrees, remove from KNOWN_GAPS: {f:?}\n"));
    }
    for u in &unknown {
        problems.push_str(&format!("KNOWN_GAPS names no check: {u:?}\n"));
    }
    assert!(problems.is_empty(), "\n{problems}");
}
