//! Whether the client of a request is still connected, so that long work (a pairing) stops
//! when nobody waits for its answer any more.
//!
//! actix-web 4 does not drop a handler when its client disconnects while the handler waits on
//! a blocking task (actix/actix-web#3462: measured here, a 3000-player pairing whose client
//! left after 3 s ran to its end). So the server keeps, per TCP connection, a duplicate of the
//! socket ([`remember_socket`], an `HttpServer::on_connect` hook), and a pairing request
//! peeks at it every [`POLL`]: end of file or an error means the client has gone, and the
//! pairing's [`Budget`] is stopped. A peek reads nothing from the connection (the bytes stay
//! for actix) and the socket is non-blocking, so an idle, live client reads as "would block".

use std::io::ErrorKind;
use std::net::TcpStream;
use std::os::fd::AsFd;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Extensions;
use actix_web::HttpRequest;

use crate::engine::chess::swiss::Budget;

/// How often a waiting pairing looks at its client's connection.
pub const POLL: Duration = Duration::from_millis(250);

/// A duplicate of a connection's socket (closed with the connection's extensions).
#[derive(Clone)]
struct ClientSocket(Arc<TcpStream>);

/// `HttpServer::on_connect` hook: remembers each TCP connection's socket for
/// `stop_when_client_leaves`.
pub fn remember_socket(conn: &dyn std::any::Any, ext: &mut Extensions) {
    if let Some(tcp) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() {
        if let Ok(fd) = tcp.as_fd().try_clone_to_owned() {
            ext.insert(ClientSocket(Arc::new(TcpStream::from(fd))));
        }
    }
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
    let Some(socket) = req.conn_data::<ClientSocket>().cloned() else {
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
