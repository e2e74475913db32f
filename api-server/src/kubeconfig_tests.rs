use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::Command;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::*;
use crate::tls::{self, TlsOptions};

const CA: &str = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

fn parse(yaml: &str) -> Value {
    serde_saphyr::from_str(yaml).unwrap()
}

fn decode(data: &Value) -> String {
    String::from_utf8(STANDARD.decode(data.as_str().unwrap()).unwrap()).unwrap()
}

#[test]
fn token_kubeconfig_round_trips() {
    let config = Kubeconfig::with_token(
        "https://127.0.0.1:6443".to_owned(),
        Some(CA.to_owned()),
        "s3cr3t-token_AZ".to_owned(),
    );
    let yaml = config.to_yaml();
    assert_eq!(
        parse(&yaml),
        json!({
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{
                "name": "api-server",
                "cluster": {
                    "server": "https://127.0.0.1:6443",
                    "certificate-authority-data": STANDARD.encode(CA),
                },
            }],
            "contexts": [{
                "name": "api-server",
                "context": {"cluster": "api-server", "user": "admin"},
            }],
            "current-context": "api-server",
            "preferences": {},
            "users": [{"name": "admin", "user": {"token": "s3cr3t-token_AZ"}}],
        })
    );
    let doc = parse(&yaml);
    assert_eq!(
        decode(&doc["clusters"][0]["cluster"]["certificate-authority-data"]),
        CA
    );
    // kubectl's layout: keys sorted, sequences not indented.
    assert!(
        yaml.starts_with("apiVersion: v1\nclusters:\n- cluster:\n"),
        "{yaml}"
    );
}

#[test]
fn insecure_kubeconfig_has_no_ca_data() {
    let config = Kubeconfig::with_token("http://127.0.0.1:8080".to_owned(), None, "t".to_owned());
    let doc = parse(&config.to_yaml());
    assert_eq!(
        doc["clusters"][0]["cluster"],
        json!({"server": "http://127.0.0.1:8080"})
    );
}

#[test]
fn client_certificate_kubeconfig_round_trips() {
    let config = Kubeconfig {
        server: "https://[::1]:6443".to_owned(),
        ca_cert_pem: Some(CA.to_owned()),
        credentials: Credentials::ClientCertificate {
            cert_pem: "CERT PEM\n".to_owned(),
            key_pem: "KEY PEM\n".to_owned(),
        },
    };
    let doc = parse(&config.to_yaml());
    let user = &doc["users"][0]["user"];
    assert_eq!(user.as_object().unwrap().len(), 2, "{user}");
    assert_eq!(decode(&user["client-certificate-data"]), "CERT PEM\n");
    assert_eq!(decode(&user["client-key-data"]), "KEY PEM\n");
    assert_eq!(
        doc["clusters"][0]["cluster"]["server"],
        "https://[::1]:6443"
    );
    // Secrets stay out of Debug.
    assert!(!format!("{config:?}").contains("KEY PEM"));
}

#[test]
fn ambiguous_tokens_stay_strings() {
    for token in ["yes", "0755", "1e3", "null", "-x", "~", "true"] {
        let config = Kubeconfig::with_token("http://127.0.0.1:1".to_owned(), None, token.into());
        let doc = parse(&config.to_yaml());
        assert_eq!(doc["users"][0]["user"]["token"], token, "{token}");
    }
}

#[test]
fn tokens_are_random_base64url() {
    let a = generate_token().unwrap();
    let b = generate_token().unwrap();
    assert_ne!(a, b);
    for token in [&a, &b] {
        assert_eq!(token.len(), 43);
        assert!(
            token
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'),
            "{token}"
        );
        assert_eq!(URL_SAFE_NO_PAD.decode(token).unwrap().len(), TOKEN_BYTES);
    }
}

#[test]
fn server_urls() {
    let url = |addr: &str, tls| server_url(addr.parse().unwrap(), tls);
    assert_eq!(url("127.0.0.1:6443", true), "https://127.0.0.1:6443");
    assert_eq!(url("0.0.0.0:6443", true), "https://127.0.0.1:6443");
    assert_eq!(url("[::]:8080", false), "http://[::1]:8080");
    assert_eq!(url("[::1]:1", true), "https://[::1]:1");
    assert_eq!(url("10.0.0.5:443", true), "https://10.0.0.5:443");
}

#[test]
fn write_is_private_and_complete() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kubeconfig");
    // An existing, world-readable file is replaced.
    std::fs::write(&path, "old").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let config = Kubeconfig::with_token(
        "https://127.0.0.1:6443".to_owned(),
        Some(CA.to_owned()),
        generate_token().unwrap(),
    );
    config.write(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), config.to_yaml());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    // Only the kubeconfig is left in the directory.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["kubeconfig"]);

    // A directory that does not exist: an error, nothing written.
    let missing = dir.path().join("missing/kubeconfig");
    assert!(config.write(&missing).is_err());
    assert!(!missing.exists());
}

/// A one-request-per-connection HTTPS server answering `GET /version` for
/// the bearer token `token` or a client certificate of `admin`; records
/// what authenticated each request.
fn serve_version(
    tls: &tls::ServerTls,
    token: String,
) -> (std::net::SocketAddr, Arc<Mutex<Vec<String>>>) {
    // kubectl would speak HTTP/2 if offered; this server speaks HTTP/1.1.
    let mut config = (*tls.config).clone();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let config = Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(20) {
            let Ok(stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(10)));
            let Ok(conn) = rustls::ServerConnection::new(config.clone()) else {
                continue;
            };
            let mut tls_stream = rustls::StreamOwned::new(conn, stream);
            let mut reader = BufReader::new(&mut tls_stream);
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            let mut authorization = None;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some((name, value)) = line.split_once(':')
                    && name.eq_ignore_ascii_case("authorization")
                {
                    authorization = Some(value.trim().to_owned());
                }
            }
            drop(reader);
            let user = tls::connection_user(&tls_stream.conn).ok().flatten();
            let who = match (&authorization, &user) {
                (Some(a), _) if *a == format!("Bearer {token}") => Some("token".to_owned()),
                (_, Some(user)) => Some(format!("cert:{}:{}", user.name, user.groups.join(","))),
                _ => None,
            };
            let (status, body) = match (&who, request_line.starts_with("GET /version")) {
                (None, _) => (
                    "401 Unauthorized",
                    r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Unauthorized","code":401}"#,
                ),
                (Some(_), true) => (
                    "200 OK",
                    r#"{"major":"1","minor":"36","gitVersion":"v1.36.0-test"}"#,
                ),
                (Some(_), false) => (
                    "404 Not Found",
                    r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"#,
                ),
            };
            record.lock().unwrap().push(format!(
                "{} {}",
                request_line.trim_end(),
                who.unwrap_or_else(|| "anonymous".to_owned())
            ));
            let response = format!(
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = tls_stream.write_all(response.as_bytes());
            let _ = tls_stream.flush();
            tls_stream.conn.send_close_notify();
            let _ = tls_stream.flush();
        }
    });
    (addr, seen)
}

fn kubectl_available() -> bool {
    Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn kubectl(kubeconfig: &Path, args: &[&str]) -> std::process::Output {
    Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(["--request-timeout=20s"])
        .args(args)
        .env_remove("KUBECONFIG")
        .output()
        .unwrap()
}

/// Real kubectl reads the file and, with its CA data and token (or client
/// certificate), reaches a TLS server using the generated certificate.
/// Skipped, with a note, where kubectl is not installed.
#[test]
fn kubectl_accepts_the_kubeconfig() {
    if !kubectl_available() {
        eprintln!("note: kubectl not on PATH; kubectl_accepts_the_kubeconfig skipped");
        return;
    }
    let tls = TlsOptions::default().build().unwrap();
    let token = generate_token().unwrap();
    let (addr, seen) = serve_version(&tls, token.clone());
    let dir = tempfile::tempdir().unwrap();

    // Token.
    let path = dir.path().join("token.kubeconfig");
    let config = Kubeconfig::with_token(
        server_url(addr, true),
        tls.ca_cert_pem().map(str::to_owned),
        token.clone(),
    );
    config.write(&path).unwrap();
    let view = kubectl(&path, &["config", "view", "--raw", "-o", "json"]);
    assert!(view.status.success(), "{view:?}");
    let view: Value = serde_json::from_slice(&view.stdout).unwrap();
    assert_eq!(view["current-context"], "api-server");
    assert_eq!(view["clusters"][0]["cluster"]["server"], config.server);
    assert_eq!(view["users"][0]["user"]["token"], token.as_str());
    assert_eq!(
        decode(&view["clusters"][0]["cluster"]["certificate-authority-data"]),
        tls.ca_cert_pem().unwrap()
    );
    let version = kubectl(&path, &["get", "--raw", "/version"]);
    assert!(version.status.success(), "{version:?}");
    assert!(String::from_utf8_lossy(&version.stdout).contains("v1.36.0-test"));

    // Client certificate issued by the generated CA.
    let admin = tls
        .generated
        .as_ref()
        .unwrap()
        .issue_client_certificate(USER_NAME, Some("system:masters"))
        .unwrap();
    let path = dir.path().join("cert.kubeconfig");
    Kubeconfig {
        server: server_url(addr, true),
        ca_cert_pem: tls.ca_cert_pem().map(str::to_owned),
        credentials: Credentials::ClientCertificate {
            cert_pem: admin.cert_pem,
            key_pem: admin.key_pem,
        },
    }
    .write(&path)
    .unwrap();
    let version = kubectl(&path, &["get", "--raw", "/version"]);
    assert!(version.status.success(), "{version:?}");

    let seen = seen.lock().unwrap().clone();
    let saw = |who: &str| {
        seen.iter()
            .any(|r| r.starts_with("GET /version") && r.ends_with(&format!(" {who}")))
    };
    assert!(saw("token"), "{seen:?}");
    assert!(saw("cert:admin:system:masters"), "{seen:?}");
    assert!(!saw("anonymous"), "{seen:?}");
}
