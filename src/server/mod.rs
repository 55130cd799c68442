//! Builds the actix-web server over a store: the API's routes, and around them the HTTP rules
//! every route shares (methods, CORS, compression, the access log).

pub mod cors;
pub mod guard;
pub mod methods;
pub mod preconditions;
pub mod read_cache;

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::middleware::{from_fn, Compress, Logger};
use actix_web::{web, App, HttpServer};

pub use cors::CorsPolicy;
use methods::RouteTable;

use crate::live::Live;
use crate::store::Store;

/// The request line as logged: a write's query string is left out (it could carry what a
/// client should not have put there); reads keep theirs.
fn logged_request(req: &actix_web::dev::ServiceRequest) -> String {
    let method = req.method();
    let target =
        if method == actix_web::http::Method::GET || method == actix_web::http::Method::HEAD {
            req.uri()
                .path_and_query()
                .map_or(req.path(), |p| p.as_str())
        } else {
            req.path()
        };
    format!("{method} {target} {:?}", req.version())
}

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
    let failures = web::Data::new(guard::Failures::from_env());
    let metrics = web::Data::new(crate::metrics::Metrics::default());
    let cache = web::Data::new(read_cache::ReadCache::new(read_cache::bound_from_env()));
    // the double-dummy worker, for as long as the server's workers hold this handle
    let analysis = web::Data::new(crate::analysis::Analysis::start(store.clone()));
    let server = HttpServer::new(move || {
        App::new()
            .app_data(routes.clone())
            .app_data(cors.clone())
            .app_data(cache.clone())
            .app_data(failures.clone())
            .app_data(metrics.clone())
            .app_data(analysis.clone())
            .wrap(from_fn(preconditions::preconditions))
            .wrap(from_fn(crate::api::idempotency::idempotency))
            .wrap(from_fn(read_cache::read_cache))
            .wrap(from_fn(guard::guard))
            .wrap(from_fn(methods::head_and_options))
            .wrap(from_fn(cors::cors))
            .wrap(Compress::default())
            .wrap(from_fn(crate::metrics::measure))
            .wrap(
                Logger::new("%a \"%{request}xi\" %s %b %Dms")
                    .custom_request_replace("request", logged_request),
            )
            .configure(|cfg| crate::api::configure(cfg, store.clone(), live.clone()))
            .default_service(web::to(methods::not_routed))
    })
    .on_connect(crate::api::connection::remember_socket)
    // a client that closes its connection is gone: end what it was sent at once (a live
    // stream's place is freed now, not when a heartbeat finds the socket dead)
    .h1_allow_half_closed(false)
    .workers(std::thread::available_parallelism().map_or(2, |n| n.get().max(2)))
    .listen(listener)?
    .run();
    Ok(server)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn the_access_log_leaves_out_the_query_of_writes() {
        let write = TestRequest::post()
            .uri("/api/v1/events/1/results?key=secret")
            .to_srv_request();
        assert_eq!(
            logged_request(&write),
            "POST /api/v1/events/1/results HTTP/1.1"
        );
        let read = TestRequest::get()
            .uri("/api/v1/events?limit=5")
            .to_srv_request();
        assert_eq!(logged_request(&read), "GET /api/v1/events?limit=5 HTTP/1.1");
    }
}
