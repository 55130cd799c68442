//! Builds the actix-web server over a store: the API's routes, and around them the HTTP rules
//! every route shares (methods, CORS, compression, the access log).

pub mod cors;
pub mod methods;
pub mod read_cache;

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::middleware::{from_fn, Compress, Logger};
use actix_web::{web, App, HttpServer};

pub use cors::CorsPolicy;
use methods::RouteTable;

use crate::live::Live;
use crate::store::Store;

/// A server on an already bound listener (tests bind port 0 and read the port back), with no
/// origin allowed to write cross-origin.
pub fn build(listener: TcpListener, store: Store) -> std::io::Result<Server> {
    build_with(listener, store, CorsPolicy::default())
}

/// A server on an already bound listener with the given CORS policy.
pub fn build_with(
    listener: TcpListener,
    store: Store,
    cors: CorsPolicy,
) -> std::io::Result<Server> {
    build_with_live(listener, store, cors, Live::default())
}

/// [`build_with`] with the live feeds' limits chosen (tests use a small subscriber cap and a
/// short heartbeat).
pub fn build_with_live(
    listener: TcpListener,
    store: Store,
    cors: CorsPolicy,
    live: Live,
) -> std::io::Result<Server> {
    let routes = web::Data::new(RouteTable::documented());
    let cors = web::Data::new(cors);
    let live = web::Data::new(live);
    let cache = web::Data::new(read_cache::ReadCache::new(read_cache::bound_from_env()));
    let server = HttpServer::new(move || {
        App::new()
            .app_data(routes.clone())
            .app_data(cors.clone())
            .app_data(cache.clone())
            .wrap(from_fn(crate::api::idempotency::idempotency))
            .wrap(from_fn(read_cache::read_cache))
            .wrap(from_fn(methods::head_and_options))
            .wrap(from_fn(cors::cors))
            .wrap(Compress::default())
            .wrap(Logger::new("%a \"%r\" %s %b %Dms"))
            .configure(|cfg| crate::api::configure(cfg, store.clone(), live.clone()))
            .default_service(web::to(methods::not_routed))
    })
    .on_connect(crate::api::connection::remember_socket)
    .workers(std::thread::available_parallelism().map_or(2, |n| n.get().max(2)))
    .listen(listener)?
    .run();
    Ok(server)
}
