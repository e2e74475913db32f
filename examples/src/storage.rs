//! The example server's storage flags, as kube-apiserver names them:
//! `--storage memory|etcd` (memory by default), `--etcd-servers URL,...`,
//! `--etcd-prefix P` (default `/registry`), `--etcd-compaction-interval D`
//! (a Go duration, default `5m0s`; `0` turns compaction off), and
//! `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile` for TLS and a
//! client certificate.
//!
//! etcd needs the `etcd` feature (`api-etcd`, whose build needs `protoc`):
//! `cargo run -p examples --features etcd --bin apiserver -- --storage etcd
//! --etcd-servers http://127.0.0.1:2379`. Without it `--storage etcd`
//! stops the start with an error that says so.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use api_core::registry::{MemoryStorage, Storage};
use api_server::server::HealthCheck;

/// Where the server keeps its objects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StorageKind {
    /// In process memory (gone when the process ends).
    #[default]
    Memory,
    /// In etcd v3.
    Etcd,
}

/// The storage flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageFlags {
    /// `--storage`.
    pub kind: StorageKind,
    /// `--etcd-servers`.
    pub etcd_servers: Vec<String>,
    /// `--etcd-prefix`.
    pub etcd_prefix: String,
    /// `--etcd-compaction-interval` (zero: no compaction).
    pub compaction_interval: Duration,
    /// `--etcd-cafile`.
    pub ca_file: Option<PathBuf>,
    /// `--etcd-certfile`.
    pub cert_file: Option<PathBuf>,
    /// `--etcd-keyfile`.
    pub key_file: Option<PathBuf>,
}

impl Default for StorageFlags {
    fn default() -> Self {
        StorageFlags {
            kind: StorageKind::Memory,
            etcd_servers: Vec::new(),
            etcd_prefix: "/registry".into(),
            compaction_interval: Duration::from_secs(300),
            ca_file: None,
            cert_file: None,
            key_file: None,
        }
    }
}

/// The usage line of the storage flags.
pub const USAGE: &str = "[--storage memory|etcd] [--etcd-servers URL,...] [--etcd-prefix P] \
[--etcd-compaction-interval D] [--etcd-cafile PATH] [--etcd-certfile PATH --etcd-keyfile PATH]";

impl StorageFlags {
    /// Whether `name` is one of the storage flags.
    pub fn knows(name: &str) -> bool {
        matches!(
            name,
            "--storage"
                | "--etcd-servers"
                | "--etcd-prefix"
                | "--etcd-compaction-interval"
                | "--etcd-cafile"
                | "--etcd-certfile"
                | "--etcd-keyfile"
        )
    }

    /// Takes the flag `name` with `value`.
    pub fn set(&mut self, name: &str, value: String) -> Result<(), String> {
        match name {
            "--storage" => {
                self.kind = match value.as_str() {
                    "memory" => StorageKind::Memory,
                    "etcd" => StorageKind::Etcd,
                    other => return Err(format!("--storage {other:?}: want memory or etcd")),
                }
            }
            "--etcd-servers" => {
                self.etcd_servers = value
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                if self.etcd_servers.is_empty() {
                    return Err("--etcd-servers: no URL".into());
                }
            }
            "--etcd-prefix" => {
                if !value.starts_with('/') {
                    return Err(format!("--etcd-prefix {value:?}: must start with /"));
                }
                self.etcd_prefix = value.trim_end_matches('/').to_string();
            }
            "--etcd-compaction-interval" => {
                let parsed = api_core::meta::Duration::parse(&value)
                    .map_err(|e| format!("--etcd-compaction-interval {value:?}: {e}"))?;
                let nanos = u64::try_from(parsed.as_nanos()).map_err(|_| {
                    format!("--etcd-compaction-interval {value:?}: must not be negative")
                })?;
                self.compaction_interval = Duration::from_nanos(nanos);
            }
            "--etcd-cafile" => self.ca_file = Some(value.into()),
            "--etcd-certfile" => self.cert_file = Some(value.into()),
            "--etcd-keyfile" => self.key_file = Some(value.into()),
            other => return Err(format!("unknown flag: {other}")),
        }
        Ok(())
    }

    /// Checks the flags together (etcd needs servers; a client
    /// certificate needs its key).
    pub fn check(&self) -> Result<(), String> {
        if self.kind == StorageKind::Etcd && self.etcd_servers.is_empty() {
            return Err("--storage etcd needs --etcd-servers".into());
        }
        if self.cert_file.is_some() != self.key_file.is_some() {
            return Err("--etcd-certfile and --etcd-keyfile go together".into());
        }
        Ok(())
    }

    /// Opens the storage: memory, or a connection to etcd (checked once,
    /// so that a wrong address stops the start), its `/readyz` check and
    /// its compactor.
    pub async fn open(&self) -> Result<Opened, String> {
        self.check()?;
        match self.kind {
            StorageKind::Memory => Ok(Opened {
                storage: Arc::new(MemoryStorage::new()),
                health_check: None,
                _compactor: None,
            }),
            StorageKind::Etcd => self.open_etcd().await,
        }
    }

    #[cfg(feature = "etcd")]
    async fn open_etcd(&self) -> Result<Opened, String> {
        use api_etcd::{EtcdConfig, EtcdStorage};
        let mut config =
            EtcdConfig::new(self.etcd_servers.iter().cloned()).prefix(self.etcd_prefix.clone());
        if let Some(ca) = &self.ca_file {
            config = config.ca_file(ca.clone());
        }
        if let (Some(cert), Some(key)) = (&self.cert_file, &self.key_file) {
            config = config.client_cert(cert.clone(), key.clone());
        }
        let servers = self.etcd_servers.join(",");
        let storage = EtcdStorage::connect(config)
            .await
            .map_err(|e| format!("etcd at {servers}: {e}"))?;
        storage
            .check()
            .await
            .map_err(|e| format!("etcd at {servers}: {e}"))?;
        let compactor = (!self.compaction_interval.is_zero())
            .then(|| storage.spawn_compactor(self.compaction_interval));
        let checked = storage.clone();
        let health_check: HealthCheck = Arc::new(move || {
            let storage = checked.clone();
            Box::pin(async move { storage.check().await.map_err(|e| e.to_string()) })
        });
        Ok(Opened {
            storage: Arc::new(storage),
            health_check: Some(("etcd".into(), health_check)),
            _compactor: compactor.map(tokio_util::task::AbortOnDropHandle::new),
        })
    }

    #[cfg(not(feature = "etcd"))]
    async fn open_etcd(&self) -> Result<Opened, String> {
        Err(
            "--storage etcd: this apiserver was built without etcd; build it with \
             `cargo run -p examples --features etcd --bin apiserver` (etcd-client's build \
             needs protoc: Debian's protobuf-compiler)"
                .into(),
        )
    }
}

/// An open storage: what the server keeps its objects in, the health
/// check that reports it (`/readyz`'s `etcd`), and what runs beside it
/// (the compactor) for as long as this lives.
pub struct Opened {
    /// The storage.
    pub storage: Arc<dyn Storage>,
    /// Its named health check, when it has one.
    pub health_check: Option<(String, HealthCheck)>,
    _compactor: Option<tokio_util::task::AbortOnDropHandle<()>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(pairs: &[(&str, &str)]) -> Result<StorageFlags, String> {
        let mut flags = StorageFlags::default();
        for (name, value) in pairs {
            flags.set(name, value.to_string())?;
        }
        flags.check()?;
        Ok(flags)
    }

    #[test]
    fn storage_flags_as_kube_apiserver_names_them() {
        assert_eq!(parsed(&[]).unwrap(), StorageFlags::default());
        let etcd = parsed(&[
            ("--storage", "etcd"),
            (
                "--etcd-servers",
                "http://127.0.0.1:2379, http://127.0.0.1:2479",
            ),
            ("--etcd-prefix", "/example/"),
            ("--etcd-compaction-interval", "1m30s"),
        ])
        .unwrap();
        assert_eq!(etcd.kind, StorageKind::Etcd);
        assert_eq!(
            etcd.etcd_servers,
            ["http://127.0.0.1:2379", "http://127.0.0.1:2479"]
        );
        assert_eq!(etcd.etcd_prefix, "/example");
        assert_eq!(etcd.compaction_interval, Duration::from_secs(90));
        assert_eq!(
            parsed(&[("--storage", "etcd")]).unwrap_err(),
            "--storage etcd needs --etcd-servers"
        );
        assert!(parsed(&[("--storage", "disk")]).is_err());
        assert!(parsed(&[("--etcd-prefix", "registry")]).is_err());
        assert!(parsed(&[("--etcd-compaction-interval", "-5m")]).is_err());
        assert!(parsed(&[("--etcd-certfile", "c.pem")]).is_err());
        assert!(StorageFlags::knows("--etcd-keyfile"));
        assert!(!StorageFlags::knows("--etcd"));
    }

    #[cfg(not(feature = "etcd"))]
    #[tokio::test]
    async fn without_the_feature_etcd_says_how_to_get_it() {
        let flags = parsed(&[("--storage", "etcd"), ("--etcd-servers", "http://e:2379")]).unwrap();
        let refused = flags.open().await.err().unwrap();
        assert!(refused.contains("--features etcd"), "{refused}");
    }
}
