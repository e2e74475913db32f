//! A throw-away etcd for tests (feature `testing`): [`EtcdServer`] runs
//! the `etcd` binary on free loopback ports with a temporary data
//! directory, and kills it when dropped.
//!
//! A test binary whose every test wants an etcd starts one with
//! [`EtcdServer::shared`]: one etcd for the whole process (started by the
//! first caller, stopped when the process exits), each test under a
//! prefix of its own ([`EtcdServer::fresh_storage`]).
//!
//! ```no_run
//! # async fn run() {
//! use api_etcd::testing::EtcdServer;
//!
//! // `None` (with a note on stderr) when there is no etcd binary, unless
//! // API_ETCD_REQUIRE=1: then it panics.
//! let Some(etcd) = EtcdServer::start_or_skip("my_test") else { return };
//! let storage = etcd.storage("/registry").await;
//! # let _ = storage;
//! # }
//! ```

use std::io;
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::{EtcdConfig, EtcdStorage};

/// The environment variable that turns a missing `etcd` binary from a
/// skipped test into a failed one (CI sets `API_ETCD_REQUIRE=1`).
pub const REQUIRE_ENV: &str = "API_ETCD_REQUIRE";

/// The environment variable naming the etcd binary (default: `etcd` on
/// the `PATH`).
pub const BINARY_ENV: &str = "ETCD_BIN";

/// How long a started etcd may take to answer.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// A single-member etcd on loopback, with its data in a temporary
/// directory: killed (and the directory removed) on drop.
#[derive(Debug)]
pub struct EtcdServer {
    child: Option<Child>,
    dir: TempDir,
    client_port: u16,
    peer_port: u16,
    tls: Option<EtcdTls>,
}

/// TLS for a test etcd ([`EtcdServer::start_tls`]): PEM files. etcd
/// serves with the server certificate and asks clients for a certificate
/// signed by the CA; its storages trust the CA and present the client
/// certificate.
#[derive(Clone, Debug)]
pub struct EtcdTls {
    /// The CA that signed both certificates.
    pub ca_file: PathBuf,
    /// etcd's serving certificate (valid for `127.0.0.1`) and key.
    pub server_cert: PathBuf,
    /// The serving certificate's key.
    pub server_key: PathBuf,
    /// A client certificate for etcd's client certificate authentication.
    pub client_cert: PathBuf,
    /// The client certificate's key.
    pub client_key: PathBuf,
}

/// The etcd binary: `$ETCD_BIN`, or `etcd` when it is on the `PATH`.
pub fn etcd_binary() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os(BINARY_ENV) {
        return Some(PathBuf::from(bin));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("etcd"))
        .find(|candidate| candidate.is_file())
}

/// Whether there is an etcd binary; when there is not, says so (the
/// test is skipped), or panics under [`REQUIRE_ENV`]`=1`.
fn binary_or_skip(test: &str) -> bool {
    if etcd_binary().is_some() {
        return true;
    }
    let required = std::env::var(REQUIRE_ENV).is_ok_and(|v| v == "1");
    assert!(
        !required,
        "{test}: no etcd binary (install etcd-server, or set {BINARY_ENV}), and {REQUIRE_ENV}=1"
    );
    eprintln!(
        "{test}: skipped: no etcd binary on the PATH (install etcd-server, or set {BINARY_ENV})"
    );
    false
}

/// A port nobody listens on now (the OS's pick for port 0).
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

impl EtcdServer {
    /// Starts an etcd and waits until it answers; `None`, after printing
    /// why, when the binary is missing, unless [`REQUIRE_ENV`] is `1`:
    /// then (and when etcd does not start) it panics. For tests: `test`
    /// names the test in the note.
    pub fn start_or_skip(test: &str) -> Option<EtcdServer> {
        if !binary_or_skip(test) {
            return None;
        }
        match EtcdServer::start() {
            Ok(server) => Some(server),
            Err(e) => panic!("{test}: etcd did not start: {e}"),
        }
    }

    /// Starts an etcd on free loopback ports and waits until it answers
    /// (at most 20 s). Ports are picked free, then etcd binds them: if
    /// another process took one meanwhile, it tries new ones (3 times).
    pub fn start() -> io::Result<EtcdServer> {
        Self::start_with(None)
    }

    /// Starts an etcd that serves clients over TLS with client
    /// certificate authentication ([`EtcdServer::endpoint`] is `https`,
    /// [`EtcdServer::config`] has the CA and the client certificate).
    pub fn start_tls(tls: EtcdTls) -> io::Result<EtcdServer> {
        Self::start_with(Some(tls))
    }

    fn start_with(tls: Option<EtcdTls>) -> io::Result<EtcdServer> {
        let mut last = None;
        for _ in 0..3 {
            let mut server = EtcdServer {
                child: None,
                dir: tempfile::Builder::new().prefix("api-etcd-").tempdir()?,
                client_port: free_port()?,
                peer_port: free_port()?,
                tls: tls.clone(),
            };
            match server.restart() {
                Ok(()) => return Ok(server),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("etcd did not start")))
    }

    /// The client URL (`http://127.0.0.1:port`, `https` with TLS).
    pub fn endpoint(&self) -> String {
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        format!("{scheme}://127.0.0.1:{}", self.client_port)
    }

    /// The data directory (kept across [`EtcdServer::kill`] and
    /// [`EtcdServer::restart`]).
    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// etcd's log (its standard error), for a failing test's message.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("etcd.log")
    }

    /// A configuration for this etcd with `prefix` (and a 2 s request
    /// timeout, so that tests of an unavailable etcd stay short).
    pub fn config(&self, prefix: &str) -> EtcdConfig {
        let config = EtcdConfig::new([self.endpoint()])
            .prefix(prefix)
            .request_timeout(Duration::from_secs(2));
        match &self.tls {
            Some(tls) => config
                .ca_file(&tls.ca_file)
                .client_cert(&tls.client_cert, &tls.client_key),
            None => config,
        }
    }

    /// A storage on this etcd under `prefix` ([`EtcdServer::config`]).
    /// Panics if the configuration is refused (it cannot be).
    pub async fn storage(&self, prefix: &str) -> EtcdStorage {
        match EtcdStorage::connect(self.config(prefix)).await {
            Ok(storage) => storage,
            Err(e) => panic!("connecting to the test etcd: {e}"),
        }
    }

    /// Kills etcd (SIGKILL, as a crash), keeping its data.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts etcd again on the same ports and data (killing a running
    /// one first), and waits until it answers.
    pub fn restart(&mut self) -> io::Result<()> {
        self.kill();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path())?;
        let bin = etcd_binary().ok_or_else(|| io::Error::other("no etcd binary"))?;
        let client = self.endpoint();
        let peer = format!("http://127.0.0.1:{}", self.peer_port);
        let mut command = Command::new(bin);
        if let Some(tls) = &self.tls {
            command
                .arg(format!("--cert-file={}", tls.server_cert.display()))
                .arg(format!("--key-file={}", tls.server_key.display()))
                .arg(format!("--trusted-ca-file={}", tls.ca_file.display()))
                .arg("--client-cert-auth");
        }
        let child = command
            .arg("--name=test")
            .arg(format!("--data-dir={}", self.data_dir().display()))
            .arg(format!("--listen-client-urls={client}"))
            .arg(format!("--advertise-client-urls={client}"))
            .arg(format!("--listen-peer-urls={peer}"))
            .arg(format!("--initial-advertise-peer-urls={peer}"))
            .arg(format!("--initial-cluster=test={peer}"))
            .arg("--initial-cluster-state=new")
            // Idle tests should not pay for etcd's periodic work.
            .arg("--snapshot-count=100000")
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()?;
        self.child = Some(child);
        self.wait_ready()
    }

    /// Waits until etcd answers a read on its client port, or has exited.
    fn wait_ready(&mut self) -> io::Result<()> {
        let deadline = Instant::now() + START_TIMEOUT;
        let config = self.config("").request_timeout(Duration::from_millis(500));
        loop {
            if let Some(child) = self.child.as_mut()
                && let Some(status) = child.try_wait()?
            {
                self.child = None;
                return Err(io::Error::other(format!(
                    "etcd exited ({status}):\n{}",
                    tail(&self.log())
                )));
            }
            if answers(&config)? {
                return Ok(());
            }
            if Instant::now() > deadline {
                self.kill();
                return Err(io::Error::other(format!(
                    "etcd did not answer within {START_TIMEOUT:?}:\n{}",
                    tail(&self.log())
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The directory etcd's data and log are in.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

/// Whether the etcd of `config` answers a read. Asked from
/// a thread of its own, with a runtime of its own: the caller may be on
/// a runtime (an async test restarting etcd).
fn answers(config: &EtcdConfig) -> io::Result<bool> {
    let config = config.clone();
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()?;
                Ok(runtime.block_on(async {
                    match EtcdStorage::connect(config).await {
                        Ok(storage) => storage.check().await.is_ok(),
                        Err(_) => false,
                    }
                }))
            })
            .join()
            .unwrap_or(Ok(false))
    })
}

/// The last lines of a log.
fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

/// The environment variable that chooses the storage a parametrized
/// test suite runs on: `etcd` for [`suite_storage`]'s etcd, anything else
/// (or nothing) for the suite's default, memory.
pub const STORAGE_ENV: &str = "API_TEST_STORAGE";

/// Whether [`STORAGE_ENV`] asks for etcd.
pub fn etcd_selected() -> bool {
    std::env::var(STORAGE_ENV).is_ok_and(|v| v == "etcd")
}

/// For test suites that run on either storage: when [`STORAGE_ENV`] is
/// `etcd`, a storage on the process's shared etcd under a fresh prefix
/// ([`EtcdServer::shared`], [`EtcdServer::fresh_storage`]); `None`
/// otherwise (the suite uses memory). Panics when etcd was asked for and
/// there is none: a suite asked to run on etcd must not pass on memory.
pub async fn suite_storage(test: &str) -> Option<EtcdStorage> {
    if !etcd_selected() {
        return None;
    }
    let Some(etcd) = EtcdServer::shared(test) else {
        panic!("{test}: {STORAGE_ENV}=etcd, but there is no etcd binary");
    };
    Some(etcd.fresh_storage().await)
}

/// The process's shared etcd ([`EtcdServer::shared`]) and the pipe
/// whose closing, at the process's exit, stops it.
struct Shared {
    server: EtcdServer,
    /// Held, never written: the watchdog reads it until it closes.
    _watchdog: Mutex<ChildStdin>,
}

static SHARED: OnceLock<Result<Shared, String>> = OnceLock::new();

/// The prefixes handed out by [`EtcdServer::fresh_storage`].
static PREFIXES: AtomicU64 = AtomicU64::new(0);

impl EtcdServer {
    /// One etcd for this whole process, started by the first call (which
    /// waits until it answers) and stopped when the process exits: a
    /// statics' destructor never runs, so a watchdog (`sh`, reading a
    /// pipe this process holds open) kills etcd and removes its data
    /// directory when the pipe closes, however the process ends. `None`
    /// (after printing why) when there is no etcd binary, unless
    /// [`REQUIRE_ENV`] is `1`; panics when etcd does not start.
    ///
    /// For test binaries whose every test runs on etcd: each takes a
    /// prefix of its own ([`EtcdServer::fresh_storage`]), so that tests
    /// running in parallel do not see each other's objects (they do see
    /// each other's revisions: etcd's revision is the whole store's).
    pub fn shared(test: &str) -> Option<&'static EtcdServer> {
        if !binary_or_skip(test) {
            return None;
        }
        match SHARED.get_or_init(|| start_shared().map_err(|e| e.to_string())) {
            Ok(shared) => Some(&shared.server),
            Err(e) => panic!("{test}: the shared etcd did not start: {e}"),
        }
    }

    /// A storage on this etcd under a prefix that no other call in this
    /// process got (`/test-N`).
    pub async fn fresh_storage(&self) -> EtcdStorage {
        let n = PREFIXES.fetch_add(1, Ordering::Relaxed);
        self.storage(&format!("/test-{n}")).await
    }
}

/// Starts the shared etcd and its watchdog.
fn start_shared() -> io::Result<Shared> {
    let mut server = EtcdServer::start()?;
    let pid = server
        .child
        .as_ref()
        .map(Child::id)
        .ok_or_else(|| io::Error::other("etcd is not running"))?;
    // `read` returns at end of file: when this process, the only writer,
    // has exited. Then etcd goes, and its data with it.
    let mut watchdog = Command::new("sh")
        .arg("-c")
        .arg(r#"read _ignored; kill -9 "$1" 2>/dev/null; sleep 0.2; rm -rf "$2""#)
        .arg("api-etcd-watchdog")
        .arg(pid.to_string())
        .arg(server.dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let stdin = watchdog
        .stdin
        .take()
        .ok_or_else(|| io::Error::other("the watchdog has no stdin"))?;
    // The watchdog owns etcd's end now: this handle must not kill it
    // (statics are not dropped anyway) nor reap it.
    server.child = None;
    Ok(Shared {
        server,
        _watchdog: Mutex::new(stdin),
    })
}

impl Drop for EtcdServer {
    fn drop(&mut self) {
        self.kill();
    }
}
