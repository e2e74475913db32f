//! Every state a connection can idle in has a deadline (issue 27): before
//! and during the TLS handshake, after the handshake with nothing sent,
//! in the middle of a request line, and with headers dripping. The
//! server's client timeout is set to 1 s here (10 s by default); each
//! case checks that the server closed the connection within it (plus
//! slack), over plain HTTP and TLS. Loopback only, a handful of sockets.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use api_core::prelude::*;
use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use api_server::tls::{ServerTls, TlsOptions};
use rustls::pki_types::{CertificateDer, ServerName, pem::PemObject};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// ThingSpec is the desired state of a Thing.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Thing", namespaced)]
pub struct ThingSpec {
    /// size of the thing.
    pub size: i32,
}

const TIMEOUT: Duration = Duration::from_secs(1);
/// How much later than the timeout a close may come.
const SLACK: Duration = Duration::from_millis(1500);

async fn server() -> ApiServer {
    storage::builder()
        .await
        .client_timeout(TIMEOUT)
        .resource::<Thing>(DefaultStrategy)
        .build()
}

async fn plain() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(server().await.serve(listener));
    addr
}

async fn tls() -> (SocketAddr, Arc<rustls::ClientConfig>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let tls: ServerTls = TlsOptions::default().build().unwrap();
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(tls.ca_cert_pem().unwrap().as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let config = rustls::ClientConfig::builder_with_provider(api_server::tls::provider())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    tokio::spawn(async move { server().await.serve_tls(listener, &tls).await });
    (addr, Arc::new(config))
}

/// How long until the server closes `stream` (EOF or reset), after
/// `sent` was written; panics past the timeout and its slack.
async fn closed_after<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S, sent: &[u8]) -> Duration {
    let start = Instant::now();
    if !sent.is_empty() {
        stream.write_all(sent).await.unwrap();
    }
    let mut buf = [0u8; 1024];
    let read = tokio::time::timeout(TIMEOUT + SLACK, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    });
    read.await
        .unwrap_or_else(|_| panic!("still open after {:?}", TIMEOUT + SLACK));
    start.elapsed()
}

#[tokio::test]
async fn idle_connections_are_closed_at_every_stage() {
    let addr = plain().await;
    let (tls_addr, client) = tls().await;
    let connector = tokio_rustls::TlsConnector::from(client);
    let name = ServerName::try_from("127.0.0.1").unwrap();

    let plain_silent = async { closed_after(TcpStream::connect(addr).await.unwrap(), b"").await };
    let plain_partial_line =
        async { closed_after(TcpStream::connect(addr).await.unwrap(), b"GET /apis HT").await };
    let plain_partial_headers = async {
        closed_after(
            TcpStream::connect(addr).await.unwrap(),
            b"GET /apis HTTP/1.1\r\nHost: x\r\n",
        )
        .await
    };
    let before_handshake =
        async { closed_after(TcpStream::connect(tls_addr).await.unwrap(), b"").await };
    let half_hello = async {
        closed_after(
            TcpStream::connect(tls_addr).await.unwrap(),
            &[0x16, 0x03, 0x01, 0x02, 0x00, 0x01],
        )
        .await
    };
    let after_handshake = async {
        let tcp = TcpStream::connect(tls_addr).await.unwrap();
        let stream = connector.connect(name.clone(), tcp).await.unwrap();
        closed_after(stream, b"").await
    };
    let after_handshake_partial = async {
        let tcp = TcpStream::connect(tls_addr).await.unwrap();
        let stream = connector.connect(name.clone(), tcp).await.unwrap();
        closed_after(stream, b"GET /apis HTTP/1.1\r\n").await
    };
    let (a, b, c, d, e, f, g) = tokio::join!(
        plain_silent,
        plain_partial_line,
        plain_partial_headers,
        before_handshake,
        half_hello,
        after_handshake,
        after_handshake_partial
    );
    for (case, took) in [
        ("plain, nothing sent", a),
        ("plain, half a request line", b),
        ("plain, headers unfinished", c),
        ("TLS, nothing sent", d),
        ("TLS, half a ClientHello", e),
        ("TLS, handshake done, nothing sent", f),
        ("TLS, handshake done, headers unfinished", g),
    ] {
        assert!(
            took >= TIMEOUT - Duration::from_millis(100),
            "{case}: {took:?}"
        );
    }
}

#[tokio::test]
async fn a_connection_that_keeps_talking_is_served() {
    let addr = plain().await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // Two requests on one connection, the second after a pause shorter
    // than the timeout.
    for _ in 0..2 {
        stream
            .write_all(b"GET /version HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut buf = vec![0u8; 4096];
        let n = stream.read(&mut buf).await.unwrap();
        assert!(
            buf[..n].starts_with(b"HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&buf[..n])
        );
        tokio::time::sleep(TIMEOUT / 2).await;
    }
}

/// Between keep-alive requests the same deadline holds (hyper's header
/// read timer runs while it waits for the next request).
#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed() {
    let addr = plain().await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /version HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = vec![0u8; 4096];
    let _ = stream.read(&mut buf).await.unwrap();
    let took = closed_after(stream, b"").await;
    assert!(took >= TIMEOUT - Duration::from_millis(100), "{took:?}");
}
