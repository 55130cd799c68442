//! A test server on port 0 and a minimal HTTP/1.1 client over std's TcpStream.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

use serde_json::Value;

pub struct TestServer {
    pub addr: String,
    /// The server's store (tests count its reads).
    pub store: tourney::store::Store,
    pub db: PathBuf,
    _dir: Option<tourney::scratch::ScratchDir>,
}

/// Starts a server on a fresh temporary database.
pub fn spawn() -> TestServer {
    spawn_with(tourney::live::Live::default())
}

/// Starts a server on a fresh temporary database with the live feeds' limits given.
pub fn spawn_with(live: tourney::live::Live) -> TestServer {
    spawn_fresh(Default::default(), live, |store| store)
}

/// Starts a server on a fresh temporary database with a CORS policy.
pub fn spawn_with_cors(cors: tourney::server::CorsPolicy) -> TestServer {
    spawn_fresh(cors, tourney::live::Live::default(), |store| store)
}

/// Starts a server on an existing database file (as after a restart).
pub fn spawn_on(db: &Path) -> TestServer {
    start(db, Default::default(), tourney::live::Live::default())
}

/// Starts a server on a fresh temporary database whose store `adjust` sets up (a shorter wait
/// for the writer and the queues, fewer pairing slots, less body room).
pub fn spawn_with_store(
    adjust: impl FnOnce(tourney::store::Store) -> tourney::store::Store,
) -> TestServer {
    spawn_fresh(Default::default(), tourney::live::Live::default(), adjust)
}

/// Polls `done` every 10 ms until it holds; fails with `what` after `within`. For a state the
/// server reaches in its own time (a client's head read, a subscriber forgotten), which a
/// fixed pause only guesses.
pub fn wait_until(within: std::time::Duration, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + within;
    while !done() {
        assert!(std::time::Instant::now() < deadline, "{what}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// A server on a fresh temporary database (removed with the server).
fn spawn_fresh(
    cors: tourney::server::CorsPolicy,
    live: tourney::live::Live,
    adjust: impl FnOnce(tourney::store::Store) -> tourney::store::Store,
) -> TestServer {
    let dir = tourney::scratch::ScratchDir::new("api").expect("temp dir");
    let db = dir.path().join("tourney.db");
    let store = adjust(tourney::store::Store::open(&db).expect("open store"));
    let mut server = serve(&db, store, cors, live);
    server._dir = Some(dir);
    server
}

fn start(db: &Path, cors: tourney::server::CorsPolicy, live: tourney::live::Live) -> TestServer {
    let store = tourney::store::Store::open(db).expect("open store");
    serve(db, store, cors, live)
}

fn serve(
    db: &Path,
    store: tourney::store::Store,
    cors: tourney::server::CorsPolicy,
    live: tourney::live::Live,
) -> TestServer {
    let served = store.clone();
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            tourney::server::build_with_live(listener, served, cors, live)
                .unwrap()
                .await
                .unwrap();
        })
    });
    TestServer {
        addr,
        store,
        db: db.to_path_buf(),
        _dir: None,
    }
}

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    /// Asserts a problem+json answer with `status`, and returns it.
    pub fn problem(&self, status: u16) -> Value {
        assert_eq!(self.status, status, "body: {}", self.text());
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json")
        );
        let p = self.json();
        assert_eq!(p["status"], status);
        assert!(p["title"].is_string() && p["detail"].is_string() && p["type"].is_string());
        p
    }
    /// The fields named by a validation problem.
    pub fn fields(&self) -> Vec<String> {
        self.json()["errors"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| e["field"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(pos) = body.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(std::str::from_utf8(&body[..pos]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.extend_from_slice(&body[pos + 2..pos + 2 + size]);
        body = &body[pos + 2 + size + 2..];
    }
    out
}

impl TestServer {
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Response {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.addr
        );
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        let body = body.unwrap_or_default();
        req.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        stream.write_all(req.as_bytes()).unwrap();
        stream.write_all(body).unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("header end");
        let head = String::from_utf8_lossy(&raw[..split]).into_owned();
        let mut lines = head.split("\r\n");
        let status: u16 = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect();
        let mut body = raw[split + 4..].to_vec();
        if headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"))
        {
            body = dechunk(&body);
        }
        Response {
            status,
            headers,
            body,
        }
    }

    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, &[], None)
    }

    pub fn send(&self, method: &str, path: &str, token: Option<&str>, body: &Value) -> Response {
        let auth = token.map(|t| format!("Bearer {t}"));
        let mut headers = vec![("Content-Type", "application/json")];
        if let Some(a) = &auth {
            headers.push(("Authorization", a.as_str()));
        }
        self.request(method, path, &headers, Some(body.to_string().as_bytes()))
    }

    /// [`TestServer::send`] with `If-Match: if_match`.
    pub fn send_if_match(
        &self,
        method: &str,
        path: &str,
        token: &str,
        if_match: &str,
        body: &Value,
    ) -> Response {
        let auth = format!("Bearer {token}");
        let headers = [
            ("Content-Type", "application/json"),
            ("Authorization", auth.as_str()),
            ("If-Match", if_match),
        ];
        self.request(method, path, &headers, Some(body.to_string().as_bytes()))
    }

    /// The event's ETag as a public reader sees it now (a valid `If-Match`).
    pub fn etag(&self, event: i64) -> String {
        let r = self.get(&format!("/api/v1/events/{event}"));
        r.header("etag").expect("an ETag").to_string()
    }

    /// Draws lots as a director who has just read the event: `body` sent with the event's
    /// current ETag as `If-Match` (which drawing again needs; a first draw ignores it).
    pub fn draw_lots(&self, event: i64, token: &str, body: Value) -> Response {
        self.send_if_match(
            "POST",
            &format!("/api/v1/events/{event}/lots"),
            token,
            &self.etag(event),
            &body,
        )
    }

    pub fn delete(&self, path: &str, token: Option<&str>) -> Response {
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> =
            auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        self.request("DELETE", path, &headers, None)
    }

    /// Creates an event and returns (id, admin token).
    pub fn create_event(&self, format: &str) -> (i64, String) {
        let r = self.send(
            "POST",
            "/api/v1/events",
            None,
            &serde_json::json!({"name": "Test event", "game": "chess", "format": format}),
        );
        assert_eq!(r.status, 201, "{}", r.text());
        let v = r.json();
        (
            v["id"].as_i64().unwrap(),
            v["admin_token"].as_str().unwrap().to_string(),
        )
    }

    /// Enters `n` players with descending ratings.
    pub fn add_players(&self, event: i64, token: &str, n: usize) -> Vec<Value> {
        let players: Vec<Value> = (0..n)
            .map(|i| serde_json::json!({"name": format!("Player {}", i + 1), "rating": 2400 - 10 * i as i64}))
            .collect();
        let r = self.send(
            "POST",
            &format!("/api/v1/events/{event}/participants/bulk"),
            Some(token),
            &serde_json::json!({ "participants": players }),
        );
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["items"].as_array().unwrap().clone()
    }
}
