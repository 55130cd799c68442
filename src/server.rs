//! Builds the actix-web server over a store.

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::middleware::{from_fn, Compress, Logger};
use actix_web::{web, App, HttpServer};

use crate::error::ApiError;
use crate::live::Live;
use crate::store::Store;

/// A server on an already bound listener (tests bind port 0 and read the port back).
pub fn build(listener: TcpListener, store: Store) -> std::io::Result<Server> {
    build_with(listener, store, Live::default())
}

/// [`build`] with the live feeds' limits chosen (tests use a small subscriber cap and a
/// short heartbeat).
pub fn build_with(listener: TcpListener, store: Store, live: Live) -> std::io::Result<Server> {
    let live = web::Data::new(live);
    let server = HttpServer::new(move || {
        App::new()
            .wrap(from_fn(crate::api::idempotency::idempotency))
            .wrap(Logger::new("%a \"%r\" %s %b %Dms"))
            .wrap(Compress::default())
            .configure(|cfg| crate::api::configure(cfg, store.clone(), live.clone()))
            .default_service(web::to(|| async {
                Err::<actix_web::HttpResponse, _>(ApiError::not_found("no such resource"))
            }))
    })
    .workers(std::thread::available_parallelism().map_or(2, |n| n.get().max(2)))
    .listen(listener)?
    .run();
    Ok(server)
}
