#![no_main]

//! CEL rules on arbitrary input: the first line is a rule, the rest a JSON
//! object validated against a schema of every kind of node (strings with
//! formats, numbers, lists of each list type, maps, int-or-string, an
//! embedded resource, unknown fields) whose root carries the rule, once as
//! a create and once as an update against itself. Compiling, checking and
//! evaluating never panic, and the Kubernetes libraries get whatever the
//! rule hands them (regexes, URLs, IPs, quantities, semvers, formats).

use std::sync::LazyLock;

use api_core::FieldPath;
use api_core::cel::Validator;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

static SCHEMA: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "type": "object",
        "properties": {
            "s": {"type": "string", "maxLength": 64},
            "d": {"type": "string", "format": "duration"},
            "t": {"type": "string", "format": "date-time"},
            "b": {"type": "string", "format": "byte"},
            "i": {"type": "integer"},
            "n": {"type": "number"},
            "f": {"type": "boolean"},
            "ios": {"x-kubernetes-int-or-string": true},
            "list": {"type": "array", "items": {"type": "string"}},
            "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}},
            "objs": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}, "v": {"type": "integer"}},
                    "x-kubernetes-validations": [{"rule": "self.k != '' && (!has(self.v) || self.v >= 0)"}]}},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "x-y": {"type": "string"},
            "namespace": {"type": "string"},
            "e": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
            "u": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
        },
    })
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (rule, object) = text.split_once('\n').unwrap_or((text, "{}"));
    let Ok(object) = serde_json::from_str::<Value>(object) else {
        return;
    };
    let mut schema = SCHEMA.clone();
    schema["x-kubernetes-validations"] = json!([
        {"rule": rule},
        {"rule": rule, "optionalOldSelf": true, "messageExpression": rule},
    ]);
    let rules = Validator::for_value(&schema);
    let root = FieldPath::new("");
    let _ = rules.validate(&object, None, &root);
    let _ = rules.validate(&object, Some(&object), &root);
});
