//! Arbitrary templates and paths over arbitrary JSON: parsing and
//! evaluation return values or typed errors, never panic.

use api_server::jsonpath::JsonPath;
use api_server::table::TableConvertor;
use proptest::prelude::*;
use serde_json::{Value, json};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        "[a-z]{0,3}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,2}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Templates built from the pieces of the grammar, often malformed.
fn template() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just(".".to_string()),
        Just("..".to_string()),
        "[a-z]{1,2}".prop_map(|s| format!(".{s}")),
        Just("[*]".to_string()),
        (-3i64..4).prop_map(|i| format!("[{i}]")),
        (-3i64..4, -3i64..4).prop_map(|(a, b)| format!("[{a}:{b}]")),
        (0i64..3, 0i64..4, -1i64..3).prop_map(|(a, b, c)| format!("[{a}:{b}:{c}]")),
        Just("['a']".to_string()),
        Just("['a','b']".to_string()),
        "[a-z]{1,2}".prop_map(|s| format!("[?(@.{s})]")),
        (
            "[a-z]{1,2}",
            prop_oneof![Just("=="), Just("!="), Just("<"), Just(">="), Just("=<")],
            prop_oneof![
                Just("1"),
                Just("'x'"),
                Just("true"),
                Just("@.a"),
                Just("2.5")
            ]
        )
            .prop_map(|(f, op, lit)| format!("[?(@.{f}{op}{lit})]")),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("\"".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("$".to_string()),
        Just("@".to_string()),
        Just(" ".to_string()),
        Just("-".to_string()),
        Just("\\".to_string()),
        Just("é".to_string()),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
}

proptest! {
    #[test]
    fn column_paths_never_panic(path in template(), data in json_value()) {
        if let Ok(parsed) = JsonPath::parse_column(&path) {
            let _ = parsed.find(&data);
            let _ = parsed.execute(&data);
        }
        if let Ok(parsed) = JsonPath::parse(&format!("x{path}y")) {
            let _ = parsed.allow_missing_keys(false).execute(&data);
        }
    }

    #[test]
    fn raw_text_never_panics(text in "\\PC{0,24}", data in json_value()) {
        if let Ok(parsed) = JsonPath::parse(&text) {
            let _ = parsed.execute(&data);
        }
    }

    #[test]
    fn table_cells_never_panic(path in template(), type_ in prop_oneof![Just("string"), Just("integer"), Just("number"), Just("boolean"), Just("date"), Just("other")], data in json_value()) {
        let column = api_core::crd::CustomResourceColumnDefinition {
            name: "C".into(),
            type_: type_.into(),
            json_path: path,
            ..Default::default()
        };
        let (convertor, _) = TableConvertor::new(&[column]);
        let object = json!({"metadata": {"name": "x", "creationTimestamp": "2026-01-01T00:00:00Z"}, "spec": data});
        let cells = convertor.cells(&object, chrono::Utc::now());
        prop_assert_eq!(cells.len(), convertor.column_definitions().len());
    }
}
