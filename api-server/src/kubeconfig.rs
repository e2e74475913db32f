//! The kubeconfig the server writes for `--kubeconfig PATH`: one cluster,
//! one user and one context, which `kubectl --kubeconfig PATH` and kube-rs
//! (`kube::Config::from_custom_kubeconfig`) use as they are.
//!
//! The file follows what `kubectl config view --raw` prints (client-go's
//! `clientcmd/api/v1`, keys in alphabetical order):
//!
//! ```yaml
//! apiVersion: v1
//! clusters:
//! - cluster:
//!     certificate-authority-data: LS0tLS1CRUdJTi...
//!     server: https://127.0.0.1:6443
//!   name: api-server
//! contexts:
//! - context:
//!     cluster: api-server
//!     user: admin
//!   name: api-server
//! current-context: api-server
//! kind: Config
//! preferences: {}
//! users:
//! - name: admin
//!   user:
//!     token: 3q2-7w...
//! ```
//!
//! It is written atomically with mode 0600 (see [`Kubeconfig::write`]): it
//! holds an administrator's credentials.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde::Serialize;

/// The name of the cluster and of the context.
pub const CLUSTER_NAME: &str = "api-server";

/// The name of the user.
pub const USER_NAME: &str = "admin";

/// How many random bytes a generated token has (256 bits).
pub const TOKEN_BYTES: usize = 32;

/// A random bearer token for the administrator: [`TOKEN_BYTES`] bytes from
/// the operating system's CSPRNG, base64url without padding (43
/// characters of `A-Za-z0-9-_`, safe in a header and in kube-apiserver's
/// token CSV).
pub fn generate_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// The URL clients reach a server listening on `addr` at:
/// `https://127.0.0.1:6443`, `http://[::1]:8080`. An unspecified address
/// (`0.0.0.0`, `::`) becomes the loopback address of its family, which the
/// generated certificate is valid for.
pub fn server_url(addr: SocketAddr, tls: bool) -> String {
    let scheme = if tls { "https" } else { "http" };
    let ip = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("{scheme}://{}", SocketAddr::new(ip, addr.port()))
}

/// How the kubeconfig's user authenticates.
#[derive(Clone, PartialEq, Eq)]
pub enum Credentials {
    /// A bearer token (`token`).
    Token(String),
    /// A client certificate and its key, PEM (`client-certificate-data`,
    /// `client-key-data`).
    ClientCertificate {
        /// The certificate, PEM.
        cert_pem: String,
        /// Its private key, PEM.
        key_pem: String,
    },
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Secrets stay out of logs.
        match self {
            Credentials::Token(_) => f.write_str("Token(..)"),
            Credentials::ClientCertificate { .. } => f.write_str("ClientCertificate { .. }"),
        }
    }
}

/// A kubeconfig for one server and one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kubeconfig {
    /// The server's URL (see [`server_url`]).
    pub server: String,
    /// The CA certificate(s) to trust, PEM; `None` for plain HTTP, or for a
    /// certificate the clients' system roots already trust.
    pub ca_cert_pem: Option<String>,
    /// The user's credentials.
    pub credentials: Credentials,
}

// The serialised form: client-go's `clientcmd/api/v1` types, fields in the
// order `kubectl config view` writes them (alphabetical).
#[derive(Serialize)]
struct File<'a> {
    #[serde(rename = "apiVersion")]
    api_version: &'a str,
    clusters: [NamedCluster<'a>; 1],
    contexts: [NamedContext<'a>; 1],
    #[serde(rename = "current-context")]
    current_context: &'a str,
    kind: &'a str,
    preferences: Empty,
    users: [NamedUser<'a>; 1],
}

#[derive(Serialize)]
struct Empty {}

#[derive(Serialize)]
struct NamedCluster<'a> {
    cluster: Cluster<'a>,
    name: &'a str,
}

#[derive(Serialize)]
struct Cluster<'a> {
    #[serde(
        rename = "certificate-authority-data",
        skip_serializing_if = "Option::is_none"
    )]
    certificate_authority_data: Option<String>,
    server: &'a str,
}

#[derive(Serialize)]
struct NamedContext<'a> {
    context: Context<'a>,
    name: &'a str,
}

#[derive(Serialize)]
struct Context<'a> {
    cluster: &'a str,
    user: &'a str,
}

#[derive(Serialize)]
struct NamedUser<'a> {
    name: &'a str,
    user: User<'a>,
}

#[derive(Serialize)]
struct User<'a> {
    #[serde(
        rename = "client-certificate-data",
        skip_serializing_if = "Option::is_none"
    )]
    client_certificate_data: Option<String>,
    #[serde(rename = "client-key-data", skip_serializing_if = "Option::is_none")]
    client_key_data: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<&'a str>,
}

impl Kubeconfig {
    /// A kubeconfig for the administrator's token.
    pub fn with_token(server: String, ca_cert_pem: Option<String>, token: String) -> Self {
        Kubeconfig {
            server,
            ca_cert_pem,
            credentials: Credentials::Token(token),
        }
    }

    /// The YAML document (no leading `---`), as `kubectl config view --raw`
    /// would print it.
    pub fn to_yaml(&self) -> String {
        let user = match &self.credentials {
            Credentials::Token(token) => User {
                client_certificate_data: None,
                client_key_data: None,
                token: Some(token),
            },
            Credentials::ClientCertificate { cert_pem, key_pem } => User {
                client_certificate_data: Some(STANDARD.encode(cert_pem)),
                client_key_data: Some(STANDARD.encode(key_pem)),
                token: None,
            },
        };
        let file = File {
            api_version: "v1",
            clusters: [NamedCluster {
                cluster: Cluster {
                    certificate_authority_data: self
                        .ca_cert_pem
                        .as_ref()
                        .map(|p| STANDARD.encode(p)),
                    server: &self.server,
                },
                name: CLUSTER_NAME,
            }],
            contexts: [NamedContext {
                context: Context {
                    cluster: CLUSTER_NAME,
                    user: USER_NAME,
                },
                name: CLUSTER_NAME,
            }],
            current_context: CLUSTER_NAME,
            kind: "Config",
            preferences: Empty {},
            users: [NamedUser {
                name: USER_NAME,
                user,
            }],
        };
        // Block style, sequences at their parent's indentation and
        // YAML-1.1-ambiguous strings quoted, as sigs.k8s.io/yaml writes.
        let options = serde_saphyr::ser_options! {
            indent_step: 2,
            compact_list_indent: true,
            yaml_12: false,
        };
        serde_saphyr::to_string_with_options(&file, options)
            .expect("a kubeconfig of strings is always representable as YAML")
    }

    /// Writes the kubeconfig to `path`, replacing any file there, with mode
    /// 0600 on Unix.
    ///
    /// The YAML goes to a new temporary file in the same directory (created
    /// with mode 0600, so the credentials are never readable by others),
    /// is synced to disk, and is renamed over `path`: a reader sees the old
    /// file or the whole new one, never a part, and a failure leaves no
    /// temporary file behind.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".kubeconfig-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o600));
        }
        let mut file = builder.tempfile_in(dir)?;
        file.write_all(self.to_yaml().as_bytes())?;
        file.as_file().sync_all()?;
        file.persist(path).map_err(|e| e.error)?;
        // Make the rename itself durable (best effort: not every platform
        // can open a directory).
        #[cfg(unix)]
        if let Ok(dir) = std::fs::File::open(dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "kubeconfig_tests.rs"]
mod tests;
