//! PATCH: strategic merge patch driven by the schema (the examples of the
//! API conventions' "Strategic Merge Patch" section, sets, atomic lists,
//! nested and multi-key list maps, every directive), JSON patch and merge
//! patch with the apiserver's errors, content types, and properties: no
//! panics on hostile patches, merge patches computed as differences, and
//! idempotence on the CronJob example's real schema.

use api_core::patch::{
    JSON_PATCH_MAX_COPY_BYTES, MAX_DEPTH, MAX_JSON_PATCH_OPERATIONS, PatchType, apply,
    strategic_merge,
};
use api_core::status::{Status, StatusReason};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

// ----------------------------------------------------------------- helpers

/// The schema of a Pod-like object: containers keyed by `name`, with ports
/// keyed by `containerPort` and `protocol` (defaulted to TCP), args as an
/// atomic list, a set of tags, a map of labels and an atomic map.
fn pod_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "spec": {
                "type": "object",
                "properties": {
                    "containers": {
                        "type": "array",
                        "x-kubernetes-list-type": "map",
                        "x-kubernetes-list-map-keys": ["name"],
                        "items": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string"},
                                "image": {"type": "string"},
                                "args": {"type": "array", "items": {"type": "string"}},
                                "command": {
                                    "type": "array",
                                    "x-kubernetes-list-type": "atomic",
                                    "items": {"type": "string"}
                                },
                                "ports": {
                                    "type": "array",
                                    "x-kubernetes-list-type": "map",
                                    "x-kubernetes-list-map-keys": ["containerPort", "protocol"],
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "name": {"type": "string"},
                                            "containerPort": {"type": "integer"},
                                            "protocol": {"type": "string", "default": "TCP"}
                                        }
                                    }
                                },
                                "env": {
                                    "type": "array",
                                    "x-kubernetes-list-type": "map",
                                    "x-kubernetes-list-map-keys": ["name"],
                                    "items": {"type": "object"}
                                }
                            }
                        }
                    },
                    "tags": {
                        "type": "array",
                        "x-kubernetes-list-type": "set",
                        "items": {"type": "string"}
                    },
                    "labels": {
                        "type": "object",
                        "additionalProperties": {"type": "string"}
                    },
                    "selector": {
                        "type": "object",
                        "x-kubernetes-map-type": "atomic",
                        "additionalProperties": {"type": "string"}
                    },
                    "$ref": {"type": "string"}
                }
            }
        }
    })
}

fn smp(original: &Value, patch: &Value) -> Result<Value, Status> {
    strategic_merge(original, patch, &pod_schema())
}

fn smp_ok(original: Value, patch: Value) -> Value {
    smp(&original, &patch).unwrap_or_else(|e| panic!("{patch}: {}", e.message))
}

fn smp_err(original: Value, patch: Value) -> Status {
    match smp(&original, &patch) {
        Ok(v) => panic!("{patch} applied: {v}"),
        Err(e) => e,
    }
}

fn json_patch(original: &Value, patch: Value) -> Result<Value, Status> {
    apply(
        original,
        &serde_json::to_vec(&patch).unwrap(),
        PatchType::Json,
        &json!({}),
    )
}

fn merge_patch(original: &Value, patch: &Value) -> Result<Value, Status> {
    apply(
        original,
        &serde_json::to_vec(patch).unwrap(),
        PatchType::Merge,
        &json!({}),
    )
}

fn assert_generic_422(status: &Status) {
    assert_eq!(status.code, 422);
    assert_eq!(status.reason, StatusReason::Invalid);
    assert_eq!(
        status.message,
        "the server rejected our request due to an error in our request"
    );
    // Exactly the apiserver's body, `details: {}` included.
    assert_eq!(
        serde_json::to_value(status).unwrap(),
        json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "the server rejected our request due to an error in our request",
            "reason": "Invalid", "details": {}, "code": 422
        })
    );
}

fn cronjob_schema() -> Value {
    examples::cronjob::CronJob::crd().to_json()["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
        .clone()
}

// ------------------------------------------- the API conventions' examples

#[test]
fn adding_a_container_merges_the_list_by_name() {
    let pod = json!({"spec": {"containers": [{"name": "nginx", "image": "nginx-1.0"}]}});
    let patch =
        json!({"spec": {"containers": [{"name": "log-tailer", "image": "log-tailer-1.0"}]}});
    assert_eq!(
        smp_ok(pod.clone(), patch.clone()),
        json!({"spec": {"containers": [
            {"name": "nginx", "image": "nginx-1.0"},
            {"name": "log-tailer", "image": "log-tailer-1.0"}
        ]}})
    );
    // A merge patch replaces the list instead, as the conventions say.
    assert_eq!(
        merge_patch(&pod, &patch).unwrap(),
        json!({"spec": {"containers": [{"name": "log-tailer", "image": "log-tailer-1.0"}]}})
    );
}

#[test]
fn matching_items_merge_in_place_and_others_are_kept() {
    let pod = json!({"spec": {"containers": [
        {"name": "a", "image": "a:1", "args": ["x"]},
        {"name": "b", "image": "b:1"},
        {"name": "c", "image": "c:1"}
    ]}});
    let patch = json!({"spec": {"containers": [
        {"name": "d", "image": "d:1"},
        {"name": "c", "image": "c:2"},
        {"name": "a", "args": null}
    ]}});
    assert_eq!(
        smp_ok(pod, patch),
        json!({"spec": {"containers": [
            {"name": "a", "image": "a:1"},
            {"name": "b", "image": "b:1"},
            {"name": "c", "image": "c:2"},
            {"name": "d", "image": "d:1"}
        ]}})
    );
}

#[test]
fn patch_delete_removes_the_item_with_that_key() {
    let pod = json!({"spec": {"containers": [
        {"name": "nginx", "image": "nginx-1.0"},
        {"name": "log-tailer", "image": "log-tailer-1.0"}
    ]}});
    let patch = json!({"spec": {"containers": [
        {"name": "nginx", "image": "nginx-1.0"},
        {"$patch": "delete", "name": "log-tailer"}
    ]}});
    assert_eq!(
        smp_ok(pod.clone(), patch),
        json!({"spec": {"containers": [{"name": "nginx", "image": "nginx-1.0"}]}})
    );
    // Deleting an item that is not there changes nothing.
    let patch = json!({"spec": {"containers": [{"$patch": "delete", "name": "nope"}]}});
    assert_eq!(smp_ok(pod.clone(), patch), pod);
    // Deletions happen before the merge, as in apimachinery: a deleted and
    // re-added item starts from scratch, in its old place.
    let patch = json!({"spec": {"containers": [
        {"name": "nginx", "args": ["-v"]},
        {"$patch": "delete", "name": "nginx"}
    ]}});
    assert_eq!(
        smp_ok(pod, patch),
        json!({"spec": {"containers": [
            {"name": "nginx", "args": ["-v"]},
            {"name": "log-tailer", "image": "log-tailer-1.0"}
        ]}})
    );
}

#[test]
fn patch_replace_in_a_list_replaces_the_list() {
    let pod = json!({"spec": {"containers": [
        {"name": "nginx", "image": "nginx-1.0"},
        {"name": "log-tailer", "image": "log-tailer-1.0"}
    ]}});
    let patch = json!({"spec": {"containers": [
        {"name": "nginx", "image": "nginx-1.1"},
        {"$patch": "replace"}
    ]}});
    assert_eq!(
        smp_ok(pod.clone(), patch),
        json!({"spec": {"containers": [{"name": "nginx", "image": "nginx-1.1"}]}})
    );
    // "Any further $patch operations nested in this list will be ignored":
    // delete items are dropped with the rest of the old list.
    let patch = json!({"spec": {"containers": [
        {"$patch": "replace"},
        {"$patch": "delete", "name": "nginx"},
        {"name": "x"}
    ]}});
    assert_eq!(
        smp_ok(pod.clone(), patch),
        json!({"spec": {"containers": [{"name": "x"}]}})
    );
    // A list of only the directive empties the list.
    let patch = json!({"spec": {"containers": [{"$patch": "replace"}]}});
    assert_eq!(smp_ok(pod, patch), json!({"spec": {"containers": []}}));
}

#[test]
fn patch_replace_in_a_map_takes_the_map_literally() {
    let pod = json!({"spec": {
        "containers": [{"name": "nginx", "image": "nginx-1.0"}, {"name": "b"}],
        "labels": {"a": "1"}
    }});
    let patch = json!({"spec": {
        "$patch": "replace",
        "containers": [{"name": "nginx", "image": "nginx-1.0"}]
    }});
    assert_eq!(
        smp_ok(pod.clone(), patch),
        json!({"spec": {"containers": [{"name": "nginx", "image": "nginx-1.0"}]}})
    );
    // Recursive: the lists in it replace too, and its nulls are dropped.
    let patch = json!({"spec": {"labels": {"$patch": "replace", "b": "2", "c": null}}});
    assert_eq!(
        smp_ok(pod, patch),
        json!({"spec": {
            "containers": [{"name": "nginx", "image": "nginx-1.0"}, {"name": "b"}],
            "labels": {"b": "2"}
        }})
    );
}

#[test]
fn null_deletes_a_field_of_a_map() {
    let pod = json!({"spec": {"labels": {"live": "true", "app": "web"}, "tags": ["a"]}});
    let patch = json!({"spec": {"labels": {"live": null}, "tags": null, "missing": null}});
    assert_eq!(
        smp_ok(pod, patch),
        json!({"spec": {"labels": {"app": "web"}}})
    );
}

#[test]
fn delete_from_primitive_list_removes_values_from_a_set() {
    let pod = json!({"spec": {"tags": ["a", "b", "c", "b"]}});
    let patch = json!({"spec": {"$deleteFromPrimitiveList/tags": ["b", "z"]}});
    assert_eq!(
        smp_ok(pod.clone(), patch),
        json!({"spec": {"tags": ["a", "c"]}})
    );
    // With additions in the same patch, as kubectl sends them.
    let patch = json!({"spec": {"$deleteFromPrimitiveList/tags": ["a"], "tags": ["d"]}});
    assert_eq!(
        smp_ok(pod.clone(), patch),
        json!({"spec": {"tags": ["b", "c", "d"]}})
    );
    // A value both added and deleted is deleted.
    let patch = json!({"spec": {"$deleteFromPrimitiveList/tags": ["d"], "tags": ["d", "e"]}});
    assert_eq!(
        smp_ok(pod.clone(), patch),
        json!({"spec": {"tags": ["a", "b", "c", "e"]}})
    );
    // From a list that is not there: nothing to do.
    let patch = json!({"spec": {"$deleteFromPrimitiveList/tags": ["a"]}});
    assert_eq!(smp_ok(json!({}), patch), json!({"spec": {}}));

    // Only sets have primitive values to delete.
    let patch = json!({"spec": {"containers": [
        {"name": "a", "$deleteFromPrimitiveList/args": ["x"]}
    ]}});
    let err = smp_err(json!({}), patch);
    assert_eq!(err.code, 400);
    assert_eq!(
        err.message,
        "spec.containers[0].args: $deleteFromPrimitiveList needs a list of type set (x-kubernetes-list-type: set)"
    );
    let err = smp_err(
        pod.clone(),
        json!({"spec": {"$deleteFromPrimitiveList/tags": "a"}}),
    );
    assert_eq!(
        err.message,
        "spec.tags: invalid patch format of primitive list: $deleteFromPrimitiveList/tags must be a list, not a string"
    );
    let err = smp_err(pod, json!({"spec": {"$deleteFromPrimitiveList": ["a"]}}));
    assert_eq!(
        err.message,
        "spec: invalid patch format of primitive list: \"$deleteFromPrimitiveList\" is not $deleteFromPrimitiveList/<field>"
    );
}

// ----------------------------------------------------------- list types

#[test]
fn sets_are_unions_without_duplicates() {
    let pod = json!({"spec": {"tags": ["b", "a", "b"]}});
    assert_eq!(
        smp_ok(pod.clone(), json!({"spec": {"tags": ["c", "a", "d", "c"]}})),
        json!({"spec": {"tags": ["b", "a", "c", "d"]}})
    );
    assert_eq!(
        smp_ok(json!({}), json!({"spec": {"tags": ["x", "x"]}})),
        json!({"spec": {"tags": ["x"]}})
    );
    // Numbers are compared by value.
    assert_eq!(
        smp_ok(
            json!({"spec": {"tags": [1, 2]}}),
            json!({"spec": {"tags": [1.0, 3]}})
        ),
        json!({"spec": {"tags": [1, 2, 3]}})
    );
    // `$patch: replace` replaces a set too.
    assert_eq!(
        smp_ok(
            pod.clone(),
            json!({"spec": {"tags": [{"$patch": "replace"}, "z"]}})
        ),
        json!({"spec": {"tags": ["z"]}})
    );
    // But a set has no keys to delete by.
    let err = smp_err(
        pod,
        json!({"spec": {"tags": [{"$patch": "delete", "name": "a"}]}}),
    );
    assert_eq!(err.code, 400);
    assert!(
        err.message
            .starts_with("spec.tags[0]: $patch: delete needs a list of type map"),
        "{}",
        err.message
    );
}

#[test]
fn atomic_lists_and_lists_without_a_type_are_replaced() {
    let pod = json!({"spec": {"containers": [
        {"name": "a", "args": ["1", "2"], "command": ["sh", "-c"]}
    ]}});
    let patch =
        json!({"spec": {"containers": [{"name": "a", "args": ["3"], "command": ["bash"]}]}});
    assert_eq!(
        smp_ok(pod, patch),
        json!({"spec": {"containers": [{"name": "a", "args": ["3"], "command": ["bash"]}]}})
    );
    // Without a schema every list is atomic, every object merges.
    let original = json!({"a": [1, 2], "b": {"c": 1, "d": [{"x": 1}]}});
    let patch = json!({"a": [3], "b": {"d": [{"y": 2}], "e": 5}});
    assert_eq!(
        strategic_merge(&original, &patch, &json!({})).unwrap(),
        json!({"a": [3], "b": {"c": 1, "d": [{"y": 2}], "e": 5}})
    );
    assert_eq!(
        strategic_merge(&original, &patch, &Value::Null).unwrap(),
        strategic_merge(&original, &patch, &json!({})).unwrap()
    );
}

#[test]
fn atomic_maps_are_replaced() {
    let pod = json!({"spec": {"selector": {"a": "1", "b": "2"}, "labels": {"a": "1", "b": "2"}}});
    let patch = json!({"spec": {"selector": {"c": "3", "d": null}, "labels": {"c": "3"}}});
    assert_eq!(
        smp_ok(pod, patch),
        json!({"spec": {"selector": {"c": "3"}, "labels": {"a": "1", "b": "2", "c": "3"}}})
    );
}

#[test]
fn nested_list_maps_merge_at_every_level() {
    let pod = json!({"spec": {"containers": [
        {"name": "web", "ports": [
            {"name": "http", "containerPort": 80, "protocol": "TCP"},
            {"name": "dns", "containerPort": 53, "protocol": "UDP"}
        ], "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]},
        {"name": "side", "ports": [{"containerPort": 9000}]}
    ]}});
    let patch = json!({"spec": {"containers": [{"name": "web", "ports": [
        {"name": "dns-tcp", "containerPort": 53, "protocol": "TCP"},
        {"containerPort": 80, "protocol": "TCP", "name": "web"},
        {"$patch": "delete", "containerPort": 53, "protocol": "UDP"}
    ], "env": [{"name": "B", "value": null, "valueFrom": {"x": 1}}]}]}});
    assert_eq!(
        smp_ok(pod, patch),
        json!({"spec": {"containers": [
            {"name": "web", "ports": [
                {"name": "web", "containerPort": 80, "protocol": "TCP"},
                {"name": "dns-tcp", "containerPort": 53, "protocol": "TCP"}
            ], "env": [{"name": "A", "value": "1"}, {"name": "B", "valueFrom": {"x": 1}}]},
            {"name": "side", "ports": [{"containerPort": 9000}]}
        ]}})
    );
}

#[test]
fn multi_key_list_maps_match_on_every_key_and_defaults() {
    let pod = json!({"spec": {"containers": [{"name": "c", "ports": [
        {"containerPort": 53, "protocol": "UDP", "name": "a"},
        {"containerPort": 53, "name": "b"}
    ]}]}});
    // `protocol` missing counts as its default, TCP: this is item "b".
    let patch = json!({"spec": {"containers": [{"name": "c", "ports": [
        {"containerPort": 53, "protocol": "TCP", "name": "b2"},
        {"containerPort": 53, "protocol": "SCTP", "name": "c"},
        {"containerPort": 53, "name": "b3"}
    ]}]}});
    assert_eq!(
        smp_ok(pod, patch),
        json!({"spec": {"containers": [{"name": "c", "ports": [
            {"containerPort": 53, "protocol": "UDP", "name": "a"},
            {"containerPort": 53, "protocol": "TCP", "name": "b3"},
            {"containerPort": 53, "protocol": "SCTP", "name": "c"}
        ]}]}})
    );
    // A key without a default must be there.
    let err = smp_err(
        json!({}),
        json!({"spec": {"containers": [{"name": "c", "ports": [{"protocol": "TCP"}]}]}}),
    );
    assert_eq!(err.code, 400);
    assert_eq!(
        err.message,
        r#"spec.containers[0].ports[0]: map: {"protocol":"TCP"} does not contain declared merge key: containerPort"#
    );
}

#[test]
fn list_map_items_must_be_objects_with_their_keys() {
    let err = smp_err(json!({}), json!({"spec": {"containers": ["web"]}}));
    assert_eq!(
        err.message,
        "spec.containers[0]: expected an object in a list of type map, but received a string"
    );
    let err = smp_err(json!({}), json!({"spec": {"containers": [{"image": "x"}]}}));
    assert_eq!(
        err.message,
        r#"spec.containers[0]: map: {"image":"x"} does not contain declared merge key: name"#
    );
    let err = smp_err(
        json!({}),
        json!({"spec": {"containers": [{"$patch": "delete", "image": "x"}]}}),
    );
    assert_eq!(err.code, 400);
    let err = smp_err(
        json!({}),
        json!({"spec": {"containers": [{"name": {"a": null}}]}}),
    );
    assert_eq!(
        err.message,
        r#"spec.containers[0]: the merge key "name" must be a string, a number or a boolean, not an object"#
    );
    // Items of the object that lack their key are kept and never match.
    let pod = json!({"spec": {"containers": [{"image": "orphan"}, "junk"]}});
    assert_eq!(
        smp_ok(pod, json!({"spec": {"containers": [{"name": "a"}]}})),
        json!({"spec": {"containers": [{"image": "orphan"}, "junk", {"name": "a"}]}})
    );
}

#[test]
fn values_of_another_type_replace() {
    let pod = json!({"spec": {"labels": {"a": "1"}, "tags": ["x"], "containers": [{"name": "a"}]}});
    let patch = json!({"spec": {"labels": "oops", "tags": {"b": null, "c": 1}, "containers": 7}});
    assert_eq!(
        smp_ok(pod, patch),
        json!({"spec": {"labels": "oops", "tags": {"c": 1}, "containers": 7}})
    );
}

// ------------------------------------------------------------ directives

#[test]
fn patch_merge_is_the_default_and_delete_empties_a_map() {
    let pod = json!({"spec": {"labels": {"a": "1"}, "containers": [{"name": "a", "image": "1"}]}});
    let patch = json!({"spec": {
        "$patch": "merge",
        "labels": {"$patch": "merge", "b": "2"},
        "containers": [{"$patch": "merge"}, {"$patch": "merge", "name": "a", "image": "2"}]
    }});
    assert_eq!(
        smp_ok(pod.clone(), patch),
        json!({"spec": {"labels": {"a": "1", "b": "2"}, "containers": [{"name": "a", "image": "2"}]}})
    );
    // As apimachinery: `$patch: delete` in a map leaves it empty.
    assert_eq!(
        smp_ok(pod, json!({"spec": {"labels": {"$patch": "delete"}}})),
        json!({"spec": {"labels": {}, "containers": [{"name": "a", "image": "1"}]}})
    );
}

#[test]
fn unknown_directives_are_bad_requests() {
    let pod = json!({"spec": {"labels": {"a": "1"}}});
    let err = smp_err(pod.clone(), json!({"spec": {"$patch": "remove"}}));
    assert_eq!(err.code, 400);
    assert_eq!(err.reason, StatusReason::BadRequest);
    assert_eq!(
        err.message,
        r#"spec: unknown patch type: "remove" in map: {"$patch":"remove"}"#
    );
    let err = smp_err(pod.clone(), json!({"spec": {"labels": {"$patch": 1}}}));
    assert_eq!(
        err.message,
        r#"spec.labels: unknown patch type: 1 in map: {"$patch":1}"#
    );
    let err = smp_err(
        pod.clone(),
        json!({"spec": {"containers": [{"$patch": null}]}}),
    );
    assert_eq!(
        err.message,
        r#"spec.containers[0]: unknown patch type: null in map: {"$patch":null}"#
    );
    let err = smp_err(pod.clone(), json!({"$foo": 1}));
    assert_eq!(
        err.message,
        r#"unknown strategic merge patch directive "$foo""#
    );
    let err = smp_err(pod.clone(), json!({"spec": {"labels": {"$unknown/x": []}}}));
    assert_eq!(
        err.message,
        r#"spec.labels: unknown strategic merge patch directive "$unknown/x""#
    );
    // ...but a `$` property the schema declares is a plain field.
    assert_eq!(
        smp_ok(pod, json!({"spec": {"$ref": "x"}})),
        json!({"spec": {"labels": {"a": "1"}, "$ref": "x"}})
    );
    // `$patch: merge` with data needs keys to merge by.
    let err = smp_err(
        json!({}),
        json!({"spec": {"tags": [{"$patch": "merge", "x": 1}]}}),
    );
    assert_eq!(err.code, 400);
}

#[test]
fn retain_keys_clears_the_fields_it_does_not_list() {
    let pod = json!({"spec": {"labels": {"a": "1", "b": "2", "c": "3"}}});
    assert_eq!(
        smp_ok(
            pod.clone(),
            json!({"spec": {"labels": {"$retainKeys": ["a", "d"], "d": "4", "b": null}}})
        ),
        json!({"spec": {"labels": {"a": "1", "d": "4"}}})
    );
    let err = smp_err(
        pod.clone(),
        json!({"spec": {"labels": {"$retainKeys": ["a"], "d": "4"}}}),
    );
    assert_eq!(
        err.message,
        r#"spec.labels: invalid patch format of retainKeys: the patch sets "d", which $retainKeys does not list"#
    );
    let err = smp_err(pod, json!({"spec": {"labels": {"$retainKeys": "a"}}}));
    assert_eq!(
        err.message,
        "spec.labels: invalid patch format of retainKeys: $retainKeys must be a list of field names, not a string"
    );
}

#[test]
fn set_element_order_reorders_sets_and_list_maps() {
    let pod = json!({"spec": {
        "tags": ["a", "b", "c", "d"],
        "containers": [{"name": "a"}, {"name": "b"}, {"name": "c"}]
    }});
    // Listed items in the listed order; as apimachinery's
    // normalizeElementOrder, an unlisted item goes before the first listed
    // one that came after it in the object.
    let patch = json!({"spec": {
        "$setElementOrder/tags": ["d", "e", "b"],
        "tags": ["e"],
        "$setElementOrder/containers": [{"name": "c"}, {"name": "new"}, {"name": "a"}],
        "containers": [{"name": "new"}, {"name": "a", "image": "x"}]
    }});
    assert_eq!(
        smp_ok(pod.clone(), patch),
        json!({"spec": {
            "tags": ["a", "c", "d", "e", "b"],
            "containers": [{"name": "b"}, {"name": "c"}, {"name": "new"}, {"name": "a", "image": "x"}]
        }})
    );
    // Without the list in the patch: a pure reorder.
    assert_eq!(
        smp_ok(
            pod.clone(),
            json!({"spec": {"$setElementOrder/tags": ["d", "c", "b", "a"]}})
        ),
        json!({"spec": {"tags": ["d", "c", "b", "a"], "containers": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}})
    );
    // The patch's items must follow the order.
    let err = smp_err(
        pod.clone(),
        json!({"spec": {"$setElementOrder/tags": ["x", "y"], "tags": ["y", "x"]}}),
    );
    assert_eq!(
        err.message,
        "spec.tags: the order of the patch list does not match $setElementOrder/tags"
    );
    let err = smp_err(
        pod.clone(),
        json!({"spec": {"$setElementOrder/tags": ["x"], "tags": ["z"]}}),
    );
    assert_eq!(err.code, 400);
    // Only for sets and list maps, with well-formed entries.
    let err = smp_err(
        json!({}),
        json!({"spec": {"containers": [{"name": "a", "$setElementOrder/args": ["x"]}]}}),
    );
    assert_eq!(
        err.message,
        "spec.containers[0].args: $setElementOrder needs a list of type set or map (x-kubernetes-list-type)"
    );
    let err = smp_err(
        pod.clone(),
        json!({"spec": {"$setElementOrder/containers": ["a"]}}),
    );
    assert_eq!(
        err.message,
        "spec.containers: invalid patch format of setElementOrder list: item 0 of $setElementOrder/containers must be an object, not a string"
    );
    let err = smp_err(pod, json!({"spec": {"$setElementOrder/tags": {}}}));
    assert_eq!(err.code, 400);
}

#[test]
fn metadata_follows_object_meta_tags() {
    let obj = json!({"metadata": {
        "name": "x",
        "finalizers": ["a", "b"],
        "ownerReferences": [{"uid": "1", "name": "one"}, {"uid": "2", "name": "two"}],
        "labels": {"a": "1"}
    }});
    let patch = json!({"metadata": {
        "finalizers": ["c", "a"],
        "$deleteFromPrimitiveList/finalizers": ["b"],
        "ownerReferences": [{"uid": "2", "controller": true}, {"$patch": "delete", "uid": "1"}],
        "labels": {"b": "2"}
    }});
    assert_eq!(
        smp_ok(obj, patch),
        json!({"metadata": {
            "name": "x",
            "finalizers": ["a", "c"],
            "ownerReferences": [{"uid": "2", "name": "two", "controller": true}],
            "labels": {"a": "1", "b": "2"}
        }})
    );
}

#[test]
fn embedded_resources_get_object_meta_rules_too() {
    let schema = json!({"properties": {"spec": {"properties": {"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {"metadata": {"type": "object"}}
    }}}}});
    let obj = json!({"spec": {"template": {"metadata": {"finalizers": ["a"]}}}});
    let patch = json!({"spec": {"template": {"metadata": {"finalizers": ["b"]}}}});
    assert_eq!(
        strategic_merge(&obj, &patch, &schema).unwrap(),
        json!({"spec": {"template": {"metadata": {"finalizers": ["a", "b"]}}}})
    );
    // Elsewhere a field called metadata is just a field.
    let patch = json!({"spec": {"metadata": {"finalizers": ["b"]}}});
    let obj = json!({"spec": {"metadata": {"finalizers": ["a"]}}});
    assert_eq!(strategic_merge(&obj, &patch, &schema).unwrap(), patch);
}

#[test]
fn new_parts_of_the_patch_are_built_without_nulls_or_directives() {
    let patch = json!({"spec": {
        "labels": {"a": "1", "b": null},
        "containers": [{"name": "a", "env": [{"name": "X", "value": null}, {"$patch": "delete", "name": "Y"}]}],
        "tags": [{"$patch": "replace"}, "t"]
    }});
    assert_eq!(
        smp_ok(json!({}), patch),
        json!({"spec": {
            "labels": {"a": "1"},
            "containers": [{"name": "a", "env": [{"name": "X"}]}],
            "tags": ["t"]
        }})
    );
}

#[test]
fn a_list_map_without_keys_in_the_schema_is_a_server_error() {
    let schema = json!({"properties": {"l": {"type": "array", "x-kubernetes-list-type": "map"}}});
    let err = strategic_merge(&json!({}), &json!({"l": [{"a": 1}]}), &schema).unwrap_err();
    assert_eq!(err.code, 500);
    assert!(
        err.message.contains("without x-kubernetes-list-map-keys"),
        "{}",
        err.message
    );
}

#[test]
fn strategic_merge_patches_must_be_objects() {
    for patch in [json!([]), json!(null), json!("x"), json!(1)] {
        let err = strategic_merge(&json!({}), &patch, &json!({})).unwrap_err();
        assert_eq!(err.code, 400, "{patch}");
    }
    for body in [&b"[]"[..], b"null", b"", b"{", b"\"x\""] {
        let err = apply(&json!({}), body, PatchType::StrategicMerge, &json!({})).unwrap_err();
        assert_eq!(err.code, 400);
        assert!(
            err.message.starts_with("error decoding patch: "),
            "{}",
            err.message
        );
    }
    // A non-object original is replaced by the patch.
    assert_eq!(
        strategic_merge(&json!([1]), &json!({"a": 1}), &json!({})).unwrap(),
        json!({"a": 1})
    );
}

#[test]
fn strategic_merge_through_apply_and_the_inputs_are_untouched() {
    let pod = json!({"spec": {"containers": [{"name": "a"}]}});
    let before = pod.clone();
    let body = br#"{"spec": {"containers": [{"name": "b"}]}}"#;
    let patched = apply(&pod, body, PatchType::StrategicMerge, &pod_schema()).unwrap();
    assert_eq!(
        patched,
        json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}]}})
    );
    assert_eq!(pod, before);
}

#[test]
fn deep_nesting_is_refused() {
    // By the JSON parser, through apply...
    let deep = format!("{}1{}", "{\"a\":".repeat(10_000), "}".repeat(10_000));
    for t in PatchType::ALL {
        let err = apply(&json!({}), deep.as_bytes(), t, &json!({})).unwrap_err();
        assert_eq!(err.code, 400, "{t}");
    }
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let err = apply(&json!({}), deep.as_bytes(), PatchType::Json, &json!({})).unwrap_err();
    assert_eq!(err.code, 400);
    // ...and by strategic_merge itself for values built in memory.
    let mut patch = json!(1);
    for _ in 0..MAX_DEPTH + 5 {
        patch = json!([{ "a": patch }]);
    }
    let patch = json!({ "a": patch });
    let err = strategic_merge(&json!({}), &patch, &json!({})).unwrap_err();
    assert_eq!(err.code, 400);
    assert!(err.message.contains("nested more than 256 levels deep"));
}

// ------------------------------------------------------- the CronJob schema

#[test]
fn cronjob_schema_drives_the_merge() {
    let schema = cronjob_schema();
    let cj = json!({
        "apiVersion": "batch.example.com/v1", "kind": "CronJob",
        "metadata": {"name": "cj", "finalizers": ["f"]},
        "spec": {"schedule": "* * * * *", "jobTemplate": {
            "image": "busybox", "command": ["a", "b"],
            "ports": [{"name": "http", "port": 80}, {"name": "metrics", "port": 9090}]
        }},
        "status": {"active": ["job-1"], "conditions": [
            {"type": "Scheduled", "status": "True", "reason": "Ok", "message": "", "lastTransitionTime": "2024-01-01T00:00:00Z"}
        ]}
    });
    let patch = json!({
        "metadata": {"finalizers": ["g"]},
        "spec": {"jobTemplate": {
            "command": ["c"],
            "ports": [{"name": "metrics", "port": 9091}, {"name": "grpc", "port": 9000}]
        }},
        "status": {"active": ["job-2", "job-1"], "conditions": [
            {"type": "Scheduled", "status": "False", "reason": "Suspended"},
            {"type": "Suspended", "status": "True", "reason": "User", "message": "", "lastTransitionTime": "2024-01-02T00:00:00Z"}
        ]}
    });
    let patched = apply(
        &cj,
        &serde_json::to_vec(&patch).unwrap(),
        PatchType::StrategicMerge,
        &schema,
    )
    .unwrap();
    assert_eq!(
        patched,
        json!({
            "apiVersion": "batch.example.com/v1", "kind": "CronJob",
            "metadata": {"name": "cj", "finalizers": ["f", "g"]},
            "spec": {"schedule": "* * * * *", "jobTemplate": {
                "image": "busybox", "command": ["c"],
                "ports": [{"name": "http", "port": 80}, {"name": "metrics", "port": 9091}, {"name": "grpc", "port": 9000}]
            }},
            "status": {"active": ["job-1", "job-2"], "conditions": [
                {"type": "Scheduled", "status": "False", "reason": "Suspended", "message": "", "lastTransitionTime": "2024-01-01T00:00:00Z"},
                {"type": "Suspended", "status": "True", "reason": "User", "message": "", "lastTransitionTime": "2024-01-02T00:00:00Z"}
            ]}
        })
    );
    // The patched object decodes as a CronJob.
    let typed: examples::cronjob::CronJob = serde_json::from_value(patched).unwrap();
    assert_eq!(typed.spec.job_template.ports.len(), 3);
}

// ---------------------------------------------------------------- JSON patch

#[test]
fn json_patch_operations() {
    let doc = json!({"a": {"b": [1, 2, 3]}, "c": "x"});
    let ok = |patch: Value| json_patch(&doc, patch).unwrap();
    assert_eq!(
        ok(json!([{"op": "add", "path": "/a/b/1", "value": 9}])),
        json!({"a": {"b": [1, 9, 2, 3]}, "c": "x"})
    );
    assert_eq!(
        ok(json!([{"op": "add", "path": "/a/b/-", "value": 9}])),
        json!({"a": {"b": [1, 2, 3, 9]}, "c": "x"})
    );
    assert_eq!(
        ok(json!([{"op": "add", "path": "/d", "value": {"e": null}}])),
        json!({"a": {"b": [1, 2, 3]}, "c": "x", "d": {"e": null}})
    );
    assert_eq!(
        ok(json!([{"op": "remove", "path": "/a/b/0"}, {"op": "remove", "path": "/c"}])),
        json!({"a": {"b": [2, 3]}})
    );
    assert_eq!(
        ok(json!([{"op": "replace", "path": "/c", "value": ["y"]}])),
        json!({"a": {"b": [1, 2, 3]}, "c": ["y"]})
    );
    assert_eq!(
        ok(json!([{"op": "move", "from": "/a/b", "path": "/b"}])),
        json!({"a": {}, "b": [1, 2, 3], "c": "x"})
    );
    assert_eq!(
        ok(json!([{"op": "copy", "from": "/a/b/2", "path": "/a/b/0"}])),
        json!({"a": {"b": [3, 1, 2, 3]}, "c": "x"})
    );
    assert_eq!(
        ok(
            json!([{"op": "test", "path": "/c", "value": "x"}, {"op": "add", "path": "/t", "value": true}])
        ),
        json!({"a": {"b": [1, 2, 3]}, "c": "x", "t": true})
    );
    // Escaped pointers.
    assert_eq!(
        json_patch(
            &json!({"a/b": 1, "m~n": 2}),
            json!([
                {"op": "replace", "path": "/a~1b", "value": 3},
                {"op": "remove", "path": "/m~0n"}
            ])
        )
        .unwrap(),
        json!({"a/b": 3})
    );
    // The empty patch and the root path.
    assert_eq!(ok(json!([])), doc);
    assert_eq!(
        ok(json!([{"op": "replace", "path": "", "value": {"z": 1}}])),
        json!({"z": 1})
    );
}

#[test]
fn json_patches_that_do_not_apply_are_the_generic_422() {
    let doc = json!({"a": {"b": [1, 2, 3]}, "c": "x"});
    for patch in [
        json!([{"op": "test", "path": "/c", "value": "y"}]),
        json!([{"op": "test", "path": "/nope", "value": "x"}]),
        json!([{"op": "add", "path": "/c", "value": 1}, {"op": "test", "path": "/c", "value": 2}]),
        json!([{"op": "remove", "path": "/nope"}]),
        json!([{"op": "replace", "path": "/nope", "value": 1}]),
        json!([{"op": "add", "path": "/x/y", "value": 1}]),
        json!([{"op": "add", "path": "/a/b/4", "value": 1}]),
        json!([{"op": "add", "path": "/a/b/99999999999999999999999999", "value": 1}]),
        json!([{"op": "remove", "path": "/a/b/18446744073709551615"}]),
        json!([{"op": "remove", "path": "/a/b/-"}]),
        json!([{"op": "remove", "path": "/a/b/01"}]),
        json!([{"op": "remove", "path": ""}]),
        json!([{"op": "move", "from": "/a", "path": "/a/b/0"}]),
        json!([{"op": "move", "from": "/nope", "path": "/x"}]),
        json!([{"op": "copy", "from": "/nope", "path": "/x"}]),
        json!([{"op": "add", "path": "c", "value": 1}]),
        json!([{"op": "frobnicate", "path": "/c"}]),
        json!([{"path": "/c"}]),
        json!([{"op": "add", "path": "/c"}]),
        json!([{"op": "move", "path": "/c"}]),
        json!([{"op": "add", "value": 1}]),
        json!([{"op": null, "path": "/c"}]),
        // `move` to the root and back undone: patch_unsafe never undoes.
        json!([{"op": "move", "from": "/a", "path": ""}, {"op": "test", "path": "/zz", "value": 1}]),
    ] {
        let err = json_patch(&doc, patch.clone()).expect_err(&patch.to_string());
        assert_generic_422(&err);
    }
}

#[test]
fn malformed_json_patches_are_bad_requests() {
    let doc = json!({"a": 1});
    let cases: [(&[u8], &str); 7] = [
        (
            b"",
            "error decoding patch: EOF while parsing a value at line 1 column 0",
        ),
        (
            b"[",
            "error decoding patch: EOF while parsing a list at line 1 column 1",
        ),
        (
            br#"{"op": "add"}"#,
            "error decoding patch: a JSON patch must be a JSON array of operations, not an object",
        ),
        (
            b"null",
            "error decoding patch: a JSON patch must be a JSON array of operations, not null",
        ),
        (
            b"[1]",
            "error decoding patch: operation 0 must be a JSON object, not a number",
        ),
        (
            br#"[{"op": "add", "path": "/b", "value": 1}, {"op": "add", "path": 5}]"#,
            "error decoding patch: operation 1: \"path\" must be a string, not a number",
        ),
        (
            br#"[{"op": ["remove"], "path": "/a"}]"#,
            "error decoding patch: operation 0: \"op\" must be a string, not an array",
        ),
    ];
    for (body, message) in cases {
        let err = apply(&doc, body, PatchType::Json, &json!({})).unwrap_err();
        assert_eq!(err.code, 400);
        assert_eq!(err.reason, StatusReason::BadRequest);
        assert_eq!(err.message, message);
    }
}

#[test]
fn json_patches_are_limited_in_operations_and_copies() {
    let doc = json!({"a": 1});
    let ops = vec![json!({"op": "test", "path": "/a", "value": 1}); MAX_JSON_PATCH_OPERATIONS];
    assert_eq!(json_patch(&doc, Value::Array(ops.clone())).unwrap(), doc);
    let mut ops = ops;
    ops.push(json!({"op": "test", "path": "/a", "value": 1}));
    let err = json_patch(&doc, Value::Array(ops)).unwrap_err();
    assert_eq!(err.code, 413);
    assert_eq!(err.reason, StatusReason::RequestEntityTooLarge);
    assert_eq!(
        err.message,
        "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
    );

    // Copying a list into itself doubles it at each step: stopped at the
    // copy limit instead of exhausting memory.
    let mut ops = vec![json!({"op": "add", "path": "/s", "value": ["x".repeat(1024)]})];
    for _ in 0..64 {
        ops.push(json!({"op": "copy", "from": "/s", "path": "/s/0"}));
    }
    let err = json_patch(&doc, Value::Array(ops)).unwrap_err();
    assert_generic_422(&err);
    // Copies under the limit are fine.
    let big = "x".repeat(JSON_PATCH_MAX_COPY_BYTES / 2 - 10);
    let ops = json!([
        {"op": "add", "path": "/s", "value": big},
        {"op": "copy", "from": "/s", "path": "/t"}
    ]);
    assert!(json_patch(&doc, ops).is_ok());
    let ops = json!([
        {"op": "add", "path": "/s", "value": big},
        {"op": "copy", "from": "/s", "path": "/t"},
        {"op": "copy", "from": "/s", "path": "/u"},
        {"op": "copy", "from": "/s", "path": "/v"}
    ]);
    assert_generic_422(&json_patch(&doc, ops).unwrap_err());
}

// ---------------------------------------------------------------- merge patch

#[test]
fn merge_patch_rfc7386_examples() {
    // RFC 7386, Appendix A, the cases whose patch is an object.
    let cases = [
        (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
        (
            json!({"a": "b"}),
            json!({"b": "c"}),
            json!({"a": "b", "b": "c"}),
        ),
        (json!({"a": "b"}), json!({"a": null}), json!({})),
        (
            json!({"a": "b", "b": "c"}),
            json!({"a": null}),
            json!({"b": "c"}),
        ),
        (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
        (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
        (
            json!({"a": {"b": "c"}}),
            json!({"a": {"b": "d", "c": null}}),
            json!({"a": {"b": "d"}}),
        ),
        (
            json!({"a": [{"b": "c"}]}),
            json!({"a": [1]}),
            json!({"a": [1]}),
        ),
        (
            json!({"e": null}),
            json!({"a": 1}),
            json!({"e": null, "a": 1}),
        ),
        (
            json!([1, 2]),
            json!({"a": "b", "c": null}),
            json!({"a": "b"}),
        ),
        (
            json!({}),
            json!({"a": {"bb": {"ccc": null}}}),
            json!({"a": {"bb": {}}}),
        ),
        // The RFC's introductory example.
        (
            json!({"title": "Goodbye!", "author": {"givenName": "John", "familyName": "Doe"},
                   "tags": ["example", "sample"], "content": "This will be unchanged"}),
            json!({"title": "Hello!", "phoneNumber": "+01-123-456-7890",
                   "author": {"familyName": null}, "tags": ["example"]}),
            json!({"title": "Hello!", "author": {"givenName": "John"}, "tags": ["example"],
                   "content": "This will be unchanged", "phoneNumber": "+01-123-456-7890"}),
        ),
    ];
    for (original, patch, expected) in cases {
        assert_eq!(merge_patch(&original, &patch).unwrap(), expected, "{patch}");
    }
    // A merge patch that is not an object would replace the whole object;
    // the apiserver refuses it when decoding, and so does apply.
    for patch in [json!(["c"]), json!(null), json!("bar")] {
        let err = merge_patch(&json!({"a": "b"}), &patch).unwrap_err();
        assert_eq!(err.code, 400);
        assert!(
            err.message
                .starts_with("error decoding patch: a merge patch must be a JSON object")
        );
    }
    let err = apply(&json!({}), b"{\"a\":", PatchType::Merge, &json!({})).unwrap_err();
    assert_eq!(err.code, 400);
}

// ---------------------------------------------------------------- content types

#[test]
fn content_types() {
    assert_eq!(
        PatchType::Json.content_type(),
        "application/json-patch+json"
    );
    assert_eq!(
        PatchType::Merge.content_type(),
        "application/merge-patch+json"
    );
    assert_eq!(
        PatchType::StrategicMerge.content_type(),
        "application/strategic-merge-patch+json"
    );
    for t in PatchType::ALL {
        assert_eq!(PatchType::from_content_type(t.content_type()), Some(t));
        let with_params = format!("{}; charset=utf-8", t.content_type());
        assert_eq!(PatchType::from_content_type(&with_params), Some(t));
        assert_eq!(PatchType::parse_content_type(&with_params), Ok(t));
    }
    for other in [
        "application/json",
        "application/apply-patch+yaml",
        "application/json-patch+json+x",
        "",
        "; application/merge-patch+json",
    ] {
        assert_eq!(PatchType::from_content_type(other), None, "{other}");
        let err = PatchType::parse_content_type(other).unwrap_err();
        assert_eq!(err.code, 415);
        assert_eq!(err.reason, StatusReason::UnsupportedMediaType);
        assert_eq!(
            err.message,
            "the body of the request was in an unknown format - accepted media types include: \
             application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json"
        );
    }
}

// ---------------------------------------------------------------- properties

/// JSON values with keys and strings from a small pool (so that patches
/// and objects meet), directives included.
fn arb_json(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..3).prop_map(Value::from),
        prop::sample::select(vec![0.5f64, 1.0, -2.0]).prop_map(Value::from),
        prop::sample::select(keys).prop_map(Value::from),
        prop::sample::select(vec!["delete", "replace", "merge", "TCP", "UDP"])
            .prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(keys), inner), 0..6).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

const POD_KEYS: &[&str] = &[
    "spec",
    "containers",
    "name",
    "image",
    "args",
    "command",
    "ports",
    "containerPort",
    "protocol",
    "env",
    "value",
    "tags",
    "labels",
    "selector",
    "metadata",
    "finalizers",
    "ownerReferences",
    "uid",
    "a",
    "b",
    "$patch",
    "$retainKeys",
    "$deleteFromPrimitiveList/tags",
    "$deleteFromPrimitiveList/finalizers",
    "$setElementOrder/containers",
    "$setElementOrder/tags",
    "$setElementOrder/ports",
    "$deleteFromPrimitiveList",
    "$weird",
    "$ref",
];

const CRONJOB_KEYS: &[&str] = &[
    "metadata",
    "spec",
    "status",
    "jobTemplate",
    "ports",
    "name",
    "port",
    "protocol",
    "command",
    "labels",
    "image",
    "active",
    "conditions",
    "type",
    "reason",
    "schedule",
    "finalizers",
    "$patch",
    "$retainKeys",
    "$deleteFromPrimitiveList/active",
    "$setElementOrder/ports",
    "$setElementOrder/conditions",
    "$setElementOrder/active",
];

/// An object at the root, as strategic merge patches must be.
fn arb_object(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop::collection::vec((prop::sample::select(keys), arb_json(keys)), 0..6)
        .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

/// Either `value`, or (now and then) any JSON value in its place.
fn or_junk(value: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    prop_oneof![8 => value, 1 => arb_json(CRONJOB_KEYS)]
}

/// CronJob objects and patches shaped like the schema: ports, commands,
/// labels, active jobs and conditions, with directives mixed in.
fn arb_cronjob_doc() -> impl Strategy<Value = Value> {
    let name = || prop::sample::select(vec!["http", "grpc", "metrics", "admin"]);
    let port = or_junk(
        (
            name(),
            prop::option::of(1..5i32),
            prop::option::of(prop::sample::select(vec!["TCP", "UDP"])),
            prop::sample::select(vec![
                None,
                None,
                None,
                Some("delete"),
                Some("merge"),
                Some("replace"),
            ]),
        )
            .prop_map(|(name, port, protocol, directive)| {
                let mut m = Map::new();
                m.insert("name".into(), name.into());
                if let Some(port) = port {
                    m.insert("port".into(), port.into());
                }
                if let Some(protocol) = protocol {
                    m.insert("protocol".into(), protocol.into());
                }
                if let Some(directive) = directive {
                    m.insert("$patch".into(), directive.into());
                }
                Value::Object(m)
            }),
    );
    let job = || or_junk(prop::sample::select(vec!["j1", "j2", "j3", "j4"]).prop_map(Value::from));
    let condition = or_junk(
        (
            prop::sample::select(vec!["Ready", "Scheduled", "Suspended"]),
            prop::sample::select(vec!["True", "False"]),
            prop::option::of(Just("delete")),
        )
            .prop_map(|(t, status, directive)| {
                let mut c = json!({"type": t, "status": status});
                if let Some(directive) = directive {
                    c["$patch"] = directive.into();
                }
                c
            }),
    );
    let order = prop::collection::vec(name().prop_map(|n| json!({"name": n})), 0..4);
    let fields = (
        prop::option::of(prop::collection::vec(port, 0..5)),
        prop::option::of(prop::collection::vec(job(), 0..4)),
        prop::option::of(prop::collection::vec(condition, 0..3)),
        prop::option::of(order),
        prop::option::of(prop::collection::vec(job(), 0..3)),
        prop::option::of(prop::collection::vec(
            prop::sample::select(vec!["a", "b"]).prop_map(Value::from),
            0..3,
        )),
        prop::option::of(prop::sample::select(vec![
            json!({"a": "1"}),
            json!({"a": null, "b": "2"}),
            json!({"$patch": "replace", "c": "3"}),
        ])),
        prop::option::of(Just(json!(["jobTemplate"]))),
    );
    fields.prop_map(
        |(ports, active, conditions, order, delete_active, command, labels, retain)| {
            let mut template = Map::new();
            if let Some(ports) = ports {
                template.insert("ports".into(), Value::Array(ports));
            }
            if let Some(order) = order {
                template.insert("$setElementOrder/ports".into(), Value::Array(order));
            }
            if let Some(command) = command {
                template.insert("command".into(), Value::Array(command));
            }
            if let Some(labels) = labels {
                template.insert("labels".into(), labels);
            }
            let mut spec = json!({"jobTemplate": template});
            if let Some(retain) = retain {
                spec["$retainKeys"] = retain;
            }
            let mut status = Map::new();
            if let Some(active) = active {
                status.insert("active".into(), Value::Array(active));
            }
            if let Some(delete) = delete_active {
                status.insert(
                    "$deleteFromPrimitiveList/active".into(),
                    Value::Array(delete),
                );
            }
            if let Some(conditions) = conditions {
                status.insert("conditions".into(), Value::Array(conditions));
            }
            json!({"spec": spec, "status": status})
        },
    )
}

/// JSON without arrays or nulls: what a merge patch can produce.
fn arb_plain_object() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        (-3i64..3).prop_map(Value::from),
        prop::sample::select(vec!["a", "b", "c"]).prop_map(Value::from),
    ];
    let value = leaf.prop_recursive(4, 32, 4, |inner| {
        prop::collection::btree_map(prop::sample::select(vec!["a", "b", "c", "d"]), inner, 0..4)
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
    });
    prop::collection::btree_map(prop::sample::select(vec!["a", "b", "c", "d"]), value, 0..4)
        .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

/// The merge patch that turns `from` into `to` (both objects).
fn merge_diff(from: &Map<String, Value>, to: &Map<String, Value>) -> Map<String, Value> {
    let mut patch = Map::new();
    for key in from.keys() {
        if !to.contains_key(key) {
            patch.insert(key.clone(), Value::Null);
        }
    }
    for (key, value) in to {
        match (from.get(key), value) {
            (Some(old), new) if old == new => {}
            (Some(Value::Object(old)), Value::Object(new)) => {
                patch.insert(key.clone(), Value::Object(merge_diff(old, new)));
            }
            _ => {
                patch.insert(key.clone(), value.clone());
            }
        }
    }
    patch
}

fn arb_json_patch_op() -> impl Strategy<Value = Value> {
    let pointer = prop_oneof![
        Just(String::new()),
        Just("/-".to_string()),
        prop::collection::vec(
            prop::sample::select(vec![
                "a",
                "b",
                "0",
                "1",
                "-",
                "99999999999999999999",
                "~0",
                "~1",
                "~",
                ""
            ]),
            1..4
        )
        .prop_map(|parts| format!("/{}", parts.join("/"))),
        Just("no-slash".to_string()),
    ];
    (
        prop::sample::select(vec![
            "add", "remove", "replace", "move", "copy", "test", "bogus",
        ]),
        pointer.clone(),
        prop::option::of(pointer),
        prop::option::of(arb_json(&["a", "b", "0"])),
    )
        .prop_map(|(op, path, from, value)| {
            let mut m = Map::new();
            m.insert("op".into(), op.into());
            m.insert("path".into(), path.into());
            if let Some(from) = from {
                m.insert("from".into(), from.into());
            }
            if let Some(value) = value {
                m.insert("value".into(), value);
            }
            Value::Object(m)
        })
}

fn assert_status_is_sane(status: &Status) {
    assert!(
        matches!(status.code, 400 | 413 | 422 | 500),
        "unexpected code {}: {}",
        status.code,
        status.message
    );
    assert!(!status.message.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Random bodies of every type never panic.
    #[test]
    fn random_patches_never_panic(
        original in arb_json(POD_KEYS),
        patch in prop_oneof![arb_json(POD_KEYS), arb_object(POD_KEYS)],
        bytes in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let schema = pod_schema();
        let body = serde_json::to_vec(&patch).unwrap();
        for t in PatchType::ALL {
            for body in [&body[..], &bytes[..]] {
                if let Err(e) = apply(&original, body, t, &schema) {
                    assert_status_is_sane(&e);
                }
            }
        }
        if let Err(e) = strategic_merge(&original, &patch, &schema) {
            assert_status_is_sane(&e);
        }
        if let Err(e) = strategic_merge(&original, &patch, &original) {
            assert_status_is_sane(&e);
        }
    }

    /// Random JSON patch operations never panic, and fail only with the
    /// apiserver's answers.
    #[test]
    fn random_json_patches_never_panic(
        original in arb_json(&["a", "b", "0"]),
        ops in prop::collection::vec(arb_json_patch_op(), 0..8),
    ) {
        match json_patch(&original, Value::Array(ops)) {
            Ok(_) => {}
            Err(e) => assert_generic_422(&e),
        }
    }

    /// A merge patch computed as the difference of two objects (without
    /// arrays) turns the first into the second, through merge patch and
    /// through strategic merge patch alike.
    #[test]
    fn merge_patch_of_a_difference(from in arb_plain_object(), to in arb_plain_object()) {
        let patch = Value::Object(merge_diff(from.as_object().unwrap(), to.as_object().unwrap()));
        prop_assert_eq!(&merge_patch(&from, &patch).unwrap(), &to);
        prop_assert_eq!(&strategic_merge(&from, &patch, &json!({})).unwrap(), &to);
        prop_assert_eq!(&strategic_merge(&from, &patch, &pod_schema()).unwrap(), &to);
    }

    /// Without lists and directives, strategic merge patch is merge patch.
    #[test]
    fn strategic_merge_without_lists_is_merge_patch(
        original in arb_plain_object(),
        patch in arb_plain_object(),
        deletions in prop::collection::vec(prop::sample::select(vec!["a", "b", "c", "d"]), 0..3),
    ) {
        let mut patch = patch;
        for key in deletions {
            patch.as_object_mut().unwrap().insert(key.to_string(), Value::Null);
        }
        prop_assert_eq!(
            strategic_merge(&original, &patch, &cronjob_schema()).unwrap(),
            merge_patch(&original, &patch).unwrap()
        );
    }

    /// On the CronJob schema: random patches never panic, and a patch that
    /// applies gives the same object when applied again.
    #[test]
    fn cronjob_patches_are_idempotent(
        original in prop_oneof![arb_json(CRONJOB_KEYS), arb_cronjob_doc()],
        patch in prop_oneof![arb_object(CRONJOB_KEYS), arb_cronjob_doc(), arb_cronjob_doc()],
    ) {
        let schema = cronjob_schema();
        match strategic_merge(&original, &patch, &schema) {
            Ok(once) => {
                let twice = strategic_merge(&once, &patch, &schema);
                prop_assert_eq!(twice.as_ref().ok(), Some(&once), "{}", patch);
            }
            Err(e) => assert_status_is_sane(&e),
        }
    }

    /// On the CronJob schema: ports merge by name (kept in place, new ones
    /// appended in patch order) and status.active is the union.
    #[test]
    fn cronjob_list_map_and_set(
        old_ports in prop::collection::btree_map(prop::sample::select(vec!["a", "b", "c", "d", "e"]), 1..100i32, 0..5),
        new_ports in prop::collection::vec((prop::sample::select(vec!["a", "b", "c", "d", "e", "f"]), 1..100i32), 0..6),
        old_active in prop::collection::vec(prop::sample::select(vec!["j1", "j2", "j3"]), 0..4),
        new_active in prop::collection::vec(prop::sample::select(vec!["j2", "j3", "j4"]), 0..4),
    ) {
        let schema = cronjob_schema();
        let ports = |ps: Vec<(&str, i32)>| -> Value {
            ps.into_iter().map(|(n, p)| json!({"name": n, "port": p})).collect()
        };
        let original = json!({
            "spec": {"jobTemplate": {"ports": ports(old_ports.clone().into_iter().collect())}},
            "status": {"active": old_active}
        });
        let patch = json!({
            "spec": {"jobTemplate": {"ports": ports(new_ports.clone())}},
            "status": {"active": new_active}
        });
        let merged = strategic_merge(&original, &patch, &schema).unwrap();

        let mut expected: Vec<(&str, i32)> = old_ports.into_iter().collect();
        for (name, port) in new_ports {
            match expected.iter_mut().find(|(n, _)| *n == name) {
                Some(item) => item.1 = port,
                None => expected.push((name, port)),
            }
        }
        prop_assert_eq!(&merged["spec"]["jobTemplate"]["ports"], &ports(expected));

        let mut active: Vec<&str> = Vec::new();
        for job in old_active.iter().chain(&new_active) {
            if !active.contains(job) {
                active.push(job);
            }
        }
        prop_assert_eq!(&merged["status"]["active"], &json!(active));
    }
}
