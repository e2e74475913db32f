//! Serving over TCP: the accept loop, TLS handshakes, and the limits a
//! hostile client meets before a request reaches the router (header
//! read timeout, header size, handshake timeout). Each request carries
//! its connection's [`Peer`] (address, verified client certificate) as
//! an extension, for authentication and the logs.

use std::net::SocketAddr;
use std::time::Duration;

use axum::http::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::server::ApiServer;
use crate::tls::{CertificateUser, ServerTls, connection_user};

/// Where a request came from: its connection's remote address and the
/// user of a verified client certificate, if any. The server inserts it
/// into every request it reads from a socket; in-process requests have
/// none (and authenticate by their headers only).
#[derive(Clone, Debug, Default)]
pub struct Peer {
    /// The remote address.
    pub addr: Option<SocketAddr>,
    /// The user named by a verified client certificate.
    pub certificate: Option<CertificateUser>,
}

/// How long a client may take to send a request's headers (hyper closes
/// the connection after it: slowloris).
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to finish a TLS handshake.
pub const HANDSHAKE_TIMEOUT: Duration = HEADER_READ_TIMEOUT;
/// The largest request head (request line and headers) read over
/// HTTP/1.1, and the header list over HTTP/2: 1 MiB, as Go's
/// `http.DefaultMaxHeaderBytes` the apiserver uses.
pub const MAX_HEADER_BYTES: usize = 1 << 20;

impl ApiServer {
    /// Serves plain HTTP on `listener` until the future is dropped (with
    /// its controllers).
    pub async fn serve(self, listener: TcpListener) -> std::io::Result<()> {
        let _controllers = self.start_controllers();
        let router = self.router();
        let timeout = self.client_timeout();
        loop {
            let Some((stream, addr)) = accept(&listener).await else {
                continue;
            };
            let peer = Peer {
                addr: Some(addr),
                certificate: None,
            };
            tokio::spawn(serve_connection(stream, peer, router.clone(), timeout));
        }
    }

    /// Serves HTTPS (HTTP/1.1 and HTTP/2 by ALPN) on `listener` until the
    /// future is dropped. A client whose handshake fails or stalls is
    /// dropped alone; the server goes on.
    pub async fn serve_tls(self, listener: TcpListener, tls: &ServerTls) -> std::io::Result<()> {
        let _controllers = self.start_controllers();
        let acceptor = tls.acceptor();
        let router = self.router();
        let timeout = self.client_timeout();
        loop {
            let Some((stream, addr)) = accept(&listener).await else {
                continue;
            };
            let acceptor = acceptor.clone();
            let router = router.clone();
            tokio::spawn(async move {
                let handshake = tokio::time::timeout(timeout, acceptor.accept(stream));
                let Ok(Ok(stream)) = handshake.await else {
                    return;
                };
                // rustls verified the chain; a certificate without a
                // usable subject authenticates nobody (tokens still can).
                let certificate = connection_user(stream.get_ref().1).ok().flatten();
                let peer = Peer {
                    addr: Some(addr),
                    certificate,
                };
                serve_connection(stream, peer, router, timeout).await;
            });
        }
    }
}

/// The next connection; `None` after a failed accept (out of file
/// descriptors and the like), after a pause so as not to spin.
async fn accept(listener: &TcpListener) -> Option<(tokio::net::TcpStream, SocketAddr)> {
    match listener.accept().await {
        Ok((stream, addr)) => {
            let _ = stream.set_nodelay(true);
            Some((stream, addr))
        }
        Err(_) => {
            tokio::time::sleep(Duration::from_millis(50)).await;
            None
        }
    }
}

/// Serves one connection with the limits above, every request tagged
/// with `peer`. `timeout` bounds the wait for the first bytes (hyper's
/// version detection waits for them without a timer) and each request's
/// headers.
async fn serve_connection<IO>(io: IO, peer: Peer, router: axum::Router, timeout: Duration)
where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let io = FirstBytes::new(io, timeout);
    let service = router.map_request(move |request: Request<Incoming>| {
        let mut request = request.map(axum::body::Body::new);
        request.extensions_mut().insert(peer.clone());
        request
    });
    let service = hyper_util::service::TowerToHyperService::new(service);
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(timeout)
        .max_buf_size(MAX_HEADER_BYTES);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(u32::try_from(MAX_HEADER_BYTES).unwrap_or(u32::MAX));
    let _ = builder
        .serve_connection_with_upgrades(TokioIo::new(io), service)
        .await;
}

/// A connection that must start talking within a deadline: a read that
/// has not produced a byte by then fails with `TimedOut`, which ends the
/// connection. After the first byte it is the stream itself.
struct FirstBytes<IO> {
    io: IO,
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<IO> FirstBytes<IO> {
    fn new(io: IO, timeout: Duration) -> Self {
        FirstBytes {
            io,
            deadline: Some(Box::pin(tokio::time::sleep(timeout))),
        }
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for FirstBytes<IO> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let this = &mut *self;
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    this.deadline = None;
                }
                Poll::Ready(result)
            }
            Poll::Pending => {
                let expired = this
                    .deadline
                    .as_mut()
                    .is_some_and(|d| d.as_mut().poll(cx).is_ready());
                if expired {
                    Poll::Ready(Err(std::io::ErrorKind::TimedOut.into()))
                } else {
                    Poll::Pending
                }
            }
        }
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for FirstBytes<IO> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}
