//! Label selectors: the cases of apimachinery's `selector_test.go` and
//! `helpers_test.go` (`LabelSelectorAsSelector`), error messages, and
//! properties (round trips, no panics).

use std::collections::{BTreeMap, HashMap};

use api_core::labels::{Labels, Operator, Requirement, Selector, SelectorParseError};
use api_core::{LabelSelector, LabelSelectorRequirement, ObjectMeta};
use proptest::prelude::*;

fn set(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn req(key: &str, op: Operator, values: &[&str]) -> Requirement {
    Requirement::new(key, op, values.iter().copied())
        .unwrap_or_else(|e| panic!("{key} {op} {values:?}: {e}"))
}

fn parse(s: &str) -> Selector {
    Selector::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

// --- TestSelectorParse -----------------------------------------------------

#[test]
fn good_strings_parse_and_print_without_spaces() {
    // As in Go's TestSelectorParse: the canonical form is the input without spaces.
    for s in [
        "x=a,y=b,z=c",
        "",
        "x!=a,y=b",
        "x=",
        "x= ",
        "x=,z= ",
        "x= ,z= ",
        "!x",
        "x>1",
        "x>1,z<5",
        "x<1,z>5",
        "x<1",
        "x==a",
        "notin=in",
    ] {
        let sel = parse(s);
        assert_eq!(sel.to_string(), s.replace(' ', ""), "{s:?}");
        let via_from_str: Selector = s.parse().unwrap();
        assert_eq!(via_from_str, sel);
    }
    for (s, canonical) in [
        ("x in (abc)", "x in (abc)"),
        ("x notin (abc,,def)", "x notin (,abc,def)"),
        ("x in(def, abc ,abc)", "x in (abc,def)"),
        ("  z , !y,x  notin ( ) ", "x notin (),!y,z"),
    ] {
        let sel = parse(s);
        assert_eq!(sel.to_string(), canonical, "{s:?}");
        let via_from_str: Selector = s.parse().unwrap();
        assert_eq!(via_from_str, sel);
    }
}

#[test]
fn bad_strings_are_rejected() {
    for s in [
        "x=a||y=b",
        "x==a==b",
        "!x=a",
        "x<a",
        "x>1.1",
        "x<1.0",
        "x>",
        "x>-1", // an integer, but not a valid label value (as in Go)
        "x<+1",
        "x in (",
        "x in (abc",
        "x in abc",
        "x in (abc def)",
        "x in (abc,,)",
        "x notin (abc,,def",
        "x,,y",
        ",x,y",
        "x,",
        "x nott in (y)",
        "a in (xyz),",
        "a in (xyz)b notin ()",
        "a in (xyz abc)",
        "a notin(",
        "a (",
        "(",
        ")",
        "=",
        "!",
        "!!x",
        "x!",
        "x=(a)",
        "x=!y",
        "x in (a)(b)",
        "-x",
        "x=-a",
        "example.com/",
        "/x",
        "a/b/c",
        "x=a b",
        "x y",
        "x gt 1",
        "x == a == b",
        "é",
        "x=é",
        "x\u{0}=a",
        "x\u{b}",
    ] {
        assert!(
            Selector::parse(s).is_err(),
            "{s:?} parsed as {:?}",
            Selector::parse(s)
        );
    }
}

#[test]
fn parsing_is_deterministic() {
    let a = parse("x=a,a=x");
    let b = parse("a=x,x=a");
    assert_eq!(a, b);
    assert_eq!(a.to_string(), "a=x,x=a");
    assert_eq!(b.to_string(), "a=x,x=a");
}

#[test]
fn everything_and_nothing() {
    let labels = set(&[("x", "y")]);
    assert!(Selector::everything().matches(&labels));
    assert!(Selector::everything().matches(&set(&[])));
    assert!(Selector::everything().is_empty());
    assert!(!Selector::everything().is_nothing());
    assert_eq!(Selector::everything(), parse(""));
    assert_eq!(Selector::everything(), Selector::default());
    assert_eq!(Selector::everything().to_string(), "");

    assert!(!Selector::nothing().matches(&labels));
    assert!(!Selector::nothing().matches(&set(&[])));
    assert!(!Selector::nothing().is_empty());
    assert!(Selector::nothing().is_nothing());
    assert_ne!(Selector::nothing(), Selector::everything());
    assert_eq!(Selector::nothing().to_string(), "");
    assert!(Selector::nothing().requirements().is_empty());
}

// --- TestSelectorMatches ---------------------------------------------------

#[test]
fn selector_matches() {
    let yes: &[(&str, &[(&str, &str)])] = &[
        ("", &[("x", "y")]),
        ("x=y", &[("x", "y")]),
        ("x==y", &[("x", "y")]),
        ("x=y,z=w", &[("x", "y"), ("z", "w")]),
        ("x!=y,z!=w", &[("x", "z"), ("z", "a")]),
        ("notin=in", &[("notin", "in")]),
        ("x", &[("x", "z")]),
        ("x", &[("x", "")]),
        ("!x", &[("y", "z")]),
        ("x>1", &[("x", "2")]),
        ("x<1", &[("x", "0")]),
        ("x<1", &[("x", "-5")]),
        ("x>0", &[("x", "+1")]),
        ("x=", &[("x", "")]),
        ("x!=", &[("x", "a")]),
        ("x!=a", &[]),
        ("x in (a,b)", &[("x", "b")]),
        ("x in ()", &[("x", "")]),
        ("x in (,a)", &[("x", "")]),
        ("x notin (a,b)", &[("x", "c")]),
        ("x notin (a,b)", &[]),
        ("x notin ()", &[("x", "a")]),
        ("x,!y", &[("x", "1")]),
    ];
    let no: &[(&str, &[(&str, &str)])] = &[
        ("x=z", &[]),
        ("x=y", &[("x", "z")]),
        ("x=y,z=w", &[("x", "w"), ("z", "w")]),
        ("x!=y,z!=w", &[("x", "z"), ("z", "w")]),
        ("x", &[("y", "z")]),
        ("!x", &[("x", "z")]),
        ("!x", &[("x", "")]),
        ("x>1", &[("x", "0")]),
        ("x>1", &[("x", "1")]),
        ("x>1", &[]),
        ("x>1", &[("x", "a")]),
        ("x>1", &[("x", "1.5")]),
        ("x>1", &[("x", "99999999999999999999")]),
        ("x<1", &[("x", "2")]),
        ("x<1", &[]),
        ("x=", &[]),
        ("x!=", &[("x", "")]),
        ("x in (a,b)", &[("x", "c")]),
        ("x in (a,b)", &[]),
        ("x in ()", &[("x", "a")]),
        ("x notin (a,b)", &[("x", "a")]),
        ("x notin ()", &[("x", "")]),
    ];
    for (s, labels) in yes {
        let sel = parse(s);
        assert!(sel.matches(&set(labels)), "{s:?} should match {labels:?}");
        let hm: HashMap<&str, &str> = labels.iter().copied().collect();
        assert!(sel.matches(&hm), "{s:?} should match {labels:?} (HashMap)");
    }
    for (s, labels) in no {
        let sel = parse(s);
        assert!(
            !sel.matches(&set(labels)),
            "{s:?} should not match {labels:?}"
        );
        let hm: HashMap<String, String> = set(labels).into_iter().collect();
        assert!(
            !sel.matches(&hm),
            "{s:?} should not match {labels:?} (HashMap)"
        );
    }

    let labelset = set(&[("foo", "bar"), ("baz", "blah")]);
    for s in ["foo=bar", "baz=blah", "foo=bar,baz=blah"] {
        assert!(parse(s).matches(&labelset), "{s}");
    }
    for s in ["foo=blah", "baz=bar", "foo=bar,foobar=bar,baz=blah"] {
        assert!(!parse(s).matches(&labelset), "{s}");
    }
}

#[test]
fn labels_from_other_containers() {
    let sel = parse("app=web,!canary");
    let meta = ObjectMeta {
        labels: set(&[("app", "web")]),
        ..ObjectMeta::named("p")
    };
    assert!(sel.matches(&meta));
    assert!(sel.matches(&&meta));
    let refs: BTreeMap<&str, &str> = BTreeMap::from([("app", "web"), ("canary", "yes")]);
    assert!(!sel.matches(&refs));
    let dyn_labels: &dyn Labels = &refs;
    assert!(!sel.matches(dyn_labels));
    assert_eq!(dyn_labels.get("canary"), Some("yes"));
}

// --- TestRequirementConstructor --------------------------------------------

#[test]
fn requirement_constructor() {
    let ok: &[(&str, Operator, &[&str])] = &[
        ("x3", Operator::In, &["foo"]),
        ("x4", Operator::NotIn, &["foo"]),
        ("x6", Operator::Exists, &[]),
        ("x7", Operator::DoesNotExist, &[]),
        ("x9", Operator::In, &["bar"]),
        ("x11", Operator::GreaterThan, &["1"]),
        ("x12", Operator::LessThan, &["6"]),
        ("x13", Operator::LessThan, &["0"]),
        ("example.com/x", Operator::Equals, &[""]),
        ("x", Operator::NotEquals, &["a"]),
        ("x", Operator::DoubleEquals, &["a"]),
        ("x", Operator::In, &["b", "a", "b", ""]),
    ];
    for (key, op, values) in ok {
        let r = req(key, *op, values);
        assert_eq!(r.key(), *key);
        assert_eq!(r.operator(), *op);
        let mut want: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        want.sort();
        want.dedup();
        assert_eq!(r.values(), want.as_slice());
    }

    let bad: &[(&str, Operator, &[&str], &str)] = &[
        (
            "x2",
            Operator::In,
            &[],
            "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty",
        ),
        (
            "x2",
            Operator::NotIn,
            &[],
            "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty",
        ),
        (
            "x5",
            Operator::Equals,
            &["foo", "bar"],
            r#"values: Invalid value: ["foo","bar"]: exact-match compatibility requires one single value"#,
        ),
        (
            "x5",
            Operator::NotEquals,
            &[],
            "values: Invalid value: []: exact-match compatibility requires one single value",
        ),
        (
            "x8",
            Operator::Exists,
            &["foo"],
            r#"values: Invalid value: ["foo"]: values set must be empty for exists and does not exist"#,
        ),
        (
            "x8",
            Operator::DoesNotExist,
            &["foo"],
            r#"values: Invalid value: ["foo"]: values set must be empty for exists and does not exist"#,
        ),
        (
            "x13",
            Operator::GreaterThan,
            &[],
            "values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required",
        ),
        (
            "x14",
            Operator::GreaterThan,
            &["bar"],
            r#"values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer"#,
        ),
        (
            "x15",
            Operator::LessThan,
            &["bar"],
            r#"values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer"#,
        ),
        (
            &"a".repeat(254),
            Operator::Exists,
            &[],
            "name part must be no more than 63 characters",
        ),
        (
            "x16",
            Operator::Equals,
            &[&"a".repeat(254)],
            "values[0][x16]: Invalid value: \"aaaa",
        ),
        (
            "x17",
            Operator::Equals,
            &["a b"],
            r#"values[0][x17]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters"#,
        ),
        (
            "-x",
            Operator::Exists,
            &[],
            r#"key: Invalid value: "-x": name part must consist of alphanumeric characters"#,
        ),
    ];
    for (key, op, values, want) in bad {
        let err = Requirement::new(*key, *op, values.iter().copied()).unwrap_err();
        assert!(
            err.to_string().contains(want),
            "{key} {op} {values:?}: {err} does not contain {want}"
        );
        assert!(!err.field_errors().is_empty());
        assert_eq!(err.position(), None);
        assert_eq!(err.found(), None);
    }

    // Every problem is reported.
    let err = Requirement::new("-x", Operator::GreaterThan, ["a", "-b"]).unwrap_err();
    let fields: Vec<&str> = err
        .field_errors()
        .iter()
        .map(|e| e.field.as_str())
        .collect();
    assert_eq!(
        fields,
        ["key", "values", "values[0]", "values[1]", "values[1][-x]"]
    );
    assert!(err.to_string().starts_with('['));
}

// --- TestToString ----------------------------------------------------------

#[test]
fn to_string() {
    let cases: Vec<(Vec<Requirement>, &str)> = vec![
        (
            vec![
                req("x", Operator::In, &["abc", "def"]),
                req("y", Operator::NotIn, &["jkl"]),
                req("z", Operator::Exists, &[]),
            ],
            "x in (abc,def),y notin (jkl),z",
        ),
        (
            vec![
                req("x", Operator::NotIn, &["abc", "def"]),
                req("y", Operator::NotEquals, &["jkl"]),
                req("z", Operator::DoesNotExist, &[]),
            ],
            "x notin (abc,def),y!=jkl,!z",
        ),
        (
            vec![
                req("x", Operator::NotIn, &["abc"]),
                req("y", Operator::In, &["jkl", "mno"]),
                req("z", Operator::NotIn, &[""]),
            ],
            "x notin (abc),y in (jkl,mno),z notin ()",
        ),
        (
            vec![
                req("x", Operator::Equals, &["abc"]),
                req("y", Operator::DoubleEquals, &["jkl"]),
                req("z", Operator::NotEquals, &["a"]),
                req("z", Operator::Exists, &[]),
            ],
            "x=abc,y==jkl,z!=a,z",
        ),
        (
            vec![
                req("x", Operator::GreaterThan, &["2"]),
                req("y", Operator::LessThan, &["8"]),
                req("z", Operator::Exists, &[]),
            ],
            "x>2,y<8,z",
        ),
        (
            vec![
                req("z", Operator::In, &["b", "", "a"]),
                req("a", Operator::Equals, &[""]),
            ],
            "a=,z in (,a,b)",
        ),
    ];
    for (reqs, want) in cases {
        let sel = Selector::new(reqs.clone());
        assert_eq!(sel.to_string(), want);
        assert_eq!(parse(want), sel, "{want}");
        let collected: Selector = reqs.into_iter().collect();
        assert_eq!(collected, sel);
    }
    // A trailing ',' is not a selector.
    assert!(Selector::parse("x in (abc,def),").is_err());
}

// --- TestRequirementSelectorMatching ---------------------------------------

#[test]
fn requirement_selector_matching() {
    let labels = set(&[("x", "foo"), ("y", "baz")]);
    let cases: Vec<(Vec<Requirement>, bool)> = vec![
        (vec![req("x", Operator::In, &["foo"])], true),
        (
            vec![
                req("x", Operator::In, &["foo"]),
                req("y", Operator::NotIn, &["alpha"]),
            ],
            true,
        ),
        (
            vec![
                req("x", Operator::In, &["foo"]),
                req("y", Operator::In, &["alpha"]),
            ],
            false,
        ),
        (
            vec![
                req("y", Operator::NotIn, &["alpha"]),
                req("x", Operator::In, &["foo"]),
            ],
            true,
        ),
        (
            vec![
                req("z", Operator::DoesNotExist, &[]),
                req("y", Operator::NotIn, &["alpha"]),
                req("x", Operator::In, &["foo"]),
            ],
            true,
        ),
        (
            vec![
                req("x", Operator::Exists, &[]),
                req("y", Operator::Exists, &[]),
                req("z", Operator::Exists, &[]),
            ],
            false,
        ),
        (vec![], true),
    ];
    for (reqs, want) in cases {
        let sel = Selector::new(reqs);
        assert_eq!(sel.matches(&labels), want, "{sel}");
        for r in sel.requirements() {
            if !r.matches(&labels) {
                assert!(!want);
            }
        }
    }
}

// --- TestSetSelectorParser -------------------------------------------------

#[test]
fn set_selector_parser() {
    let cases: Vec<(&str, Vec<Requirement>)> = vec![
        ("", vec![]),
        ("\rx", vec![req("x", Operator::Exists, &[])]),
        (
            "this-is-a-dns.domain.com/key-with-dash",
            vec![req(
                "this-is-a-dns.domain.com/key-with-dash",
                Operator::Exists,
                &[],
            )],
        ),
        (
            "this-is-another-dns.domain.com/key-with-dash in (so,what)",
            vec![req(
                "this-is-another-dns.domain.com/key-with-dash",
                Operator::In,
                &["so", "what"],
            )],
        ),
        (
            "0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
            vec![req(
                "0.1.2.domain/99",
                Operator::NotIn,
                &["10.10.100.1", "tick.tack.clock"],
            )],
        ),
        ("foo  in\t (abc)", vec![req("foo", Operator::In, &["abc"])]),
        ("x notin\n (abc)", vec![req("x", Operator::NotIn, &["abc"])]),
        (
            "x  notin\t\t\t(abc,def)",
            vec![req("x", Operator::NotIn, &["abc", "def"])],
        ),
        (
            "x in (abc,def)",
            vec![req("x", Operator::In, &["abc", "def"])],
        ),
        ("x in (abc,)", vec![req("x", Operator::In, &["abc", ""])]),
        ("x in ()", vec![req("x", Operator::In, &[""])]),
        (
            "x notin (abc,,def),bar,z in (),w",
            vec![
                req("bar", Operator::Exists, &[]),
                req("w", Operator::Exists, &[]),
                req("x", Operator::NotIn, &["abc", "", "def"]),
                req("z", Operator::In, &[""]),
            ],
        ),
        (
            "x,y in (a)",
            vec![
                req("x", Operator::Exists, &[]),
                req("y", Operator::In, &["a"]),
            ],
        ),
        ("x=a", vec![req("x", Operator::Equals, &["a"])]),
        ("x>1", vec![req("x", Operator::GreaterThan, &["1"])]),
        ("x<7", vec![req("x", Operator::LessThan, &["7"])]),
        (
            "x=a,y!=b",
            vec![
                req("x", Operator::Equals, &["a"]),
                req("y", Operator::NotEquals, &["b"]),
            ],
        ),
        (
            "x=a,y!=b,z in (h,i,j)",
            vec![
                req("x", Operator::Equals, &["a"]),
                req("y", Operator::NotEquals, &["b"]),
                req("z", Operator::In, &["h", "i", "j"]),
            ],
        ),
        ("x notin ( )", vec![req("x", Operator::NotIn, &[""])]),
        ("x notin (, a)", vec![req("x", Operator::NotIn, &["", "a"])]),
        ("a ", vec![req("a", Operator::Exists, &[])]),
        (
            "a in (x,y,notin, z,in)",
            vec![req("a", Operator::In, &["in", "notin", "x", "y", "z"])],
        ),
        ("in in (in)", vec![req("in", Operator::In, &["in"])]),
        (
            "notin notin (notin)",
            vec![req("notin", Operator::NotIn, &["notin"])],
        ),
        (
            "in,!notin",
            vec![
                req("in", Operator::Exists, &[]),
                req("notin", Operator::DoesNotExist, &[]),
            ],
        ),
        ("x=in", vec![req("x", Operator::Equals, &["in"])]),
        ("x in (a,,b)", vec![req("x", Operator::In, &["a", "", "b"])]),
        ("x in (,)", vec![req("x", Operator::In, &[""])]),
        (
            " \t\r\n x \n== \r y \t, ! z \n",
            vec![
                req("x", Operator::DoubleEquals, &["y"]),
                req("z", Operator::DoesNotExist, &[]),
            ],
        ),
        (
            "x=,y",
            vec![
                req("x", Operator::Equals, &[""]),
                req("y", Operator::Exists, &[]),
            ],
        ),
        (
            "x!=,y",
            vec![
                req("x", Operator::NotEquals, &[""]),
                req("y", Operator::Exists, &[]),
            ],
        ),
        (
            "x>01,x<10",
            vec![
                req("x", Operator::GreaterThan, &["01"]),
                req("x", Operator::LessThan, &["10"]),
            ],
        ),
        (
            "x=b,x=a,x",
            vec![
                req("x", Operator::Equals, &["b"]),
                req("x", Operator::Equals, &["a"]),
                req("x", Operator::Exists, &[]),
            ],
        ),
    ];
    for (s, want) in cases {
        let got = parse(s);
        assert_eq!(got.requirements(), want.as_slice(), "{s:?}");
        assert_eq!(got, Selector::new(want), "{s:?}");
        assert_eq!(parse(&got.to_string()), got, "{s:?} -> {got}");
    }
}

#[test]
fn requires_exact_match() {
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("", "key", None),
        ("key=value", "key", Some("value")),
        ("key==value", "key", Some("value")),
        ("key in (value)", "key", Some("value")),
        ("key in (value,other)", "key", None),
        ("key!=value", "key", None),
        ("key notin (value)", "key", None),
        ("key", "key", None),
        ("!key", "key", None),
        ("key>1", "key", None),
        ("key=value", "other", None),
        ("a=b,key=value,z", "key", Some("value")),
    ];
    for (s, key, want) in cases {
        assert_eq!(parse(s).requires_exact_match(key), *want, "{s:?} {key}");
    }
    assert_eq!(Selector::nothing().requires_exact_match("key"), None);
}

// --- Error messages ----------------------------------------------------------

#[test]
fn syntax_errors_name_position_found_and_expected() {
    let cases: &[(&str, &str)] = &[
        (
            "x=a,!,y",
            "unable to parse requirement: found ',' at position 5, expected: identifier",
        ),
        (
            "x=a,,y",
            "found ',' at position 4, expected: identifier after ','",
        ),
        (
            "x==a==b",
            "found '==' at position 4, expected: ',' or 'end of string'",
        ),
        (
            "!x=a",
            "found '=' at position 2, expected: ',' or 'end of string'",
        ),
        (
            ",x",
            "found ',' at position 0, expected: !, identifier, or 'end of string'",
        ),
        (
            "x in (",
            "unable to parse requirement: found end of string at position 6, expected: ',', ')' or identifier",
        ),
        (
            "x in (a",
            "unable to parse requirement: found end of string at position 7, expected: ',' or ')'",
        ),
        (
            "x in (a b)",
            "unable to parse requirement: found 'b' at position 8, expected: ',' or ')'",
        ),
        (
            "x in (a,,)",
            "unable to parse requirement: found ')' at position 9, expected: ',' or identifier",
        ),
        (
            "x in a",
            "unable to parse requirement: found 'a' at position 5, expected: '('",
        ),
        (
            "x y",
            "unable to parse requirement: found 'y' at position 2, expected: in, notin, =, ==, !=, >, <",
        ),
        (
            "x=(a)",
            "unable to parse requirement: found '(' at position 2, expected: identifier",
        ),
        (
            "!",
            "unable to parse requirement: found end of string at position 1, expected: identifier",
        ),
        (
            "x,",
            "found end of string at position 2, expected: identifier after ','",
        ),
        (
            "  é ,",
            "unable to parse requirement at position 2: key: Invalid value: \"é\": name part must consist of",
        ),
    ];
    for (s, want) in cases {
        let err = Selector::parse(s).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with(want), "{s:?}: {msg}\n  want: {want}");
        assert!(err.position().is_some(), "{s:?}");
        assert!(msg.contains("position"), "{s:?}");
    }

    let err = Selector::parse("x in (a b)").unwrap_err();
    assert_eq!(err.position(), Some(8));
    assert_eq!(err.found(), Some("b"));
    assert_eq!(err.expected(), Some("',' or ')'"));
    assert!(err.field_errors().is_empty());

    let err = Selector::parse("x in (").unwrap_err();
    assert_eq!(err.found(), Some(""));
    assert_eq!(err.position(), Some(6));

    let err: &dyn std::error::Error = &err;
    assert!(err.source().is_none());
}

#[test]
fn invalid_keys_and_values_carry_validator_messages() {
    let err = Selector::parse("a=b, x=a||y").unwrap_err();
    assert_eq!(err.position(), Some(7));
    assert_eq!(err.found(), None);
    assert_eq!(err.field_errors().len(), 1);
    assert_eq!(err.field_errors()[0].field, "values[0][x]");
    assert_eq!(
        err.to_string(),
        "unable to parse requirement at position 7: values[0][x]: Invalid value: \"a||y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
    );

    let err = Selector::parse("x>1.1").unwrap_err();
    assert_eq!(err.position(), Some(2));
    assert_eq!(
        err.to_string(),
        "unable to parse requirement at position 2: values[0]: Invalid value: \"1.1\": for 'Gt', 'Lt' operators, the value must be an integer"
    );

    let long = "k".repeat(64);
    let err = Selector::parse(&format!("a, {long}=v")).unwrap_err();
    assert_eq!(err.position(), Some(3));
    assert!(
        err.to_string()
            .ends_with("name part must be no more than 63 characters")
    );

    let err = Selector::parse("example.com/").unwrap_err();
    assert!(
        err.to_string().contains("name part must be non-empty"),
        "{err}"
    );
    let err = Selector::parse("Example.com/a").unwrap_err();
    assert!(
        err.to_string()
            .contains("prefix part a lowercase RFC 1123 subdomain"),
        "{err}"
    );
}

// --- LabelSelectorAsSelector -----------------------------------------------

fn expr(key: &str, operator: &str, values: &[&str]) -> LabelSelectorRequirement {
    LabelSelectorRequirement {
        key: key.to_string(),
        operator: operator.to_string(),
        values: values.iter().map(|v| v.to_string()).collect(),
    }
}

#[test]
fn label_selector_as_selector() {
    let match_labels = set(&[("foo", "bar")]);
    let match_expressions = vec![expr("baz", "In", &["qux", "norf"])];

    assert_eq!(
        Selector::from_label_selector(None).unwrap(),
        Selector::nothing()
    );
    assert_eq!(
        Selector::from_label_selector(Some(&LabelSelector::default())).unwrap(),
        Selector::everything()
    );
    let cases = [
        (
            LabelSelector {
                match_labels: match_labels.clone(),
                ..Default::default()
            },
            "foo=bar",
        ),
        (
            LabelSelector {
                match_expressions: match_expressions.clone(),
                ..Default::default()
            },
            "baz in (norf,qux)",
        ),
        (
            LabelSelector {
                match_labels: match_labels.clone(),
                match_expressions: match_expressions.clone(),
            },
            "baz in (norf,qux),foo=bar",
        ),
        (
            LabelSelector {
                match_labels: set(&[("a", "1"), ("z", "")]),
                match_expressions: vec![
                    expr("m", "NotIn", &["x"]),
                    expr("b", "Exists", &[]),
                    expr("c", "DoesNotExist", &[]),
                ],
            },
            "a=1,b,!c,m notin (x),z=",
        ),
    ];
    for (ls, want) in cases {
        let sel = Selector::from_label_selector(Some(&ls)).unwrap();
        assert_eq!(sel, parse(want));
        assert_eq!(sel.to_string(), want);
        assert_eq!(Selector::try_from(&ls).unwrap(), sel);
    }

    let sel = Selector::from_label_selector(Some(&LabelSelector {
        match_labels,
        match_expressions,
    }))
    .unwrap();
    assert!(sel.matches(&set(&[("foo", "bar"), ("baz", "qux")])));
    assert!(!sel.matches(&set(&[("foo", "bar"), ("baz", "x")])));
    assert!(!sel.matches(&set(&[("baz", "qux")])));
}

#[test]
fn label_selector_errors() {
    let bad = |exprs: Vec<LabelSelectorRequirement>| -> SelectorParseError {
        Selector::from_label_selector(Some(&LabelSelector {
            match_expressions: exprs,
            ..Default::default()
        }))
        .unwrap_err()
    };
    assert_eq!(
        bad(vec![expr("baz", "Exists", &["qux", "norf"])]).to_string(),
        r#"values: Invalid value: ["qux","norf"]: values set must be empty for exists and does not exist"#
    );
    assert_eq!(
        bad(vec![expr("baz", "DoesNotExist", &["qux"])]).to_string(),
        r#"values: Invalid value: ["qux"]: values set must be empty for exists and does not exist"#
    );
    assert_eq!(
        bad(vec![expr("baz", "In", &[])]).to_string(),
        "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"
    );
    assert_eq!(
        bad(vec![expr("baz", "NotIn", &[])]).to_string(),
        "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"
    );
    for op in ["in", "Gt", "=", "Equals", ""] {
        let err = bad(vec![expr("baz", op, &["1"])]);
        assert_eq!(
            err.to_string(),
            format!("\"{op}\" is not a valid label selector operator")
        );
        assert_eq!(err.position(), None);
        assert!(err.field_errors().is_empty());
    }
    let err = bad(vec![expr("-baz", "Exists", &[])]);
    assert!(
        err.to_string()
            .starts_with(r#"key: Invalid value: "-baz": name part must consist of"#),
        "{err}"
    );
    let err = Selector::from_label_selector(Some(&LabelSelector {
        match_labels: set(&[("app", "a b")]),
        ..Default::default()
    }))
    .unwrap_err();
    assert_eq!(err.field_errors()[0].field, "values[0][app]");
}

#[test]
fn label_selector_from_json() {
    let ls: LabelSelector = serde_json::from_value(serde_json::json!({
        "matchLabels": {"app": "web"},
        "matchExpressions": [
            {"key": "tier", "operator": "In", "values": ["frontend", "cache"]},
            {"key": "canary", "operator": "DoesNotExist"}
        ]
    }))
    .unwrap();
    let sel = Selector::try_from(&ls).unwrap();
    assert_eq!(sel.to_string(), "app=web,!canary,tier in (cache,frontend)");
    assert!(sel.matches(&set(&[("app", "web"), ("tier", "cache")])));
}

// --- Robustness ------------------------------------------------------------

#[test]
fn weird_inputs_do_not_panic() {
    let deep_parens = "(".repeat(100_000);
    let deep_close = ")".repeat(100_000);
    let many = "a=b,".repeat(50_000) + "a";
    let long_key = "k".repeat(1_000_000);
    let inputs = [
        deep_parens.as_str(),
        deep_close.as_str(),
        &format!("x in {deep_parens}"),
        &format!("x in ({deep_close}"),
        &many,
        &long_key,
        &format!("{long_key}=v"),
        &"!".repeat(10_000),
        &"=".repeat(10_001),
        &"x in (a,".repeat(10_000),
        "\u{0}",
        "x=\u{0}",
        "😀=😀",
        "x in (😀)",
        "ü!=ä,",
        "\u{feff}x",
        "x\u{2028}in (a)",
        "x in ((a))",
        "x in (a))",
        "x in (a,(b))",
        ")(",
        ", , ,",
        "\t\r\n",
    ];
    for s in inputs {
        let _ = Selector::parse(s);
    }
    let sel = parse(&many);
    assert_eq!(sel.requirements().len(), 50_001);
    assert!(Selector::parse(&long_key).is_err());
    assert_eq!(parse("\t\r\n"), Selector::everything());
}

// --- Properties --------------------------------------------------------------

fn key_strategy() -> impl Strategy<Value = String> {
    let name = "[A-Za-z0-9]([-A-Za-z0-9_.]{0,12}[A-Za-z0-9])?";
    prop_oneof![
        4 => name.prop_map(String::from),
        2 => ("[a-z0-9]([-a-z0-9]{0,6}[a-z0-9])?(\\.[a-z0-9]{1,4}){0,2}", name)
            .prop_map(|(p, n)| format!("{p}/{n}")),
        1 => prop_oneof![Just("in"), Just("notin"), Just("x"), Just("a")].prop_map(String::from),
    ]
}

fn value_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "([A-Za-z0-9]([-A-Za-z0-9_.]{0,8}[A-Za-z0-9])?)?",
        1 => prop_oneof![Just("in"), Just("notin"), Just(""), Just("1"), Just("42")]
            .prop_map(String::from),
    ]
}

fn int_strategy() -> impl Strategy<Value = String> {
    prop_oneof!["[0-9]{1,18}", "[0-9]{1,3}", Just("0".to_string())]
}

fn requirement_strategy() -> impl Strategy<Value = Requirement> {
    let op = prop_oneof![
        Just(Operator::Equals),
        Just(Operator::DoubleEquals),
        Just(Operator::NotEquals),
        Just(Operator::In),
        Just(Operator::NotIn),
        Just(Operator::Exists),
        Just(Operator::DoesNotExist),
        Just(Operator::GreaterThan),
        Just(Operator::LessThan),
    ];
    (key_strategy(), op).prop_flat_map(|(key, op)| {
        let values: BoxedStrategy<Vec<String>> = match op {
            Operator::In | Operator::NotIn => prop::collection::vec(value_strategy(), 1..5).boxed(),
            Operator::Equals | Operator::DoubleEquals | Operator::NotEquals => {
                value_strategy().prop_map(|v| vec![v]).boxed()
            }
            Operator::Exists | Operator::DoesNotExist => Just(vec![]).boxed(),
            Operator::GreaterThan | Operator::LessThan => {
                int_strategy().prop_map(|v| vec![v]).boxed()
            }
        };
        values.prop_map(move |values| {
            Requirement::new(key.clone(), op, values)
                .unwrap_or_else(|e| panic!("generated an invalid requirement: {e}"))
        })
    })
}

fn selector_strategy() -> impl Strategy<Value = Selector> {
    prop::collection::vec(requirement_strategy(), 0..6).prop_map(Selector::new)
}

/// Labels over the keys and values the selector mentions, plus some others.
fn labels_for(sel: &Selector) -> impl Strategy<Value = BTreeMap<String, String>> + use<> {
    let mut keys: Vec<String> = sel
        .requirements()
        .iter()
        .map(|r| r.key().to_string())
        .collect();
    keys.push("other".to_string());
    let mut values: Vec<String> = sel
        .requirements()
        .iter()
        .flat_map(|r| r.values().iter().cloned())
        .collect();
    values.extend(["", "x", "-3", "7", "1000000000000000000000"].map(String::from));
    let entry = (prop::sample::select(keys), prop::sample::select(values));
    prop::collection::btree_map(entry.0, entry.1, 0..6)
}

/// An independent reading of the matching rules, to check `matches`.
fn oracle(sel: &Selector, labels: &BTreeMap<String, String>) -> bool {
    sel.requirements().iter().all(|r| {
        let got = labels.get(r.key());
        let in_set = |v: &String| r.values().contains(v);
        match r.operator() {
            Operator::Equals | Operator::DoubleEquals | Operator::In => got.is_some_and(in_set),
            Operator::NotEquals | Operator::NotIn => !got.is_some_and(in_set),
            Operator::Exists => got.is_some(),
            Operator::DoesNotExist => got.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                let bound: i64 = r.values()[0].parse().unwrap();
                match got.and_then(|v| v.parse::<i64>().ok()) {
                    None => false,
                    Some(n) if r.operator() == Operator::GreaterThan => n > bound,
                    Some(n) => n < bound,
                }
            }
        }
    })
}

fn selectorish_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("in"),
        Just("notin"),
        Just(" "),
        Just("\t"),
        Just("="),
        Just("=="),
        Just("!="),
        Just("!"),
        Just("("),
        Just(")"),
        Just(","),
        Just(">"),
        Just("<"),
        Just("a"),
        Just("b1"),
        Just("x/y"),
        Just("-"),
        Just("."),
        Just("5"),
        Just("é"),
        Just("\u{0}"),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn display_then_parse_round_trips(sel in selector_strategy()) {
        let text = sel.to_string();
        let back = Selector::parse(&text);
        prop_assert!(back.is_ok(), "{text:?}: {:?}", back);
        let back = back.unwrap();
        prop_assert_eq!(&back, &sel, "{}", text);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn round_tripped_selectors_match_identically(
        (sel, labels) in selector_strategy().prop_flat_map(|s| {
            let l = labels_for(&s);
            (Just(s), prop::collection::vec(l, 1..8))
        })
    ) {
        let back = Selector::parse(&sel.to_string()).unwrap();
        for l in &labels {
            let want = oracle(&sel, l);
            prop_assert_eq!(sel.matches(l), want, "{} on {:?}", sel, l);
            prop_assert_eq!(back.matches(l), want);
            let hm: HashMap<&str, &str> = l.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            prop_assert_eq!(sel.matches(&hm), want);
        }
    }

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        if let Ok(sel) = Selector::parse(&s) {
            prop_assert_eq!(Selector::parse(&sel.to_string()).unwrap(), sel);
        }
    }

    #[test]
    fn selector_like_strings_never_panic_and_normalize(s in selectorish_string()) {
        match Selector::parse(&s) {
            Ok(sel) => {
                let text = sel.to_string();
                let again = Selector::parse(&text);
                prop_assert!(again.is_ok(), "{s:?} -> {text:?}: {:?}", again);
                prop_assert_eq!(again.unwrap(), sel);
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(!msg.is_empty());
                let pos = e.position();
                prop_assert!(pos.is_some(), "{s:?}: {msg}");
                let pos = pos.unwrap();
                prop_assert!(pos <= s.len());
                prop_assert!(s.is_char_boundary(pos));
                let needle = format!("position {pos}");
                prop_assert!(msg.contains(&needle), "{}", msg);
            }
        }
    }
}
