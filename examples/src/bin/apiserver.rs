//! Serves the example APIs (Memcached, CronJob, Tenant and the
//! two-version CronTab) and `Namespace`s over HTTPS (or plain HTTP), and writes a
//! kubeconfig that kubectl uses as it is:
//!
//! ```text
//! cargo run -p examples --bin apiserver -- --listen 127.0.0.1:0 --kubeconfig kubeconfig.yaml
//! kubectl --kubeconfig kubeconfig.yaml get --raw /apis
//! ```
//!
//! Flags (names from DESIGN.md, "Serving the types"): `--listen ADDR`
//! (default `127.0.0.1:6443`; port 0 picks a free one), `--kubeconfig
//! PATH`, `--insecure-http`, `--tls-cert-file`, `--tls-private-key-file`,
//! `--tls-san NAME[,NAME]`, `--client-ca-file`, `--max-request-bytes N`,
//! `--v LEVEL` (as kube-apiserver's klog verbosity: at 3 and above, the
//! default here, one line per request goes to stderr; below 3 only
//! warnings and errors), `--token-auth-file PATH` (kube-apiserver's static
//! token CSV), `--anonymous-auth[=true|false]` (default false: requests
//! without credentials are 401), `--audit-log-path PATH` (one
//! `audit.k8s.io/v1` `Event` per request, level Metadata).
//!
//! Every request is authenticated: the kubeconfig's token is an `admin`
//! user in `system:masters`; the token file adds users; client
//! certificates signed by `--client-ca-file` authenticate their CN.
//! `--authorization-mode AlwaysAllow|RBAC` (default AlwaysAllow; with
//! RBAC the `rbac.authorization.k8s.io/v1` kinds are served and enforced,
//! `system:masters` — the kubeconfig's admin — may do everything).
//! `--builtin-kinds all|none|PLURAL,...` (default `all`): Kubernetes'
//! built-in kinds served from k8s-openapi's types
//! (`api_server::builtin::KINDS`: Deployment, ConfigMap, Pod, ...).
//! A garbage collector runs beside the server (deleting an owner deletes
//! its dependents as `propagationPolicy` says, as kube-controller-manager's).
//! CustomResourceDefinitions are served (`apiextensions.k8s.io/v1`:
//! `kubectl apply -f crd.yaml`, then the kind), and `--crd-dir DIR`
//! (repeatable) installs the CRDs of a directory's YAML and JSON files at
//! start, as envtest's `CRDDirectoryPaths`.
//! `--storage memory|etcd` (default memory), `--etcd-servers URL,...`,
//! `--etcd-prefix P` (default `/registry`), `--etcd-compaction-interval D`
//! (default `5m0s`), `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`:
//! where the objects live ([`examples::storage`]; etcd needs the `etcd`
//! feature). With etcd, `/readyz` reports it (`[+]etcd ok`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use api_server::audit::AuditLog;
use api_server::authn::{Authenticator, SYSTEM_MASTERS, User};
use api_server::builtin::BuiltinKinds;
use api_server::kubeconfig::{Kubeconfig, generate_token, server_url};
use api_server::server::AuthorizationMode;
use api_server::server::DEFAULT_MAX_REQUEST_BYTES;
use api_server::tls::{SubjectAltName, TlsOptions};
use examples::storage::{Opened, StorageFlags};
use examples::{cronjob, crontab, memcached, tenant};

/// The command line.
struct Flags {
    listen: SocketAddr,
    kubeconfig: Option<PathBuf>,
    insecure_http: bool,
    tls: TlsOptions,
    max_request_bytes: usize,
    verbosity: u8,
    token_auth_file: Option<PathBuf>,
    anonymous_auth: bool,
    audit_log_path: Option<PathBuf>,
    authorization: AuthorizationMode,
    builtin_kinds: BuiltinKinds,
    storage: StorageFlags,
    crd_dirs: Vec<PathBuf>,
}

const USAGE: &str = "usage: apiserver [--listen ADDR] [--kubeconfig PATH] [--insecure-http] \
[--tls-cert-file PATH --tls-private-key-file PATH] [--tls-san NAME,...] [--client-ca-file PATH] \
[--max-request-bytes N] [--v LEVEL] [--token-auth-file PATH] [--anonymous-auth] [--audit-log-path PATH] [--authorization-mode AlwaysAllow|RBAC] [--builtin-kinds all|none|PLURAL,...] [--crd-dir DIR]... [--storage memory|etcd] [--etcd-servers URL,...] \
[--etcd-prefix P] [--etcd-compaction-interval D] [--etcd-cafile PATH] [--etcd-certfile PATH --etcd-keyfile PATH]";

fn parse_flags(args: impl Iterator<Item = String>) -> Result<Flags, String> {
    let mut flags = Flags {
        listen: SocketAddr::from(([127, 0, 0, 1], 6443)),
        kubeconfig: None,
        insecure_http: false,
        tls: TlsOptions::default(),
        max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
        verbosity: 3,
        token_auth_file: None,
        anonymous_auth: false,
        audit_log_path: None,
        authorization: AuthorizationMode::AlwaysAllow,
        builtin_kinds: BuiltinKinds::All,
        storage: StorageFlags::default(),
        crd_dirs: Vec::new(),
    };
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        // `--flag=value` and `--flag value`.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("flag {name} needs a value\n{USAGE}"))
        };
        match name.as_str() {
            "--listen" => {
                let v = value("--listen")?;
                flags.listen = v
                    .parse()
                    .map_err(|e| format!("--listen {v:?}: {e} (want IP:PORT)"))?;
            }
            "--kubeconfig" => flags.kubeconfig = Some(PathBuf::from(value("--kubeconfig")?)),
            "--insecure-http" => flags.insecure_http = true,
            "--tls-cert-file" => flags.tls.cert_file = Some(value("--tls-cert-file")?.into()),
            "--tls-private-key-file" => {
                flags.tls.private_key_file = Some(value("--tls-private-key-file")?.into());
            }
            "--client-ca-file" => {
                flags.tls.client_ca_file = Some(value("--client-ca-file")?.into())
            }
            "--tls-san" => {
                let v = value("--tls-san")?;
                let names =
                    SubjectAltName::parse_list(&v).map_err(|e| format!("--tls-san: {e}"))?;
                flags.tls.subject_alt_names.extend(names);
            }
            "--max-request-bytes" => {
                let v = value("--max-request-bytes")?;
                flags.max_request_bytes = v
                    .parse()
                    .map_err(|e| format!("--max-request-bytes {v:?}: {e}"))?;
            }
            "--token-auth-file" => {
                flags.token_auth_file = Some(PathBuf::from(value("--token-auth-file")?));
            }
            "--authorization-mode" => {
                flags.authorization = match value("--authorization-mode")?.as_str() {
                    "AlwaysAllow" => AuthorizationMode::AlwaysAllow,
                    "RBAC" => AuthorizationMode::Rbac,
                    other => {
                        return Err(format!(
                            "--authorization-mode {other:?}: want AlwaysAllow or RBAC"
                        ));
                    }
                };
            }
            "--crd-dir" => flags.crd_dirs.push(PathBuf::from(value("--crd-dir")?)),
            "--builtin-kinds" => {
                flags.builtin_kinds = value("--builtin-kinds")?.parse()?;
            }
            "--audit-log-path" => {
                flags.audit_log_path = Some(PathBuf::from(value("--audit-log-path")?));
            }
            "--anonymous-auth" => {
                flags.anonymous_auth = match inline.as_deref() {
                    None | Some("true") => true,
                    Some("false") => false,
                    Some(v) => return Err(format!("--anonymous-auth={v:?}: want true or false")),
                };
            }
            "--v" | "-v" => {
                let v = value("--v")?;
                flags.verbosity = v.parse().map_err(|e| format!("--v {v:?}: {e}"))?;
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            storage if StorageFlags::knows(storage) => {
                let v = value(storage)?;
                flags.storage.set(storage, v)?;
            }
            other => return Err(format!("unknown flag: {other}\n{USAGE}")),
        }
    }
    Ok(flags)
}

fn server(
    max_request_bytes: usize,
    authenticator: Authenticator,
    audit: Option<AuditLog>,
    authorization: AuthorizationMode,
    builtin_kinds: &BuiltinKinds,
    storage: &Opened,
) -> Result<ApiServer, api_core::Status> {
    let versions = Arc::new(crontab::versions());
    let mut builder = ApiServer::builder()
        .storage(storage.storage.clone())
        .authorization(authorization);
    if let Some((name, check)) = &storage.health_check {
        builder = builder.health_check(name, check.clone());
    }
    if let Some(audit) = audit {
        builder = builder.audit_log(audit);
    }
    Ok(builder
        .max_request_bytes(max_request_bytes)
        .authenticator(authenticator)
        .with_namespaces()
        .with_custom_resource_definitions()
        .garbage_collector()
        .builtin_kinds(builtin_kinds)
        .resource::<memcached::Memcached>(DefaultStrategy)
        .resource::<cronjob::CronJob>(DefaultStrategy)
        .resource::<tenant::Tenant>(DefaultStrategy)
        .version::<crontab::v1::CronTab, _>(DefaultStrategy, versions.clone())?
        .version::<crontab::v1alpha1::CronTab, _>(DefaultStrategy, versions)?
        .build())
}

#[tokio::main]
async fn main() -> ExitCode {
    let flags = match parse_flags(std::env::args().skip(1)) {
        Ok(f) => f,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match run(flags).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(flags: Flags) -> Result<(), String> {
    let level = if flags.verbosity >= 3 {
        tracing::Level::INFO
    } else {
        tracing::Level::WARN
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_ansi(false)
        .init();
    let mut authenticator = Authenticator::new().allow_anonymous(flags.anonymous_auth);
    if let Some(path) = &flags.token_auth_file {
        authenticator = authenticator.token_file(path).map_err(|e| e.to_string())?;
    }
    let admin_token = generate_token().map_err(|e| format!("no random token: {e}"))?;
    if flags.kubeconfig.is_some() {
        authenticator =
            authenticator.token(admin_token.clone(), User::new("admin", &[SYSTEM_MASTERS]));
    }
    let audit = match &flags.audit_log_path {
        Some(path) => Some(
            AuditLog::open(path)
                .map_err(|e| format!("cannot open the audit log {}: {e}", path.display()))?,
        ),
        None => None,
    };
    // CRDs to install at start (envtest's `CRDDirectoryPaths`), read
    // before anything starts so that a bad file stops it early.
    let mut crds = Vec::new();
    for dir in &flags.crd_dirs {
        crds.extend(
            api_server::apiextensions::read_crd_dir(dir).map_err(|e| format!("--crd-dir {e}"))?,
        );
    }
    let storage = flags.storage.open().await?;
    let server = server(
        flags.max_request_bytes,
        authenticator,
        audit,
        flags.authorization,
        &flags.builtin_kinds,
        &storage,
    )
    .map_err(|s| s.message)?;
    for crd in &crds {
        let name = crd["metadata"]["name"].as_str().unwrap_or_default();
        server.install_crd(crd).await.map_err(|s| {
            format!(
                "--crd-dir: CustomResourceDefinition {name:?}: {}",
                s.message
            )
        })?;
    }
    let listener = tokio::net::TcpListener::bind(flags.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", flags.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let tls = if flags.insecure_http {
        None
    } else {
        Some(flags.tls.build().map_err(|e| e.to_string())?)
    };
    let url = server_url(addr, tls.is_some());
    if let Some(path) = &flags.kubeconfig {
        let ca = tls
            .as_ref()
            .and_then(|t| t.ca_cert_pem().map(str::to_string));
        Kubeconfig::with_token(url.clone(), ca, admin_token)
            .write(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    println!("listening on {url}");
    match tls {
        Some(tls) => server.serve_tls(listener, &tls).await,
        None => server.serve(listener).await,
    }
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Flags, String> {
        parse_flags(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn crd_dirs_repeat() {
        let f = parse(&["--crd-dir", "a", "--crd-dir=b"]).unwrap();
        assert_eq!(f.crd_dirs, [PathBuf::from("a"), PathBuf::from("b")]);
        assert!(parse(&[]).unwrap().crd_dirs.is_empty());
        assert!(parse(&["--crd-dir"]).is_err());
    }

    #[test]
    fn flags() {
        let f = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--kubeconfig=k.yaml",
            "--insecure-http",
        ])
        .unwrap();
        assert_eq!(f.listen.port(), 0);
        assert_eq!(f.kubeconfig, Some(PathBuf::from("k.yaml")));
        assert!(f.insecure_http);
        assert_eq!(f.max_request_bytes, 3 * 1024 * 1024);
        assert_eq!(f.verbosity, 3);
        assert_eq!(parse(&["--v=0"]).unwrap().verbosity, 0);
        assert!(!f.anonymous_auth);
        assert!(parse(&["--anonymous-auth"]).unwrap().anonymous_auth);
        assert!(!parse(&["--anonymous-auth=false"]).unwrap().anonymous_auth);
        assert!(parse(&["--anonymous-auth=maybe"]).is_err());
        let f = parse(&["--token-auth-file", "t.csv"]).unwrap();
        assert_eq!(f.token_auth_file, Some(PathBuf::from("t.csv")));
        let etcd = parse(&["--storage", "etcd", "--etcd-servers=http://127.0.0.1:2379"]).unwrap();
        assert_eq!(etcd.storage.etcd_servers, ["http://127.0.0.1:2379"]);
        let err = parse(&["--etcd", "x"]).err().unwrap();
        assert!(err.starts_with("unknown flag: --etcd"), "{err}");
        assert_eq!(
            parse(&["--authorization-mode", "RBAC"])
                .unwrap()
                .authorization,
            AuthorizationMode::Rbac
        );
        assert!(parse(&["--authorization-mode", "ABAC"]).is_err());
        assert!(
            parse(&["--listen"])
                .err()
                .unwrap()
                .contains("needs a value")
        );
        assert!(parse(&["--listen", "nope"]).is_err());
        assert_eq!(parse(&[]).unwrap().builtin_kinds, BuiltinKinds::All);
        assert_eq!(
            parse(&["--builtin-kinds=deployments,configmaps"])
                .unwrap()
                .builtin_kinds,
            BuiltinKinds::Only(vec!["deployments".into(), "configmaps".into()])
        );
        assert_eq!(
            parse(&["--builtin-kinds", "none"]).unwrap().builtin_kinds,
            BuiltinKinds::None
        );
        let unknown = parse(&["--builtin-kinds", "deployment"]).err().unwrap();
        assert!(
            unknown.contains("\"deployment\" is not a built-in resource"),
            "{unknown}"
        );
    }

    #[tokio::test]
    async fn the_example_apis_are_served() {
        let kinds = BuiltinKinds::Only(vec!["deployments".into()]);
        let storage = StorageFlags::default().open().await.unwrap();
        let server = server(
            1024,
            Authenticator::new(),
            None,
            AuthorizationMode::Rbac,
            &kinds,
            &storage,
        );
        assert!(server.is_ok());
    }
}
