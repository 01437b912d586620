//! A stand-in for a third-party HTTP service (the Telegram Bot API, a webhook, an LLM API):
//! a real HTTP/1.1 server on 127.0.0.1 that records every request and answers as told.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// One request as the server read it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("body is not JSON: {e}: {}", self.body))
    }
}

/// A reply computed from the request: (status, content type, body).
pub type Answer = Arc<dyn Fn(&Recorded) -> (u16, String, String) + Send + Sync>;

/// How the stand-in answers.
#[derive(Clone)]
pub enum Reply {
    /// This status and JSON body.
    Json(u16, String),
    /// Never answer (until the server is dropped).
    Hang,
    /// Whatever the function makes of the request (a model's next turn, say).
    With(Answer),
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::Json(status, body) => write!(f, "Json({status}, {body})"),
            Reply::Hang => write!(f, "Hang"),
            Reply::With(_) => write!(f, "With(..)"),
        }
    }
}

#[derive(Default)]
struct State {
    requests: Vec<Recorded>,
}

pub struct StandIn {
    addr: SocketAddr,
    state: Arc<(Mutex<State>, Condvar)>,
}

impl StandIn {
    pub fn start(reply: Reply) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind stand-in");
        let addr = listener.local_addr().expect("addr");
        let state = Arc::new((Mutex::new(State::default()), Condvar::new()));
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                let (shared, reply) = (Arc::clone(&shared), reply.clone());
                std::thread::spawn(move || serve(stream, &shared, &reply));
            }
        });
        StandIn { addr, state }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.0.lock().expect("stand-in lock").requests.clone()
    }

    /// Waits until at least `n` requests arrived; panics after `within`.
    pub fn wait_for(&self, n: usize, within: Duration) -> Vec<Recorded> {
        let deadline = Instant::now() + within;
        let (lock, arrived) = &*self.state;
        let mut state = lock.lock().expect("stand-in lock");
        while state.requests.len() < n {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "expected {n} requests, got {}",
                state.requests.len()
            );
            state = arrived.wait_timeout(state, left).expect("wait").0;
        }
        state.requests.clone()
    }
}

fn serve(stream: TcpStream, shared: &(Mutex<State>, Condvar), reply: &Reply) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, path) = (
            parts.next().unwrap_or_default().to_owned(),
            parts.next().unwrap_or_default().to_owned(),
        );
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.push((k.trim().to_owned(), v.trim().to_owned()));
            }
        }
        let len = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0usize);
        let mut body = vec![0; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let recorded = Recorded {
            method,
            path,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        };
        {
            let (lock, arrived) = shared;
            lock.lock()
                .expect("stand-in lock")
                .requests
                .push(recorded.clone());
            arrived.notify_all();
        }
        match reply {
            Reply::With(answer) => {
                let (status, content_type, text) = answer(&recorded);
                let response = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\r\n{text}",
                    text.len()
                );
                let mut out = &stream;
                if out.write_all(response.as_bytes()).is_err() {
                    return;
                }
            }
            Reply::Hang => {
                // Hold the connection open without answering.
                std::thread::sleep(Duration::from_secs(3600));
                return;
            }
            Reply::Json(status, text) => {
                let response = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{text}",
                    text.len()
                );
                let mut out = &stream;
                if out.write_all(response.as_bytes()).is_err() {
                    return;
                }
            }
        }
    }
}
