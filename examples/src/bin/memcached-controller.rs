//! The Memcached controller (`examples::controller`) against the cluster
//! of the current kubeconfig (`KUBECONFIG`, `~/.kube/config`, or the
//! in-cluster service account), until interrupted:
//!
//! ```text
//! KUBECONFIG=/tmp/kubeconfig.yaml cargo run -p examples --features controller --bin memcached-controller
//! ```

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    let client = match kube::Client::try_default().await {
        Ok(client) => client,
        Err(e) => {
            eprintln!("memcached-controller: no cluster to talk to: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!("memcached-controller: reconciling Memcached objects");
    tokio::select! {
        () = examples::controller::run(client) => ExitCode::SUCCESS,
        _ = tokio::signal::ctrl_c() => ExitCode::SUCCESS,
    }
}
