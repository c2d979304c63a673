//! SMTP delivery: one connection to the relay, kept open between mails, with Nagle's algorithm
//! off.
//!
//! Why not lettre's `SmtpTransport`: it never sets `TCP_NODELAY`, and lettre writes a message's
//! closing `.` in a write of its own after the body. The kernel then holds those five bytes until
//! the relay acknowledges the body, and relays delay that acknowledgement (40 ms on Linux). So
//! every mail waited 40 ms: a turn's mail arrived about 45 ms after the move, and one thread sent
//! at most about 22 mails a second (`examples/bench_mail`). Fixed upstream (lettre pull request
//! 1159), not in a release yet. lettre still speaks all of SMTP here (commands, STARTTLS, AUTH);
//! this module opens the socket, wraps it in TLS for `smtps://`, and keeps the connection.
//!
//! lettre's socket-level API is async, and [`Smtp::send`] is called from job threads, some of
//! them inside a tokio runtime (tests): so the connection lives on a thread of its own with a
//! one-thread runtime, and a send is a request to it and a wait for the answer.

use anyhow::Context as _;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{AsyncSmtpConnection, AsyncTokioStream, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

/// A kept connection unused this long is closed and a new one opened: relays drop idle
/// connections (RFC 5321 allows after 5 minutes), and lettre's own pool waits 60 s.
const IDLE: Duration = Duration::from_secs(60);

/// Sends mail through the relay of an `SMTP_URL`.
pub struct Smtp {
    requests: mpsc::Sender<Request>,
}

struct Request {
    envelope: Envelope,
    message: Vec<u8>,
    answer: mpsc::SyncSender<Result<(), String>>,
}

impl Smtp {
    /// A sender to the relay `url` names (`smtp://host:port`, `smtps://user:pass@host`,
    /// `smtp://host:587?tls=required`, as lettre reads them), waiting at most `timeout` for the
    /// relay at each step. Connects at the first mail.
    ///
    /// # Errors
    /// A URL lettre would not accept, or no thread for the connection.
    pub fn new(url: &str, timeout: Duration) -> anyhow::Result<Smtp> {
        let relay = Relay::parse(url, timeout)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (requests, incoming) = mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("herald-smtp".to_owned())
            .spawn(move || {
                let mut link = Link { relay, kept: None };
                // Ends when the last `Smtp` is dropped.
                while let Ok(request) = incoming.recv() {
                    let sent = runtime.block_on(link.send(&request.envelope, &request.message));
                    let _ = request.answer.send(sent);
                }
                runtime.block_on(link.close());
            })
            .context("cannot start the SMTP thread")?;
        Ok(Smtp { requests })
    }

    /// Sends `message` (its bytes as formatted) to `envelope`'s recipients.
    ///
    /// # Errors
    /// What the relay or the network said, as text (every failure is worth a later try: the
    /// mail jobs retry).
    pub fn send(&self, envelope: &Envelope, message: Vec<u8>) -> Result<(), String> {
        let (answer, answered) = mpsc::sync_channel(1);
        let request = Request {
            envelope: envelope.clone(),
            message,
            answer,
        };
        let gone = || "the SMTP thread has stopped".to_owned();
        self.requests.send(request).map_err(|_| gone())?;
        answered.recv().map_err(|_| gone())?
    }
}

/// Where the relay is and how to talk to it: what lettre reads from an `SMTP_URL`.
struct Relay {
    host: String,
    port: u16,
    tls: Tls,
    hello: ClientId,
    credentials: Option<Credentials>,
    timeout: Duration,
}

impl Relay {
    /// Reads `url` as lettre's `SmtpTransport::from_url` does (which checks it first, so that
    /// what is accepted and the errors stay lettre's): `smtp` plain on 25, `smtp` with
    /// `tls=required` or `tls=opportunistic` STARTTLS on 587, `smtps` TLS from the start on 465;
    /// a path is the EHLO name; a user and password are the credentials.
    fn parse(url: &str, timeout: Duration) -> anyhow::Result<Relay> {
        lettre::SmtpTransport::from_url(url)?;
        let url = url::Url::parse(url)?;
        let host = url.host_str().context("smtp host undefined")?.to_owned();
        let tls_param = url
            .query_pairs()
            .find(|(k, _)| k == "tls")
            .map(|(_, v)| v.into_owned());
        let (tls, default_port) = match (url.scheme(), tls_param.as_deref()) {
            ("smtp", Some("required")) => (Tls::Required(TlsParameters::new(host.clone())?), 587),
            ("smtp", Some("opportunistic")) => {
                (Tls::Opportunistic(TlsParameters::new(host.clone())?), 587)
            }
            ("smtps", _) => (Tls::Wrapper(TlsParameters::new(host.clone())?), 465),
            _ => (Tls::None, 25),
        };
        let hello = match url.path().trim_matches('/') {
            "" => ClientId::default(),
            name => ClientId::Domain(name.to_owned()),
        };
        let decode = |s: &str| -> anyhow::Result<String> {
            Ok(percent_encoding::percent_decode_str(s)
                .decode_utf8()?
                .into_owned())
        };
        let credentials = match url.password() {
            Some(password) => Some(Credentials::new(decode(url.username())?, decode(password)?)),
            None => None,
        };
        Ok(Relay {
            port: url.port().unwrap_or(default_port),
            host,
            tls,
            hello,
            credentials,
            timeout,
        })
    }

    /// A new connection, greeted, encrypted as the URL asks, and signed in.
    async fn connect(&self) -> Result<AsyncSmtpConnection, String> {
        let tcp = within(
            self.timeout,
            TcpStream::connect((self.host.as_str(), self.port)),
        )
        .await?
        .map_err(|e| format!("cannot connect to {}:{}: {e}", self.host, self.port))?;
        // The point of this module (see the top).
        tcp.set_nodelay(true).map_err(|e| e.to_string())?;
        let stream: Box<dyn AsyncTokioStream> = match &self.tls {
            Tls::Wrapper(_) => {
                Box::new(within(self.timeout, tls_from_start(&self.host, tcp)).await??)
            }
            _ => Box::new(tcp),
        };
        let mut conn = within(
            self.timeout,
            AsyncSmtpConnection::connect_with_transport(stream, &self.hello),
        )
        .await?
        .map_err(|e| e.to_string())?;
        let starttls = match &self.tls {
            Tls::Required(params) => Some(params),
            Tls::Opportunistic(params) if conn.can_starttls() => Some(params),
            _ => None,
        };
        if let Some(params) = starttls {
            within(self.timeout, conn.starttls(params.clone(), &self.hello))
                .await?
                .map_err(|e| e.to_string())?;
        }
        if let Some(credentials) = &self.credentials {
            within(self.timeout, conn.auth(DEFAULT_MECHANISMS, credentials))
                .await?
                .map_err(|e| e.to_string())?;
        }
        Ok(conn)
    }
}

/// `smtps://`: TLS before the relay's greeting, checked against the same roots lettre uses
/// (`webpki-roots`), with the same provider (ring).
async fn tls_from_start(host: &str, tcp: TcpStream) -> Result<Encrypted, String> {
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| e.to_string())?
    .with_root_certificates(roots)
    .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from(host.to_owned())
        .map_err(|e| format!("{host} is not a TLS server name: {e}"))?;
    tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(name, tcp)
        .await
        .map(Encrypted)
        .map_err(|e| format!("TLS with {host}: {e}"))
}

/// A TLS stream lettre can run SMTP over (it asks streams for their peer's address).
#[derive(Debug)]
struct Encrypted(tokio_rustls::client::TlsStream<TcpStream>);

impl AsyncTokioStream for Encrypted {
    fn peer_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        self.0.get_ref().0.peer_addr()
    }
}

impl tokio::io::AsyncRead for Encrypted {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for Encrypted {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

/// `step`, or an error once `limit` has passed.
async fn within<T>(limit: Duration, step: impl Future<Output = T>) -> Result<T, String> {
    tokio::time::timeout(limit, step)
        .await
        .map_err(|_| format!("no answer from the SMTP relay within {limit:?}"))
}

/// The relay and the connection kept to it, with when it last carried a mail.
struct Link {
    relay: Relay,
    kept: Option<(AsyncSmtpConnection, Instant)>,
}

impl Link {
    async fn send(&mut self, envelope: &Envelope, message: &[u8]) -> Result<(), String> {
        let (mut conn, reused) = match self.kept.take() {
            Some((conn, used)) if !conn.has_broken() && used.elapsed() < IDLE => (conn, true),
            old => {
                if let Some((conn, _)) = old {
                    self.quit(conn).await;
                }
                (self.relay.connect().await?, false)
            }
        };
        match within(self.relay.timeout, conn.send(envelope, message)).await {
            Ok(Ok(_)) => {
                self.kept = Some((conn, Instant::now()));
                Ok(())
            }
            // A kept connection the relay closed meanwhile fails at the first command: once
            // more on a new one. A refusal (5xx) would only be refused again.
            Ok(Err(e)) if reused && !e.is_permanent() => {
                conn.abort().await;
                let mut fresh = self.relay.connect().await?;
                within(self.relay.timeout, fresh.send(envelope, message))
                    .await?
                    .map_err(|e| e.to_string())?;
                self.kept = Some((fresh, Instant::now()));
                Ok(())
            }
            Ok(Err(e)) => {
                conn.abort().await;
                Err(e.to_string())
            }
            Err(late) => Err(late),
        }
    }

    /// Says goodbye on the kept connection, if any (at shutdown).
    async fn close(&mut self) {
        if let Some((conn, _)) = self.kept.take() {
            self.quit(conn).await;
        }
    }

    async fn quit(&self, mut conn: AsyncSmtpConnection) {
        if within(self.relay.timeout, conn.quit()).await.is_err() {
            conn.abort().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(url: &str) -> Relay {
        Relay::parse(url, Duration::from_secs(1)).unwrap()
    }

    #[test]
    fn urls_read_as_lettre_reads_them() {
        let plain = parse("smtp://mail.example.org");
        assert_eq!((plain.host.as_str(), plain.port), ("mail.example.org", 25));
        assert!(matches!(plain.tls, Tls::None));
        assert!(plain.credentials.is_none());
        assert_eq!(plain.hello, ClientId::default());

        let starttls = parse("smtp://mail.example.org?tls=required");
        assert_eq!(starttls.port, 587);
        assert!(matches!(starttls.tls, Tls::Required(_)));
        assert!(matches!(
            parse("smtp://h:2525?tls=opportunistic").tls,
            Tls::Opportunistic(_)
        ));

        let wrapped = parse("smtps://mailer:p%40ss@mail.example.org/herald.example");
        assert_eq!(wrapped.port, 465);
        assert!(matches!(wrapped.tls, Tls::Wrapper(_)));
        assert!(wrapped.credentials == Some(Credentials::new("mailer".into(), "p@ss".into())));
        assert_eq!(wrapped.hello, ClientId::Domain("herald.example".into()));
        assert_eq!(parse("smtps://h:2465").port, 2465);
    }
}
