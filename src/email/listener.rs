//! The inbound listener (moves by email, design.md section 18): SMTP, or LMTP when the client
//! greets with `LHLO`, on `INBOUND_SMTP_ADDR`, for a mail server (or anything that speaks SMTP)
//! to deliver replies to. The protocol is `mailin`'s state machine; this module drives it over
//! a tokio `TcpListener` and hands each complete message to [`inbound::receive`].
//!
//! `EHLO` offers `8BITMIME`, `SMTPUTF8` and `SIZE` ([`MAX_MESSAGE_BYTES`]); `MAIL FROM` and
//! `RCPT TO` are read by [`envelope`] (their parameters, UTF-8 addresses), the rest by `mailin`.
//! Only reply addresses (`play+<token>@MAIL_DOMAIN`) are accepted at `RCPT TO`; a message is
//! answered `250` once it has been read and its outcome committed, `451` when the database could
//! not be reached (the sender's server tries again), `552` when it is too large (declared so at
//! `MAIL FROM`, or sent so: then it is read to its end and dropped). Nothing here
//! logs a command, an address or a message: they carry tokens (and `mailin`'s own trace lines
//! are turned off in [`crate::logging`]).

use crate::db::PgPool;
use crate::email::envelope;
use crate::error::ApiError;
use crate::services::inbound::{self, Envelope, Inbox, MAX_MESSAGE_BYTES};
use mailin::{Action, Handler, Response, SessionBuilder};
use std::cell::{Cell, RefCell};
use std::net::{IpAddr, SocketAddr};
use std::rc::Rc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// The longest command line read (RFC 5321 allows 512 octets; we are lenient). A message's
/// lines are bounded only by the message's size.
const MAX_LINE: u64 = 64 * 1024;
/// How long a client may stay silent (RFC 5321 section 4.5.3.2: at least 5 minutes).
const IDLE: Duration = Duration::from_secs(300);
/// How long a client may stay silent while more than three quarters of [`MAX_SESSIONS`] are
/// taken, as Postfix does under stress: silent connections must not keep a relay's real mail
/// out for five minutes.
const IDLE_UNDER_STRESS: Duration = Duration::from_secs(10);
/// How often a silent session looks again at how long it may stay.
const IDLE_CHECK: Duration = Duration::from_secs(5);
/// Connections served at once; more are turned away with `421`.
const MAX_SESSIONS: usize = 64;

/// How long a silent client may stay, with `sessions` open.
fn idle_allowed(sessions: usize) -> Duration {
    if sessions * 4 > MAX_SESSIONS * 3 {
        IDLE_UNDER_STRESS
    } else {
        IDLE
    }
}
/// Recipients per message.
const MAX_RECIPIENTS: usize = 20;

/// A bound listener, not yet serving.
pub struct Listener {
    listener: std::net::TcpListener,
    inbox: Inbox,
    pool: PgPool,
}

impl Listener {
    /// Binds `addr` (port 0: a free port).
    ///
    /// # Errors
    /// When the address cannot be bound.
    pub fn bind(addr: SocketAddr, inbox: Inbox, pool: PgPool) -> std::io::Result<Listener> {
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        Ok(Listener {
            listener,
            inbox,
            pool,
        })
    }

    /// The bound address.
    ///
    /// # Errors
    /// When the socket cannot say.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Accepts connections until the task is dropped. Must run on a local task set (actix's
    /// runtime is one): each session is a local task.
    ///
    /// # Errors
    /// When the socket cannot be handed to tokio.
    pub async fn serve(self) -> std::io::Result<()> {
        let listener = tokio::net::TcpListener::from_std(self.listener)?;
        let sessions = Rc::new(Cell::new(0usize));
        loop {
            let (stream, peer) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "inbound SMTP: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let (inbox, pool, count) = (self.inbox.clone(), self.pool.clone(), sessions.clone());
            tokio::task::spawn_local(async move {
                count.set(count.get() + 1);
                if let Err(e) = session(stream, peer.ip(), inbox, pool, &count).await {
                    tracing::debug!(error = %e, "inbound SMTP session ended");
                }
                count.set(count.get() - 1);
            });
        }
    }
}

/// A message received in full, with its envelope.
struct Received {
    envelope: Envelope,
    data: Vec<u8>,
    too_big: bool,
}

/// What the protocol callbacks collect for the session loop.
#[derive(Default)]
struct Collected {
    /// The arguments of the `MAIL FROM` or `RCPT TO` being processed (`mailin` is given a
    /// stand-in line: see [`envelope::Verb::stand_in`]).
    arguments: Option<Vec<u8>>,
    mail_from: String,
    /// The transaction's `MAIL FROM` gave `SMTPUTF8`.
    smtputf8: bool,
    recipients: Vec<String>,
    data: Vec<u8>,
    too_big: bool,
    in_data: bool,
    complete: Option<Received>,
}

/// `mailin`'s callbacks: they only collect; the session loop does the work.
struct Collector {
    inbox: Inbox,
    shared: Rc<RefCell<Collected>>,
}

impl Handler for Collector {
    // Called by `mailin` only where MAIL is in sequence (after EHLO, outside a transaction):
    // its `503` comes before any refusal of the parameters, as in Postfix.
    fn mail(&mut self, _ip: IpAddr, _domain: &str, from: &str) -> Response {
        let mut c = self.shared.borrow_mut();
        let arguments = c
            .arguments
            .take()
            .unwrap_or_else(|| format!("<{from}>").into_bytes());
        let mail = match envelope::read_mail(&arguments) {
            Ok(mail) => mail,
            Err(refused) => return refused,
        };
        c.mail_from = mail.path;
        c.smtputf8 = mail.smtputf8;
        c.recipients.clear();
        mailin::response::OK
    }

    fn rcpt(&mut self, to: &str) -> Response {
        let mut c = self.shared.borrow_mut();
        let arguments = c
            .arguments
            .take()
            .unwrap_or_else(|| format!("<{to}>").into_bytes());
        let to = match envelope::read_rcpt(&arguments, c.smtputf8) {
            Ok(to) => to,
            Err(refused) => return refused,
        };
        if c.recipients.len() >= MAX_RECIPIENTS {
            return Response::custom(452, "Too many recipients".to_owned());
        }
        if inbound::accepts_recipient(&self.inbox, &to) {
            c.recipients.push(to.to_lowercase());
            mailin::response::OK
        } else {
            mailin::response::NO_MAILBOX
        }
    }

    fn data_start(
        &mut self,
        _domain: &str,
        _from: &str,
        _is8bit: bool,
        _to: &[String],
    ) -> Response {
        let mut c = self.shared.borrow_mut();
        c.in_data = true;
        c.data.clear();
        c.too_big = false;
        mailin::response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        let mut c = self.shared.borrow_mut();
        if c.data.len() + buf.len() > MAX_MESSAGE_BYTES {
            c.too_big = true;
        } else {
            c.data.extend_from_slice(buf);
        }
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let mut c = self.shared.borrow_mut();
        c.in_data = false;
        let received = Received {
            envelope: Envelope {
                mail_from: std::mem::take(&mut c.mail_from),
                recipients: std::mem::take(&mut c.recipients),
            },
            data: std::mem::take(&mut c.data),
            too_big: c.too_big,
        };
        c.complete = Some(received);
        // Not sent: the session loop answers once the message has been read.
        mailin::response::OK
    }
}

async fn session(
    stream: tokio::net::TcpStream,
    peer: IpAddr,
    inbox: Inbox,
    pool: PgPool,
    sessions: &Cell<usize>,
) -> std::io::Result<()> {
    let (reader, mut writer) = stream.into_split();
    if sessions.get() > MAX_SESSIONS {
        let bye = Response::custom(421, "Too many connections, try again later".to_owned());
        writer.write_all(&bye.buffer()?).await?;
        return Ok(());
    }
    let name = inbox.domain.clone().unwrap_or_else(|| "herald".to_owned());
    let shared = Rc::new(RefCell::new(Collected::default()));
    let collector = Collector {
        inbox: inbox.clone(),
        shared: shared.clone(),
    };
    let mut session = SessionBuilder::new(name.clone()).build(peer, collector);
    writer.write_all(&session.greeting().buffer()?).await?;
    let mut reader = BufReader::new(reader);
    let mut lmtp = false;
    let mut line = Vec::with_capacity(1024);
    loop {
        line.clear();
        // A message's lines may be as long as the message may be (HTML mail programs write
        // whole paragraphs as one line); a command's are short.
        let in_data = shared.borrow().in_data;
        let limit = if in_data {
            MAX_MESSAGE_BYTES as u64 + 2
        } else {
            MAX_LINE
        };
        // Read in slices, so that a silent client is let go as soon as the listener comes under
        // stress, not only when its five minutes are up. A slice cut short keeps what it read
        // in `line`, and the next one goes on from there.
        let silent_since = tokio::time::Instant::now();
        let n = loop {
            let left = limit.saturating_sub(line.len() as u64);
            let mut limited = (&mut reader).take(left);
            let slice = limited.read_until(b'\n', &mut line);
            match tokio::time::timeout(IDLE_CHECK, slice).await {
                // What the line holds, slices cut short included (0: the client has gone).
                Ok(result) => break result.map(|_| line.len())?,
                Err(_) if silent_since.elapsed() < idle_allowed(sessions.get()) => {}
                Err(_) => {
                    let bye = Response::custom(421, "Idle too long, closing".to_owned());
                    writer.write_all(&bye.buffer()?).await?;
                    return Ok(());
                }
            }
        };
        if n == 0 {
            return Ok(());
        }
        if !line.ends_with(b"\n") {
            let bye = Response::custom(500, "Line too long".to_owned());
            writer.write_all(&bye.buffer()?).await?;
            return Ok(());
        }
        if !in_data {
            if line.len() >= 4 && line[..4].eq_ignore_ascii_case(b"HELP") {
                let help = Response::custom(
                    214,
                    "2.0.0 This server takes replies to play+...@ addresses; see RFC 5321"
                        .to_owned(),
                );
                writer.write_all(&help.buffer()?).await?;
                continue;
            }
            lmtp |= rewrite_command(&mut line);
            if let Some((verb, arguments)) = envelope::split(&line) {
                shared.borrow_mut().arguments = Some(arguments.to_vec());
                line = verb.stand_in().to_vec();
            }
        }
        let ehlo = !in_data && line.len() >= 4 && line[..4].eq_ignore_ascii_case(b"EHLO");
        let response = session.process(&line);
        // Whatever `mailin` did with the command, its arguments are not the next one's.
        shared.borrow_mut().arguments = None;
        let complete = shared.borrow_mut().complete.take();
        if let Some(received) = complete {
            let answer = read_message(&inbox, &pool, received).await;
            let times = if lmtp { answer.1.max(1) } else { 1 };
            for _ in 0..times {
                writer.write_all(&answer.0.buffer()?).await?;
            }
            continue;
        }
        if response.action == Action::NoReply {
            continue;
        }
        if ehlo && response.code == 250 {
            writer.write_all(&envelope::ehlo_reply(&name)).await?;
            continue;
        }
        writer.write_all(&response.buffer()?).await?;
        if response.action == Action::Close {
            return Ok(());
        }
    }
}

/// Rewrites `LHLO` (LMTP, RFC 2033: SMTP with one answer per recipient after DATA) as `EHLO`,
/// which `mailin` reads, returning `true`.
fn rewrite_command(line: &mut [u8]) -> bool {
    if line.len() >= 4 && line[..4].eq_ignore_ascii_case(b"LHLO") {
        line[..4].copy_from_slice(b"EHLO");
        return true;
    }
    false
}

/// Reads a complete message; the answer for it, and for how many recipients (LMTP).
async fn read_message(inbox: &Inbox, pool: &PgPool, received: Received) -> (Response, usize) {
    let Received {
        envelope,
        data,
        too_big,
    } = received;
    let recipients = envelope.recipients.len();
    if too_big {
        return (envelope::too_big(), recipients);
    }
    if recipients == 0 {
        return (
            Response::custom(554, "No valid recipients".to_owned()),
            recipients,
        );
    }
    let inbox = inbox.clone();
    let done = crate::db::run(pool, move |conn| {
        inbound::receive(conn, &inbox, &data, Some(&envelope))
    })
    .await
    .map_err(ApiError::from);
    let response = match done {
        Ok(_) => mailin::response::OK,
        // Refused for good, saying why: the sending relay puts the line in its bounce.
        Err(ApiError::Validation(why)) => Response::custom(554, reply_line(&why)),
        Err(e @ ApiError::PayloadTooLarge { .. }) => {
            Response::custom(554, reply_line(&e.to_string()))
        }
        Err(e) => {
            tracing::warn!(error = %e, "inbound SMTP: a message could not be read; the sender will retry");
            mailin::response::INTERNAL_ERROR
        }
    };
    (response, recipients)
}

/// `why` as the text of an SMTP reply line: printable ASCII only (a reply is one line, and
/// `…` or a line break would break it), at most 200 characters.
fn reply_line(why: &str) -> String {
    let line: String = why
        .chars()
        .map(|c| if c == '…' { '.' } else { c })
        .filter(|c| c.is_ascii_graphic() || *c == ' ')
        .take(200)
        .collect();
    format!("5.6.0 Not a message herald can read: {line}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(line: &str) -> (String, bool) {
        let mut bytes = line.as_bytes().to_vec();
        let lmtp = rewrite_command(&mut bytes);
        (String::from_utf8(bytes).unwrap(), lmtp)
    }

    #[test]
    fn lhlo_becomes_what_mailin_reads() {
        assert_eq!(
            rewritten("LHLO mx.example\r\n"),
            ("EHLO mx.example\r\n".to_owned(), true)
        );
        assert_eq!(rewritten("DATA\r\n"), ("DATA\r\n".to_owned(), false));
    }
}
