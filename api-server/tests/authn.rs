//! Authentication: bearer tokens, anonymous requests and client
//! certificates, in-process and over a real TLS socket; `kubectl auth
//! whoami`'s SelfSubjectReview shows who the server thinks you are.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use std::sync::Arc;

use api_core::prelude::*;
use api_core::registry::DefaultStrategy;
use api_server::authn::{ALL_AUTHENTICATED, Authenticator, SYSTEM_MASTERS, User};
use api_server::tls::TlsOptions;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

/// GadgetSpec is the desired state of a Gadget.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gadget", namespaced)]
pub struct GadgetSpec {
    /// size of the gadget.
    pub size: i32,
}

const GADGETS: &str = "/apis/example.com/v1/namespaces/demo/gadgets";
const WHOAMI: &str = "/apis/authentication.k8s.io/v1/selfsubjectreviews";

fn authenticator() -> Authenticator {
    Authenticator::new()
        .token("admin-token", User::new("admin", &[SYSTEM_MASTERS]))
        .token("dev-token", User::new("dev", &["devs"]))
}

async fn app(authenticator: Authenticator) -> axum::Router {
    storage::builder()
        .await
        .authenticator(authenticator)
        .resource::<Gadget>(DefaultStrategy)
        .build()
        .router()
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let body = if method == "POST" && uri == GADGETS {
        json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g"}, "spec": {"size": 1}}).to_string()
    } else if uri == WHOAMI {
        json!({"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}).to_string()
    } else {
        String::new()
    };
    let response = app
        .clone()
        .oneshot(
            request
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body))
                .unwrap(),
        )
        .await
        .unwrap();
    let code = response.status();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test]
async fn tokens_authenticate_and_anything_else_is_401() {
    let app = app(authenticator()).await;
    let (code, body) = call(&app, "GET", GADGETS, None).await;
    assert_eq!(code, StatusCode::UNAUTHORIZED);
    assert_eq!(
        body,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
               "message": "Unauthorized", "reason": "Unauthorized", "code": 401})
    );
    assert_eq!(
        call(&app, "GET", GADGETS, Some("wrong")).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(&app, "GET", "/healthz", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(&app, "GET", GADGETS, Some("dev-token")).await.0,
        StatusCode::OK
    );
    assert_eq!(
        call(&app, "POST", GADGETS, Some("admin-token")).await.0,
        StatusCode::CREATED
    );

    let (code, review) = call(&app, "POST", WHOAMI, Some("dev-token")).await;
    assert_eq!(code, StatusCode::CREATED);
    assert_eq!(
        review,
        json!({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
               "metadata": {"creationTimestamp": null},
               "status": {"userInfo": {"username": "dev", "groups": ["devs", ALL_AUTHENTICATED]}}})
    );
}

#[tokio::test]
async fn anonymous_reaches_health_version_and_discovery_only() {
    let app = app(authenticator().allow_anonymous(true)).await;
    for path in [
        "/healthz",
        "/livez",
        "/readyz",
        "/version",
        "/api",
        "/apis",
        "/apis/example.com",
        "/apis/example.com/v1",
    ] {
        assert_eq!(
            call(&app, "GET", path, None).await.0,
            StatusCode::OK,
            "{path}"
        );
    }
    let (code, body) = call(&app, "GET", GADGETS, None).await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    assert_eq!(body["reason"], "Forbidden");
    assert_eq!(
        call(&app, "POST", GADGETS, None).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        call(&app, "GET", "/openapi/v3", None).await.0,
        StatusCode::FORBIDDEN
    );
    let (code, review) = call(&app, "POST", WHOAMI, None).await;
    assert_eq!(code, StatusCode::FORBIDDEN, "{review}");
    // A wrong token is still 401, not anonymous.
    assert_eq!(
        call(&app, "GET", "/healthz", Some("wrong")).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn without_an_authenticator_everyone_is_the_unsecured_admin() {
    let app = storage::builder()
        .await
        .resource::<Gadget>(DefaultStrategy)
        .build()
        .router();
    let (code, review) = call(&app, "POST", WHOAMI, None).await;
    assert_eq!(code, StatusCode::CREATED);
    assert_eq!(review["status"]["userInfo"]["username"], "system:unsecured");
    assert_eq!(
        review["status"]["userInfo"]["groups"],
        json!([SYSTEM_MASTERS, ALL_AUTHENTICATED])
    );
}

/// Over a real TLS connection: a client certificate signed by the
/// generated CA authenticates its CN with its O as a group; a connection
/// without one authenticates by token.
#[tokio::test]
async fn client_certificates_over_tls() {
    let tls = TlsOptions::default().build().unwrap();
    let generated = tls.generated.as_ref().unwrap();
    let client_cert = generated
        .issue_client_certificate("carol", Some("ops"))
        .unwrap();
    let ca = CertificateDer::from_pem_slice(generated.ca_cert_pem.as_bytes()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = storage::builder()
        .await
        .authenticator(authenticator())
        .build();
    let serving = tokio::spawn(async move { server.serve_tls(listener, &tls).await });

    let provider = api_server::tls::provider();
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca).unwrap();
    let builder = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots);
    let with_cert = builder
        .clone()
        .with_client_auth_cert(
            vec![CertificateDer::from_pem_slice(client_cert.cert_pem.as_bytes()).unwrap()],
            PrivateKeyDer::from_pem_slice(client_cert.key_pem.as_bytes()).unwrap(),
        )
        .unwrap();
    let without_cert = builder.with_no_client_auth();

    let whoami = |config: rustls::ClientConfig, token: Option<&'static str>| async move {
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let mut stream = connector
            .connect(ServerName::try_from("127.0.0.1").unwrap(), stream)
            .await
            .unwrap();
        let body = r#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"#;
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let request = format!(
            "POST {WHOAMI} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response).await;
        let text = String::from_utf8_lossy(&response).to_string();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        (head.lines().next().unwrap().to_string(), body.to_string())
    };
    let bounded = |f| tokio::time::timeout(std::time::Duration::from_secs(10), f);

    let (status, body) = bounded(whoami(with_cert, None)).await.unwrap();
    assert_eq!(status, "HTTP/1.1 201 Created", "{body}");
    let review: Value = serde_json::from_str(&body).unwrap();
    let info = &review["status"]["userInfo"];
    assert_eq!(info["username"], "carol");
    assert_eq!(info["groups"], json!(["ops", ALL_AUTHENTICATED]));
    let id = info["extra"]["authentication.kubernetes.io/credential-id"][0]
        .as_str()
        .unwrap();
    assert!(id.starts_with("X509SHA256="), "{id}");

    let (status, body) = bounded(whoami(without_cert.clone(), Some("dev-token")))
        .await
        .unwrap();
    assert_eq!(status, "HTTP/1.1 201 Created", "{body}");
    assert!(body.contains(r#""username":"dev""#), "{body}");
    let (status, _) = bounded(whoami(without_cert, None)).await.unwrap();
    assert_eq!(status, "HTTP/1.1 401 Unauthorized");
    serving.abort();
}
