//! An in-process Kubernetes API server for controller tests, with a ready
//! kube-rs client: what Go's envtest gives, without starting etcd and
//! kube-apiserver (5–15 s in Go; a few milliseconds here).
//!
//! ```
//! # use api_core::prelude::*;
//! # use serde::{Deserialize, Serialize};
//! # /// Spec.
//! # #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
//! # #[kube(group = "cache.example.com", version = "v1alpha1", kind = "Memcached", namespaced)]
//! # pub struct MemcachedSpec {
//! #     /// size.
//! #     #[serde(default, skip_serializing_if = "Option::is_none")]
//! #     pub size: Option<i32>,
//! # }
//! # async fn doc() -> Result<(), kube::Error> {
//! use api_core::kube::Kube;
//! use api_envtest::TestEnv;
//! use kube::api::{Api, PostParams};
//!
//! let env = TestEnv::builder().resource::<Memcached>().start().await;
//! let api: Api<Kube<Memcached>> = Api::namespaced(env.client(), "default");
//! api.create(&PostParams::default(), &Memcached::new("cache", MemcachedSpec { size: Some(1) }).into())
//!     .await?;
//! # Ok(())
//! # }
//! # let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
//! # rt.block_on(doc()).unwrap();
//! ```
//!
//! The client talks to the server through the server's tower `Service`
//! (`kube::Client::new`): no socket, no TLS, no port. The server is
//! api-server's, with namespaces (`default`, `kube-system`, ... exist; a
//! deleted namespace is `Terminating` while the namespace controller
//! deletes its content, then goes, where Go's envtest leaves it
//! terminating for ever), the kinds you add, and a garbage collector
//! ([`api_server::gc`]: deleting an owner deletes its dependents, by
//! `propagationPolicy`, which Go's envtest cannot do); it stops when the
//! last clone of the `TestEnv` is dropped.

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use api_server::kubeconfig::{Kubeconfig, server_url};
use api_server::tls::TlsOptions;
use k8s_openapi::api::events::v1 as events;

use api_core::registry::{DefaultStrategy, Served, Strategy};
use api_core::resource::CustomResourceExt;
use api_server::ApiServer;
pub use api_server::builtin::BuiltinKinds;
use api_server::server::ServerBuilder;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// How long [`TestEnv::wait_for`] waits: ten seconds, far more than an
/// in-process reconcile takes, so that only a condition that never comes
/// true fails.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(10);

/// How often a wait reads the object again.
const POLL: Duration = Duration::from_millis(5);

/// A running in-process API server and a kube client bound to it.
#[derive(Clone)]
pub struct TestEnv {
    server: ApiServer,
    client: kube::Client,
    network: Option<Arc<Network>>,
    _running: Arc<Running>,
}

/// What runs beside the server while a [`TestEnv`] lives: the
/// controllers (namespace controller, garbage collector), and the TCP
/// listener's task in TCP mode.
struct Running {
    _controllers: api_server::Controllers,
    listener: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(task) = &self.listener {
            task.abort();
        }
    }
}

/// The server on a loopback port, in TCP mode.
struct Network {
    url: String,
    kubeconfig: PathBuf,
    _dir: tempfile::TempDir,
}

/// Builds a [`TestEnv`]: the kinds to serve.
pub struct TestEnvBuilder {
    server: ServerBuilder,
    builtin: BuiltinKinds,
    tcp: bool,
    /// CRDs to install at start (their JSON), or why one could not be read.
    crds: Vec<Result<serde_json::Value, String>>,
}

impl TestEnv {
    /// A builder of a server with namespaces and no other kind yet.
    pub fn builder() -> TestEnvBuilder {
        TestEnvBuilder {
            server: ApiServer::builder()
                .with_namespaces()
                .with_custom_resource_definitions()
                .garbage_collector(),
            builtin: BuiltinKinds::None,
            tcp: false,
            crds: Vec::new(),
        }
    }

    /// A kube client of the server (default namespace `default`); clones
    /// share the connection.
    pub fn client(&self) -> kube::Client {
        self.client.clone()
    }

    /// Waits until `done` holds of the object `name` that `api` reads
    /// (`None`: it does not exist), for at most [`DEFAULT_WAIT`]; the
    /// object as it was then. Panics when the time is up, with a message
    /// that names the object and shows its last state (a test's failure
    /// message).
    pub async fn wait_for<K>(
        &self,
        api: &kube::Api<K>,
        name: &str,
        done: impl Fn(Option<&K>) -> bool,
    ) -> Option<K>
    where
        K: kube::Resource<DynamicType = ()> + Clone + DeserializeOwned + Serialize + Debug,
    {
        self.wait_for_within(api, name, DEFAULT_WAIT, done).await
    }

    /// [`TestEnv::wait_for`] with another time limit.
    pub async fn wait_for_within<K>(
        &self,
        api: &kube::Api<K>,
        name: &str,
        limit: Duration,
        done: impl Fn(Option<&K>) -> bool,
    ) -> Option<K>
    where
        K: kube::Resource<DynamicType = ()> + Clone + DeserializeOwned + Serialize + Debug,
    {
        let start = Instant::now();
        loop {
            let state = match api.get_opt(name).await {
                Ok(state) => state,
                Err(e) => panic!("{} {name}: cannot read it: {e}", K::kind(&())),
            };
            if done(state.as_ref()) {
                return state;
            }
            if start.elapsed() >= limit {
                let namespace = state
                    .as_ref()
                    .and_then(|o| o.meta().namespace.clone())
                    .map_or_else(String::new, |ns| format!("{ns}/"));
                let last = match &state {
                    Some(object) => serde_json::to_string_pretty(object)
                        .unwrap_or_else(|_| format!("{object:?}")),
                    None => "absent".to_string(),
                };
                panic!(
                    "{} {namespace}{name}: the condition did not hold within {limit:?}; \
                     its last state: {last}",
                    K::kind(&())
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits until an `events.k8s.io/v1` Event about `object` with
    /// `reason` exists (what kube-runtime's `Recorder` writes), for at most
    /// [`DEFAULT_WAIT`]; the Event. Panics when the time is up, listing
    /// the Events about the object that do exist, and when Events are not
    /// served (add `"events"` to [`TestEnvBuilder::builtin_kinds`]).
    pub async fn wait_for_event<K>(&self, object: &K, reason: &str) -> events::Event
    where
        K: kube::Resource<DynamicType = ()>,
    {
        self.wait_for_event_within(object, reason, DEFAULT_WAIT)
            .await
    }

    /// [`TestEnv::wait_for_event`] with another time limit.
    pub async fn wait_for_event_within<K>(
        &self,
        object: &K,
        reason: &str,
        limit: Duration,
    ) -> events::Event
    where
        K: kube::Resource<DynamicType = ()>,
    {
        let meta = object.meta();
        let namespace = meta.namespace.clone().unwrap_or_default();
        let uid = meta.uid.clone();
        let name = meta.name.clone().unwrap_or_default();
        let api: kube::Api<events::Event> = kube::Api::namespaced(self.client(), &namespace);
        let start = Instant::now();
        loop {
            let listed = match api.list(&kube::api::ListParams::default()).await {
                Ok(listed) => listed.items,
                Err(kube::Error::Api(status)) if status.code == 404 => panic!(
                    "Events are not served: add \"events\" to the test environment's \
                     builtin_kinds"
                ),
                Err(e) => panic!("cannot list Events: {e}"),
            };
            let about: Vec<events::Event> = listed
                .into_iter()
                .filter(|e| {
                    e.regarding
                        .as_ref()
                        .is_some_and(|r| r.uid == uid && r.name.as_deref() == Some(name.as_str()))
                })
                .collect();
            if let Some(found) = about.iter().find(|e| e.reason.as_deref() == Some(reason)) {
                return found.clone();
            }
            if start.elapsed() >= limit {
                let seen: Vec<String> = about
                    .iter()
                    .map(|e| {
                        format!(
                            "{} ({})",
                            e.reason.as_deref().unwrap_or("no reason"),
                            e.note.as_deref().unwrap_or("")
                        )
                    })
                    .collect();
                panic!(
                    "{} {namespace}/{name}: no Event with reason {reason:?} within {limit:?}; \
                     the Events about it: {seen:?}",
                    K::kind(&())
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// In TCP mode ([`TestEnvBuilder::tcp`]): the server's URL
    /// (`https://127.0.0.1:PORT`).
    pub fn url(&self) -> Option<&str> {
        self.network.as_ref().map(|n| n.url.as_str())
    }

    /// In TCP mode: a kubeconfig for the server (its URL and CA), for
    /// kubectl or a controller binary under test
    /// (`KUBECONFIG=... cargo run --bin my-controller`); removed with the
    /// environment.
    pub fn kubeconfig(&self) -> Option<&Path> {
        self.network.as_ref().map(|n| n.kubeconfig.as_path())
    }

    /// The server, for its table of kinds or its router.
    pub fn server(&self) -> &ApiServer {
        &self.server
    }
}

impl TestEnvBuilder {
    /// Serves `K` with its derived defaulting and validation
    /// ([`DefaultStrategy`]).
    pub fn resource<K: Served + CustomResourceExt>(self) -> Self {
        self.resource_with::<K>(DefaultStrategy)
    }

    /// Serves `K` with `strategy`.
    pub fn resource_with<K: Served + CustomResourceExt>(
        mut self,
        strategy: impl Strategy<K> + 'static,
    ) -> Self {
        self.server = self.server.resource::<K>(strategy);
        self
    }

    /// Serves over TCP too: HTTPS on a free loopback port with a CA of its
    /// own, and a kubeconfig for it ([`TestEnv::url`],
    /// [`TestEnv::kubeconfig`]), for tools that need a URL (kubectl, a
    /// controller binary). The in-process client is unchanged. Requests
    /// are not authenticated (every one is `system:unsecured` in
    /// `system:masters`); the kubeconfig's token is ignored.
    pub fn tcp(mut self) -> Self {
        self.tcp = true;
        self
    }

    /// Which of Kubernetes' built-in kinds are served (of
    /// [`api_server::builtin::KINDS`]: Deployment, ConfigMap, Pod, ...;
    /// default none). A kind's schema is compiled the first time a
    /// process serves it (a few tens of milliseconds each in a debug
    /// build, 0.3 s for all of them) and shared after, so name the ones a
    /// test needs.
    pub fn builtin_kinds(mut self, which: BuiltinKinds) -> Self {
        self.builtin = which;
        self
    }

    /// Installs the CustomResourceDefinition `crd` at start, and waits
    /// until it is `Established`: anything that serializes as one
    /// (kube-derive's `Foo::crd()`, k8s-openapi's or api-core's
    /// `CustomResourceDefinition`, a `serde_json::Value`). CRDs can also be
    /// created at run time through the client, as on a cluster.
    pub fn crd(mut self, crd: impl Serialize) -> Self {
        self.crds.push(
            serde_json::to_value(crd).map_err(|e| format!("a CRD that does not serialize: {e}")),
        );
        self
    }

    /// Installs every CRD in the YAML and JSON files of `dir` at start
    /// (envtest's `CRDDirectoryPaths`; see
    /// [`api_server::apiextensions::read_crd_dir`]), and waits until they
    /// are `Established`.
    pub fn crd_dir(mut self, dir: impl AsRef<std::path::Path>) -> Self {
        match api_server::apiextensions::read_crd_dir(dir.as_ref()) {
            Ok(crds) => self.crds.extend(crds.into_iter().map(Ok)),
            Err(e) => self.crds.push(Err(e)),
        }
        self
    }

    /// Changes the server before it starts (authentication, limits, more
    /// kinds: anything [`ServerBuilder`] sets).
    pub fn configure(mut self, f: impl FnOnce(ServerBuilder) -> ServerBuilder) -> Self {
        self.server = f(self.server);
        self
    }

    /// Starts the server and binds a client to it. Call it in a Tokio
    /// runtime with timers (`#[tokio::test]`, or a runtime built with
    /// `enable_all`): the client runs a task of its own and the server
    /// bounds requests in time.
    pub async fn start(self) -> TestEnv {
        self.try_start().await.expect("the test environment starts")
    }

    /// [`TestEnvBuilder::start`], with the reason when it cannot start
    /// (in TCP mode: no loopback port, no certificate, no kubeconfig).
    pub async fn try_start(self) -> std::io::Result<TestEnv> {
        let server = self.server.builtin_kinds(&self.builtin).build();
        let client = kube::Client::new(server.router(), "default");
        let controllers = server.start_controllers();
        install_crds(&server, self.crds).await?;
        let (network, listener) = if self.tcp {
            let (network, task) = listen(&server).await?;
            (Some(Arc::new(network)), Some(task))
        } else {
            (None, None)
        };
        Ok(TestEnv {
            server,
            client,
            network,
            _running: Arc::new(Running {
                _controllers: controllers,
                listener,
            }),
        })
    }
}

/// Installs `crds` and waits until each is `Established` (at most
/// [`DEFAULT_WAIT`] in all).
async fn install_crds(
    server: &ApiServer,
    crds: Vec<Result<serde_json::Value, String>>,
) -> std::io::Result<()> {
    let mut names = Vec::new();
    for crd in crds {
        let crd = crd.map_err(std::io::Error::other)?;
        let name = crd["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        server.install_crd(&crd).await.map_err(|s| {
            std::io::Error::other(format!("CustomResourceDefinition {name:?}: {}", s.message))
        })?;
        names.push(name);
    }
    let start = Instant::now();
    for name in names {
        loop {
            let crd = server.get_crd(&name).await.map_err(|s| {
                std::io::Error::other(format!("CustomResourceDefinition {name:?}: {}", s.message))
            })?;
            let established = crd["status"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|c| c["type"] == "Established" && c["status"] == "True");
            if established {
                break;
            }
            if start.elapsed() >= DEFAULT_WAIT {
                return Err(std::io::Error::other(format!(
                    "CustomResourceDefinition {name:?} was not established within {DEFAULT_WAIT:?}: {}",
                    crd["status"]
                )));
            }
            tokio::time::sleep(POLL).await;
        }
    }
    Ok(())
}

/// Serves `server` over HTTPS on a free loopback port and writes its
/// kubeconfig.
async fn listen(server: &ApiServer) -> std::io::Result<(Network, tokio::task::JoinHandle<()>)> {
    let other = |e: &dyn std::fmt::Display| std::io::Error::other(e.to_string());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let options = TlsOptions::default();
    let tls = options.build().map_err(|e| other(&e))?;
    let url = server_url(addr, true);
    let dir = tempfile::tempdir()?;
    let kubeconfig = dir.path().join("kubeconfig.yaml");
    let ca = tls.ca_cert_pem().map(str::to_string);
    Kubeconfig::with_token(url.clone(), ca, "envtest".into()).write(&kubeconfig)?;
    let server = server.clone();
    let task = tokio::spawn(async move {
        let _ = server.serve_tls(listener, &tls).await;
    });
    Ok((
        Network {
            url,
            kubeconfig,
            _dir: dir,
        },
        task,
    ))
}
