//! Translated from k8s.io/client-go `util/jsonpath/jsonpath_test.go` and
//! `parser_test.go` (the cases over JSON input; the Go-struct and
//! `range` cases have no counterpart here).

use serde_json::{Value, json};

use super::*;

/// client-go `testJSONPath`: `(name, template, expected output or None for
/// an error)`.
fn check(data: &Value, allow_missing_keys: bool, cases: &[(&str, &str, Option<&str>)]) {
    for (name, template, expected) in cases {
        let result = JsonPath::parse(template)
            .and_then(|p| p.allow_missing_keys(allow_missing_keys).execute(data));
        match (expected, result) {
            (Some(want), Ok(got)) => assert_eq!(&got, want, "{name}: {template}"),
            (None, Err(_)) => {}
            (Some(_), Err(e)) => panic!("{name}: {template}: unexpected error {e}"),
            (None, Ok(got)) => panic!("{name}: {template}: expected an error, got {got:?}"),
        }
    }
}

/// `TestJSONInput`.
#[test]
fn json_input() {
    let points = json!([
        {"id": "i1", "x": 4, "y": -5},
        {"id": "i2", "x": -2, "y": -5, "z": 1},
        {"id": "i3", "x": 8, "y": 3},
        {"id": "i4", "x": -6, "y": -1},
        {"id": "i5", "x": 0, "y": 2, "z": 1},
        {"id": "i6", "x": 1, "y": 4},
        {"id": "i7", "x": null, "y": 4}
    ]);
    check(
        &points,
        false,
        &[
            ("exists filter", "{[?(@.z)].id}", Some("i2 i5")),
            ("bracket key", "{[0]['id']}", Some("i1")),
            ("nil value", "{[-1]['x']}", Some("null")),
        ],
    );
}

fn nodes() -> Value {
    json!({
      "kind": "List",
      "items": [
        {
          "kind": "None",
          "metadata": {"name": "127.0.0.1", "labels": {"kubernetes.io/hostname": "127.0.0.1"}},
          "status": {
            "capacity": {"cpu": "4"},
            "ready": true,
            "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.1"}]
          }
        },
        {
          "kind": "None",
          "metadata": {"name": "127.0.0.2", "labels": {"kubernetes.io/hostname": "127.0.0.2"}},
          "status": {
            "capacity": {"cpu": "8"},
            "ready": false,
            "addresses": [
              {"type": "LegacyHostIP", "address": "127.0.0.2"},
              {"type": "another", "address": "127.0.0.3"}
            ]
          }
        }
      ],
      "users": [
        {"name": "myself", "user": {}},
        {"name": "e2e", "user": {"username": "admin", "password": "secret"}}
      ]
    })
}

/// `TestKubernetes` (the cases without `range`).
#[test]
fn kubernetes() {
    check(
        &nodes(),
        false,
        &[
            (
                "range addresss",
                "{.items[*].status.addresses[*].address}",
                Some("127.0.0.1 127.0.0.2 127.0.0.3"),
            ),
            (
                "item name",
                "{.items[*].metadata.name}",
                Some("127.0.0.1 127.0.0.2"),
            ),
            (
                "union nodes capacity",
                "{.items[*]['metadata.name', 'status.capacity']}",
                Some(r#"127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}"#),
            ),
            (
                "user password",
                r#"{.users[?(@.name=="e2e")].user.password}"#,
                Some("secret"),
            ),
            (
                "hostname",
                r"{.items[0].metadata.labels.kubernetes\.io/hostname}",
                Some("127.0.0.1"),
            ),
            (
                "hostname filter",
                r#"{.items[?(@.metadata.labels.kubernetes\.io/hostname=="127.0.0.1")].kind}"#,
                Some("None"),
            ),
            (
                "bool item",
                "{.items[?(@..ready==true)].metadata.name}",
                Some("127.0.0.1"),
            ),
        ],
    );
}

/// `TestKubernetes`' `randomPrintOrderTests`: `{..name}` (sorted output).
#[test]
fn recursive_name() {
    let path = JsonPath::parse("{..name}").unwrap();
    let mut names: Vec<String> = path
        .find(&nodes())
        .unwrap()
        .iter()
        .map(print_value)
        .collect();
    names.sort();
    assert_eq!(names, ["127.0.0.1", "127.0.0.2", "e2e", "myself"]);
}

/// `TestFilterPartialMatchesSometimesMissingAnnotations` (issue 45546).
#[test]
fn filter_partial_matches_sometimes_missing_annotations() {
    let pods = json!({
        "kind": "List",
        "items": [
            {"kind": "Pod", "metadata": {"name": "pod1", "annotations": {"color": "blue"}}},
            {"kind": "Pod", "metadata": {"name": "pod2"}},
            {"kind": "Pod", "metadata": {"name": "pod3", "annotations": {"color": "green"}}},
            {"kind": "Pod", "metadata": {"name": "pod4", "annotations": {"color": "blue"}}}
        ]
    });
    let template = r#"{.items[?(@.metadata.annotations.color=="blue")].metadata.name}"#;
    check(
        &pods,
        true,
        &[("tolerate missing", template, Some("pod1 pod4"))],
    );
    check(&pods, false, &[("error on missing", template, None)]);
}

fn containers(n: usize) -> Value {
    let items: Vec<Value> = (0..n)
        .map(|i| json!({"image": "radial/busyboxplus:curl", "name": format!("fake{i}")}))
        .collect();
    json!({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": items}})
}

/// `TestNegativeIndex`.
#[test]
fn negative_index() {
    check(
        &containers(4),
        false,
        &[
            ("[0]", "{.spec.containers[0].name}", Some("fake0")),
            ("[0:0]", "{.spec.containers[0:0].name}", Some("")),
            (
                "[0:-1]",
                "{.spec.containers[0:-1].name}",
                Some("fake0 fake1 fake2"),
            ),
            ("[-1:0]", "{.spec.containers[-1:0].name}", None),
            ("[-1]", "{.spec.containers[-1].name}", Some("fake3")),
            ("[-1:]", "{.spec.containers[-1:].name}", Some("fake3")),
            ("[-2]", "{.spec.containers[-2].name}", Some("fake2")),
            ("[-2:]", "{.spec.containers[-2:].name}", Some("fake2 fake3")),
            ("[-3]", "{.spec.containers[-3].name}", Some("fake1")),
            ("[-4]", "{.spec.containers[-4].name}", Some("fake0")),
            (
                "[-4:]",
                "{.spec.containers[-4:].name}",
                Some("fake0 fake1 fake2 fake3"),
            ),
            ("[-5]", "{.spec.containers[-5].name}", None),
            ("[5:5]", "{.spec.containers[5:5].name}", Some("")),
            ("[-5:-5]", "{.spec.containers[-5:-5].name}", Some("")),
            ("[3:1]", "{.spec.containers[3:1].name}", None),
            ("[-1:-2]", "{.spec.containers[-1:-2].name}", None),
        ],
    );
}

/// `TestStep`.
#[test]
fn step() {
    let all = Some("fake0 fake1 fake2 fake3 fake4 fake5");
    check(
        &containers(6),
        false,
        &[
            ("[0:]", "{.spec.containers[0:].name}", all),
            ("[0:6:]", "{.spec.containers[0:6:].name}", all),
            ("[0:6:1]", "{.spec.containers[0:6:1].name}", all),
            ("[0:6:0]", "{.spec.containers[0:6:0].name}", None),
            ("[0:6:-1]", "{.spec.containers[0:6:-1].name}", None),
            (
                "[1:4:2]",
                "{.spec.containers[1:4:2].name}",
                Some("fake1 fake3"),
            ),
            ("[1:4:3]", "{.spec.containers[1:4:3].name}", Some("fake1")),
            ("[1:4:4]", "{.spec.containers[1:4:4].name}", Some("fake1")),
            (
                "[0:6:2]",
                "{.spec.containers[0:6:2].name}",
                Some("fake0 fake2 fake4"),
            ),
            (
                "[0:6:3]",
                "{.spec.containers[0:6:3].name}",
                Some("fake0 fake3"),
            ),
            (
                "[0:6:5]",
                "{.spec.containers[0:6:5].name}",
                Some("fake0 fake5"),
            ),
            ("[0:6:6]", "{.spec.containers[0:6:6].name}", Some("fake0")),
        ],
    );
}

/// parser_test.go `TestFailParser`.
#[test]
fn parse_errors() {
    for (template, message) in [
        ("{.hello", "unclosed action"),
        ("{*}", "unrecognized character in action: U+002A '*'"),
        ("{+12.3.0}", "cannot parse number +12.3.0"),
        ("{[1}", "unterminated array"),
        ("{[?(.price]}", "unterminated filter"),
        ("{........}", "invalid multiple recursive descent"),
    ] {
        let err = JsonPath::parse(template).unwrap_err();
        assert_eq!(err.message(), message, "{template}");
    }
    assert!(JsonPath::parse("{[x]}").is_err());
    assert!(JsonPath::parse("{range .items}{end}").is_err());
    assert!(JsonPath::parse(r#"{"abc}"#).is_err());
}

/// parser_test.go `TestParser`, checked through their results.
#[test]
fn parser_shapes() {
    assert_eq!(
        JsonPath::parse("hello jsonpath")
            .unwrap()
            .execute(&json!({}))
            .unwrap(),
        "hello jsonpath"
    );
    let data =
        json!({"jsonpath": "x", "book": {"price": 3}, "bicycle": {"price": 20, "color": "red"}});
    assert_eq!(
        JsonPath::parse("hello {.jsonpath}")
            .unwrap()
            .execute(&data)
            .unwrap(),
        "hello x"
    );
    assert_eq!(
        JsonPath::parse("hello {['jsonpath']}")
            .unwrap()
            .execute(&data)
            .unwrap(),
        "hello x"
    );
    assert_eq!(
        JsonPath::parse(r#"{"{"}"#).unwrap().execute(&data).unwrap(),
        "{"
    );
    assert_eq!(
        JsonPath::parse("{['book.price']}")
            .unwrap()
            .execute(&data)
            .unwrap(),
        "3"
    );
    assert_eq!(
        JsonPath::parse("{.bicycle.*}")
            .unwrap()
            .execute(&data)
            .unwrap(),
        "red 20"
    );
    assert_eq!(
        JsonPath::parse("{..price}")
            .unwrap()
            .execute(&data)
            .unwrap(),
        "20 3"
    );
    let list = json!([{"price": 1}, {"price": 5}, {"price": 2}]);
    assert_eq!(
        JsonPath::parse("{[?(@.price<3)].price}")
            .unwrap()
            .execute(&list)
            .unwrap(),
        "1 2"
    );
    assert_eq!(
        JsonPath::parse("{[1:3].price}")
            .unwrap()
            .execute(&list)
            .unwrap(),
        "5 2"
    );
}

#[test]
fn filter_operators() {
    let list = json!([
        {"n": 1, "s": "a", "b": true, "f": 1.5},
        {"n": 2, "s": "b", "b": false, "f": 2.5},
        {"n": 3, "s": "c", "f": 3.5}
    ]);
    let names = |t: &str| {
        JsonPath::parse(t)
            .unwrap()
            .allow_missing_keys(true)
            .execute(&list)
    };
    assert_eq!(names("{[?(@.n==2)].s}").unwrap(), "b");
    assert_eq!(names("{[?(@.n!=2)].s}").unwrap(), "a c");
    assert_eq!(names("{[?(@.n<2)].s}").unwrap(), "a");
    assert_eq!(names("{[?(@.n<=2)].s}").unwrap(), "a b");
    assert_eq!(names("{[?(@.n>2)].s}").unwrap(), "c");
    assert_eq!(names("{[?(@.n>=2)].s}").unwrap(), "b c");
    assert_eq!(names(r#"{[?(@.s=="c")].n}"#).unwrap(), "3");
    assert_eq!(names("{[?(@.s=='c')].n}").unwrap(), "3");
    assert_eq!(names("{[?(@.s>'a')].n}").unwrap(), "2 3");
    assert_eq!(names("{[?(@.b==false)].s}").unwrap(), "b");
    assert_eq!(names("{[?(@.b)].s}").unwrap(), "a b");
    assert_eq!(names("{[?(@.f>2.0)].s}").unwrap(), "b c");
    assert_eq!(names("{[?(@.n==@.n)].s}").unwrap(), "a b c");
    // Go's template comparison: an int and a float do not compare.
    assert!(names("{[?(@.f==2)].s}").is_err());
    // Booleans are not ordered.
    assert!(names("{[?(@.b<true)].s}").is_err());
    // An unknown operator is an evaluation error.
    assert!(names("{[?(@.n=<2)].s}").is_err());
    // Filtering a map is an error.
    assert!(
        JsonPath::parse("{[?(@.x)]}")
            .unwrap()
            .execute(&json!({"x": 1}))
            .is_err()
    );
}

#[test]
fn missing_and_type_errors_never_panic() {
    let data = json!({"a": {"b": [1, 2]}, "s": "text", "n": null});
    let eval = |t: &str, allow: bool| {
        JsonPath::parse(t)
            .unwrap()
            .allow_missing_keys(allow)
            .find(&data)
    };
    assert_eq!(
        eval("{.x.y}", false).unwrap_err().message(),
        "x is not found"
    );
    assert_eq!(eval("{.x.y}", true).unwrap(), Vec::<Value>::new());
    assert_eq!(
        eval("{.s[0]}", true).unwrap_err().message(),
        "string is not array or slice"
    );
    assert_eq!(
        eval("{.a[0]}", true).unwrap_err().message(),
        "map[string]interface {} is not array or slice"
    );
    assert_eq!(
        eval("{.a.b[2]}", true).unwrap_err().message(),
        "array index out of bounds: index 2, length 2"
    );
    assert_eq!(eval("{.n[0]}", true).unwrap(), Vec::<Value>::new());
    assert_eq!(eval("{.n.x}", true).unwrap(), Vec::<Value>::new());
    assert_eq!(eval("{.a.b[-1]}", true).unwrap(), vec![json!(2)]);
    assert_eq!(eval("{.a.b[*]}", true).unwrap(), vec![json!(1), json!(2)]);
    assert_eq!(eval("{.a.b[]}", true).unwrap(), vec![json!(1)]);
    assert_eq!(eval("{$.a.b[0]}", true).unwrap(), vec![json!(1)]);
    // Extreme indexes wrap as Go's int arithmetic does, and are errors.
    assert!(eval("{.a.b[9223372036854775807]}", true).is_err());
    assert!(eval("{.a.b[-9223372036854775808:9223372036854775807]}", true).is_err());
    assert!(eval("{.a.b[0:2:9223372036854775807]}", true).is_ok());
    assert!(JsonPath::parse("{.a[99999999999999999999]}").is_err());
}

#[test]
fn column_paths() {
    let obj = json!({"spec": {"replicas": 3, "x.y": "dotted"}, "metadata": {"name": "a"}});
    let path = JsonPath::parse_column(".spec.replicas").unwrap();
    assert_eq!(path.find(&obj).unwrap(), vec![json!(3)]);
    let results = path.find_results(&obj).unwrap();
    assert_eq!(results.len(), 1);
    // `['x.y']` means `.x.y` upstream; the key with a dot needs `\.`.
    assert_eq!(
        JsonPath::parse_column(".spec['x.y']")
            .unwrap()
            .find(&obj)
            .unwrap(),
        Vec::<Value>::new()
    );
    assert_eq!(
        JsonPath::parse_column(r".spec.x\.y")
            .unwrap()
            .find(&obj)
            .unwrap(),
        vec![json!("dotted")]
    );
    assert_eq!(
        JsonPath::parse_column(".missing")
            .unwrap()
            .find(&obj)
            .unwrap(),
        Vec::<Value>::new()
    );
}

#[test]
fn printing() {
    assert_eq!(print_value(&json!(true)), "true");
    assert_eq!(print_value(&json!(42)), "42");
    assert_eq!(print_value(&json!(-7)), "-7");
    assert_eq!(print_value(&json!(2.71)), "2.71");
    assert_eq!(print_value(&json!(null)), "null");
    assert_eq!(
        print_value(&json!(["a", "<b>"])),
        r#"["a","\u003cb\u003e"]"#
    );
    assert_eq!(
        print_value(&json!({"b": 1, "a": [1]})),
        r#"{"a":[1],"b":1}"#
    );
    // Go's %v of float64.
    for (f, want) in [
        (1e6, "1e+06"),
        (123456.5, "123456.5"),
        (100000.0, "100000"),
        (1234567.0, "1.234567e+06"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (1.5e-7, "1.5e-07"),
        (-2.5, "-2.5"),
        (1e21, "1e+21"),
        (1e100, "1e+100"),
        (0.1, "0.1"),
    ] {
        assert_eq!(go_format_float(f), want, "{f}");
    }
}

#[test]
fn unquoting() {
    assert_eq!(unquote(r#""a\tb""#).as_deref(), Some("a\tb"));
    assert_eq!(unquote(r"'it\'s'").as_deref(), Some("it's"));
    assert_eq!(unquote(r#""\u00e9\x41""#).as_deref(), Some("éA"));
    assert_eq!(unquote(r#""bad\q""#), None);
}
