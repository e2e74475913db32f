//! Checks of the OpenAPI v3 documents against what upstream consumers look
//! for: cli-runtime `query_param_verifier_v3.go` (`supportsQueryParamV3`,
//! translated below), kubectl explain's walk through `$ref`s, and the shape
//! apiextensions' `builder.go` gives the kind, list and paths.

use api_core::crd::{
    CustomResourceDefinitionNames, CustomResourceSubresourceScale, CustomResourceSubresourceStatus,
    CustomResourceSubresources, CustomResourceValidation,
};

use super::*;

fn widgets() -> CustomResourceDefinition {
    let mut crd = CustomResourceDefinition::default();
    crd.metadata.name = "widgets.example.com".into();
    crd.spec.group = "example.com".into();
    crd.spec.scope = "Namespaced".into();
    crd.spec.names = CustomResourceDefinitionNames::for_kind("Widget", "widgets");
    crd.spec.versions = vec![
        CustomResourceDefinitionVersion {
            schema: Some(CustomResourceValidation::new(json!({
                "type": "object",
                "description": "Widget is a widget.",
                "required": ["spec"],
                "properties": {
                    "apiVersion": {"type": "string", "description": "mine"},
                    "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 20}}},
                    "spec": {
                        "type": "object",
                        "description": "spec of the widget.",
                        "properties": {
                            "replicas": {"type": "integer", "format": "int32", "description": "How many."},
                            "port": {"x-kubernetes-int-or-string": true},
                            "port2": {"x-kubernetes-int-or-string": true,
                                      "anyOf": [{"type": "integer"}, {"type": "string"}]},
                            "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                                         "x-kubernetes-preserve-unknown-fields": true},
                            "items": {"type": "array", "items": {"type": "object", "properties": {
                                "inner": {"x-kubernetes-int-or-string": true}}}}
                        }
                    },
                    "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}
                }
            }))),
            subresources: Some(CustomResourceSubresources {
                status: Some(CustomResourceSubresourceStatus {}),
                scale: Some(CustomResourceSubresourceScale {
                    spec_replicas_path: ".spec.replicas".into(),
                    status_replicas_path: ".status.replicas".into(),
                    label_selector_path: None,
                }),
            }),
            ..CustomResourceDefinitionVersion::new("v1", true, true)
        },
        CustomResourceDefinitionVersion::new("v1beta1", true, false),
        CustomResourceDefinitionVersion::new("v1alpha1", false, false),
    ];
    crd
}

fn apples() -> CustomResourceDefinition {
    let mut crd = CustomResourceDefinition::default();
    crd.spec.group = "example.com".into();
    crd.spec.scope = "Cluster".into();
    crd.spec.names = CustomResourceDefinitionNames::for_kind("Apple", "apples");
    crd.spec.versions = vec![CustomResourceDefinitionVersion::new("v1", true, true)];
    crd
}

fn doc() -> Value {
    group_version_document(&[widgets(), apples()], "example.com", "v1").unwrap()
}

/// cli-runtime `supportsQueryParamV3` and `hasGVKExtensionV3`.
fn supports_query_param(doc: &Value, group: &str, version: &str, kind: &str, param: &str) -> bool {
    for path in doc["paths"].as_object().unwrap().values() {
        let Some(op) = path.get("patch") else {
            continue;
        };
        let gvk = &op["x-kubernetes-group-version-kind"];
        if gvk["group"] != group || gvk["version"] != version || gvk["kind"] != kind {
            continue;
        }
        return op["parameters"]
            .as_array()
            .is_some_and(|params| params.iter().any(|p| p["name"] == param));
    }
    false
}

#[test]
fn kubectl_finds_field_validation_on_patch() {
    let doc = doc();
    assert!(supports_query_param(
        &doc,
        "example.com",
        "v1",
        "Widget",
        "fieldValidation"
    ));
    assert!(supports_query_param(
        &doc,
        "example.com",
        "v1",
        "Apple",
        "fieldValidation"
    ));
    assert!(!supports_query_param(
        &doc,
        "example.com",
        "v1",
        "Gadget",
        "fieldValidation"
    ));
    assert!(!supports_query_param(
        &doc,
        "example.com",
        "v1",
        "Widget",
        "nonsense"
    ));
    let v1beta1 = group_version_document(&[widgets()], "example.com", "v1beta1").unwrap();
    assert!(supports_query_param(
        &v1beta1,
        "example.com",
        "v1beta1",
        "Widget",
        "fieldValidation"
    ));
    assert!(group_version_document(&[widgets()], "example.com", "v1alpha1").is_none());
}

#[test]
fn model_names_reverse_the_group() {
    assert_eq!(
        model_name("example.com", "v1", "Widget"),
        "com.example.v1.Widget"
    );
    assert_eq!(
        model_name("cache.example.com", "v1alpha1", "Memcached"),
        "com.example.cache.v1alpha1.Memcached"
    );
    let doc = doc();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in [
        "com.example.v1.Widget",
        "com.example.v1.WidgetList",
        "com.example.v1.Apple",
        "com.example.v1.AppleList",
        OBJECT_META,
        LIST_META,
        STATUS,
        PATCH,
        DELETE_OPTIONS,
        SCALE,
    ] {
        assert!(schemas.contains_key(name), "{name}");
    }
}

/// Every `$ref` of the document resolves to one of its components.
#[test]
fn references_resolve() {
    fn walk(v: &Value, schemas: &Map<String, Value>, count: &mut usize) {
        match v {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref") {
                    let name = r.strip_prefix(REF_PREFIX).expect("component reference");
                    assert!(schemas.contains_key(name), "dangling {r}");
                    assert_eq!(map.len(), 1, "a $ref has no siblings: {v}");
                    *count += 1;
                }
                map.values().for_each(|v| walk(v, schemas, count));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, schemas, count)),
            _ => {}
        }
    }
    let doc = doc();
    let schemas = doc["components"]["schemas"].as_object().unwrap().clone();
    let mut count = 0;
    walk(&doc, &schemas, &mut count);
    assert!(count > 50);
    // Without a scale subresource, no autoscaling schemas.
    let apples = group_version_document(&[apples()], "example.com", "v1").unwrap();
    assert!(apples["components"]["schemas"].get(SCALE).is_none());
}

/// What `kubectl explain widgets.spec.replicas` and `widgets.metadata.name`
/// walk: the GVK's schema, its properties, `allOf` references.
#[test]
fn explain_can_walk_the_schema() {
    let doc = doc();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let (_, widget) = schemas
        .iter()
        .find(|(_, s)| {
            s["x-kubernetes-group-version-kind"]
                .as_array()
                .is_some_and(|g| {
                    g.contains(&json!({"group": "example.com", "version": "v1", "kind": "Widget"}))
                })
        })
        .unwrap();
    assert_eq!(widget["description"], "Widget is a widget.");
    assert_eq!(
        widget["properties"]["spec"]["properties"]["replicas"]["description"],
        "How many."
    );
    let resolve = |s: &Value| -> Value {
        let r = s["allOf"][0]["$ref"]
            .as_str()
            .or(s["$ref"].as_str())
            .unwrap();
        schemas[r.strip_prefix(REF_PREFIX).unwrap()].clone()
    };
    let metadata = &widget["properties"]["metadata"];
    assert_eq!(
        metadata["description"],
        "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
    );
    let object_meta = resolve(metadata);
    assert_eq!(object_meta["properties"]["name"]["type"], "string");
    assert!(
        object_meta["properties"]["name"]["description"]
            .as_str()
            .unwrap()
            .starts_with("Name must be unique")
    );
    let time = resolve(&object_meta["properties"]["creationTimestamp"]);
    assert_eq!(time["format"], "date-time");
    let owner = resolve(&object_meta["properties"]["ownerReferences"]["items"]);
    assert_eq!(
        owner["required"],
        json!(["apiVersion", "kind", "name", "uid"])
    );
    // The CRD's own apiVersion and metadata are replaced, TypeMeta's used.
    assert!(
        widget["properties"]["apiVersion"]["description"]
            .as_str()
            .unwrap()
            .starts_with("APIVersion defines")
    );
    assert_eq!(widget["properties"]["kind"]["type"], "string");
    assert_eq!(widget["required"], json!(["spec"]));
}

#[test]
fn int_or_string_and_embedded_resources() {
    let doc = doc();
    let spec =
        &doc["components"]["schemas"]["com.example.v1.Widget"]["properties"]["spec"]["properties"];
    let pair = json!([{"type": "integer"}, {"type": "string"}]);
    assert_eq!(spec["port"]["anyOf"], pair);
    assert_eq!(spec["port2"]["anyOf"], pair);
    assert!(spec["port2"].get("allOf").is_none());
    assert_eq!(spec["items"]["items"]["properties"]["inner"]["anyOf"], pair);
    let template = &spec["template"];
    assert_eq!(template["required"], json!(["kind", "apiVersion"]));
    assert_eq!(
        template["properties"]["metadata"]["allOf"][0]["$ref"],
        format!("{REF_PREFIX}{OBJECT_META}")
    );
    assert!(
        template["properties"]["kind"]["description"]
            .as_str()
            .unwrap()
            .starts_with("kind is a string")
    );
    // An int-or-string with another anyOf gets the pair prepended in allOf.
    let mut odd = json!({"x-kubernetes-int-or-string": true, "anyOf": [{"maxLength": 3}], "allOf": [{"minimum": 1}]});
    unfold(&mut odd);
    assert_eq!(odd["allOf"], json!([{"anyOf": pair}, {"minimum": 1}]));
}

#[test]
fn list_schema_shape() {
    let doc = doc();
    assert_eq!(
        doc["components"]["schemas"]["com.example.v1.WidgetList"],
        json!({
            "type": "object",
            "description": "WidgetList is a list of Widget",
            "required": ["items"],
            "properties": {
                "apiVersion": {"type": "string", "description": meta()["typeMeta"]["apiVersion"]},
                "kind": {"type": "string", "description": meta()["typeMeta"]["kind"]},
                "items": {
                    "type": "array",
                    "description": "List of widgets. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
                    "items": {"$ref": "#/components/schemas/com.example.v1.Widget"}
                },
                "metadata": {
                    "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
                    "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"}]
                }
            },
            "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "WidgetList"}]
        })
    );
    // No schema: `{type: object}` with the GVK.
    assert_eq!(
        doc["components"]["schemas"]["com.example.v1.Apple"],
        json!({"type": "object", "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Apple"}]})
    );
}

fn param_names(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|p| p["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn paths_operations_and_parameters() {
    let doc = doc();
    let paths = doc["paths"].as_object().unwrap();
    let keys: Vec<&str> = paths.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "/apis/example.com/v1/apples",
            "/apis/example.com/v1/apples/{name}",
            "/apis/example.com/v1/namespaces/{namespace}/widgets",
            "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}",
            "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale",
            "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status",
            "/apis/example.com/v1/widgets",
        ]
    );
    // One route: all of its parameters are the path's.
    let all = &paths["/apis/example.com/v1/widgets"];
    assert_eq!(
        param_names(&all["parameters"]),
        [
            "allowWatchBookmarks",
            "continue",
            "fieldSelector",
            "labelSelector",
            "limit",
            "pretty",
            "resourceVersion",
            "resourceVersionMatch",
            "sendInitialEvents",
            "timeoutSeconds",
            "watch"
        ]
    );
    assert!(all["get"].get("parameters").is_none());
    assert_eq!(
        all["get"]["operationId"],
        "listExampleComV1WidgetForAllNamespaces"
    );
    assert_eq!(all["get"]["tags"], json!(["exampleCom_v1"]));
    assert_eq!(all["get"]["description"], "list objects of kind Widget");
    assert_eq!(all["get"]["x-kubernetes-action"], "list");

    let item = &paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}"];
    assert_eq!(
        param_names(&item["parameters"]),
        ["name", "namespace", "pretty"]
    );
    assert_eq!(item["parameters"][0]["description"], "name of the Widget");
    assert_eq!(item["parameters"][0]["required"], true);
    assert_eq!(item["parameters"][0]["in"], "path");
    let patch = &item["patch"];
    assert_eq!(
        param_names(&patch["parameters"]),
        ["dryRun", "fieldManager", "fieldValidation", "force"]
    );
    assert_eq!(
        patch["parameters"][3]["schema"],
        json!({"type": "boolean", "uniqueItems": true})
    );
    assert_eq!(patch["operationId"], "patchExampleComV1NamespacedWidget");
    assert_eq!(
        patch["description"],
        "partially update the specified Widget"
    );
    assert_eq!(
        patch["x-kubernetes-group-version-kind"],
        json!({"group": "example.com", "version": "v1", "kind": "Widget"})
    );
    let body_types: Vec<&String> = patch["requestBody"]["content"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(
        body_types,
        [
            "application/apply-patch+yaml",
            "application/json-patch+json",
            "application/merge-patch+json"
        ]
    );
    assert_eq!(
        patch["requestBody"]["content"]["application/apply-patch+yaml"]["schema"]["$ref"],
        format!("{REF_PREFIX}{PATCH}")
    );
    let codes: Vec<&String> = patch["responses"].as_object().unwrap().keys().collect();
    assert_eq!(codes, ["200", "401"]);
    assert_eq!(param_names(&item["get"]["parameters"]), ["resourceVersion"]);
    assert_eq!(
        param_names(&item["delete"]["parameters"]),
        [
            "dryRun",
            "gracePeriodSeconds",
            "ignoreStoreReadErrorWithClusterBreakingPotential",
            "orphanDependents",
            "propagationPolicy"
        ]
    );
    assert_eq!(item["delete"]["description"], "delete a Widget");
    assert_eq!(
        item["delete"]["responses"]["202"]["description"],
        "Accepted"
    );
    assert_eq!(item["put"]["responses"]["201"]["description"], "Created");
    assert_eq!(
        item["put"]["operationId"],
        "replaceExampleComV1NamespacedWidget"
    );
    assert_eq!(
        item["get"]["operationId"],
        "readExampleComV1NamespacedWidget"
    );

    let collection = &paths["/apis/example.com/v1/namespaces/{namespace}/widgets"];
    assert_eq!(
        param_names(&collection["parameters"]),
        ["namespace", "pretty"]
    );
    assert_eq!(collection["post"]["description"], "create a Widget");
    assert_eq!(
        collection["post"]["operationId"],
        "createExampleComV1NamespacedWidget"
    );
    assert_eq!(
        param_names(&collection["post"]["parameters"]),
        ["dryRun", "fieldManager", "fieldValidation"]
    );
    let post_codes: Vec<&String> = collection["post"]["responses"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(post_codes, ["200", "201", "202", "401"]);
    assert_eq!(
        collection["delete"]["description"],
        "delete collection of Widget"
    );
    assert_eq!(
        collection["delete"]["operationId"],
        // kube-apiserver's: the verb trie stops at `delete`.
        "deleteExampleComV1CollectionNamespacedWidget"
    );
    assert_eq!(
        collection["delete"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        format!("{REF_PREFIX}{STATUS}")
    );
    assert_eq!(
        collection["get"]["responses"]["200"]["content"]["application/yaml"]["schema"]["$ref"],
        "#/components/schemas/com.example.v1.WidgetList"
    );

    let status = &paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status"];
    assert_eq!(
        status["get"]["description"],
        "read status of the specified Widget"
    );
    assert_eq!(
        status["patch"]["operationId"],
        "patchExampleComV1NamespacedWidgetStatus"
    );
    assert_eq!(
        status["patch"]["description"],
        "partially update status of the specified Widget"
    );
    let scale = &paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale"];
    assert_eq!(
        scale["put"]["operationId"],
        "replaceExampleComV1NamespacedWidgetScale"
    );
    assert_eq!(
        scale["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        format!("{REF_PREFIX}{SCALE}")
    );

    // Cluster-scoped: no namespace anywhere, vowel article.
    let apples = &paths["/apis/example.com/v1/apples/{name}"];
    assert_eq!(param_names(&apples["parameters"]), ["name", "pretty"]);
    assert_eq!(apples["delete"]["description"], "delete an Apple");
    assert_eq!(apples["patch"]["operationId"], "patchExampleComV1Apple");
    assert_eq!(
        param_names(&paths["/apis/example.com/v1/apples"]["parameters"]),
        ["pretty"]
    );
}

#[test]
fn operation_ids() {
    assert_eq!(to_valid_operation_id("example.com", false), "exampleCom");
    assert_eq!(to_valid_operation_id("example.com", true), "ExampleCom");
    assert_eq!(to_valid_operation_id("v1beta1", true), "V1beta1");
    assert_eq!(to_valid_operation_id("my-group.io", false), "myGroupIo");
    assert_eq!(
        operation_id_and_tag("list", "NamespacedFoo", "apps.k8s.io", "v1"),
        ("listAppsV1NamespacedFoo".to_string(), "apps_v1".to_string())
    );
    assert_eq!(article_for("Widget"), " a ");
    assert_eq!(article_for("Ingress"), " an ");
    assert_eq!(article_for("Pods"), " ");
}

#[test]
fn index_and_hash() {
    // SHA-512 of the empty string.
    assert_eq!(
        document_hash(b""),
        "CF83E1357EEFB8BDF1542850D66D8007D620E4050B5715DC83F4A921D36CE9CE47D0D13C5D85F2B0FF8318D2877EEC2F63B931BD47417A81A538327AF927DA3E"
    );
    let docs = OpenApiV3::new(&[widgets(), apples()]);
    let v1 = docs.document("apis/example.com/v1").unwrap();
    assert_eq!(v1.hash, document_hash(&v1.json));
    let served: Value = serde_json::from_slice(&v1.json).unwrap();
    assert_eq!(served, doc());
    let beta = docs.document("apis/example.com/v1beta1").unwrap();
    // kube-openapi handler3 test shape: {"paths":{"apis/apps/v1":{"serverRelativeURL":"/openapi/v3/apis/apps/v1?hash=..."}}}
    assert_eq!(
        serde_json::to_string(&docs.index()).unwrap(),
        format!(
            r#"{{"paths":{{"apis/example.com/v1":{{"serverRelativeURL":"/openapi/v3/apis/example.com/v1?hash={}"}},"apis/example.com/v1beta1":{{"serverRelativeURL":"/openapi/v3/apis/example.com/v1beta1?hash={}"}}}}}}"#,
            v1.hash, beta.hash
        )
    );
    assert!(docs.document("apis/example.com/v1alpha1").is_none());
    let mut docs = docs;
    docs.insert("api/v1", &json!({"openapi": "3.0.0"}));
    assert!(
        docs.index()["paths"]["api/v1"]["serverRelativeURL"]
            .as_str()
            .unwrap()
            .starts_with("/openapi/v3/api/v1?hash=")
    );
}

#[test]
fn document_header() {
    let doc = doc();
    assert_eq!(doc["openapi"], "3.0.0");
    assert_eq!(
        doc["info"],
        json!({"title": "Kubernetes CRD Swagger", "version": "v0.1.0"})
    );
}

/// kubectl explain's plaintext template: the GVK comes from the `get` (or
/// other) operation of the resource's list or item path.
fn explain_gvk(doc: &Value, prefix: &str, resource: &str) -> Option<Value> {
    let candidates = [
        format!("{prefix}/{resource}"),
        format!("{prefix}/{resource}/{{name}}"),
        format!("{prefix}/namespaces/{{namespace}}/{resource}"),
        format!("{prefix}/namespaces/{{namespace}}/{resource}/{{name}}"),
    ];
    for path in candidates {
        if let Some(item) = doc["paths"].get(&path) {
            for method in ["get", "post", "put", "patch", "delete"] {
                if let Some(gvk) = item
                    .get(method)
                    .and_then(|op| op.get("x-kubernetes-group-version-kind"))
                {
                    return Some(gvk.clone());
                }
            }
        }
    }
    None
}

#[test]
fn explain_finds_the_gvk_from_paths() {
    let doc = doc();
    assert_eq!(
        explain_gvk(&doc, "/apis/example.com/v1", "widgets"),
        Some(json!({"group": "example.com", "version": "v1", "kind": "Widget"}))
    );
    assert_eq!(
        explain_gvk(&doc, "/apis/example.com/v1", "apples"),
        Some(json!({"group": "example.com", "version": "v1", "kind": "Apple"}))
    );
    let core = core_v1_document();
    let gvk = explain_gvk(&core, "/api/v1", "namespaces").unwrap();
    assert_eq!(
        gvk,
        json!({"group": "", "version": "v1", "kind": "Namespace"})
    );
    let found = core["components"]["schemas"]
        .as_object()
        .unwrap()
        .values()
        .find(|s| {
            s["x-kubernetes-group-version-kind"]
                .as_array()
                .is_some_and(|g| g.contains(&gvk))
        })
        .unwrap();
    assert_eq!(
        found["description"],
        "Namespace provides a scope for Names. Use of multiple namespaces is optional."
    );
}

#[test]
fn core_v1_namespaces() {
    let core = core_v1_document();
    assert!(supports_query_param(
        &core,
        "",
        "v1",
        "Namespace",
        "fieldValidation"
    ));
    let paths = core["paths"].as_object().unwrap();
    let keys: Vec<&str> = paths.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "/api/v1/namespaces",
            "/api/v1/namespaces/{name}",
            "/api/v1/namespaces/{name}/finalize",
            "/api/v1/namespaces/{name}/status",
        ]
    );
    let collection = &paths["/api/v1/namespaces"];
    assert!(
        collection.get("delete").is_none(),
        "no deletecollection for namespaces"
    );
    assert_eq!(collection["get"]["operationId"], "listCoreV1Namespace");
    assert_eq!(collection["get"]["tags"], json!(["core_v1"]));
    assert_eq!(collection["post"]["operationId"], "createCoreV1Namespace");
    assert_eq!(
        paths["/api/v1/namespaces/{name}"]["patch"]["operationId"],
        "patchCoreV1Namespace"
    );
    let finalize = &paths["/api/v1/namespaces/{name}/finalize"];
    assert_eq!(
        finalize["put"]["operationId"],
        "replaceCoreV1NamespaceFinalize"
    );
    assert!(finalize.get("get").is_none());
    assert_eq!(
        paths["/api/v1/namespaces/{name}/status"]["patch"]["operationId"],
        "patchCoreV1NamespaceStatus"
    );
    let docs = OpenApiV3::new(&[]).with_core_v1();
    assert!(docs.document("api/v1").is_some());
    assert!(docs.index()["paths"].get("api/v1").is_some());
}

#[test]
fn core_v1_references_resolve() {
    let core = core_v1_document();
    let schemas = core["components"]["schemas"].as_object().unwrap();
    let text = serde_json::to_string(&core).unwrap();
    for piece in text.split("\"$ref\":\"").skip(1) {
        let target = &piece[..piece.find('"').unwrap()];
        let name = target.strip_prefix(REF_PREFIX).unwrap();
        assert!(schemas.contains_key(name), "dangling {target}");
    }
    assert_eq!(
        schemas["io.k8s.api.core.v1.NamespaceStatus"]["properties"]["phase"]["enum"],
        json!(["Active", "Terminating"])
    );
}

#[test]
fn selectable_fields_extension() {
    let mut crd = apples();
    crd.spec.versions[0].selectable_fields = vec![api_core::crd::SelectableField {
        json_path: ".spec.color".into(),
    }];
    let doc = group_version_document(&[crd], "example.com", "v1").unwrap();
    let schemas = &doc["components"]["schemas"];
    let want = json!([{"fieldPath": "spec.color"}]);
    assert_eq!(
        schemas["com.example.v1.Apple"]["x-kubernetes-selectable-fields"],
        want
    );
    assert_eq!(
        schemas["com.example.v1.AppleList"]["x-kubernetes-selectable-fields"],
        want
    );
    assert!(doc_without_selectable_fields());
}

fn doc_without_selectable_fields() -> bool {
    doc()["components"]["schemas"]["com.example.v1.Widget"]
        .get("x-kubernetes-selectable-fields")
        .is_none()
}

/// The core group's document: its kinds from their CRDs, with Namespace's.
#[path = "openapi/core_tests.rs"]
mod core_group;
