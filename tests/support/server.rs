//! The HTTP/1.1 server: our own accept loop (so a fault can reset a connection with a real
//! TCP RST), one hyper connection per socket, the axum router as the service.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tower::ServiceExt;

/// Lets a handler abort its own connection: the socket is closed with SO_LINGER 0, so the
/// client sees a reset instead of a response.
#[derive(Clone, Default)]
pub struct ConnControl(Arc<ConnInner>);

#[derive(Default)]
struct ConnInner {
    reset: AtomicBool,
    kill: Notify,
}

impl ConnControl {
    pub fn reset(&self) {
        self.0.reset.store(true, Ordering::SeqCst);
        self.0.kill.notify_one();
    }

    async fn killed(&self) {
        self.0.kill.notified().await;
    }
}

/// A TCP stream that resets instead of closing gracefully when its connection was killed.
struct ResettableStream {
    inner: TcpStream,
    control: ConnControl,
}

impl Drop for ResettableStream {
    fn drop(&mut self) {
        if self.control.0.reset.load(Ordering::SeqCst) {
            let _ = socket2::SockRef::from(&self.inner).set_linger(Some(Duration::ZERO));
        }
    }
}

impl AsyncRead for ResettableStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for ResettableStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Accept connections until `shutdown` turns true.
pub async fn serve(listener: TcpListener, app: Router, mut shutdown: watch::Receiver<bool>) {
    loop {
        let accepted = tokio::select! {
            _ = shutdown.changed() => break,
            accepted = listener.accept() => accepted,
        };
        let Ok((stream, _)) = accepted else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let control = ConnControl::default();
        let io = TokioIo::new(ResettableStream {
            inner: stream,
            control: control.clone(),
        });
        let app = app.clone();
        let handler_control = control.clone();
        tokio::spawn(async move {
            let service =
                hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                    request.extensions_mut().insert(handler_control.clone());
                    app.clone().oneshot(request)
                });
            let connection = hyper::server::conn::http1::Builder::new()
                .keep_alive(true)
                .serve_connection(io, service);
            tokio::select! {
                _ = connection => {}
                _ = control.killed() => {}
            }
        });
    }
}

/// Block until the server at `addr` answers its health route, or panic after 10 s.
pub fn wait_until_ready(addr: SocketAddr) {
    use std::io::{Read, Write};
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answered = std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(200))
            .and_then(|mut s| {
                s.set_read_timeout(Some(Duration::from_secs(2)))?;
                s.write_all(
                    b"GET /_mock/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                )?;
                let mut head = [0u8; 12];
                s.read_exact(&mut head)?;
                Ok(head.starts_with(b"HTTP/1.1 200"))
            })
            .unwrap_or(false);
        if answered {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "mock world at {addr} did not become ready within 10 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}
