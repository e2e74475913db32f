//! Custom resources of CRDs created at run time, against the scenarios of
//! upstream apiextensions-apiserver's `test/integration` that
//! `custom_resource_definitions.rs` does not translate yet, over HTTP in
//! process (the server's router, one request at a time):
//!
//! - `pruning_test.go`: unknown fields pruned on create, status update,
//!   merge patch and read from storage; `x-kubernetes-preserve-unknown-fields`
//!   at the root and nested; `x-kubernetes-embedded-resource` objects keep
//!   `apiVersion`, `kind` and `metadata` (whose unknown fields go) and have
//!   their other unknown fields pruned; int-or-string values;
//! - `table_test.go`: `meta.k8s.io` `v1` and `v1beta1` tables of a CRD's
//!   printer columns (types, formats, priorities, descriptions, a value of
//!   the wrong type, a missing value), the default `Age` column of a version
//!   without printer columns, and columns patched into a CRD;
//! - `subresources_test.go`: the status subresource (status dropped on
//!   create and ignored on update, spec and metadata ignored on a status
//!   update, only the status validated there, generation bumped by spec
//!   changes only, no-op patches writing nothing, strategic merge patches
//!   refused), the scale subresource (get, update, patch, a replicas path
//!   that is not a JSON path refused) and discovery of both;
//! - `validation_test.go`: a create or update the schema refuses is a 422
//!   `<Kind>.<group> "<name>" is invalid: ...` with every cause, a valid one
//!   accepted, zero values and nulls as the schema says, a relaxed schema
//!   accepting what the stricter one refused;
//! - `defaulting_test.go`: defaults of the request's version on create and
//!   update, of the storage version on every read (objects stored before a
//!   default was added get it; a default removed stops showing), in status
//!   only through the status subresource, in nested objects and array items,
//!   and in the `apiVersion`/`kind`/`metadata` of embedded resources.
//!
//! Each test names the upstream test function it follows. Skipped, and why:
//!
//! - `TestCustomResourceDefaultingWithWatchCache`: the same scenario as the
//!   translated `...WithoutWatchCache`; this server has no watch cache
//!   (reads with `resourceVersion=0` read the store, and are checked).
//! - `TestApplyScaleSubresource`'s managed-field entries: server-side apply
//!   bookkeeping, covered by `apply.rs`; its scale paths are kept here.
//! - `TestForbiddenFieldsInSchema`, `TestNonStructuralSchemaCondition*`:
//!   CRD schema checks, not served custom resources (api-core's
//!   `check_crd` tests translate them).
//! - `TestCustomResourceDefaultingOfMetaFields` reads the object from etcd
//!   directly; here it is read from the server's storage (memory, or etcd
//!   under `API_TEST_STORAGE=etcd`) through the `Storage` trait, as
//!   `TestPruningFromStorage` writes there.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use api_core::registry::Storage;
use api_server::ApiServer;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const NS: &str = "not-the-default";

struct Env {
    app: axum::Router,
    storage: Arc<dyn Storage>,
    _controllers: api_server::Controllers,
}

async fn env() -> Env {
    let storage = storage::storage().await;
    let server = ApiServer::builder()
        .storage(storage.clone())
        .with_namespaces()
        .with_custom_resource_definitions()
        .build();
    Env {
        app: server.router(),
        _controllers: server.start_controllers(),
        storage,
    }
}

impl Env {
    async fn call(&self, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
        support::oneshot(&self.app, method, uri, body).await
    }

    /// One request with the given `Content-Type` and `Accept`: the status
    /// and the body's bytes.
    async fn raw(
        &self,
        method: &str,
        uri: &str,
        content_type: &str,
        accept: &str,
        body: Vec<u8>,
    ) -> (StatusCode, Vec<u8>) {
        use tower::ServiceExt;
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::CONTENT_TYPE, content_type)
            .header(header::ACCEPT, accept)
            .body(axum::body::Body::from(body))
            .expect("a request");
        let response = self.app.clone().oneshot(request).await.expect("infallible");
        let code = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body");
        (code, bytes.to_vec())
    }

    /// `GET uri` as a `Table` of `meta.k8s.io/<version>`.
    async fn table(&self, uri: &str, version: &str) -> Value {
        let accept =
            format!("application/json;as=Table;v={version};g=meta.k8s.io, application/json");
        let (code, body) = self.raw("GET", uri, "", &accept, Vec::new()).await;
        let table: Value = serde_json::from_slice(&body).expect("a JSON table");
        assert_eq!(code, StatusCode::OK, "{table}");
        assert_eq!(table["kind"], "Table", "{table}");
        assert_eq!(table["apiVersion"], format!("meta.k8s.io/{version}"));
        table
    }

    /// A `PATCH` of `patch_type` (`merge-patch+json`, ...).
    async fn patch(&self, uri: &str, patch_type: &str, patch: Value) -> (StatusCode, Value) {
        let (code, body) = self
            .raw(
                "PATCH",
                uri,
                &format!("application/{patch_type}"),
                "application/json",
                patch.to_string().into_bytes(),
            )
            .await;
        (code, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }

    /// Waits (up to ten seconds) until `done` holds of what `uri` answers.
    async fn until(&self, uri: &str, done: impl Fn(StatusCode, &Value) -> bool) -> Value {
        support::until(&self.app, uri, done).await
    }

    /// Creates `crd` and waits until it is established (and so served).
    async fn create_crd(&self, crd: Value) -> Value {
        let name = crd["metadata"]["name"].as_str().unwrap().to_string();
        let (code, body) = self.call("POST", CRDS, crd).await;
        assert_eq!(code, StatusCode::CREATED, "{body}");
        self.until(&format!("{CRDS}/{name}"), |_, crd| {
            condition(crd, "Established")["status"] == "True"
        })
        .await
    }

    /// Reads CRD `name`, changes it with `change` and writes it back.
    async fn update_crd(&self, name: &str, change: impl FnOnce(&mut Value)) -> Value {
        let uri = format!("{CRDS}/{name}");
        let (code, mut crd) = self.call("GET", &uri, Value::Null).await;
        assert_eq!(code, StatusCode::OK, "{crd}");
        change(&mut crd);
        let (code, body) = self.call("PUT", &uri, crd).await;
        assert_eq!(code, StatusCode::OK, "{body}");
        body
    }

    /// Deletes CRD `name` and waits until it and its kind are gone.
    async fn delete_crd(&self, name: &str) {
        let uri = format!("{CRDS}/{name}");
        let (code, body) = self.call("DELETE", &uri, Value::Null).await;
        assert!(code.is_success(), "{body}");
        self.until(&uri, |code, _| code == StatusCode::NOT_FOUND)
            .await;
    }

    async fn namespace(&self, name: &str) {
        let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}});
        let (code, body) = self.call("POST", "/api/v1/namespaces", ns).await;
        assert_eq!(code, StatusCode::CREATED, "{body}");
    }

    /// The stored objects whose key contains `/<plural>/`: the server's
    /// storage read directly, as upstream reads etcd.
    async fn stored(&self, plural: &str) -> Vec<api_core::registry::storage::Stored> {
        let (items, _) = self.storage.list("").await.expect("the storage lists");
        items
            .into_iter()
            .filter(|s| s.key.contains(&format!("/{plural}/")))
            .collect()
    }
}

use support::condition;

/// The object without `metadata` (what the pruning tests compare).
fn without_metadata(object: &Value) -> Value {
    let mut object = object.clone();
    object.as_object_mut().unwrap().remove("metadata");
    object
}

/// `fixtures.AllowAllSchema()`.
fn allow_all() -> Value {
    json!({"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}})
}

/// A cluster-scoped `foos.tests.example.com` (the pruning and defaulting
/// tests' fixture) with `versions`.
fn foos_crd(versions: Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.tests.example.com"},
        "spec": {
            "group": "tests.example.com", "scope": "Cluster",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": versions
        }
    })
}

/// `pruningFixture` with `schema` as its one version's schema.
fn pruning_crd(schema: Value) -> Value {
    foos_crd(json!([{"name": "v1beta1", "served": true, "storage": true,
        "subresources": {"status": {}}, "schema": {"openAPIV3Schema": schema}}]))
}

const FOOS: &str = "/apis/tests.example.com/v1beta1/foos";

/// `pruningFooInstance` with `fields` added.
fn foo(fields: Value) -> Value {
    let mut object = json!({"kind": "Foo", "apiVersion": "tests.example.com/v1beta1",
                         "metadata": {"name": "foo"}});
    for (k, v) in fields.as_object().unwrap() {
        object[k] = v.clone();
    }
    object
}

/// `fooSchema`.
fn foo_schema() -> Value {
    json!({"type": "object", "properties": {
        "alpha": {"type": "string"}, "beta": {"type": "number"}}})
}

// ---------------------------------------------------------------- pruning

/// Upstream `TestPruningCreate`.
#[tokio::test]
async fn unknown_fields_are_pruned_on_create() {
    let env = env().await;
    env.create_crd(pruning_crd(foo_schema())).await;
    let mut body = foo(json!({"unspecified": "bar", "alpha": "abc", "beta": 42.0}));
    body["metadata"]["unspecified"] = json!("bar");
    body["metadata"]["labels"] = json!({"foo": "bar"});
    let (code, created) = env.call("POST", FOOS, body).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(
        without_metadata(&created),
        json!({"apiVersion": "tests.example.com/v1beta1", "kind": "Foo",
               "alpha": "abc", "beta": 42.0})
    );
    assert_eq!(created["metadata"]["labels"], json!({"foo": "bar"}));
    assert!(
        created["metadata"].get("unspecified").is_none(),
        "{created}"
    );
    let (_, read) = env.call("GET", &format!("{FOOS}/foo"), Value::Null).await;
    assert_eq!(without_metadata(&read), without_metadata(&created));
}

/// Upstream `TestPruningStatus`.
#[tokio::test]
async fn unknown_fields_are_pruned_on_status_update() {
    let env = env().await;
    let schema = json!({"type": "object", "properties": {"status": {"type": "object",
        "properties": {"alpha": {"type": "string"}, "beta": {"type": "number"}}}}});
    env.create_crd(pruning_crd(schema)).await;
    let (code, mut created) = env.call("POST", FOOS, foo(json!({}))).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    created["status"] = json!({"unspecified": "bar", "alpha": "abc", "beta": 42.0});
    created["metadata"]["unspecified"] = json!("bar");
    let (code, updated) = env
        .call("PUT", &format!("{FOOS}/foo/status"), created)
        .await;
    assert_eq!(code, StatusCode::OK, "{updated}");
    assert_eq!(updated["status"], json!({"alpha": "abc", "beta": 42.0}));
    assert!(
        updated["metadata"].get("unspecified").is_none(),
        "{updated}"
    );
}

/// Upstream `TestPruningFromStorage`: an object stored with a field the
/// schema does not know (written to the storage directly) is read without
/// it.
#[tokio::test]
async fn unknown_fields_are_pruned_on_read_from_storage() {
    let env = env().await;
    env.create_crd(pruning_crd(foo_schema())).await;
    let (code, created) = env
        .call(
            "POST",
            FOOS,
            foo(
                json!({"alpha": "abc", "beta": 42.0, "metadata": {"name": "foo",
                                          "labels": {"foo": "bar"}}}),
            ),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let stored = env.stored("foos").await;
    assert_eq!(stored.len(), 1);
    let mut value = stored[0].value.clone();
    value["unspecified"] = json!("bar");
    env.storage
        .update(&stored[0].key, value, stored[0].revision)
        .await
        .expect("the storage updates");

    let (code, read) = env.call("GET", &format!("{FOOS}/foo"), Value::Null).await;
    assert_eq!(code, StatusCode::OK, "{read}");
    assert_eq!(read["alpha"], "abc");
    assert_eq!(read["beta"], 42.0);
    assert_eq!(read["metadata"]["labels"], json!({"foo": "bar"}));
    // Pruned on read, as upstream's storage decoder prunes it.
    assert!(read.get("unspecified").is_none(), "{read}");
    let (code, list) = env.call("GET", FOOS, Value::Null).await;
    assert_eq!(code, StatusCode::OK, "{list}");
    assert!(list["items"][0].get("unspecified").is_none(), "{list}");
}

/// Upstream `TestPruningPatch`.
#[tokio::test]
async fn unknown_fields_are_pruned_on_patch() {
    let env = env().await;
    env.create_crd(pruning_crd(foo_schema())).await;
    let (code, _) = env.call("POST", FOOS, foo(json!({}))).await;
    assert_eq!(code, StatusCode::CREATED);
    let patch = json!({"alpha": "abc", "beta": 42.0, "unspecified": "bar",
                       "metadata": {"unspecified": "bar", "labels": {"foo": "bar"}}});
    let (code, patched) = env.call("PATCH", &format!("{FOOS}/foo"), patch).await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert_eq!(
        without_metadata(&patched),
        json!({"apiVersion": "tests.example.com/v1beta1", "kind": "Foo",
               "alpha": "abc", "beta": 42.0})
    );
    assert_eq!(patched["metadata"]["labels"], json!({"foo": "bar"}));
    assert!(
        patched["metadata"].get("unspecified").is_none(),
        "{patched}"
    );
}

/// Upstream `TestPruningCreatePreservingUnknownFields`.
#[tokio::test]
async fn preserve_unknown_fields_at_the_root_and_nested() {
    let env = env().await;
    let schema = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true,
        "properties": {
            "alpha": {"type": "string"},
            "beta": {"type": "number"},
            "preserving": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                "properties": {
                    "preserving": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                    "pruning": {"type": "object"}}},
            "pruning": {"type": "object", "properties": {
                "preserving": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "pruning": {"type": "object"}}}}});
    env.create_crd(pruning_crd(schema)).await;
    let nested = json!({"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"},
                        "pruning": {"unspecified": "bar"}, "preserving": {"unspecified": "bar"}});
    let mut body = foo(json!({"unspecified": "bar", "alpha": "abc", "beta": 42.0,
                              "pruning": nested, "preserving": nested}));
    body["metadata"]["unspecified"] = json!("bar");
    body["metadata"]["labels"] = json!({"foo": "bar"});
    let (code, created) = env.call("POST", FOOS, body).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(
        without_metadata(&created),
        json!({"apiVersion": "tests.example.com/v1beta1", "kind": "Foo",
               "unspecified": "bar", "alpha": "abc", "beta": 42.0,
               "pruning": {"pruning": {}, "preserving": {"unspecified": "bar"}},
               "preserving": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"},
                              "pruning": {}, "preserving": {"unspecified": "bar"}}})
    );
    assert_eq!(created["metadata"]["labels"], json!({"foo": "bar"}));
    assert!(
        created["metadata"].get("unspecified").is_none(),
        "{created}"
    );
}

/// Upstream `TestPruningEmbeddedResources`.
#[tokio::test]
async fn embedded_resources_keep_type_and_object_meta_and_are_pruned() {
    let env = env().await;
    let pruning = json!({"type": "object", "x-kubernetes-embedded-resource": true,
                         "properties": {"specified": {"type": "string"}}});
    let schema = json!({"type": "object", "properties": {
        "embeddedPruning": pruning,
        "embeddedPreserving": {"type": "object", "x-kubernetes-embedded-resource": true,
                               "x-kubernetes-preserve-unknown-fields": true},
        "embeddedNested": {"type": "object", "x-kubernetes-embedded-resource": true,
                           "x-kubernetes-preserve-unknown-fields": true,
                           "properties": {"embeddedPruning": pruning}}}});
    env.create_crd(pruning_crd(schema)).await;
    let embedded = |extra: Value| {
        let mut e = json!({"apiVersion": "foo/v1", "kind": "Foo",
                           "metadata": {"name": "foo", "unspecified": "bar"},
                           "unspecified": "bar"});
        for (k, v) in extra.as_object().unwrap() {
            e[k] = v.clone();
        }
        e
    };
    let body = foo(json!({
        "embeddedPruning": embedded(json!({"specified": "bar"})),
        "embeddedPreserving": embedded(json!({})),
        "embeddedNested": embedded(json!({"embeddedPruning": embedded(json!({"specified": "bar"}))}))
    }));
    let (code, created) = env.call("POST", FOOS, body).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    // The unknown fields of each embedded resource's `metadata` are gone
    // too (`objectmeta.Coerce` reads it as an ObjectMeta).
    let created = without_metadata(&created);
    let pruned = json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "foo"},
                        "specified": "bar"});
    assert_eq!(
        created,
        json!({"apiVersion": "tests.example.com/v1beta1", "kind": "Foo",
               "embeddedPruning": pruned,
               "embeddedPreserving": {"apiVersion": "foo/v1", "kind": "Foo",
                                      "metadata": {"name": "foo"}, "unspecified": "bar"},
               "embeddedNested": {"apiVersion": "foo/v1", "kind": "Foo",
                                  "metadata": {"name": "foo"}, "unspecified": "bar",
                                  "embeddedPruning": pruned}})
    );
}

/// Embedded resources as the apiserver checks a write of them: their
/// `apiVersion`, `kind` and `metadata` are never unknown fields, declared
/// or not (apiextensions' OpenAPI builder adds them to the models it
/// applies with), while unknown fields inside their `metadata` are
/// (`objectmeta.Coerce` reports them; `fieldValidation=Strict` refuses
/// them); one without a `kind`, or with a name that is not a path
/// segment, is refused (`objectmeta.Validate`, which the strategy runs on
/// every write, the status subresource's included).
#[tokio::test]
async fn embedded_resources_are_checked_on_writes() {
    let env = env().await;
    let schema = json!({"type": "object", "properties": {
        "embedded": {"type": "object", "x-kubernetes-embedded-resource": true,
                     "properties": {"specified": {"type": "string"}}}}});
    env.create_crd(pruning_crd(schema)).await;
    let strict = format!("{FOOS}?fieldValidation=Strict");
    let embedded = |metadata: Value| json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": metadata, "specified": "x"});

    let body = foo(json!({"embedded": embedded(json!({"name": "e", "labels": {"a": "b"}}))}));
    let (code, created) = env.call("POST", &strict, body).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(
        created["embedded"]["metadata"],
        json!({"name": "e", "labels": {"a": "b"}})
    );
    let (code, _) = env
        .call("DELETE", &format!("{FOOS}/foo"), Value::Null)
        .await;
    assert_eq!(code, StatusCode::OK);

    let body = foo(json!({"embedded": embedded(json!({"name": "e", "colour": "red"}))}));
    let (code, status) = env.call("POST", &strict, body).await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{status}");
    assert_eq!(
        status["message"],
        "strict decoding error: unknown field \"embedded.metadata.colour\""
    );

    let mut nameless = embedded(json!({"name": "a/b"}));
    nameless.as_object_mut().unwrap().remove("kind");
    let (code, status) = env
        .call("POST", FOOS, foo(json!({"embedded": nameless})))
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    let causes: Vec<(&str, &str)> = status["details"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["field"].as_str().unwrap(), c["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        causes,
        [
            ("embedded.kind", "FieldValueRequired"),
            ("embedded.metadata.name", "FieldValueInvalid")
        ]
    );
}

/// Int-or-string values (`x-kubernetes-int-or-string`, as `IntOrString`
/// fields such as a port are generated): either type is kept and
/// accepted, the object holding one is pruned as any other, and another
/// type is refused (the apiserver validates such a field as of type
/// `integer,string`).
#[tokio::test]
async fn int_or_string_values_are_kept_and_their_siblings_pruned() {
    let env = env().await;
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {"port": {"x-kubernetes-int-or-string": true},
                       "ports": {"type": "array", "items": {"x-kubernetes-int-or-string": true}}}}}});
    env.create_crd(pruning_crd(schema)).await;
    let body = foo(json!({"spec": {"port": 8080, "ports": ["http", 443], "unspecified": "bar"}}));
    let (code, created) = env.call("POST", FOOS, body).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(
        created["spec"],
        json!({"port": 8080, "ports": ["http", 443]})
    );
    let (code, patched) = env
        .call(
            "PATCH",
            &format!("{FOOS}/foo"),
            json!({"spec": {"port": "http"}}),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert_eq!(patched["spec"]["port"], "http");
    // Any other type is refused, as upstream validates an int-or-string
    // as of type `integer,string`.
    let (code, status) = env
        .call(
            "PATCH",
            &format!("{FOOS}/foo"),
            json!({"spec": {"port": true, "ports": [1.5]}}),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    let causes: Vec<&str> = status["details"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        causes,
        [
            r#"Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean""#,
            r#"Invalid value: "number": spec.ports[0] in body must be of type integer,string: "number""#
        ]
    );
}

// ----------------------------------------------------------------- tables

/// `newTableCRD()`: `tables.mygroup.example.com`, cluster-scoped, v1beta1
/// and v1 (stored), the same columns but v1's extra `Zeta`.
fn table_crd() -> Value {
    let columns = json!([
        {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"},
        {"name": "Alpha", "type": "string", "jsonPath": ".spec.alpha"},
        {"name": "Beta", "type": "integer", "description": "the beta field", "format": "int64",
         "priority": 42, "jsonPath": ".spec.beta"},
        {"name": "Gamma", "type": "integer", "description": "a column with wrongly typed values",
         "jsonPath": ".spec.gamma"},
        {"name": "Epsilon", "type": "string", "description": "an array of integers as string",
         "jsonPath": ".spec.epsilon"}
    ]);
    let mut v1_columns = columns.clone();
    v1_columns.as_array_mut().unwrap().push(json!(
        {"name": "Zeta", "type": "integer", "description": "the zeta field", "format": "int64",
         "priority": 42, "jsonPath": ".spec.zeta"}));
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "tables.mygroup.example.com"},
        "spec": {
            "group": "mygroup.example.com", "scope": "Cluster",
            "names": {"plural": "tables", "singular": "table", "kind": "Table",
                      "listKind": "TablemList"},
            "versions": [
                {"name": "v1beta1", "served": true, "storage": false,
                 "additionalPrinterColumns": columns, "schema": allow_all()},
                {"name": "v1", "served": true, "storage": true,
                 "additionalPrinterColumns": v1_columns, "schema": allow_all()}
            ]
        }
    })
}

/// An age cell: a small Go duration such as `0s` or `3s`.
fn assert_small_age(cell: &Value) {
    let text = cell
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {cell}"));
    let seconds: u64 = text
        .strip_suffix('s')
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an age in seconds: {text}"));
    assert!(seconds <= 30, "{text}");
}

/// Upstream `TestTableGet`: both versions, as `meta.k8s.io/v1beta1` and
/// `v1` tables; plus a second object without `spec.alpha` (a missing
/// value is a null cell).
#[tokio::test]
async fn tables_show_the_printer_columns_of_each_version() {
    let env = env().await;
    env.create_crd(table_crd()).await;
    let instance = json!({"apiVersion": "mygroup.example.com/v1", "kind": "Table",
        "metadata": {"name": "foo"},
        "spec": {"alpha": "foo_123", "beta": 10, "gamma": "bar", "delta": "hello",
                 "epsilon": [1, 2, 3], "zeta": 5}});
    let (code, body) = env
        .call("POST", "/apis/mygroup.example.com/v1/tables", instance)
        .await;
    assert_eq!(code, StatusCode::CREATED, "{body}");

    let column = |name: &str, type_: &str, format: &str, description: &str, priority: i64| {
        json!({"name": name, "type": type_, "format": format, "description": description,
               "priority": priority})
    };
    for version in ["v1beta1", "v1"] {
        for table_version in ["v1beta1", "v1"] {
            let uri = format!("/apis/mygroup.example.com/{version}/tables");
            let table = env.table(&uri, table_version).await;
            let mut expected = vec![
                column(
                    "Name",
                    "string",
                    "name",
                    api_server::table::NAME_DESCRIPTION,
                    0,
                ),
                column(
                    "Age",
                    "date",
                    "",
                    "Custom resource definition column (in JSONPath format): .metadata.creationTimestamp",
                    0,
                ),
                column(
                    "Alpha",
                    "string",
                    "",
                    "Custom resource definition column (in JSONPath format): .spec.alpha",
                    0,
                ),
                column("Beta", "integer", "int64", "the beta field", 42),
                column(
                    "Gamma",
                    "integer",
                    "",
                    "a column with wrongly typed values",
                    0,
                ),
                column("Epsilon", "string", "", "an array of integers as string", 0),
            ];
            if version == "v1" {
                expected.push(column("Zeta", "integer", "int64", "the zeta field", 42));
            }
            assert_eq!(table["columnDefinitions"], json!(expected), "{version}");
            let rows = table["rows"].as_array().unwrap();
            assert_eq!(rows.len(), 1, "{table}");
            let cells = rows[0]["cells"].as_array().unwrap();
            assert_eq!(cells.len(), expected.len(), "{table}");
            assert_eq!(cells[0], "foo");
            assert_small_age(&cells[1]);
            // A string, an integer, a value of the wrong type (null), an
            // array printed as a string, and v1's extra integer.
            let mut rest = vec![json!("foo_123"), json!(10), Value::Null, json!("[1,2,3]")];
            if version == "v1" {
                rest.push(json!(5));
            }
            assert_eq!(cells[2..], rest[..], "{version} as {table_version}");
            assert_eq!(
                rows[0]["object"]["kind"], "PartialObjectMetadata",
                "{table}"
            );
        }
    }

    // A missing value is a null cell (the path allows missing keys).
    let sparse = json!({"apiVersion": "mygroup.example.com/v1", "kind": "Table",
        "metadata": {"name": "sparse"}, "spec": {"beta": 2.7}});
    let (code, body) = env
        .call("POST", "/apis/mygroup.example.com/v1/tables", sparse)
        .await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let table = env
        .table("/apis/mygroup.example.com/v1/tables/sparse", "v1")
        .await;
    let cells = table["rows"][0]["cells"].as_array().unwrap();
    assert_eq!(cells[0], "sparse");
    // An integer column truncates a float, as `int64(f)` does.
    assert_eq!(
        cells[2..],
        [Value::Null, json!(2), Value::Null, Value::Null, Value::Null][..],
        "{table}"
    );
}

/// `NewNoxuSubresourcesCRDs(NamespaceScoped)[0]`: `noxus.mygroup.example.com`,
/// v1beta1 (stored) and v1, both with status and scale subresources, their
/// label selectors at different paths.
fn noxu_crd() -> Value {
    let version = |name: &str, storage: bool, selector: &str| {
        json!({"name": name, "served": true, "storage": storage,
            "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                "statusReplicasPath": ".status.replicas", "labelSelectorPath": selector}},
            "schema": allow_all()})
    };
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "noxus.mygroup.example.com"},
        "spec": {
            "group": "mygroup.example.com", "scope": "Namespaced",
            "names": {"plural": "noxus", "singular": "nonenglishnoxu",
                      "kind": "WishIHadChosenNoxu", "shortNames": ["foo", "bar", "abc", "def"],
                      "listKind": "NoxuItemList"},
            "versions": [
                version("v1beta1", true, ".status.labelSelector"),
                version("v1", false, ".status.anotherLabelSelector")
            ]
        }
    })
}

/// The default `Age` column of a version without printer columns
/// (`serveDefaultColumnsIfEmpty`), and upstream `TestColumnsPatch`: a CRD
/// created without columns takes per-version ones by a merge patch, and
/// each version's table shows its own.
#[tokio::test]
async fn a_version_without_printer_columns_has_an_age_column_and_columns_patch_in() {
    let env = env().await;
    env.namespace(NS).await;
    env.create_crd(noxu_crd()).await;
    let noxus = format!("/apis/mygroup.example.com/v1/namespaces/{NS}/noxus");
    let (code, body) = env.call("POST", &noxus, noxu("v1")).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let table = env.table(&noxus, "v1").await;
    assert_eq!(
        table["columnDefinitions"],
        json!([
            {"name": "Name", "type": "string", "format": "name",
             "description": api_server::table::NAME_DESCRIPTION, "priority": 0},
            {"name": "Age", "type": "date", "format": "",
             "description": api_server::table::CREATION_TIMESTAMP_DESCRIPTION, "priority": 0}
        ])
    );
    let cells = table["rows"][0]["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2, "{table}");
    assert_eq!(cells[0], "foo");
    assert_small_age(&cells[1]);

    let version = |name: &str, storage: bool, column: &str| {
        json!({"name": name, "served": true, "storage": storage,
               "additionalPrinterColumns": [{"name": column, "type": "date",
                                             "jsonPath": ".metadata.creationTimestamp"}],
               "schema": allow_all()})
    };
    let patch = json!({"spec": {"versions": [
        version("v1beta1", true, "Age"),
        version("v1", false, "Age2")
    ]}});
    let (code, body) = env
        .call("PATCH", &format!("{CRDS}/noxus.mygroup.example.com"), patch)
        .await;
    assert_eq!(code, StatusCode::OK, "{body}");
    let age2 =
        "Custom resource definition column (in JSONPath format): .metadata.creationTimestamp";
    env.until(&format!("{CRDS}/noxus.mygroup.example.com"), |_, crd| {
        crd["metadata"]["generation"] == 2
    })
    .await;
    let start = Instant::now();
    loop {
        let table = env.table(&noxus, "v1").await;
        if table["columnDefinitions"][1]["name"] == "Age2" {
            assert_eq!(table["columnDefinitions"][1]["description"], age2);
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{table}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let beta = format!("/apis/mygroup.example.com/v1beta1/namespaces/{NS}/noxus");
    let table = env.table(&beta, "v1").await;
    assert_eq!(table["columnDefinitions"][1]["name"], "Age");
    assert_eq!(table["columnDefinitions"][1]["description"], age2);
}

// ----------------------------------------------------------- subresources

/// `NewNoxuSubresourceInstance(NS, "foo", version)`.
fn noxu(version: &str) -> Value {
    json!({"apiVersion": format!("mygroup.example.com/{version}"), "kind": "WishIHadChosenNoxu",
           "metadata": {"namespace": NS, "name": "foo"},
           "spec": {"num": 10, "replicas": 3}, "status": {"replicas": 7}})
}

fn noxus(version: &str) -> String {
    format!("/apis/mygroup.example.com/{version}/namespaces/{NS}/noxus")
}

/// Upstream `TestStatusSubresource`, in both versions: no status after a
/// create, a status update changes the status only (not the spec, nor the
/// labels: the status strategy keeps the stored object but its status), an
/// update changes all but the status.
#[tokio::test]
async fn the_status_subresource_splits_spec_and_status() {
    let env = env().await;
    env.namespace(NS).await;
    env.create_crd(noxu_crd()).await;
    for version in ["v1beta1", "v1"] {
        let foo = format!("{}/foo", noxus(version));
        let (code, created) = env.call("POST", &noxus(version), noxu(version)).await;
        assert_eq!(code, StatusCode::CREATED, "{created}");
        assert!(created.get("status").is_none(), "{created}");
        let (_, mut got) = env.call("GET", &foo, Value::Null).await;
        assert!(got.get("status").is_none(), "{got}");

        got["status"] = json!({"num": 20});
        got["spec"]["num"] = json!(20);
        got["metadata"]["labels"] = json!({"through": "status"});
        let (code, updated) = env.call("PUT", &format!("{foo}/status"), got.clone()).await;
        assert_eq!(code, StatusCode::OK, "{updated}");
        assert_eq!(updated["spec"], json!({"num": 10, "replicas": 3}));
        assert_eq!(updated["status"], json!({"num": 20}));
        assert!(updated["metadata"].get("labels").is_none(), "{updated}");

        let (_, mut got) = env.call("GET", &foo, Value::Null).await;
        got["status"]["num"] = json!(40);
        got["spec"]["num"] = json!(40);
        let (code, updated) = env.call("PUT", &foo, got).await;
        assert_eq!(code, StatusCode::OK, "{updated}");
        assert_eq!(updated["spec"], json!({"num": 40, "replicas": 3}));
        assert_eq!(updated["status"], json!({"num": 20}));
        let (code, _) = env.call("DELETE", &foo, Value::Null).await;
        assert_eq!(code, StatusCode::OK);
    }
}

/// Upstream `TestGeneration`: 1 on create, kept by a status update (and,
/// as the strategy compares all but metadata, by a metadata change),
/// bumped by a spec change.
#[tokio::test]
async fn generation_is_bumped_by_spec_changes_only() {
    let env = env().await;
    env.namespace(NS).await;
    env.create_crd(noxu_crd()).await;
    for version in ["v1beta1", "v1"] {
        let foo = format!("{}/foo", noxus(version));
        let (code, created) = env.call("POST", &noxus(version), noxu(version)).await;
        assert_eq!(code, StatusCode::CREATED, "{created}");
        assert_eq!(created["metadata"]["generation"], 1);

        let mut got = created.clone();
        got["status"] = json!({"num": 20});
        let (code, updated) = env.call("PUT", &format!("{foo}/status"), got).await;
        assert_eq!(code, StatusCode::OK, "{updated}");
        assert_eq!(updated["metadata"]["generation"], 1);

        let (code, labelled) = env
            .call("PATCH", &foo, json!({"metadata": {"labels": {"a": "b"}}}))
            .await;
        assert_eq!(code, StatusCode::OK, "{labelled}");
        assert_eq!(labelled["metadata"]["generation"], 1);

        let mut got = labelled;
        got["spec"]["num"] = json!(20);
        let (code, updated) = env.call("PUT", &foo, got).await;
        assert_eq!(code, StatusCode::OK, "{updated}");
        assert_eq!(updated["metadata"]["generation"], 2);
        let (code, _) = env.call("DELETE", &foo, Value::Null).await;
        assert_eq!(code, StatusCode::OK);
    }
}

/// Upstream `TestScaleSubresource`, in both versions: a spec replicas path
/// that is not a JSON path is refused; the Scale reads the replicas and
/// the version's selector path; a Scale update changes the spec replicas
/// only; replicas past int32 are refused on an update of the object.
#[tokio::test]
async fn the_scale_subresource_reads_and_writes_the_replicas_paths() {
    let env = env().await;
    env.namespace(NS).await;
    for (i, version) in ["v1beta1", "v1"].into_iter().enumerate() {
        let mut crd = noxu_crd();
        crd["spec"]["versions"][i]["subresources"]["scale"]["specReplicasPath"] = json!("foo,bar");
        let (code, status) = env.call("POST", CRDS, crd).await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
        assert_eq!(
            status["message"],
            format!(
                "CustomResourceDefinition.apiextensions.k8s.io \"noxus.mygroup.example.com\" \
                 is invalid: spec.versions[{i}].subresources.scale.specReplicasPath: \
                 Invalid value: \"foo,bar\": must be a simple json path starting with ."
            )
        );
        env.create_crd(noxu_crd()).await;

        let foo = format!("{}/foo", noxus(version));
        let (code, created) = env.call("POST", &noxus(version), noxu(version)).await;
        assert_eq!(code, StatusCode::CREATED, "{created}");
        let selector = if version == "v1" {
            "anotherLabelSelector"
        } else {
            "labelSelector"
        };
        let mut got = created;
        got["status"] = json!({selector: "bar"});
        let (code, body) = env.call("PUT", &format!("{foo}/status"), got).await;
        assert_eq!(code, StatusCode::OK, "{body}");

        let (code, mut scale) = env.call("GET", &format!("{foo}/scale"), Value::Null).await;
        assert_eq!(code, StatusCode::OK, "{scale}");
        assert_eq!(scale["apiVersion"], "autoscaling/v1");
        assert_eq!(scale["kind"], "Scale");
        assert_eq!(scale["spec"], json!({"replicas": 3}));
        assert_eq!(scale["status"], json!({"replicas": 0, "selector": "bar"}));

        scale["spec"]["replicas"] = json!(5);
        scale["status"]["selector"] = json!("baz");
        let (code, updated) = env.call("PUT", &format!("{foo}/scale"), scale).await;
        assert_eq!(code, StatusCode::OK, "{updated}");
        assert_eq!(updated["spec"]["replicas"], 5);
        assert_eq!(updated["status"]["selector"], "bar");
        let (_, mut got) = env.call("GET", &foo, Value::Null).await;
        assert_eq!(got["spec"]["replicas"], 5);
        assert_eq!(got["status"][selector], "bar");

        got["spec"]["replicas"] = json!(i64::MAX);
        let (code, status) = env.call("PUT", &foo, got).await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
        assert_eq!(
            status["message"],
            "WishIHadChosenNoxu.mygroup.example.com \"foo\" is invalid: .spec.replicas: \
             Invalid value: 9223372036854775807: should be less than or equal to 2147483647"
        );
        let (code, _) = env.call("DELETE", &foo, Value::Null).await;
        assert_eq!(code, StatusCode::OK);
        env.delete_crd("noxus.mygroup.example.com").await;
    }
}

/// Upstream `TestValidateOnlyStatus`: a status update validates the status
/// (a spec it would make invalid is ignored, not refused), with the
/// apiserver's message.
#[tokio::test]
async fn a_status_update_validates_the_status() {
    let env = env().await;
    env.namespace(NS).await;
    let num = json!({"type": "object", "properties": {"num": {"type": "integer", "maximum": 10}}});
    let schema = json!({"openAPIV3Schema": {"type": "object",
                        "properties": {"spec": num, "status": num}}});
    let mut crd = noxu_crd();
    crd["spec"]["versions"][0]["schema"] = schema.clone();
    crd["spec"]["versions"][1]["schema"] = schema;
    env.create_crd(crd).await;
    for version in ["v1beta1", "v1"] {
        let foo = format!("{}/foo", noxus(version));
        let mut instance = noxu(version);
        instance["status"]["num"] = json!(10);
        let (code, mut created) = env.call("POST", &noxus(version), instance).await;
        assert_eq!(code, StatusCode::CREATED, "{created}");
        created["status"] = json!({"num": 10});
        created["spec"]["num"] = json!(15);
        let (code, updated) = env.call("PUT", &format!("{foo}/status"), created).await;
        assert_eq!(code, StatusCode::OK, "{updated}");
        assert_eq!(updated["spec"]["num"], 10);

        let mut invalid = updated;
        invalid["status"]["num"] = json!(15);
        let (code, status) = env.call("PUT", &format!("{foo}/status"), invalid).await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
        assert_eq!(status["details"]["causes"][0]["field"], "status.num");
        // The status alone is validated against the status schema, so the
        // message names the field relative to it (`num in body`).
        assert_eq!(
            status["message"],
            "WishIHadChosenNoxu.mygroup.example.com \"foo\" is invalid: status.num: \
             Invalid value: 15: num in body should be less than or equal to 10"
        );
        let (code, _) = env.call("DELETE", &foo, Value::Null).await;
        assert_eq!(code, StatusCode::OK);
    }
}

/// Upstream `TestSubresourcesDiscovery`: `noxus`, `noxus/status` and
/// `noxus/scale` (an `autoscaling/v1` `Scale`) in each version.
#[tokio::test]
async fn subresources_are_discovered() {
    let env = env().await;
    env.create_crd(noxu_crd()).await;
    for version in ["v1beta1", "v1"] {
        let (code, list) = env
            .call(
                "GET",
                &format!("/apis/mygroup.example.com/{version}"),
                Value::Null,
            )
            .await;
        assert_eq!(code, StatusCode::OK, "{list}");
        let resources = list["resources"].as_array().unwrap();
        let names: Vec<&str> = resources
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["noxus", "noxus/status", "noxus/scale"]);
        let verbs = |r: &Value| {
            let mut verbs: Vec<String> = serde_json::from_value(r["verbs"].clone()).unwrap();
            verbs.sort();
            verbs
        };
        let status = &resources[1];
        assert_eq!(status["namespaced"], true);
        assert_eq!(status["kind"], "WishIHadChosenNoxu");
        assert_eq!(verbs(status), ["get", "patch", "update"]);
        let scale = &resources[2];
        assert_eq!(scale["group"], "autoscaling");
        assert_eq!(scale["version"], "v1");
        assert_eq!(scale["namespaced"], true);
        assert_eq!(scale["kind"], "Scale");
        assert_eq!(verbs(scale), ["get", "patch", "update"]);
    }
}

/// Upstream `TestSubresourcePatch`, in both versions: a merge patch of
/// `/status` changes the status only, of `/scale` the spec replicas only;
/// the same patch again, or an empty one, writes nothing (the same
/// `resourceVersion`); strategic merge patches are refused (415) on both
/// and on the object.
#[tokio::test]
async fn subresource_patches() {
    let env = env().await;
    env.namespace(NS).await;
    env.create_crd(noxu_crd()).await;
    for version in ["v1beta1", "v1"] {
        let foo = format!("{}/foo", noxus(version));
        let (code, created) = env.call("POST", &noxus(version), noxu(version)).await;
        assert_eq!(code, StatusCode::CREATED, "{created}");

        let status_patch = json!({"spec": {"num": 999}, "status": {"num": 999}});
        let (code, patched) = env
            .call("PATCH", &format!("{foo}/status"), status_patch.clone())
            .await;
        assert_eq!(code, StatusCode::OK, "{patched}");
        assert_eq!(patched["status"], json!({"num": 999}));
        assert_eq!(patched["spec"]["num"], 10);
        let rv = patched["metadata"]["resourceVersion"].clone();
        for patch in [status_patch, json!({})] {
            let (code, again) = env.call("PATCH", &format!("{foo}/status"), patch).await;
            assert_eq!(code, StatusCode::OK, "{again}");
            assert_eq!(again["status"], json!({"num": 999}));
            assert_eq!(again["spec"]["num"], 10);
            assert_eq!(
                again["metadata"]["resourceVersion"], rv,
                "a no-op writes nothing"
            );
        }

        let scale_patch = json!({"spec": {"replicas": 7}, "status": {"replicas": 7}});
        let (code, scale) = env
            .call("PATCH", &format!("{foo}/scale"), scale_patch.clone())
            .await;
        assert_eq!(code, StatusCode::OK, "{scale}");
        assert_eq!(scale["spec"]["replicas"], 7);
        assert_eq!(scale["status"]["replicas"], 0);
        let (_, got) = env.call("GET", &foo, Value::Null).await;
        assert_eq!(got["spec"]["replicas"], 7);
        assert!(got["status"].get("replicas").is_none(), "{got}");
        let rv = got["metadata"]["resourceVersion"].clone();
        for patch in [scale_patch.clone(), json!({})] {
            let (code, again) = env.call("PATCH", &format!("{foo}/scale"), patch).await;
            assert_eq!(code, StatusCode::OK, "{again}");
            assert_eq!(again["spec"]["replicas"], 7);
            assert_eq!(again["status"]["replicas"], 0);
            assert_eq!(
                again["metadata"]["resourceVersion"], rv,
                "a no-op writes nothing"
            );
        }

        for subresource in ["status", "scale"] {
            let (code, status) = env
                .patch(
                    &format!("{foo}/{subresource}"),
                    "strategic-merge-patch+json",
                    scale_patch.clone(),
                )
                .await;
            assert_eq!(
                code,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{subresource}: {status}"
            );
        }
        let (code, status) = env
            .patch(
                &foo,
                "strategic-merge-patch+json",
                json!({"spec": {"num": 1}}),
            )
            .await;
        assert_eq!(code, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{status}");
        assert_eq!(
            status["message"],
            "the body of the request was in an unknown format - accepted media types include: \
             application/json-patch+json, application/merge-patch+json, \
             application/apply-patch+yaml"
        );
        let (code, _) = env.call("DELETE", &foo, Value::Null).await;
        assert_eq!(code, StatusCode::OK);
    }
}

// ------------------------------------------------------------- validation

/// `newNoxuValidationCRDs()`: the root requires `alpha` (alphanumeric with
/// underscores) and `beta` (at least 10), `gamma` is one of three; the
/// second definition's v1 schema has a description too.
fn validation_crds() -> [Value; 2] {
    let schema = json!({"type": "object", "required": ["alpha", "beta"], "properties": {
        "alpha": {"description": "Alpha is an alphanumeric string with underscores",
                  "type": "string", "pattern": "^[a-zA-Z0-9_]*$"},
        "beta": {"description": "Minimum value of beta is 10", "type": "number", "minimum": 10},
        "gamma": {"description": "Gamma is restricted to foo, bar and baz", "type": "string",
                  "enum": ["foo", "bar", "baz"]}}});
    let mut described = schema.clone();
    described["description"] = json!("test");
    [schema.clone(), described].map(|v1| {
        json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "noxus.mygroup.example.com"},
            "spec": {
                "group": "mygroup.example.com", "scope": "Namespaced",
                "names": {"plural": "noxus", "singular": "nonenglishnoxu",
                          "kind": "WishIHadChosenNoxu",
                          "shortNames": ["foo", "bar", "abc", "def"], "listKind": "NoxuItemList"},
                "versions": [
                    {"name": "v1beta1", "served": true, "storage": true,
                     "schema": {"openAPIV3Schema": schema}},
                    {"name": "v1", "served": true, "storage": false,
                     "schema": {"openAPIV3Schema": v1}}
                ]
            }
        })
    })
}

/// `newNoxuValidationInstance(NS, "foo")` in `version`.
fn validation_instance(version: &str) -> Value {
    json!({"apiVersion": format!("mygroup.example.com/{version}"), "kind": "WishIHadChosenNoxu",
           "metadata": {"namespace": NS, "name": "foo"},
           "alpha": "foo_123", "beta": 10, "gamma": "bar", "delta": "hello"})
}

const INVALID_FOO: &str = "WishIHadChosenNoxu.mygroup.example.com \"foo\" is invalid: ";

/// Upstream `TestCustomResourceValidation` and
/// `TestCustomResourceValidationErrors`, with both definitions in both
/// versions: a valid object is created (its unknown `delta` pruned); each
/// invalid one is a 422 with every cause, in the apiserver's words.
#[tokio::test]
async fn schema_validation_refuses_with_every_cause() {
    let env = env().await;
    env.namespace(NS).await;
    for crd in validation_crds() {
        env.create_crd(crd).await;
        for version in ["v1beta1", "v1"] {
            let (code, created) = env
                .call("POST", &noxus(version), validation_instance(version))
                .await;
            assert_eq!(code, StatusCode::CREATED, "{created}");
            assert!(created.get("delta").is_none(), "{created}");
            let foo = format!("{}/foo", noxus(version));
            let (code, _) = env.call("DELETE", &foo, Value::Null).await;
            assert_eq!(code, StatusCode::OK);

            let cases: [(Value, &str, &[&str]); 4] = [
                (
                    json!({"alpha": "foo_123!"}),
                    r#"alpha: Invalid value: "foo_123!": alpha in body should match '^[a-zA-Z0-9_]*$'"#,
                    &["alpha"],
                ),
                (
                    json!({"beta": 5}),
                    "beta: Invalid value: 5: beta in body should be greater than or equal to 10",
                    &["beta"],
                ),
                (
                    json!({"gamma": "qux"}),
                    r#"gamma: Unsupported value: "qux": supported values: "foo", "bar", "baz""#,
                    &["gamma"],
                ),
                (
                    json!({"alpha": null, "beta": null}),
                    "[alpha: Required value, beta: Required value]",
                    &["alpha", "beta"],
                ),
            ];
            for (change, message, fields) in cases {
                let mut instance = validation_instance(version);
                for (k, v) in change.as_object().unwrap() {
                    if v.is_null() {
                        instance.as_object_mut().unwrap().remove(k);
                    } else {
                        instance[k] = v.clone();
                    }
                }
                let (code, status) = env.call("POST", &noxus(version), instance).await;
                assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
                assert_eq!(status["reason"], "Invalid");
                assert_eq!(status["message"], format!("{INVALID_FOO}{message}"));
                assert_eq!(status["details"]["kind"], "WishIHadChosenNoxu");
                assert_eq!(status["details"]["group"], "mygroup.example.com");
                assert_eq!(status["details"]["name"], "foo");
                let causes: Vec<&str> = status["details"]["causes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["field"].as_str().unwrap())
                    .collect();
                assert_eq!(causes, fields, "{status}");
            }
        }
        env.delete_crd("noxus.mygroup.example.com").await;
    }
}

/// Upstream `TestCustomResourceUpdateValidation`: an update that drops
/// both required fields is refused.
#[tokio::test]
async fn updates_are_validated() {
    let env = env().await;
    env.namespace(NS).await;
    let [crd, _] = validation_crds();
    env.create_crd(crd).await;
    for version in ["v1beta1", "v1"] {
        let foo = format!("{}/foo", noxus(version));
        let (code, created) = env
            .call("POST", &noxus(version), validation_instance(version))
            .await;
        assert_eq!(code, StatusCode::CREATED, "{created}");
        let invalid = json!({"apiVersion": format!("mygroup.example.com/{version}"),
            "kind": "WishIHadChosenNoxu",
            "metadata": {"namespace": NS, "name": "foo",
                         "resourceVersion": created["metadata"]["resourceVersion"]},
            "gamma": "bar", "delta": "hello"});
        let (code, status) = env.call("PUT", &foo, invalid).await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
        assert_eq!(
            status["message"],
            format!("{INVALID_FOO}[alpha: Required value, beta: Required value]")
        );
        // And a patch.
        let (code, status) = env
            .call("PATCH", &foo, json!({"beta": 9, "gamma": "qux"}))
            .await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
        assert_eq!(
            status["message"],
            format!(
                "{INVALID_FOO}[beta: Invalid value: 9: beta in body should be greater than or \
                 equal to 10, gamma: Unsupported value: \"qux\": supported values: \"foo\", \
                 \"bar\", \"baz\"]"
            )
        );
        let (code, _) = env.call("DELETE", &foo, Value::Null).await;
        assert_eq!(code, StatusCode::OK);
    }
}

/// Upstream `TestForProperValidationErrors`: another version in the data
/// is a 400 naming both; another kind a 422 on `kind`, named by the kind
/// the data gave.
#[tokio::test]
async fn another_version_or_kind_in_the_data_is_refused() {
    let env = env().await;
    env.namespace(NS).await;
    let [crd, _] = validation_crds();
    env.create_crd(crd).await;
    let mut other_version = validation_instance("v2");
    other_version["metadata"]["name"] = json!("foo");
    let (code, status) = env.call("POST", &noxus("v1beta1"), other_version).await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{status}");
    assert_eq!(
        status["message"],
        "the API version in the data (mygroup.example.com/v2) does not match the expected \
         API version (mygroup.example.com/v1beta1)"
    );
    let mut other_kind = validation_instance("v1beta1");
    other_kind["kind"] = json!("SomethingElse");
    let (code, status) = env.call("POST", &noxus("v1beta1"), other_kind).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(
        status["message"],
        "SomethingElse.mygroup.example.com \"foo\" is invalid: kind: Invalid value: \
         \"SomethingElse\": must be WishIHadChosenNoxu"
    );
}

/// Upstream `TestCRValidationOnCRDUpdate`: an object a stricter schema
/// refuses is accepted once the CRD is relaxed.
#[tokio::test]
async fn a_relaxed_schema_accepts_what_it_refused() {
    let env = env().await;
    env.namespace(NS).await;
    for (i, version) in ["v1beta1", "v1"].into_iter().enumerate() {
        let [mut crd, _] = validation_crds();
        crd["spec"]["versions"][i]["schema"]["openAPIV3Schema"]["required"] =
            json!(["alpha", "beta", "gamma"]);
        env.create_crd(crd).await;
        let mut instance = validation_instance(version);
        instance.as_object_mut().unwrap().remove("gamma");
        let (code, status) = env.call("POST", &noxus(version), instance.clone()).await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
        assert_eq!(
            status["message"],
            format!("{INVALID_FOO}gamma: Required value")
        );

        env.update_crd("noxus.mygroup.example.com", |crd| {
            crd["spec"]["versions"][i]["schema"]["openAPIV3Schema"]["required"] =
                json!(["alpha", "beta"]);
        })
        .await;
        let start = Instant::now();
        loop {
            let (code, body) = env.call("POST", &noxus(version), instance.clone()).await;
            if code == StatusCode::CREATED {
                break;
            }
            assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
            assert!(start.elapsed() < Duration::from_secs(10), "{body}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        env.delete_crd("noxus.mygroup.example.com").await;
    }
}

/// Upstream `TestZeroValueValidation`: zero values are valid, a `null` is
/// kept where the schema is `nullable` (and would be dropped elsewhere),
/// zero-valued defaults are applied.
#[tokio::test]
async fn zero_values_nulls_and_zero_defaults() {
    let env = env().await;
    let mut properties = serde_json::Map::new();
    for (name, schema, zero) in [
        ("string", json!({"type": "string"}), json!("")),
        ("boolean", json!({"type": "boolean"}), json!(false)),
        ("number", json!({"type": "number"}), json!(0.0)),
        ("integer", json!({"type": "integer"}), json!(0)),
        (
            "array",
            json!({"type": "array", "items": {"type": "string"}}),
            json!([]),
        ),
        (
            "object",
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            json!({}),
        ),
    ] {
        properties.insert(name.into(), schema.clone());
        let mut defaulted = schema.clone();
        defaulted["default"] = zero;
        properties.insert(format!("{name}_default"), defaulted);
        let mut nullable = schema;
        nullable["nullable"] = json!(true);
        properties.insert(format!("{name}_null"), nullable);
    }
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "zeros.tests.example.com"},
        "spec": {
            "group": "tests.example.com", "scope": "Cluster",
            "names": {"plural": "zeros", "singular": "zero", "kind": "Zero", "listKind": "Zerolist"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": properties}}}]
        }
    });
    env.create_crd(crd).await;
    let zero = json!({"apiVersion": "tests.example.com/v1", "kind": "Zero",
        "metadata": {"name": "myzero"},
        "string": "", "string_null": null, "boolean": false, "boolean_null": null,
        "number": 0, "number_null": null, "integer": 0, "integer_null": null,
        "array": [], "array_null": null, "object": {}, "object_null": null});
    let (code, created) = env
        .call("POST", "/apis/tests.example.com/v1/zeros", zero)
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(
        without_metadata(&created),
        json!({"apiVersion": "tests.example.com/v1", "kind": "Zero",
            "string": "", "string_null": null, "boolean": false, "boolean_null": null,
            "number": 0, "number_null": null, "integer": 0, "integer_null": null,
            "array": [], "array_null": null, "object": {}, "object_null": null,
            "string_default": "", "boolean_default": false, "number_default": 0.0,
            "integer_default": 0, "array_default": [], "object_default": {}})
    );
}

/// Upstream `TestCustomResourceItemsValidation`: properties named `items`
/// and `type` are fields like any other (issue 84880), and an object
/// default holding an empty `items` is applied.
#[tokio::test]
async fn properties_named_items_and_type_validate() {
    let env = env().await;
    let object_items = json!({"type": "array", "items": {"type": "object"}});
    let schema = json!({"type": "object", "properties": {
        "items-no-type": {"type": "object", "properties": {"items": object_items}},
        "items-items-no-type": {"type": "object", "properties": {"items": {
            "type": "array", "items": {"type": "array", "items": {"type": "object"}}}}},
        "items-properties-items-no-type": {"type": "object", "properties": {"items": {
            "type": "array", "items": {"type": "object", "properties": {"items": object_items}}}}},
        "type-array-no-items": {"type": "object", "properties": {"type": {"type": "string"}}},
        "items-and-type": {"type": "object", "properties": {
            "type": {"type": "string"}, "items": object_items}},
        "default-with-items-and-no-type": {"type": "object", "properties": {
            "type": {"type": "string"}, "items": object_items}, "default": {"items": []}},
        "issue-84880": {"type": "object", "properties": {"volumes": {"type": "array", "items": {
            "type": "object", "properties": {"downwardAPI": {"type": "object", "properties": {
                "items": {"type": "array", "items": {"type": "object", "required": ["path"],
                    "properties": {"path": {"type": "string"}}}}}}}}}}}}});
    env.create_crd(pruning_crd(schema)).await;
    let body = foo(json!({
        "items-no-type": {"items": [{}]},
        "items-items-no-type": {"items": [[{}]]},
        "items-properties-items-no-type": {"items": [{"items": [{}]}]},
        "type-array-no-items": {"type": "array"},
        "items-and-type": {"items": [{}], "type": "array"},
        "issue-84880": {"volumes": [{"downwardAPI": {"items": [{"path": "annotations"}]}}]}
    }));
    let (code, created) = env.call("POST", FOOS, body.clone()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let mut expected = without_metadata(&body);
    expected["default-with-items-and-no-type"] = json!({"items": []});
    assert_eq!(without_metadata(&created), expected);
    // The required `path` is checked where `items` is a property.
    let mut missing = body;
    missing["metadata"]["name"] = json!("missing");
    missing["issue-84880"]["volumes"][0]["downwardAPI"]["items"][0] = json!({});
    let (code, status) = env.call("POST", FOOS, missing).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(
        status["message"],
        "Foo.tests.example.com \"missing\" is invalid: \
         issue-84880.volumes[0].downwardAPI.items[0].path: Required value"
    );
}

// ------------------------------------------------------------- defaulting

/// `defaultingFooV1beta1Schema`/`...V1beta2Schema`: spec and status alike,
/// `a` and `b` defaulted in both versions, `v1beta1` and `v1beta2` each
/// in its own version only, `replicas` defaulted (1 in spec, 0 in status).
fn defaulting_schema(own: &str) -> Value {
    let part = |replicas: i64| {
        let mut properties = json!({
            "a": {"type": "string", "default": "A"},
            "b": {"type": "string", "default": "B"},
            "c": {"type": "string"},
            "v1beta1": {"type": "string"},
            "v1beta2": {"type": "string"},
            "replicas": {"default": replicas, "format": "int32", "minimum": 0, "type": "integer"}
        });
        properties[own]["default"] = json!(own);
        json!({"type": "object", "properties": properties})
    };
    json!({"openAPIV3Schema": {"type": "object",
        "properties": {"spec": part(1), "status": part(0)}}})
}

/// Upstream `TestCustomResourceDefaultingWithoutWatchCache`
/// (`testDefaulting`): v1beta1 served, v1beta2 stored and not served. A
/// write is defaulted with the request's version's schema, a read with
/// the storage version's; a default added to (removed from) the storage
/// version shows on (goes from) every read, list and watch; the status
/// only gets defaults through the status subresource.
#[tokio::test]
async fn defaults_of_the_request_and_the_storage_version() {
    let env = env().await;
    let scale = json!({"specReplicasPath": ".spec.replicas",
                       "statusReplicasPath": ".status.replicas"});
    env.create_crd(foos_crd(json!([
        {"name": "v1beta1", "served": true, "storage": false,
         "subresources": {"status": {}, "scale": scale}, "schema": defaulting_schema("v1beta1")},
        {"name": "v1beta2", "served": false, "storage": true,
         "subresources": {"status": {}, "scale": scale}, "schema": defaulting_schema("v1beta2")}
    ])))
    .await;
    let foo_uri = format!("{FOOS}/foo");
    let (code, mut foo) = env
        .call(
            "POST",
            FOOS,
            foo(json!({"spec": {"a": "a"}, "status": {"b": "b"}})),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{foo}");
    let initial_rv = foo["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    // v1beta1's default from the request, v1beta2's from the storage
    // response; no status (the subresource drops it on create).
    assert_eq!(
        foo["spec"],
        json!({"a": "a", "b": "B", "v1beta1": "v1beta1", "v1beta2": "v1beta2", "replicas": 1})
    );
    assert!(foo.get("status").is_none(), "{foo}");

    foo["status"] = json!({});
    let (code, foo) = env.call("PUT", &format!("{foo_uri}/status"), foo).await;
    assert_eq!(code, StatusCode::OK, "{foo}");
    assert_eq!(
        foo["status"],
        json!({"a": "A", "b": "B", "v1beta1": "v1beta1", "v1beta2": "v1beta2", "replicas": 0})
    );

    let set_default = |version: usize, key: &'static str, value: Option<&'static str>| {
        move |crd: &mut Value| {
            for root in ["spec", "status"] {
                let property = &mut crd["spec"]["versions"][version]["schema"]["openAPIV3Schema"]["properties"]
                    [root]["properties"][key];
                match value {
                    Some(v) => *property = json!({"type": "string", "default": v}),
                    None => {
                        property.as_object_mut().unwrap().remove("default");
                    }
                }
            }
        }
    };
    // `c` defaulted in the storage version: every read has it.
    env.update_crd("foos.tests.example.com", set_default(1, "c", Some("C")))
        .await;
    let foo = env.until(&foo_uri, |_, foo| foo["spec"]["c"] == "C").await;
    assert_eq!(foo["status"]["c"], "C");
    for uri in [format!("{foo_uri}?resourceVersion=0")] {
        let (_, read) = env.call("GET", &uri, Value::Null).await;
        assert_eq!(
            (&read["spec"]["c"], &read["status"]["c"]),
            (&json!("C"), &json!("C"))
        );
    }
    for uri in [FOOS.to_string(), format!("{FOOS}?resourceVersion=0")] {
        let (_, list) = env.call("GET", &uri, Value::Null).await;
        let item = &list["items"][0];
        assert_eq!(
            (&item["spec"]["c"], &item["status"]["c"]),
            (&json!("C"), &json!("C"))
        );
    }
    // A watch from the create: the status update, read as v1beta1 with
    // the storage version's defaults of now.
    let (code, events) = env
        .raw(
            "GET",
            &format!("{FOOS}?watch=true&resourceVersion={initial_rv}&timeoutSeconds=1"),
            "",
            "application/json",
            Vec::new(),
        )
        .await;
    assert_eq!(code, StatusCode::OK);
    let first: Value = serde_json::from_slice(events.split(|b| *b == b'\n').next().unwrap())
        .expect("a watch event");
    assert_eq!(first["type"], "MODIFIED", "{first}");
    assert_eq!(first["object"]["apiVersion"], "tests.example.com/v1beta1");
    assert_eq!(first["object"]["spec"]["c"], "C", "{first}");
    assert_eq!(first["object"]["status"]["c"], "C", "{first}");

    // `c` defaulted in the served version only: reads no longer show it.
    env.update_crd("foos.tests.example.com", |crd| {
        set_default(0, "c", Some("C"))(crd);
        set_default(1, "c", None)(crd);
    })
    .await;
    let foo = env
        .until(&foo_uri, |_, foo| foo["spec"].get("c").is_none())
        .await;
    assert!(foo["status"].get("c").is_none(), "{foo}");

    // A status update is defaulted with the request's version: the status
    // gets `c`, the spec (the stored one) does not.
    let (code, foo) = env.call("PUT", &format!("{foo_uri}/status"), foo).await;
    assert_eq!(code, StatusCode::OK, "{foo}");
    assert_eq!(foo["status"]["c"], "C");
    assert!(foo["spec"].get("c").is_none(), "{foo}");

    // Without any default of `a`, `b` and `c` in the served version, what
    // was stored stays: `a`, `b`, and `c` in the status only.
    env.update_crd("foos.tests.example.com", |crd| {
        for key in ["a", "b", "c"] {
            set_default(0, key, None)(crd);
        }
    })
    .await;
    env.until(&format!("{CRDS}/foos.tests.example.com"), |_, crd| {
        crd["metadata"]["generation"] == 4
    })
    .await;
    let (_, foo) = env.call("GET", &foo_uri, Value::Null).await;
    assert_eq!(
        (&foo["spec"]["a"], &foo["spec"]["b"]),
        (&json!("a"), &json!("B"))
    );
    assert_eq!(
        (
            &foo["status"]["a"],
            &foo["status"]["b"],
            &foo["status"]["c"]
        ),
        (&json!("A"), &json!("B"), &json!("C"))
    );
    assert!(foo["spec"].get("c").is_none(), "{foo}");
}

/// Defaults on update and patch, in nested objects (a `default: {}` whose
/// properties have defaults is filled in), array items and
/// `additionalProperties` values (the facts of upstream's defaulting
/// algorithm, `pkg/apiserver/schema/defaulting`, as they reach a served
/// custom resource).
#[tokio::test]
async fn defaults_in_nested_objects_and_array_items_on_every_write() {
    let env = env().await;
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "template": {"type": "object", "default": {}, "properties": {
            "restartPolicy": {"type": "string", "default": "Always"},
            "ports": {"type": "array", "items": {"type": "object", "properties": {
                "port": {"type": "integer"},
                "protocol": {"type": "string", "default": "TCP"}}}}}},
        "limits": {"type": "object", "additionalProperties": {"type": "object", "properties": {
            "max": {"type": "integer", "default": 10}}}}}}}});
    env.create_crd(pruning_crd(schema)).await;
    let (code, created) = env
        .call(
            "POST",
            FOOS,
            foo(json!({"spec": {"limits": {"cpu": {}, "memory": {"max": 2}}}})),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(
        created["spec"],
        json!({"template": {"restartPolicy": "Always"},
               "limits": {"cpu": {"max": 10}, "memory": {"max": 2}}})
    );

    // An update that drops a defaulted field gets it back, and new array
    // items are defaulted.
    let mut update = created.clone();
    update["spec"]["template"] = json!({"ports": [{"port": 80}, {"port": 53, "protocol": "UDP"}]});
    let (code, updated) = env.call("PUT", &format!("{FOOS}/foo"), update).await;
    assert_eq!(code, StatusCode::OK, "{updated}");
    assert_eq!(
        updated["spec"]["template"],
        json!({"restartPolicy": "Always",
               "ports": [{"port": 80, "protocol": "TCP"}, {"port": 53, "protocol": "UDP"}]})
    );

    // So does a patch (merge and JSON patch).
    let (code, patched) = env
        .call(
            "PATCH",
            &format!("{FOOS}/foo"),
            json!({"spec": {"template": {"ports": [{"port": 8080}]}, "limits": {"disk": {}}}}),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert_eq!(
        patched["spec"]["template"]["ports"],
        json!([{"port": 8080, "protocol": "TCP"}])
    );
    assert_eq!(patched["spec"]["limits"]["disk"], json!({"max": 10}));
    let (code, patched) = env
        .patch(
            &format!("{FOOS}/foo"),
            "json-patch+json",
            json!([{"op": "remove", "path": "/spec/template"}]),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert_eq!(
        patched["spec"]["template"],
        json!({"restartPolicy": "Always"})
    );
}

/// Upstream `TestCustomResourceDefaultingOfMetaFields`: embedded resources
/// defaulted whole, by their `apiVersion`/`kind`/`metadata` properties or
/// by a parent's default, are returned and stored with the defaults.
#[tokio::test]
async fn embedded_resources_are_defaulted() {
    let env = env().await;
    let meta_properties = json!({
        "apiVersion": {"type": "string", "default": "foos/v1"},
        "kind": {"type": "string", "default": "Foo"},
        "metadata": {"type": "object", "properties": {
            "name": {"type": "string", "default": "Bar"},
            "unknown": {"type": "string", "default": "unknown"}}}});
    let full_metadata = json!({
        "apiVersion": {"type": "string", "default": "foos/v1"},
        "kind": {"type": "string", "default": "Foo"},
        "metadata": {"type": "object", "default": {"name": "Bar", "unknown": "unknown"}}});
    let whole = json!({"apiVersion": "foos/v1", "kind": "Foo",
                       "metadata": {"name": "Bar", "unknown": "unknown"}});
    let embedded = |properties: Value, preserve: bool| {
        let mut s = json!({"type": "object", "x-kubernetes-embedded-resource": true});
        if !properties.is_null() {
            s["properties"] = properties;
        }
        if preserve {
            s["x-kubernetes-preserve-unknown-fields"] = json!(true);
        }
        s
    };
    let with_default = |mut s: Value, default: &Value| {
        s["default"] = default.clone();
        s
    };
    let schema = json!({"type": "object", "properties": {
        "fields": embedded(meta_properties.clone(), false),
        "fullMetadata": embedded(full_metadata.clone(), false),
        "fullObject": with_default(embedded(json!({"foo": {"type": "string"}}), false), &whole),
        "spanning": {"type": "object", "default": {"embedded": whole},
            "properties": {"embedded": embedded(json!({"foo": {"type": "string"}}), false)}},
        "preserve-fields": embedded(meta_properties, true),
        "preserve-fullMetadata": embedded(full_metadata, true),
        "preserve-fullObject": with_default(embedded(Value::Null, true), &whole),
        "preserve-spanning": {"type": "object", "default": {"embedded": whole},
            "properties": {"embedded": embedded(Value::Null, true)}}}});
    let crd = foos_crd(json!([{"name": "v1beta1", "served": true, "storage": true,
        "subresources": {"status": {}}, "schema": {"openAPIV3Schema": schema}}]));
    let (code, body) = env.call("POST", CRDS, crd).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    env.until(&format!("{CRDS}/foos.tests.example.com"), |_, crd| {
        condition(crd, "Established")["status"] == "True"
    })
    .await;
    let (code, created) = env
        .call(
            "POST",
            FOOS,
            foo(json!({"fields": {"metadata": {}}, "fullMetadata": {},
                       "preserve-fields": {"metadata": {}}, "preserve-fullMetadata": {}})),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let stored = env.stored("foos").await;
    assert_eq!(stored.len(), 1);
    let expected = json!({"apiVersion": "foos/v1", "kind": "Foo", "metadata": {"name": "Bar"}});
    for (source, object) in [("returned", &created), ("stored", &stored[0].value)] {
        for path in [
            "/fields",
            "/fullMetadata",
            "/fullObject",
            "/spanning/embedded",
            "/preserve-fields",
            "/preserve-fullMetadata",
            "/preserve-fullObject",
            "/preserve-spanning/embedded",
        ] {
            let got = object.pointer(path).cloned().unwrap_or(Value::Null);
            assert_eq!(got["apiVersion"], "foos/v1", "{source} {path}: {got}");
            assert_eq!(got["kind"], "Foo", "{source} {path}: {got}");
            assert_eq!(got["metadata"]["name"], "Bar", "{source} {path}: {got}");
            // The default's unknown `metadata.unknown` is gone.
            assert_eq!(got, expected, "{source} {path}");
        }
    }
}
