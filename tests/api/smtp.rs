//! A tiny SMTP listener for the tests: it keeps every message it receives, can be taken "down" (it
//! accepts and hangs up at once, like a dead relay), and can be slowed down so that a worker can be
//! killed in the middle of a batch, or made to hang up after each message (as a relay closing idle
//! connections does); it counts the connections it took and the `QUIT`s. It listens on 127.0.0.1
//! or, when asked, on another address (`[::1]`). It takes `AUTH PLAIN`, and speaks TLS from the
//! start or after `STARTTLS` with the certificate in `tls/` (signed by the test authority
//! `tls/ca.pem`, for 127.0.0.1 and localhost; its key is a test fixture, trusted by nothing else).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The authority that signed the test relay's certificate (PEM).
pub const TEST_AUTHORITY: &[u8] = include_bytes!("tls/ca.pem");

/// When the listener speaks TLS.
#[derive(Debug, Clone, Copy)]
pub enum Tls {
    /// From the first byte (`smtps://`).
    FromStart,
    /// After `STARTTLS`, which it offers.
    StartTls,
}

/// One message as received.
#[derive(Debug, Clone)]
pub struct Received {
    pub to: Vec<String>,
    pub data: String,
    /// Whether the message came over TLS.
    pub encrypted: bool,
    /// The user and password the session signed in with, if it did.
    pub signed_in: Option<(String, String)>,
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
    tls: Option<(Tls, Arc<rustls::ServerConfig>)>,
    /// `AUTH` commands received, on any connection, encrypted or not.
    auth_attempts: AtomicU64,
    /// `QUIT` commands received: goodbyes said.
    quits: AtomicU64,
}

/// The listener; stops when dropped (the accept thread ends with the process).
pub struct SmtpSink {
    pub port: u16,
    shared: Arc<Shared>,
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        SmtpSink::listen("127.0.0.1:0", Shared::default())
    }

    /// A plain listener on `address` (`[::1]:0`: IPv6); `None` when it cannot be bound there.
    pub fn start_on(address: &str) -> Option<SmtpSink> {
        std::net::TcpListener::bind(address).ok()?;
        Some(SmtpSink::listen(address, Shared::default()))
    }

    /// A listener speaking TLS as `tls` says, with the test relay's certificate.
    pub fn start_tls(tls: Tls) -> SmtpSink {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let chain = CertificateDer::pem_slice_iter(include_bytes!("tls/relay.pem"))
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        let key = PrivateKeyDer::from_pem_slice(include_bytes!("tls/relay.key")).unwrap();
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
        SmtpSink::listen(
            "127.0.0.1:0",
            Shared {
                tls: Some((tls, Arc::new(config))),
                ..Shared::default()
            },
        )
    }

    fn listen(address: &str, shared: Shared) -> SmtpSink {
        let listener = TcpListener::bind(address).unwrap();
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(shared);
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

    /// How many `AUTH` commands it received so far.
    pub fn auth_attempts(&self) -> u64 {
        self.shared.auth_attempts.load(Ordering::SeqCst)
    }

    /// How many `QUIT`s it received so far.
    pub fn quits(&self) -> u64 {
        self.shared.quits.load(Ordering::SeqCst)
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
    let encrypt = |plain: TcpStream, config: &Arc<rustls::ServerConfig>| {
        let session =
            rustls::ServerConnection::new(config.clone()).map_err(std::io::Error::other)?;
        Ok::<_, std::io::Error>(BufReader::new(rustls::StreamOwned::new(session, plain)))
    };
    match &shared.tls {
        None => converse(BufReader::new(stream), shared, (false, false, true)).map(drop),
        Some((Tls::FromStart, config)) => {
            converse(encrypt(stream, config)?, shared, (true, false, true)).map(drop)
        }
        Some((Tls::StartTls, config)) => {
            match converse(BufReader::new(stream), shared, (false, true, true))? {
                Some(plain) => {
                    converse(encrypt(plain, config)?, shared, (true, false, false)).map(drop)
                }
                None => Ok(()),
            }
        }
    }
}

/// One SMTP session on `io` (`greet`: not after STARTTLS, where the client speaks first); returns
/// the stream when the client asked `STARTTLS` (offered only when `starttls`), for the rest of
/// the session to go on encrypted.
fn converse<S: Read + Write>(
    mut io: BufReader<S>,
    shared: &Shared,
    (encrypted, starttls, greet): (bool, bool, bool),
) -> std::io::Result<Option<S>> {
    fn say<S: Read + Write>(io: &mut BufReader<S>, text: &[u8]) -> std::io::Result<()> {
        io.get_mut().write_all(text)?;
        io.get_mut().flush()
    }
    if greet {
        say(&mut io, b"220 test-smtp ready\r\n")?;
    }
    let mut to = Vec::new();
    let mut signed_in = None;
    let mut line = String::new();
    loop {
        line.clear();
        if io.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let cmd = line.trim_end().to_owned();
        let up = cmd.to_uppercase();
        if up.starts_with("EHLO") {
            let offer = if starttls { "250-STARTTLS\r\n" } else { "" };
            let reply = format!(
                "250-test-smtp\r\n{offer}250-AUTH PLAIN\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 10485760\r\n"
            );
            say(&mut io, reply.as_bytes())?;
        } else if up == "STARTTLS" && starttls {
            say(&mut io, b"220 go ahead\r\n")?;
            return Ok(Some(io.into_inner()));
        } else if let Some(initial) = cmd.strip_prefix("AUTH PLAIN ") {
            use base64::Engine;
            shared.auth_attempts.fetch_add(1, Ordering::SeqCst);
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(initial.trim())
                .unwrap_or_default();
            let parts: Vec<String> = decoded
                .split(|&b| b == 0)
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .collect();
            if let [_, user, password] = parts.as_slice() {
                signed_in = Some((user.clone(), password.clone()));
                say(&mut io, b"235 accepted\r\n")?;
            } else {
                say(&mut io, b"501 malformed\r\n")?;
            }
        } else if up.starts_with("HELO") {
            say(&mut io, b"250 test-smtp\r\n")?;
        } else if up.starts_with("MAIL FROM:") {
            to.clear();
            say(&mut io, b"250 OK\r\n")?;
        } else if up.starts_with("RCPT TO:") {
            let addr = cmd[8..]
                .trim()
                .trim_start_matches('<')
                .split('>')
                .next()
                .unwrap_or("")
                .to_owned();
            to.push(addr);
            say(&mut io, b"250 OK\r\n")?;
        } else if up == "DATA" {
            say(&mut io, b"354 end with .\r\n")?;
            let mut data = String::new();
            loop {
                line.clear();
                if io.read_line(&mut line)? == 0 {
                    return Ok(None);
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
                return Ok(None);
            }
            shared.messages.lock().unwrap().push(Received {
                to: to.clone(),
                data,
                encrypted,
                signed_in: signed_in.clone(),
            });
            say(&mut io, b"250 OK queued\r\n")?;
            if shared.hang_up.load(Ordering::SeqCst) {
                return Ok(None);
            }
        } else if up == "RSET" || up == "NOOP" {
            say(&mut io, b"250 OK\r\n")?;
        } else if up == "QUIT" {
            shared.quits.fetch_add(1, Ordering::SeqCst);
            say(&mut io, b"221 bye\r\n")?;
            return Ok(None);
        } else {
            say(&mut io, b"502 not implemented\r\n")?;
        }
    }
}
