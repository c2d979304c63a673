//! Mail delivery: mails a second down one SMTP connection, and how long each takes, through
//! herald's relay connection (`herald::email::smtp`) and, in the same run, through lettre's own
//! pooled `SmtpTransport` (what herald used before). The relay is a minimal SMTP listener on
//! loopback in this process, answering at once, so the figures are the client's and the
//! kernel's. It prints numbers; it asserts only that every mail arrived.
//!
//! Run: `cargo run --release --example bench_mail [mails]` (default 200 each).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use herald::email::smtp::Smtp;
use lettre::{Message, SmtpTransport, Transport};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A relay that accepts every message and keeps only their count.
fn relay(stored: Arc<AtomicU64>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let stored = stored.clone();
            std::thread::spawn(move || {
                let _ = converse(stream, &stored);
            });
        }
    });
    port
}

fn converse(stream: TcpStream, stored: &AtomicU64) -> std::io::Result<()> {
    let mut out = stream.try_clone()?;
    let mut lines = BufReader::new(stream);
    out.write_all(b"220 bench ready\r\n")?;
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let command = line.trim_end().to_ascii_uppercase();
        if command.starts_with("EHLO") {
            out.write_all(b"250-bench\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")?;
        } else if command == "DATA" {
            out.write_all(b"354 go on\r\n")?;
            loop {
                line.clear();
                if lines.read_line(&mut line)? == 0 {
                    return Ok(());
                }
                if line == ".\r\n" {
                    break;
                }
            }
            stored.fetch_add(1, Ordering::SeqCst);
            out.write_all(b"250 queued\r\n")?;
        } else if command == "QUIT" {
            out.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            out.write_all(b"250 OK\r\n")?;
        }
    }
}

/// A turn mail's size: about 6 KB of text and HTML.
fn message(n: usize) -> Message {
    Message::builder()
        .from("Herald <herald@localhost>".parse().unwrap())
        .to(format!("player{n}@example.test").parse().unwrap())
        .subject("Your move in Magnate")
        .body("Your move. ".repeat(560))
        .unwrap()
}

/// Sends `mails` one after the other with `send`; prints mails/s and the spread per mail.
fn measure(label: &str, mails: usize, stored: &AtomicU64, send: impl Fn(&Message)) {
    send(&message(0)); // the connection is opened outside the figures
    let before = stored.load(Ordering::SeqCst);
    let mut each = Vec::with_capacity(mails);
    let start = Instant::now();
    for n in 0..mails {
        let m = message(n);
        let t = Instant::now();
        send(&m);
        each.push(t.elapsed());
    }
    let total = start.elapsed();
    assert_eq!(stored.load(Ordering::SeqCst) - before, mails as u64);
    each.sort();
    let at = |q: f64| each[((each.len() - 1) as f64 * q) as usize].as_secs_f64() * 1000.0;
    println!(
        "{label}: mails={mails} mails_per_s={:.0} median_ms={:.2} p99_ms={:.2}",
        mails as f64 / total.as_secs_f64(),
        at(0.5),
        at(0.99)
    );
}

fn main() {
    let mails: usize = std::env::args()
        .nth(1)
        .map_or(200, |a| a.parse().expect("mails: a number"));
    let stored = Arc::new(AtomicU64::new(0));
    let url = format!("smtp://127.0.0.1:{}", relay(stored.clone()));

    let herald = Smtp::new(&url, Duration::from_secs(20), None).unwrap();
    measure("herald relay connection", mails, &stored, |m| {
        herald.send(m.envelope(), m.formatted()).unwrap();
    });
    let lettre = SmtpTransport::from_url(&url)
        .unwrap()
        .timeout(Some(Duration::from_secs(20)))
        .build();
    measure("lettre SmtpTransport (pooled)", mails, &stored, |m| {
        lettre.send(m).unwrap();
    });
}
