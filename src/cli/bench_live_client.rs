//! `tourney bench-live-client` (hidden): the phones of `scripts/bench-live`, thousands of live
//! stream subscribers in one thread, so that the clients take little of the cores the server
//! is measured on (the script reports their CPU beside the server's).
//!
//!   tourney bench-live-client PORT PATH PHONES STALLED STALL_PATH
//!
//! PHONES follow `PATH` on 127.0.0.1:PORT and STALLED more follow `STALL_PATH` (a 4 KiB
//! receive buffer; they stop reading on `stall`). Each connection is read with `recvmsg` and
//! the kernel's receive time of the data (`SO_TIMESTAMPNS`), so that the client's own delays
//! are not counted as the server's; every message id is noted with that time. Commands come
//! on stdin, one JSON object a line, each answered by one line on stdout: `connect`, `report`
//! (`sent`: the send time of each message number; `stalled`, `latencies`), `stall`, `resume`
//! (`within` seconds), `reconnect`, `returned` (`sent`), `quit`.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::os::fd::AsRawFd;
use std::rc::Rc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use actix_web::rt::net::{TcpSocket, TcpStream};
use serde_json::{json, Value};
use tokio::io::Interest;
use tokio::sync::{mpsc, Notify, Semaphore};

const SOL_SOCKET: i32 = 1;
const SO_TIMESTAMPNS: i32 = 35;

#[repr(C)]
struct IoVec {
    base: *mut std::ffi::c_void,
    len: usize,
}

#[repr(C)]
struct MsgHdr {
    name: *mut std::ffi::c_void,
    namelen: u32,
    iov: *mut IoVec,
    iovlen: usize,
    control: *mut std::ffi::c_void,
    controllen: usize,
    flags: i32,
}

extern "C" {
    fn recvmsg(fd: i32, msg: *mut MsgHdr, flags: i32) -> isize;
    fn setsockopt(fd: i32, level: i32, name: i32, value: *const std::ffi::c_void, len: u32) -> i32;
}

/// Reads what the socket holds into `buf`: the byte count and the kernel's receive time
/// (seconds since the epoch), or the error (`WouldBlock` when nothing is there).
fn receive(fd: i32, buf: &mut [u8]) -> std::io::Result<(usize, Option<f64>)> {
    let mut control = [0u64; 8];
    let mut iov = IoVec {
        base: buf.as_mut_ptr().cast(),
        len: buf.len(),
    };
    let mut msg = MsgHdr {
        name: std::ptr::null_mut(),
        namelen: 0,
        iov: &mut iov,
        iovlen: 1,
        control: control.as_mut_ptr().cast(),
        controllen: std::mem::size_of_val(&control),
        flags: 0,
    };
    // SAFETY: every pointer is to a live buffer of the length given.
    let n = unsafe { recvmsg(fd, &mut msg, 0) };
    if n < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // the control messages: {len: usize, level: i32, type: i32, data}, each 8-aligned
    let bytes: Vec<u8> = control.iter().flat_map(|w| w.to_ne_bytes()).collect();
    let mut at = 0;
    let mut stamp = None;
    while at + 16 <= msg.controllen.min(bytes.len()) {
        let word = |i: usize| u64::from_ne_bytes(bytes[i..i + 8].try_into().unwrap());
        let len = word(at) as usize;
        let level = i32::from_ne_bytes(bytes[at + 8..at + 12].try_into().unwrap());
        let kind = i32::from_ne_bytes(bytes[at + 12..at + 16].try_into().unwrap());
        if level == SOL_SOCKET && kind == SO_TIMESTAMPNS && at + 32 <= bytes.len() {
            stamp = Some(word(at + 16) as i64 as f64 + word(at + 24) as i64 as f64 / 1e9);
        }
        if len < 16 {
            break;
        }
        at += len.div_ceil(8) * 8;
    }
    Ok((n as usize, stamp))
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// What one phone saw.
#[derive(Default)]
struct Phone {
    /// `Some(false)` follows the main path; `Some(true)` stalls; `None` came back after one.
    stall: Option<bool>,
    status: Option<u16>,
    error: Option<String>,
    /// (message number, receive time)
    got: Vec<(u64, f64)>,
    resync: Option<String>,
    resync_id: Option<String>,
    last_id: Option<String>,
    ended: bool,
}

type Shared = Rc<RefCell<Phone>>;

/// Stalled phones read only while this is false.
struct Pause {
    on: Cell<bool>,
    resumed: Notify,
}

/// Scans what came for message ids (`\nid: ` lines), as the Python phones of the script did.
fn scan(phone: &mut Phone, buf: &[u8], at: f64) -> usize {
    let find = |from: usize, what: &[u8]| -> Option<usize> {
        buf.get(from..)?
            .windows(what.len())
            .position(|w| w == what)
            .map(|i| i + from)
    };
    let mut pos = 0;
    loop {
        let Some(j) = find(pos, b"\nid: ") else {
            pos = pos.max(buf.len().saturating_sub(5));
            break;
        };
        let Some(k) = find(j + 1, b"\n") else {
            pos = j;
            break;
        };
        let Some(e) = find(k + 1, b"\n") else {
            pos = j;
            break;
        };
        let id = String::from_utf8_lossy(&buf[j + 5..k]).into_owned();
        if &buf[k + 1..e] == b"event: resync" {
            let Some(d) = find(e + 1, b"\n") else {
                pos = j;
                break;
            };
            let data: Value = serde_json::from_slice(&buf[e + 7..d]).unwrap_or(Value::Null);
            phone.resync = data["reason"].as_str().map(str::to_string);
            phone.resync_id = Some(id.clone());
        } else if let Some(n) = id.split('-').nth(1).and_then(|n| n.parse().ok()) {
            phone.got.push((n, at));
        }
        phone.last_id = Some(id);
        pos = e;
    }
    if find(pos.saturating_sub(8), b"\r\n0\r\n\r\n").is_some() {
        phone.ended = true;
    }
    pos
}

async fn follow(
    shared: Shared,
    port: u16,
    path: String,
    last_id: Option<String>,
    pause: Rc<Pause>,
) -> Result<(), String> {
    let stall = shared.borrow().stall == Some(true);
    let socket = TcpSocket::new_v4().map_err(|e| e.to_string())?;
    if stall {
        socket.set_recv_buffer_size(4096).ok();
    }
    let one: i32 = 1;
    // SAFETY: a valid descriptor and a pointer to an i32 of the length given.
    unsafe {
        setsockopt(
            socket.as_raw_fd(),
            SOL_SOCKET,
            SO_TIMESTAMPNS,
            (&one as *const i32).cast(),
            4,
        )
    };
    let stream: TcpStream = socket
        .connect(([127, 0, 0, 1], port).into())
        .await
        .map_err(|e| e.to_string())?;
    let mut head =
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n");
    if let Some(id) = last_id {
        head.push_str(&format!("Last-Event-ID: {id}\r\n"));
    }
    head.push_str("\r\n");
    let mut sent = 0;
    while sent < head.len() {
        stream.writable().await.map_err(|e| e.to_string())?;
        match stream.try_write(&head.as_bytes()[sent..]) {
            Ok(n) => sent += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    let fd = stream.as_raw_fd();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut pending: Vec<u8> = Vec::new();
    let mut in_body = false;
    loop {
        while stall && pause.on.get() {
            pause.resumed.notified().await;
        }
        stream.readable().await.map_err(|e| e.to_string())?;
        let (n, stamp) = match stream.try_io(Interest::READABLE, || receive(fd, &mut chunk)) {
            Ok(got) => got,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e.to_string()),
        };
        let mut phone = shared.borrow_mut();
        if n == 0 {
            if !phone.ended {
                return Err("closed".into());
            }
            return Ok(());
        }
        let at = stamp.unwrap_or_else(now);
        pending.extend_from_slice(&chunk[..n]);
        if !in_body {
            let Some(i) = pending.windows(4).position(|w| w == b"\r\n\r\n") else {
                continue;
            };
            let status = String::from_utf8_lossy(&pending[..i])
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            phone.status = Some(status);
            if status != 200 {
                return Ok(());
            }
            pending.drain(..i + 2);
            in_body = true;
        }
        let used = scan(&mut phone, &pending, at);
        pending.drain(..used);
        if phone.ended {
            return Ok(());
        }
    }
}

struct Client {
    port: u16,
    phones: Vec<Shared>,
    pause: Rc<Pause>,
    gate: Rc<Semaphore>,
}

impl Client {
    /// Starts `phones` (64 connecting at a time) and waits until each has its status or an
    /// error (30 s at most each).
    async fn start(&self, phones: Vec<(Shared, String, Option<String>)>) {
        let mut waits = Vec::new();
        for (shared, path, last_id) in phones {
            let gate = self.gate.clone();
            let (port, pause) = (self.port, self.pause.clone());
            waits.push(actix_web::rt::spawn(async move {
                let _slot = gate.acquire().await;
                let task = {
                    let shared = shared.clone();
                    actix_web::rt::spawn(async move {
                        if let Err(e) = follow(shared.clone(), port, path, last_id, pause).await {
                            shared.borrow_mut().error = Some(e);
                        }
                    })
                };
                let deadline = Instant::now() + Duration::from_secs(30);
                while shared.borrow().status.is_none()
                    && shared.borrow().error.is_none()
                    && !task.is_finished()
                    && Instant::now() < deadline
                {
                    actix_web::rt::time::sleep(Duration::from_millis(5)).await;
                }
            }));
        }
        for wait in waits {
            let _ = wait.await;
        }
    }

    async fn command(&mut self, c: &Value) -> Value {
        let sent = || -> BTreeMap<u64, f64> {
            c["sent"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_f64()?)))
                        .collect()
                })
                .unwrap_or_default()
        };
        match c["cmd"].as_str().unwrap_or("") {
            "connect" => {
                let paths = PATHS.with(|paths| paths.borrow().clone());
                let all = self
                    .phones
                    .iter()
                    .map(|p| {
                        let path = &paths[usize::from(p.borrow().stall == Some(true))];
                        (p.clone(), path.clone(), None)
                    })
                    .collect();
                self.start(all).await;
                let statuses: std::collections::BTreeSet<String> = self
                    .phones
                    .iter()
                    .map(|p| match p.borrow().status {
                        Some(s) => s.to_string(),
                        None => "None".into(),
                    })
                    .collect();
                json!({
                    "ok": self.phones.iter().filter(|p| p.borrow().status == Some(200)).count(),
                    "statuses": statuses,
                    "errors": self.phones.iter().filter(|p| p.borrow().error.is_some()).count(),
                })
            }
            "report" => {
                let sent = sent();
                let want_stalled = c["stalled"].as_bool().unwrap_or(false);
                let (mut latencies, mut complete, mut counted, mut missing) = (vec![], 0, 0, 0);
                for p in &self.phones {
                    let p = p.borrow();
                    if (p.stall != Some(false)) != want_stalled {
                        continue;
                    }
                    counted += 1;
                    let mut seen: HashMap<u64, f64> = HashMap::new();
                    for &(n, t) in &p.got {
                        if sent.contains_key(&n) {
                            seen.entry(n).or_insert(t);
                        }
                    }
                    missing += sent.len() - seen.len();
                    complete += usize::from(seen.len() == sent.len());
                    if c["latencies"].as_bool().unwrap_or(false) {
                        latencies.extend(seen.iter().map(|(n, t)| t - sent[n]));
                    }
                }
                json!({"phones": counted, "complete": complete, "missing": missing,
                       "latencies": latencies})
            }
            "stall" => {
                self.pause.on.set(true);
                let n = self
                    .phones
                    .iter()
                    .filter(|p| p.borrow().stall == Some(true))
                    .count();
                json!({"stalled": n})
            }
            "resume" => {
                self.pause.on.set(false);
                self.pause.resumed.notify_waiters();
                let within = Duration::from_secs_f64(c["within"].as_f64().unwrap_or(30.0));
                let stalled: Vec<Shared> = self
                    .phones
                    .iter()
                    .filter(|p| p.borrow().stall == Some(true))
                    .cloned()
                    .collect();
                let deadline = Instant::now() + within;
                while Instant::now() < deadline
                    && !stalled.iter().all(|p| {
                        let p = p.borrow();
                        p.ended || p.error.is_some()
                    })
                {
                    actix_web::rt::time::sleep(Duration::from_millis(50)).await;
                }
                let mut before: Vec<usize> = stalled.iter().map(|p| p.borrow().got.len()).collect();
                before.sort_unstable();
                let count =
                    |f: &dyn Fn(&Phone) -> bool| stalled.iter().filter(|p| f(&p.borrow())).count();
                json!({
                    "stalled": stalled.len(),
                    "resync_fell_behind": count(&|p| p.resync.as_deref() == Some("fell_behind")),
                    "ended": count(&|p| p.ended),
                    "reset": count(&|p| p.error.is_some()),
                    "messages_before_resync": before.get(before.len() / 2).copied().unwrap_or(0),
                })
            }
            "reconnect" => {
                let stall_path = PATHS.with(|paths| paths.borrow()[1].clone());
                let again: Vec<(Shared, String, Option<String>)> = self
                    .phones
                    .iter()
                    .filter(|p| p.borrow().stall == Some(true))
                    .map(|p| {
                        let p = p.borrow();
                        let last = p.resync_id.clone().or_else(|| p.last_id.clone());
                        let fresh = Rc::new(RefCell::new(Phone {
                            stall: None,
                            ..Phone::default()
                        }));
                        (fresh, stall_path.clone(), last)
                    })
                    .collect();
                let fresh: Vec<Shared> = again.iter().map(|(p, _, _)| p.clone()).collect();
                self.start(again).await;
                self.phones.extend(fresh.iter().cloned());
                json!({
                    "ok": fresh.iter().filter(|p| p.borrow().status == Some(200)).count(),
                    "of": fresh.len(),
                })
            }
            "returned" => {
                let sent = sent();
                let back: Vec<&Shared> = self
                    .phones
                    .iter()
                    .filter(|p| p.borrow().stall.is_none())
                    .collect();
                let got = back
                    .iter()
                    .filter(|p| {
                        let p = p.borrow();
                        sent.keys().all(|n| p.got.iter().any(|(m, _)| m == n))
                    })
                    .count();
                json!({"returned": back.len(), "got_next": got})
            }
            _ => json!({"bye": true}),
        }
    }
}

thread_local! {
    /// The main path and the stalled phones' path.
    static PATHS: RefCell<[String; 2]> = const { RefCell::new([String::new(), String::new()]) };
}

pub fn run(args: &[String]) -> Result<(), String> {
    let [port, path, phones, stalled, stall_path] = args else {
        return Err("usage: tourney bench-live-client PORT PATH PHONES STALLED STALL_PATH".into());
    };
    let port: u16 = port.parse().map_err(|_| "PORT: a number")?;
    let phones: usize = phones.parse().map_err(|_| "PHONES: a number")?;
    let stalled: usize = stalled.parse().map_err(|_| "STALLED: a number")?;
    PATHS.with(|paths| *paths.borrow_mut() = [path.clone(), stall_path.clone()]);
    let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if let Ok(command) = serde_json::from_str(&line) {
                if tx.send(command).is_err() {
                    return;
                }
            }
        }
        let _ = tx.send(json!({"cmd": "quit"}));
    });
    actix_web::rt::System::new().block_on(async move {
        let mut client = Client {
            port,
            phones: (0..phones + stalled)
                .map(|i| {
                    Rc::new(RefCell::new(Phone {
                        stall: Some(i >= phones),
                        ..Phone::default()
                    }))
                })
                .collect(),
            pause: Rc::new(Pause {
                on: Cell::new(false),
                resumed: Notify::new(),
            }),
            gate: Rc::new(Semaphore::new(64)),
        };
        while let Some(command) = rx.recv().await {
            let answer = client.command(&command).await;
            let mut out = std::io::stdout().lock();
            writeln!(out, "{answer}").map_err(|e| e.to_string())?;
            out.flush().map_err(|e| e.to_string())?;
            if command["cmd"] == "quit" {
                break;
            }
        }
        Ok(())
    })
}
