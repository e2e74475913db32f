//! How to reach etcd: [`EtcdConfig`].

use std::path::PathBuf;
use std::time::Duration;

/// The key prefix of every object when none is configured
/// (`--etcd-prefix`'s default, as the apiserver's).
pub const DEFAULT_PREFIX: &str = "/registry";

/// How long one storage operation may take, retries included, when not
/// configured: 5 s.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// Where etcd is and how to talk to it: the server's `--etcd-servers`,
/// `--etcd-prefix`, `--etcd-cafile`, `--etcd-certfile` and
/// `--etcd-keyfile`, and the time an operation may take.
///
/// ```
/// use std::time::Duration;
/// use api_etcd::EtcdConfig;
///
/// let config = EtcdConfig::new(["https://10.0.0.1:2379", "https://10.0.0.2:2379"])
///     .prefix("/registry")
///     .ca_file("/etc/etcd/ca.crt")
///     .client_cert("/etc/etcd/client.crt", "/etc/etcd/client.key")
///     .request_timeout(Duration::from_secs(10));
/// assert_eq!(config.endpoints.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EtcdConfig {
    /// The etcd members' client URLs (`http://host:2379`,
    /// `https://host:2379`, or `host:2379`: https when TLS is configured).
    pub endpoints: Vec<String>,
    /// Prepended to every registry key (default [`DEFAULT_PREFIX`]); a
    /// trailing `/` is ignored, and an empty prefix stores the registry's
    /// keys as they are.
    pub prefix: String,
    /// The CA certificate (PEM) that signed the members' serving
    /// certificates; the system's roots are not used.
    pub ca_file: Option<PathBuf>,
    /// The client certificate (PEM) for etcd's client certificate
    /// authentication; needs [`EtcdConfig::key_file`].
    pub cert_file: Option<PathBuf>,
    /// The client certificate's private key (PEM).
    pub key_file: Option<PathBuf>,
    /// How long one operation may take, retries of transient failures
    /// included, before it fails (default [`DEFAULT_REQUEST_TIMEOUT`]). A
    /// watch that loses its stream tries to resume for as long.
    pub request_timeout: Duration,
}

impl EtcdConfig {
    /// A configuration for these members, with the default prefix and
    /// timeout and no TLS.
    pub fn new<S: Into<String>>(endpoints: impl IntoIterator<Item = S>) -> Self {
        EtcdConfig {
            endpoints: endpoints.into_iter().map(Into::into).collect(),
            prefix: DEFAULT_PREFIX.to_string(),
            ca_file: None,
            cert_file: None,
            key_file: None,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
        }
    }

    /// Sets the key prefix.
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Trusts the CA certificate in `path` (PEM) for the members'
    /// serving certificates (and turns TLS on).
    pub fn ca_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.ca_file = Some(path.into());
        self
    }

    /// Authenticates with the client certificate and key in these PEM
    /// files (and turns TLS on).
    pub fn client_cert(mut self, cert: impl Into<PathBuf>, key: impl Into<PathBuf>) -> Self {
        self.cert_file = Some(cert.into());
        self.key_file = Some(key.into());
        self
    }

    /// Sets how long one operation may take.
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// Whether TLS is configured (a CA or a client certificate).
    pub fn uses_tls(&self) -> bool {
        self.ca_file.is_some() || self.cert_file.is_some() || self.key_file.is_some()
    }

    /// The prefix as keys are built with it: without its trailing `/`.
    pub(crate) fn root(&self) -> String {
        self.prefix.trim_end_matches('/').to_string()
    }
}
