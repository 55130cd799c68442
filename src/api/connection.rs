//! Whether the client of a request is still connected, so that long work (a pairing) stops
//! when nobody waits for its answer any more.
//!
//! actix-web 4 does not drop a handler when its client disconnects while the handler waits on
//! a blocking task (actix/actix-web#3462: measured here, a 3000-player pairing whose client
//! left after 3 s ran to its end). So the server notes, per TCP connection, its socket's file
//! descriptor ([`remember_socket`], an `HttpServer::on_connect` hook); a pairing request takes
//! a duplicate of it and peeks at it every [`POLL`]: end of file or an error means the client
//! has gone, and the pairing's [`Budget`] is stopped. A peek reads nothing from the connection
//! (the bytes stay for actix) and the socket is non-blocking, so an idle, live client reads as
//! "would block". Only the requests that watch take a duplicate: a live stream's thousands of
//! connections cost one descriptor each.

use std::io::ErrorKind;
use std::net::TcpStream;
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Extensions;
use actix_web::HttpRequest;

use crate::engine::chess::swiss::Budget;

/// How often a waiting pairing looks at its client's connection.
pub const POLL: Duration = Duration::from_millis(250);

/// A connection's socket as the connection holds it: valid while one of its requests is being
/// handled (the connection outlives its requests' handlers and their responses' bodies).
#[derive(Clone, Copy)]
struct ConnectionFd(RawFd);

/// A duplicate of a connection's socket (closed when dropped).
#[derive(Clone)]
struct ClientSocket(Arc<TcpStream>);

/// `HttpServer::on_connect` hook: notes each TCP connection's socket for
/// `stop_when_client_leaves` and [`limit_send_buffer`].
pub fn remember_socket(conn: &dyn std::any::Any, ext: &mut Extensions) {
    if let Some(tcp) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() {
        ext.insert(ConnectionFd(tcp.as_raw_fd()));
    }
}

/// The socket of the request's connection, borrowed while the request is handled.
fn socket_of(req: &HttpRequest) -> Option<BorrowedFd<'_>> {
    let ConnectionFd(fd) = *req.conn_data::<ConnectionFd>()?;
    // SAFETY: the connection (and so its descriptor) lives at least as long as `req`.
    Some(unsafe { BorrowedFd::borrow_raw(fd) })
}

/// Sends a long response's writes at once (`TCP_NODELAY`), and bounds what its connection may
/// hold and how long it may hang (Linux; nothing elsewhere): the kernel keeps at most
/// `send_buffer` bytes queued for it (`SO_SNDBUF`, which also turns off the auto-tuning up to
/// 4 MiB; Linux doubles it for its bookkeeping), and gives the connection up when what it sent
/// stays unacknowledged, or the client's window stays shut, for `user_timeout`
/// (`TCP_USER_TIMEOUT`): a phone gone without a word, or one that stopped reading, lets go of
/// its connection then.
pub(crate) fn tune_long_response(req: &HttpRequest, send_buffer: usize, user_timeout: Duration) {
    #[cfg(target_os = "linux")]
    if let Some(fd) = socket_of(req) {
        use std::os::raw::{c_int, c_void};
        extern "C" {
            fn setsockopt(
                fd: c_int,
                level: c_int,
                name: c_int,
                value: *const c_void,
                len: u32,
            ) -> c_int;
        }
        const SOL_SOCKET: c_int = 1;
        const SO_SNDBUF: c_int = 7;
        const IPPROTO_TCP: c_int = 6;
        const TCP_NODELAY: c_int = 1;
        const TCP_USER_TIMEOUT: c_int = 18;
        let options = [
            // each message goes out when written, not held until the client has acknowledged
            // the one before (Nagle's algorithm, against the client's delayed ACKs: up to
            // 40-200 ms a message when they come back to back)
            (IPPROTO_TCP, TCP_NODELAY, 1),
            (
                SOL_SOCKET,
                SO_SNDBUF,
                c_int::try_from(send_buffer).unwrap_or(c_int::MAX),
            ),
            (
                IPPROTO_TCP,
                TCP_USER_TIMEOUT,
                c_int::try_from(user_timeout.as_millis()).unwrap_or(c_int::MAX),
            ),
        ];
        for (level, name, value) in options {
            // SAFETY: a valid descriptor and a pointer to a c_int of the length given.
            let done = unsafe {
                setsockopt(
                    fd.as_raw_fd(),
                    level,
                    name,
                    (&value as *const c_int).cast(),
                    std::mem::size_of::<c_int>() as u32,
                )
            };
            if done != 0 {
                log::warn!(
                    "cannot set option {name} of a stream's socket: {}",
                    std::io::Error::last_os_error()
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (req, send_buffer, user_timeout);
}

impl ClientSocket {
    /// The client closed the connection (end of file) or it broke.
    fn gone(&self) -> bool {
        let mut byte = [0u8; 1];
        match self.0.peek(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => !matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted),
        }
    }
}

/// Stops `budget` when the client of `req` goes away; watches until the budget is spent
/// (the request's end stops it too). Without a remembered socket (a server built without
/// the hook) only the budget's deadline applies.
pub(crate) fn stop_when_client_leaves(req: &HttpRequest, budget: Budget) {
    let Some(socket) = socket_of(req)
        .and_then(|fd| fd.try_clone_to_owned().ok())
        .map(|fd| ClientSocket(Arc::new(TcpStream::from(fd))))
    else {
        return;
    };
    actix_web::rt::spawn(async move {
        while !budget.spent() {
            actix_web::rt::time::sleep(POLL).await;
            if socket.gone() {
                budget.stop();
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::TcpListener;

    #[test]
    fn a_closed_connection_reads_as_gone_and_a_live_one_does_not() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        server.set_nonblocking(true).unwrap();
        let socket = ClientSocket(Arc::new(server));
        assert!(!socket.gone(), "idle and connected");
        client.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(!socket.gone(), "bytes waiting to be read");
        let mut pending = [0u8; 64];
        let n = std::io::Read::read(&mut &*socket.0, &mut pending).unwrap();
        assert_eq!(n, 16, "the peek left the bytes in place");
        drop(client);
        std::thread::sleep(Duration::from_millis(50));
        assert!(socket.gone());
    }
}
