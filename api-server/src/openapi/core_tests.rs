//! The core group's document (`api/v1`): core kinds described by CRDs,
//! generated as the groups' kinds are, and Namespace's routes and schemas
//! kept as they are.

use super::*;

/// A core-group kind described by a CRD, as `builtin::kind_info`
/// describes ConfigMap.
fn config_maps() -> CustomResourceDefinition {
    let mut crd = CustomResourceDefinition::default();
    crd.spec.scope = "Namespaced".into();
    crd.spec.names = CustomResourceDefinitionNames::for_kind("ConfigMap", "configmaps");
    let schema = json!({"type": "object", "properties": {
        "data": {"type": "object", "additionalProperties": {"type": "string"}}}});
    crd.spec.versions = vec![CustomResourceDefinitionVersion {
        schema: Some(CustomResourceValidation::new(schema)),
        ..CustomResourceDefinitionVersion::new("v1", true, true)
    }];
    crd
}

/// A core kind's paths and schemas are generated from its CRD as a
/// group's are, below `/api/v1` with kube-apiserver's model names,
/// operation ids and tags.
#[test]
fn core_kinds_from_crds() {
    assert_eq!(
        model_name("", "v1", "ConfigMap"),
        "io.k8s.api.core.v1.ConfigMap"
    );
    let doc = core_document(&[config_maps(), widgets()], false).unwrap();
    assert_eq!(doc["info"], json!({"title": "Kubernetes", "version": "v1"}));
    assert!(supports_query_param(
        &doc,
        "",
        "v1",
        "ConfigMap",
        "fieldValidation"
    ));
    let paths = doc["paths"].as_object().unwrap();
    let keys: Vec<&str> = paths.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "/api/v1/configmaps",
            "/api/v1/namespaces/{namespace}/configmaps",
            "/api/v1/namespaces/{namespace}/configmaps/{name}",
        ]
    );
    let ids = [
        (
            "/api/v1/configmaps",
            "get",
            "listCoreV1ConfigMapForAllNamespaces",
        ),
        (
            "/api/v1/namespaces/{namespace}/configmaps",
            "get",
            "listCoreV1NamespacedConfigMap",
        ),
        (
            "/api/v1/namespaces/{namespace}/configmaps",
            "post",
            "createCoreV1NamespacedConfigMap",
        ),
        (
            "/api/v1/namespaces/{namespace}/configmaps/{name}",
            "patch",
            "patchCoreV1NamespacedConfigMap",
        ),
    ];
    for (path, method, id) in ids {
        assert_eq!(paths[path][method]["operationId"], id, "{path} {method}");
        assert_eq!(paths[path][method]["tags"], json!(["core_v1"]));
    }
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let gvk = json!([{"group": "", "version": "v1", "kind": "ConfigMap"}]);
    assert_eq!(
        schemas["io.k8s.api.core.v1.ConfigMap"]["x-kubernetes-group-version-kind"],
        gvk
    );
    assert_eq!(
        schemas["io.k8s.api.core.v1.ConfigMapList"]["properties"]["items"]["items"],
        json!({"$ref": "#/components/schemas/io.k8s.api.core.v1.ConfigMap"})
    );
    assert!(schemas.keys().all(|k| !k.starts_with("com.example")));
    assert!(core_document(&[widgets()], false).is_none());
}

/// With namespaces, `api/v1` has Namespace's paths and schemas exactly as
/// before, and the other core kinds'; the groups keep their documents.
#[test]
fn core_document_with_namespaces_and_other_kinds() {
    let doc = core_document(&[config_maps()], true).unwrap();
    let namespaces = core_v1_document();
    for (path, item) in namespaces["paths"].as_object().unwrap() {
        assert_eq!(&doc["paths"][path], item, "{path}");
    }
    for (name, schema) in namespaces["components"]["schemas"].as_object().unwrap() {
        assert_eq!(&doc["components"]["schemas"][name], schema, "{name}");
    }
    assert!(doc["paths"]["/api/v1/namespaces/{namespace}/configmaps"].is_object());
    assert!(doc["components"]["schemas"]["io.k8s.api.core.v1.ConfigMap"].is_object());
    let text = serde_json::to_string(&doc).unwrap();
    for piece in text.split("\"$ref\":\"").skip(1) {
        let name = piece[..piece.find('"').unwrap()].strip_prefix(REF_PREFIX);
        assert!(
            doc["components"]["schemas"].get(name.unwrap()).is_some(),
            "dangling {name:?}"
        );
    }
    assert_eq!(core_document(&[], true), Some(core_v1_document()));

    let docs = OpenApiV3::new(&[config_maps(), widgets()]);
    let index = docs.index();
    assert!(index["paths"]["api/v1"].is_object());
    assert!(index["paths"]["apis/example.com/v1"].is_object());
    let only_kinds = docs.document("api/v1").unwrap().json.clone();
    assert_eq!(
        serde_json::from_slice::<Value>(&only_kinds).unwrap(),
        core_document(&[config_maps()], false).unwrap()
    );
    let with_namespaces = docs.with_core_v1();
    let served: Value =
        serde_json::from_slice(&with_namespaces.document("api/v1").unwrap().json).unwrap();
    assert_eq!(served, doc);
    assert!(with_namespaces.document("apis/example.com/v1").is_some());
}
