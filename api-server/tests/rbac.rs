//! Authorization in-process: RBAC objects written over HTTP by an admin,
//! then enforced per user with the apiserver's 403, the status/spec
//! split, self access reviews, and escalation prevention.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use api_core::prelude::*;
use api_core::registry::DefaultStrategy;
use api_server::authn::{Authenticator, SYSTEM_MASTERS, User};
use api_server::server::AuthorizationMode;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower::ServiceExt;

/// SprocketSpec is the desired state of a Sprocket.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Sprocket",
    namespaced,
    status = "SprocketStatus"
)]
pub struct SprocketSpec {
    /// teeth of the sprocket.
    pub teeth: i32,
}

/// SprocketStatus is the observed state of a Sprocket.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
pub struct SprocketStatus {
    /// worn is whether the teeth are worn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worn: Option<bool>,
}

const RBAC: &str = "/apis/rbac.authorization.k8s.io/v1";
const SPROCKETS: &str = "/apis/example.com/v1/namespaces/demo/sprockets";

async fn app(mode: AuthorizationMode) -> axum::Router {
    storage::builder()
        .await
        .authenticator(
            Authenticator::new()
                .token("admin", User::new("admin", &[SYSTEM_MASTERS]))
                .token("bob", User::new("bob", &["devs"]))
                .token("carol", User::new("carol", &[])),
        )
        .authorization(mode)
        .resource::<Sprocket>(DefaultStrategy)
        .build()
        .router()
}

async fn call(
    app: &axum::Router,
    token: &str,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let content_type = if method == "PATCH" {
        "application/merge-patch+json"
    } else {
        "application/json"
    };
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body.map(|b| b.to_string()).unwrap_or_default()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let code = response.status();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn sprocket(name: &str) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Sprocket", "metadata": {"name": name}, "spec": {"teeth": 12}})
}

fn role(name: &str, resources: &[&str], verbs: &[&str]) -> Value {
    json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
           "metadata": {"name": name},
           "rules": [{"apiGroups": ["example.com"], "resources": resources, "verbs": verbs}]})
}

fn binding(name: &str, role: &str, user: &str) -> Value {
    json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
           "metadata": {"name": name},
           "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": user}],
           "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": role}})
}

async fn grant(app: &axum::Router, name: &str, resources: &[&str], verbs: &[&str], user: &str) {
    let roles = format!("{RBAC}/namespaces/demo/roles");
    let bindings = format!("{RBAC}/namespaces/demo/rolebindings");
    let (code, body) = call(
        app,
        "admin",
        "POST",
        &roles,
        Some(role(name, resources, verbs)),
    )
    .await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let (code, body) = call(
        app,
        "admin",
        "POST",
        &bindings,
        Some(binding(name, name, user)),
    )
    .await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
}

#[tokio::test]
async fn rbac_grants_what_roles_say_and_nothing_more() {
    let app = app(AuthorizationMode::Rbac).await;
    assert_eq!(
        call(&app, "admin", "POST", SPROCKETS, Some(sprocket("s")))
            .await
            .0,
        StatusCode::CREATED
    );
    // Nothing granted yet.
    let (code, body) = call(&app, "bob", "GET", &format!("{SPROCKETS}/s"), None).await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    assert_eq!(
        body["message"],
        r#"sprockets.example.com "s" is forbidden: User "bob" cannot get resource "sprockets" in API group "example.com" in the namespace "demo""#
    );
    assert_eq!(
        body["details"],
        json!({"name": "s", "group": "example.com", "kind": "sprockets"})
    );

    grant(
        &app,
        "reader",
        &["sprockets"],
        &["get", "list", "watch"],
        "bob",
    )
    .await;
    assert_eq!(
        call(&app, "bob", "GET", &format!("{SPROCKETS}/s"), None)
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(
        call(&app, "bob", "GET", SPROCKETS, None).await.0,
        StatusCode::OK
    );
    let (code, body) = call(&app, "bob", "POST", SPROCKETS, Some(sprocket("t"))).await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    assert_eq!(
        body["message"],
        r#"sprockets.example.com is forbidden: User "bob" cannot create resource "sprockets" in API group "example.com" in the namespace "demo""#
    );
    // Other namespaces and the cluster scope are not granted.
    let (code, body) = call(&app, "bob", "GET", "/apis/example.com/v1/sprockets", None).await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .ends_with("at the cluster scope"),
        "{body}"
    );
    // Discovery is every authenticated user's.
    assert_eq!(
        call(&app, "carol", "GET", "/apis/example.com/v1", None)
            .await
            .0,
        StatusCode::OK
    );
    // A non-resource path nobody granted.
    let (code, body) = call(&app, "carol", "GET", "/metrics", None).await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    assert_eq!(
        body["message"],
        r#"forbidden: User "carol" cannot get path "/metrics""#
    );
}

#[tokio::test]
async fn status_writers_write_status_only() {
    let app = app(AuthorizationMode::Rbac).await;
    call(&app, "admin", "POST", SPROCKETS, Some(sprocket("s"))).await;
    grant(
        &app,
        "status",
        &["sprockets/status"],
        &["get", "patch", "update"],
        "carol",
    )
    .await;
    let status = json!({"status": {"worn": true}});
    let (code, body) = call(
        &app,
        "carol",
        "PATCH",
        &format!("{SPROCKETS}/s/status"),
        Some(status.clone()),
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{body}");
    assert_eq!(body["status"]["worn"], true);
    let (code, body) = call(
        &app,
        "carol",
        "PATCH",
        &format!("{SPROCKETS}/s"),
        Some(json!({"spec": {"teeth": 1}})),
    )
    .await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains(r#"cannot patch resource "sprockets""#),
        "{body}"
    );
    // And one allowed only the main resource cannot write status.
    grant(&app, "spec", &["sprockets"], &["patch"], "bob").await;
    let (code, _) = call(
        &app,
        "bob",
        "PATCH",
        &format!("{SPROCKETS}/s/status"),
        Some(status),
    )
    .await;
    assert_eq!(code, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn self_access_reviews_and_escalation() {
    let app = app(AuthorizationMode::Rbac).await;
    grant(&app, "role-maker", &["sprockets"], &["get"], "bob").await;
    // bob may also create roles.
    let (code, _) = call(
        &app,
        "admin",
        "POST",
        &format!("{RBAC}/namespaces/demo/roles"),
        Some(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "roles"},
                    "rules": [{"apiGroups": ["rbac.authorization.k8s.io"], "resources": ["roles"], "verbs": ["create"]}]})),
    )
    .await;
    assert_eq!(code, StatusCode::CREATED);
    call(
        &app,
        "admin",
        "POST",
        &format!("{RBAC}/namespaces/demo/rolebindings"),
        Some(binding("roles", "roles", "bob")),
    )
    .await;

    let review = |verb: &str| {
        json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
               "spec": {"resourceAttributes": {"namespace": "demo", "verb": verb, "group": "example.com", "resource": "sprockets"}}})
    };
    let uri = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    let (code, body) = call(&app, "bob", "POST", uri, Some(review("get"))).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    assert_eq!(body["status"]["allowed"], true);
    let (_, body) = call(&app, "bob", "POST", uri, Some(review("delete"))).await;
    assert_eq!(body["status"]["allowed"], false);

    // A role within what bob holds is fine; one granting more is not.
    let roles = format!("{RBAC}/namespaces/demo/roles");
    let (code, body) = call(
        &app,
        "bob",
        "POST",
        &roles,
        Some(role("mine", &["sprockets"], &["get"])),
    )
    .await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let (code, body) = call(
        &app,
        "bob",
        "POST",
        &roles,
        Some(role("more", &["sprockets"], &["delete"])),
    )
    .await;
    assert_eq!(code, StatusCode::FORBIDDEN, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("attempting to grant RBAC permissions not currently held"),
        "{body}"
    );
    // Nothing was stored for the refused role.
    let (code, _) = call(&app, "admin", "GET", &format!("{roles}/more"), None).await;
    assert_eq!(code, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn always_allow_allows_and_says_so() {
    let app = app(AuthorizationMode::AlwaysAllow).await;
    assert_eq!(
        call(&app, "carol", "POST", SPROCKETS, Some(sprocket("s")))
            .await
            .0,
        StatusCode::CREATED
    );
    let review = json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
                        "spec": {"nonResourceAttributes": {"path": "/anything", "verb": "get"}}});
    let (_, body) = call(
        &app,
        "carol",
        "POST",
        "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        Some(review),
    )
    .await;
    assert_eq!(body["status"]["allowed"], true, "{body}");
    // RBAC kinds are not served without RBAC.
    assert_eq!(
        call(&app, "carol", "GET", &format!("{RBAC}/clusterroles"), None)
            .await
            .0,
        StatusCode::NOT_FOUND
    );
}

/// The RBAC kinds list and watch as every other kind: field and label
/// selectors, `limit`/`continue` pages, and a watch that only reports
/// what its selector matches.
#[tokio::test]
async fn rbac_lists_select_and_page() {
    let app = app(AuthorizationMode::Rbac).await;
    let roles = format!("{RBAC}/namespaces/demo/roles");
    for (name, team) in [("a", "x"), ("b", "y"), ("c", "x")] {
        let mut role = role(name, &["sprockets"], &["get"]);
        role["metadata"]["labels"] = json!({"team": team});
        let (code, body) = call(&app, "admin", "POST", &roles, Some(role)).await;
        assert_eq!(code, StatusCode::CREATED, "{body}");
    }
    let names = |list: &Value| -> Vec<String> {
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
            .collect()
    };

    // Writes of RBAC objects record managedFields as every write does (no
    // fieldManager, no user agent: "unknown", as the apiserver names it).
    let (_, a) = call(&app, "admin", "GET", &format!("{roles}/a"), None).await;
    let entry = &a["metadata"]["managedFields"][0];
    assert_eq!(entry["manager"], "unknown", "{a}");
    assert_eq!(entry["operation"], "Update");
    assert_eq!(entry["apiVersion"], "rbac.authorization.k8s.io/v1");
    assert!(entry["fieldsV1"]["f:rules"].is_object(), "{entry}");

    let (_, list) = call(
        &app,
        "admin",
        "GET",
        &format!("{roles}?fieldSelector=metadata.name%3Db"),
        None,
    )
    .await;
    assert_eq!(names(&list), ["b"], "{list}");
    let (_, list) = call(
        &app,
        "admin",
        "GET",
        &format!("{roles}?labelSelector=team%3Dx"),
        None,
    )
    .await;
    assert_eq!(names(&list), ["a", "c"], "{list}");
    let (code, body) = call(
        &app,
        "admin",
        "GET",
        &format!("{roles}?fieldSelector=rules%3Dx"),
        None,
    )
    .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{body}");

    let (_, first) = call(&app, "admin", "GET", &format!("{roles}?limit=2"), None).await;
    assert_eq!(names(&first), ["a", "b"], "{first}");
    assert_eq!(first["metadata"]["remainingItemCount"], 1, "{first}");
    let token = first["metadata"]["continue"].as_str().unwrap();
    let (_, rest) = call(
        &app,
        "admin",
        "GET",
        &format!("{roles}?limit=2&continue={token}"),
        None,
    )
    .await;
    assert_eq!(names(&rest), ["c"], "{rest}");
    assert!(
        rest["metadata"].get("continue").is_none_or(|c| c == ""),
        "{rest}"
    );

    // A watch from the list's revision sees only team y's change.
    let rv = first["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    let watch = Request::get(format!(
        "{roles}?watch=1&labelSelector=team%3Dy&resourceVersion={rv}&timeoutSeconds=1"
    ))
    .header(header::AUTHORIZATION, "Bearer admin")
    .body(Body::empty())
    .unwrap();
    let response = app.clone().oneshot(watch).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    for name in ["a", "b"] {
        let patch = json!({"metadata": {"annotations": {"touched": "yes"}}});
        let (code, body) = call(
            &app,
            "admin",
            "PATCH",
            &format!("{roles}/{name}"),
            Some(patch),
        )
        .await;
        assert_eq!(code, StatusCode::OK, "{body}");
    }
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let events: Vec<Value> = bytes
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let seen: Vec<_> = events
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap(),
                e["object"]["metadata"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(seen, [("MODIFIED", "b")], "{events:?}");
}

async fn apply(app: &axum::Router, token: &str, uri: &str, body: &str) -> (StatusCode, Value) {
    let request = Request::builder()
        .method("PATCH")
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, "application/apply-patch+yaml")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let code = response.status();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// `kubectl apply --server-side` of RBAC manifests: created when missing,
/// a re-apply is a no-op, another manager's change of the (atomic) rules
/// conflicts unless forced, and the escalation check still applies.
#[tokio::test]
async fn rbac_objects_take_server_side_apply() {
    let app = app(AuthorizationMode::Rbac).await;
    let role = format!("{RBAC}/namespaces/demo/roles/reader");
    let yaml = "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: reader\nrules:\n- apiGroups: [example.com]\n  resources: [sprockets]\n  verbs: [get, list]\n";
    let (code, created) = apply(&app, "admin", &format!("{role}?fieldManager=ops"), yaml).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let entries = created["metadata"]["managedFields"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{created}");
    assert_eq!(entries[0]["manager"], "ops");
    assert_eq!(entries[0]["operation"], "Apply");
    assert_eq!(entries[0]["fieldsV1"], json!({"f:rules": {}}));
    assert_eq!(created["metadata"]["namespace"], "demo");

    let (code, again) = apply(&app, "admin", &format!("{role}?fieldManager=ops"), yaml).await;
    assert_eq!(code, StatusCode::OK, "{again}");
    assert_eq!(
        again["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );

    let wider = yaml.replace("[get, list]", "[get, list, watch]");
    let (code, conflict) =
        apply(&app, "admin", &format!("{role}?fieldManager=other"), &wider).await;
    assert_eq!(code, StatusCode::CONFLICT, "{conflict}");
    assert_eq!(
        conflict["message"],
        "Apply failed with 1 conflict: conflict with \"ops\": .rules"
    );
    let (code, forced) = apply(
        &app,
        "admin",
        &format!("{role}?fieldManager=other&force=true"),
        &wider,
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{forced}");
    assert_eq!(forced["rules"][0]["verbs"], json!(["get", "list", "watch"]));

    // Without fieldManager: 422; a wrong name: 400.
    let (code, _) = apply(&app, "admin", &role, yaml).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    let (code, body) = apply(
        &app,
        "admin",
        &format!("{RBAC}/namespaces/demo/roles/other?fieldManager=ops"),
        yaml,
    )
    .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{body}");

    // bob may write roles in demo but holds no sprocket permission, so
    // he may not grant one by apply either.
    let (code, _) = call(
        &app,
        "admin",
        "POST",
        &format!("{RBAC}/namespaces/demo/roles"),
        Some(
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": {"name": "roles-writer"},
            "rules": [{"apiGroups": ["rbac.authorization.k8s.io"], "resources": ["roles"],
                       "verbs": ["get", "create", "patch", "update"]}]}),
        ),
    )
    .await;
    assert_eq!(code, StatusCode::CREATED);
    let (code, _) = call(
        &app,
        "admin",
        "POST",
        &format!("{RBAC}/namespaces/demo/rolebindings"),
        Some(binding("bob-roles", "roles-writer", "bob")),
    )
    .await;
    assert_eq!(code, StatusCode::CREATED);
    let escalating = yaml.replace("name: reader", "name: bobs");
    let (code, denied) = apply(
        &app,
        "bob",
        &format!("{RBAC}/namespaces/demo/roles/bobs?fieldManager=bob"),
        &escalating,
    )
    .await;
    assert_eq!(code, StatusCode::FORBIDDEN, "{denied}");
    assert!(
        denied["message"]
            .as_str()
            .unwrap()
            .contains("attempting to grant RBAC permissions not currently held"),
        "{denied}"
    );
}
