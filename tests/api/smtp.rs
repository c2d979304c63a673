//! A tiny SMTP listener for the tests (no TLS, no auth): it keeps every message it receives, can
//! be taken "down" (it accepts and hangs up at once, like a dead relay), and can be slowed down
//! so that a worker can be killed in the middle of a batch, or made to hang up after each
//! message (as a relay closing idle connections does); it counts the connections it took.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One message as received.
#[derive(Debug, Clone)]
pub struct Received {
    pub to: Vec<String>,
    pub data: String,
}

impl Received {
    /// The value of a header (unfolded), if present.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next().unwrap_or("");
        let mut found: Option<String> = None;
        for line in head.split("\r\n") {
            if line.starts_with(' ') || line.starts_with('\t') {
                if let Some(value) = found.as_mut() {
                    value.push(' ');
                    value.push_str(line.trim());
                }
                continue;
            }
            if found.is_some() {
                break;
            }
            if let Some((key, value)) = line.split_once(':')
                && key.eq_ignore_ascii_case(name)
            {
                found = Some(value.trim().to_owned());
            }
        }
        found
    }

    /// The subject, with RFC 2047 encoded words decoded.
    pub fn subject(&self) -> String {
        decode_words(&self.header("Subject").unwrap_or_default())
    }

    /// The plain-text part (sent 8bit, so readable as is).
    pub fn text(&self) -> String {
        let lower = self.data.to_lowercase();
        let Some(at) = lower.find("content-type: text/plain") else {
            return String::new();
        };
        let rest = &self.data[at..];
        let body_start = rest.find("\r\n\r\n").map_or(rest.len(), |i| i + 4);
        let body = &rest[body_start..];
        let end = body.find("\r\n--").unwrap_or(body.len());
        body[..end].to_owned()
    }

    pub fn is_to(&self, address: &str) -> bool {
        self.to.iter().any(|t| t == address)
    }

    /// The URLs in the plain-text part.
    pub fn links(&self) -> Vec<String> {
        self.text()
            .split_whitespace()
            .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
            .map(str::to_owned)
            .collect()
    }
}

/// RFC 2047: encoded words (`=?utf-8?b?...?=`, `=?utf-8?q?...?=`) decoded; the space between
/// two encoded words is not part of the text.
fn decode_words(value: &str) -> String {
    let mut out = String::new();
    let mut previous_encoded = false;
    for word in value.split_whitespace() {
        let decoded = decode_word(word);
        if !out.is_empty() && (!previous_encoded || decoded.is_none()) {
            out.push(' ');
        }
        previous_encoded = decoded.is_some();
        out.push_str(&decoded.unwrap_or_else(|| word.to_owned()));
    }
    out
}

fn decode_word(word: &str) -> Option<String> {
    use base64::Engine;
    let lower = word.to_lowercase();
    if !word.ends_with("?=") || word.len() < 12 {
        return None;
    }
    let inner = &word[10..word.len() - 2];
    let bytes = if lower.starts_with("=?utf-8?b?") {
        base64::engine::general_purpose::STANDARD
            .decode(inner)
            .ok()?
    } else if lower.starts_with("=?utf-8?q?") {
        let raw = inner.as_bytes();
        let mut bytes = Vec::new();
        let mut i = 0;
        while i < raw.len() {
            match raw[i] {
                b'_' => bytes.push(b' '),
                b'=' if i + 3 <= raw.len() => {
                    bytes.push(u8::from_str_radix(&inner[i + 1..i + 3], 16).ok()?);
                    i += 2;
                }
                c => bytes.push(c),
            }
            i += 1;
        }
        bytes
    } else {
        return None;
    };
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[derive(Default)]
struct Shared {
    messages: Mutex<Vec<Received>>,
    down: AtomicBool,
    /// Milliseconds to wait before accepting each message.
    delay_ms: AtomicU64,
    /// Closes the connection after each accepted message, without waiting for `QUIT`.
    hang_up: AtomicBool,
    connections: AtomicU64,
}

/// The listener; stops when dropped (the accept thread ends with the process).
pub struct SmtpSink {
    pub port: u16,
    shared: Arc<Shared>,
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared::default());
        let s = shared.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                s.connections.fetch_add(1, Ordering::SeqCst);
                let s = s.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, &s);
                });
            }
        });
        SmtpSink { port, shared }
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn set_down(&self, down: bool) {
        self.shared.down.store(down, Ordering::SeqCst);
    }

    pub fn set_delay(&self, delay: Duration) {
        self.shared
            .delay_ms
            .store(u64::try_from(delay.as_millis()).unwrap(), Ordering::SeqCst);
    }

    pub fn set_hang_up_after_each(&self, hang_up: bool) {
        self.shared.hang_up.store(hang_up, Ordering::SeqCst);
    }

    /// How many connections it took so far.
    pub fn connections(&self) -> u64 {
        self.shared.connections.load(Ordering::SeqCst)
    }

    pub fn messages(&self) -> Vec<Received> {
        self.shared.messages.lock().unwrap().clone()
    }

    pub fn to(&self, address: &str) -> Vec<Received> {
        self.messages()
            .into_iter()
            .filter(|m| m.is_to(address))
            .collect()
    }

    /// Waits until at least `n` messages arrived (or `timeout` passed); returns them all.
    pub async fn wait_for_count(&self, n: usize, timeout: Duration) -> Vec<Received> {
        let end = Instant::now() + timeout;
        loop {
            let got = self.messages();
            if got.len() >= n || Instant::now() >= end {
                return got;
            }
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn serve(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    if shared.down.load(Ordering::SeqCst) {
        return Ok(());
    }
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut out = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    out.write_all(b"220 test-smtp ready\r\n")?;
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let cmd = line.trim_end().to_owned();
        let up = cmd.to_uppercase();
        if up.starts_with("EHLO") {
            out.write_all(
                b"250-test-smtp\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 10485760\r\n",
            )?;
        } else if up.starts_with("HELO") {
            out.write_all(b"250 test-smtp\r\n")?;
        } else if up.starts_with("MAIL FROM:") {
            to.clear();
            out.write_all(b"250 OK\r\n")?;
        } else if up.starts_with("RCPT TO:") {
            let addr = cmd[8..]
                .trim()
                .trim_start_matches('<')
                .split('>')
                .next()
                .unwrap_or("")
                .to_owned();
            to.push(addr);
            out.write_all(b"250 OK\r\n")?;
        } else if up == "DATA" {
            out.write_all(b"354 end with .\r\n")?;
            let mut data = String::new();
            loop {
                line.clear();
                if reader.read_line(&mut line)? == 0 {
                    return Ok(());
                }
                if line == ".\r\n" || line == ".\n" {
                    break;
                }
                let l = line
                    .strip_prefix('.')
                    .filter(|_| line.starts_with(".."))
                    .unwrap_or(&line);
                data.push_str(l);
            }
            let delay = shared.delay_ms.load(Ordering::SeqCst);
            if delay > 0 {
                std::thread::sleep(Duration::from_millis(delay));
            }
            if shared.down.load(Ordering::SeqCst) {
                return Ok(());
            }
            shared.messages.lock().unwrap().push(Received {
                to: to.clone(),
                data,
            });
            out.write_all(b"250 OK queued\r\n")?;
            if shared.hang_up.load(Ordering::SeqCst) {
                return Ok(());
            }
        } else if up == "RSET" || up == "NOOP" {
            out.write_all(b"250 OK\r\n")?;
        } else if up == "QUIT" {
            out.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            out.write_all(b"502 not implemented\r\n")?;
        }
    }
}
