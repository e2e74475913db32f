use serde_json::{Value, json};

use super::Validator;
use crate::validation::FieldPath;

fn check(schema: Value, new: Value, old: Option<Value>) -> Vec<String> {
    Validator::for_value(&schema)
        .validate(&new, old.as_ref(), &FieldPath::new(""))
        .iter()
        .map(|e| format!("{}: {}", e.field, e.error_body()))
        .collect()
}

fn object(props: Value, rules: Value) -> Value {
    json!({"type": "object", "properties": props, "x-kubernetes-validations": rules})
}

#[test]
fn a_rule_that_holds_passes_and_one_that_fails_is_invalid() {
    let schema = object(
        json!({"spec": {"type": "object", "properties": {"replicas": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "self.replicas >= 1", "message": "at least one"}]}}),
        json!([]),
    );
    assert!(check(schema.clone(), json!({"spec": {"replicas": 1}}), None).is_empty());
    assert_eq!(
        check(schema, json!({"spec": {"replicas": 0}}), None),
        ["spec: Invalid value: at least one"]
    );
}

#[test]
fn scalars_show_their_value_and_the_default_message_names_the_rule() {
    let schema = object(
        json!({"name": {"type": "string", "x-kubernetes-validations": [{"rule": "self.startsWith('a')"}]}}),
        json!([]),
    );
    assert_eq!(
        check(schema, json!({"name": "bob"}), None),
        [r#"name: Invalid value: "bob": failed rule: self.startsWith('a')"#]
    );
}

#[test]
fn transition_rules_run_only_on_updates() {
    let schema = object(
        json!({"name": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "field is immutable"}]}}),
        json!([]),
    );
    assert!(check(schema.clone(), json!({"name": "a"}), None).is_empty());
    assert!(
        check(
            schema.clone(),
            json!({"name": "a"}),
            Some(json!({"name": "a"}))
        )
        .is_empty()
    );
    assert_eq!(
        check(schema, json!({"name": "b"}), Some(json!({"name": "a"}))),
        [r#"name: Invalid value: "b": field is immutable"#]
    );
}

#[test]
fn optional_old_self_runs_on_creation_with_an_empty_optional() {
    let schema = object(
        json!({"name": {"type": "string", "x-kubernetes-validations": [{
            "rule": "!oldSelf.hasValue() || self == oldSelf.value()", "optionalOldSelf": true,
            "message": "immutable once set"}]}}),
        json!([]),
    );
    assert!(check(schema.clone(), json!({"name": "a"}), None).is_empty());
    assert_eq!(
        check(schema, json!({"name": "b"}), Some(json!({"name": "a"}))),
        [r#"name: Invalid value: "b": immutable once set"#]
    );
}

#[test]
fn reasons_field_paths_and_message_expressions() {
    let schema = object(
        json!({"a": {"type": "string"}, "b": {"type": "string"}}),
        json!([
            {"rule": "has(self.a)", "reason": "FieldValueRequired", "fieldPath": ".a", "message": "a is required"},
            {"rule": "!has(self.b)", "reason": "FieldValueForbidden", "fieldPath": ".b", "messageExpression": "'b may not be ' + self.b"},
            {"rule": "false", "reason": "FieldValueDuplicate"},
        ]),
    );
    assert_eq!(
        check(schema, json!({"b": "x"}), None),
        [
            "a: Required value: a is required",
            "b: Forbidden: b may not be x",
            "<nil>: Duplicate value",
        ]
    );
}

#[test]
fn escaped_property_names_and_the_resource_root() {
    let schema = json!({"type": "object", "properties": {
    "metadata": {"type": "object"},
    "spec": {"type": "object", "properties": {"x-y": {"type": "integer"}, "namespace": {"type": "string"}}}},
    "x-kubernetes-validations": [
        {"rule": "self.spec.x__dash__y == 1 && self.spec.__namespace__ == 'n'"},
        {"rule": "self.metadata.name == 'w' && self.kind == 'W'"},
    ]});
    let v = Validator::new(&schema);
    let obj = json!({"kind": "W", "metadata": {"name": "w", "labels": {"a": "b"}}, "spec": {"x-y": 1, "namespace": "n"}});
    let errors = v.validate(&obj, None, &FieldPath::new(""));
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn evaluation_errors_read_as_cel_go_reports_them() {
    let schema = object(
        json!({"n": {"type": "integer", "x-kubernetes-validations": [
            {"rule": "self / 0 == 1"},
            {"rule": "[1][self] == 1"},
        ]}}),
        json!([]),
    );
    assert_eq!(
        check(schema, json!({"n": 5}), None),
        [
            r#"n: Invalid value: "integer": division by zero evaluating rule: self / 0 == 1"#,
            r#"n: Invalid value: "integer": index out of bounds: 5 evaluating rule: [1][self] == 1"#,
        ]
    );
}

#[test]
fn compile_errors_are_reported_where_the_rule_is() {
    let schema = object(json!({}), json!([{"rule": "self.a ==", "message": "m"}]));
    let errors = check(schema, json!({}), None);
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].starts_with(r#"<nil>: Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:"#),
        "{errors:?}"
    );
}

#[test]
fn list_map_items_are_correlated_by_key_for_transition_rules() {
    let schema = object(
        json!({"items": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "properties": {"name": {"type": "string"}, "v": {"type": "integer"}},
                "x-kubernetes-validations": [{"rule": "self.v >= oldSelf.v", "message": "may not decrease"}]}}}),
        json!([]),
    );
    let old = json!({"items": [{"name": "a", "v": 2}, {"name": "b", "v": 2}]});
    let new =
        json!({"items": [{"name": "b", "v": 1}, {"name": "a", "v": 3}, {"name": "c", "v": 0}]});
    assert_eq!(
        check(schema, new, Some(old)),
        ["items[0]: Invalid value: may not decrease"]
    );
}

#[test]
fn unchanged_values_are_ratcheted() {
    let schema = object(
        json!({"a": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() < 3"}]},
               "b": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() < 3"}]}}),
        json!([]),
    );
    let old = json!({"a": "long", "b": "long"});
    let new = json!({"a": "long", "b": "longer"});
    assert_eq!(
        check(schema, new, Some(old)),
        [r#"b: Invalid value: "longer": failed rule: self.size() < 3"#]
    );
}

#[test]
fn rules_are_type_checked_against_the_schema() {
    // Only `name` and `generateName` of the root's metadata are visible.
    let schema = json!({"type": "object", "properties": {"metadata": {"type": "object"}},
        "x-kubernetes-validations": [{"rule": "!has(self.metadata.labels)"}]});
    let errors =
        Validator::new(&schema).validate(&json!({"metadata": {}}), None, &FieldPath::new(""));
    assert_eq!(errors.len(), 1);
    assert!(
        errors.as_slice()[0].detail.starts_with(
            "rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'labels'"
        ),
        "{errors:?}"
    );
    let schema = object(
        json!({"n": {"type": "integer", "x-kubernetes-validations": [
            {"rule": "self == 'a'"},
            {"rule": "self + 1"},
            {"rule": "self > 0", "messageExpression": "self"},
        ]}}),
        json!([]),
    );
    let errors = check(schema, json!({"n": 0}), None);
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].contains("found no matching overload for '_==_' applied to '(int, string)'"));
    assert_eq!(
        errors[1],
        r#"n: Invalid value: "integer": rule compile error: cel expression must evaluate to a bool"#
    );
    // A message expression that does not compile leaves the rule's
    // default message.
    assert_eq!(errors[2], "n: Invalid value: 0: failed rule: self > 0");
}

/// A spec with a set list, a map list (keyed by `name`) of objects that
/// hold a set list themselves, and a list of set lists.
fn list_types_schema(rules: Value) -> Value {
    let set =
        || json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}});
    let ports = || {
        json!({"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "port": {"type": "integer"}, "hosts": set()}}})
    };
    object(
        json!({
            "tags": set(),
            "ports": ports(),
            "extra": ports(),
            "groups": {"type": "array", "items": set()},
            "plain": {"type": "array", "items": {"type": "string"}},
        }),
        rules,
    )
}

fn list_types_value() -> Value {
    json!({
        "tags": ["a", "b", "c"],
        "ports": [{"name": "http", "port": 80, "hosts": ["x", "y"]},
                  {"name": "https", "port": 443, "hosts": []}],
        "extra": [{"name": "admin", "port": 9000, "hosts": []},
                  {"name": "http", "port": 8080, "hosts": []}],
        "groups": [["a", "b"], ["c"]],
        "plain": ["a", "b"],
    })
}

/// Checks that each of `rules` holds of [`list_types_value`] (updated from
/// `old`, when given).
fn assert_list_rules(rules: &[&str], old: Option<Value>) {
    for rule in rules {
        let schema = list_types_schema(json!([{"rule": rule}]));
        assert_eq!(
            check(schema, list_types_value(), old.clone()),
            Vec::<String>::new(),
            "{rule}"
        );
    }
}

#[test]
fn set_and_map_lists_compare_regardless_of_order_when_on_the_left() {
    assert_list_rules(
        &[
            "self.tags == ['c', 'b', 'a']",
            "!(self.tags != ['b', 'c', 'a'])",
            "self.tags != ['a', 'b']",
            "self.tags != ['a', 'b', 'b']",
            // A literal on the left compares in order, as cel-go's lists do.
            "['c', 'b', 'a'] != self.tags",
            "['a', 'b', 'c'] == self.tags",
            "self.ports == [self.ports[1], self.ports[0]]",
            "self.ports != [self.ports[0]]",
            // The items of a map list compare with their own semantics.
            "self.ports[0].hosts == ['y', 'x']",
            "self.ports.all(p, p.name != 'http' || p.hosts == ['y', 'x'])",
            "self.ports.exists(p, p.hosts == [])",
            "self.groups == [['b', 'a'], ['c']]",
            "self.groups != [['c'], ['b', 'a']]",
            "['b', 'a'] in self.groups",
            "!(['a', 'c'] in self.groups)",
            "self.groups.exists(g, g == ['b', 'a'])",
            // Plain lists keep CEL's ordered equality.
            "self.plain != ['b', 'a']",
            "(true ? self.tags : self.tags) == ['c', 'a', 'b']",
        ],
        None,
    );
}

#[test]
fn set_and_map_lists_add_as_union_and_merge() {
    assert_list_rules(
        &[
            "self.tags + ['d', 'a'] == ['d', 'c', 'b', 'a']",
            "size(self.tags + ['d', 'a']) == 4",
            "(self.tags + ['d', 'a'])[3] == 'd'",
            "size(self.plain + ['a']) == 3",
            // Entries with the same keys are replaced in place.
            "(self.ports + self.extra)[0].port == 8080",
            "(self.ports + self.extra)[2].name == 'admin'",
            "size(self.ports + [self.ports[0]]) == 2",
            "self.ports + self.extra == [self.extra[1], self.extra[0], self.ports[1]]",
            // An atomic list of objects concatenates.
            "size(self.ports.filter(p, true) + self.extra) == 4",
        ],
        None,
    );
}

#[test]
fn immutability_of_an_object_ignores_the_order_of_its_set_and_map_lists() {
    let old = json!({
        "tags": ["c", "a", "b"],
        "ports": [{"name": "https", "port": 443, "hosts": []},
                  {"name": "http", "port": 80, "hosts": ["y", "x"]}],
        "extra": [{"name": "http", "port": 8080, "hosts": []},
                  {"name": "admin", "port": 9000, "hosts": []}],
        "groups": [["b", "a"], ["c"]],
        "plain": ["a", "b"],
    });
    let immutable = json!([{"rule": "self == oldSelf", "message": "immutable"}]);
    assert!(
        check(
            list_types_schema(immutable.clone()),
            list_types_value(),
            Some(old.clone())
        )
        .is_empty()
    );
    let optional = json!([{"rule": "!oldSelf.hasValue() || oldSelf.value() == self",
        "optionalOldSelf": true, "message": "immutable"}]);
    assert!(
        check(
            list_types_schema(optional),
            list_types_value(),
            Some(old.clone())
        )
        .is_empty()
    );
    // A changed port, or a reordered plain list, is a change.
    let mut changed = old.clone();
    changed["ports"][0]["port"] = json!(8443);
    assert_eq!(
        check(
            list_types_schema(immutable.clone()),
            list_types_value(),
            Some(changed)
        ),
        ["<nil>: Invalid value: immutable"]
    );
    let mut reordered = old;
    reordered["plain"] = json!(["b", "a"]);
    assert_eq!(
        check(
            list_types_schema(immutable),
            list_types_value(),
            Some(reordered)
        ),
        ["<nil>: Invalid value: immutable"]
    );
}

#[test]
fn deep_rules_run_or_are_refused_without_overflowing_a_worker_s_stack() {
    // On a thread with the stack of a tokio worker (2 MiB): a rule as deep
    // as cel-go allows compiles and runs (a debug build needs several times
    // that stack for it), and a deeper one is refused with cel-go's error,
    // however deep (7,000 levels, 91 KB).
    let run = |n: usize| {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let rule = vec!["self.val1"; n + 1].join(" == ");
                let schema = object(
                    json!({"val1": {"type": "boolean"}}),
                    json!([{"rule": rule}]),
                );
                check(schema, json!({"val1": true}), None)
            })
            .unwrap()
            .join()
            .unwrap()
    };
    // `true == true == true ...` alternates: an even chain is true.
    assert_eq!(run(248), Vec::<String>::new());
    for n in [250, 7_000] {
        let errors = run(n);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].ends_with(
                "rule compile error: compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded"
            ),
            "{errors:?}"
        );
    }
}

#[test]
fn timestamps_print_and_durations_sum_as_in_cel_go() {
    let schema = object(
        json!({
            "expires": {"type": "string", "format": "date-time"},
            "waits": {"type": "array", "items": {"type": "string", "format": "duration"}},
        }),
        json!([
            {"rule": "self.waits.sum() == duration('0s')", "message": "waits"},
            {"rule": "false", "messageExpression": "'expires at ' + string(self.expires)"},
        ]),
    );
    assert_eq!(
        check(
            schema,
            json!({"expires": "2030-01-02T03:04:05.100+01:00", "waits": []}),
            None
        ),
        ["<nil>: Invalid value: expires at 2030-01-02T03:04:05.1+01:00"]
    );
}
