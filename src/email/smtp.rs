//! SMTP delivery: one connection to the relay, kept open between mails, with Nagle's algorithm
//! off.
//!
//! Why not lettre's `SmtpTransport`: it never sets `TCP_NODELAY`, and lettre writes a message's
//! closing `.` in a write of its own after the body. The kernel then holds those five bytes until
//! the relay acknowledges the body, and relays delay that acknowledgement (40 ms on Linux). So
//! every mail waited 40 ms: a turn's mail arrived about 45 ms after the move, and one thread sent
//! at most about 23 mails a second (`examples/bench_mail`). Fixed upstream (lettre pull request
//! 1159), not in a release yet. lettre still speaks all of SMTP here (commands, STARTTLS, AUTH);
//! this module opens the socket, wraps it in TLS for `smtps://`, and keeps the connection.
//!
//! lettre's socket-level API is async, and [`Smtp::send`] is called from job threads, some of
//! them inside a tokio runtime (tests): so the connection lives on a thread of its own with a
//! one-thread runtime, and a send is a request to it and a wait for the answer.

use anyhow::Context as _;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{
    AsyncSmtpConnection, AsyncTokioStream, Certificate, Tls, TlsParameters,
};
use lettre::transport::smtp::extension::ClientId;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject as _;
use std::sync::{Arc, mpsc};
use std::time::Duration;
use tokio::net::TcpStream;

/// A kept connection unused this long is closed: relays drop idle connections (RFC 5321 allows
/// it after 5 minutes), and lettre's own pool closed them after 60 s.
const IDLE: Duration = Duration::from_secs(60);

/// A mail's exchange (MAIL, RCPT, DATA, the message) may take this many timeouts in all: lettre's
/// transport gave each read and write the timeout.
const SEND_STEPS: u32 = 4;

/// How long a goodbye (`QUIT`) may take before the connection is just closed.
const QUIT_WAIT: Duration = Duration::from_secs(2);

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
    /// relay at each step. Connects at the first mail. `authorities`: PEM certificates trusted
    /// besides the public roots (`SMTP_CA_FILE`: a relay signed by a private authority).
    ///
    /// # Errors
    /// A URL lettre would not accept, authorities that hold no certificate, or no thread for
    /// the connection.
    pub fn new(url: &str, timeout: Duration, authorities: Option<&[u8]>) -> anyhow::Result<Smtp> {
        Smtp::with_idle(url, timeout, authorities, IDLE)
    }

    /// As [`Smtp::new`], the kept connection closed (with `QUIT`) after `idle` without a mail
    /// instead of 60 s.
    ///
    /// # Errors
    /// As [`Smtp::new`].
    pub fn with_idle(
        url: &str,
        timeout: Duration,
        authorities: Option<&[u8]>,
        idle: Duration,
    ) -> anyhow::Result<Smtp> {
        let relay = Relay::parse(url, timeout, authorities)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (requests, incoming) = mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("herald-smtp".to_owned())
            .spawn(move || {
                let mut link = Link { relay, kept: None };
                loop {
                    match incoming.recv_timeout(idle) {
                        Ok(request) => {
                            let sent =
                                runtime.block_on(link.send(&request.envelope, &request.message));
                            let _ = request.answer.send(sent);
                        }
                        // Nothing to send for a while: goodbye, rather than leave the relay a
                        // session to time out (lettre's pool closed idle connections too).
                        Err(mpsc::RecvTimeoutError::Timeout) => runtime.block_on(link.close()),
                        // The last `Smtp` is gone.
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    }
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
    /// For `smtps://`: the TLS set-up (for STARTTLS, lettre's parameters in `tls` carry it).
    wrap: Option<Arc<rustls::ClientConfig>>,
}

impl Relay {
    /// Reads `url` as lettre's `SmtpTransport::from_url` does (which checks it first, so that
    /// what is accepted and the errors stay lettre's): `smtp` plain on 25, `smtp` with
    /// `tls=required` or `tls=opportunistic` STARTTLS on 587, `smtps` TLS from the start on 465;
    /// a path is the EHLO name; a user and password are the credentials. TLS trusts `pem`'s
    /// authorities besides the public roots.
    fn parse(url: &str, timeout: Duration, pem: Option<&[u8]>) -> anyhow::Result<Relay> {
        lettre::SmtpTransport::from_url(url)?;
        let authorities = match pem {
            Some(pem) => {
                let certificates = CertificateDer::pem_slice_iter(pem)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| anyhow::anyhow!("unreadable certificate: {e}"))?;
                anyhow::ensure!(!certificates.is_empty(), "no PEM certificate in it");
                certificates
            }
            None => Vec::new(),
        };
        let mut roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let (_, unusable) = roots.add_parsable_certificates(authorities);
        anyhow::ensure!(unusable == 0, "{unusable} of the certificates are unusable");
        let url = url::Url::parse(url)?;
        // The host as a name or an address, an IPv6 one without its URL brackets.
        let host = match url.host().context("smtp host undefined")? {
            url::Host::Ipv6(address) => address.to_string(),
            host => host.to_string(),
        };
        let tls_param = url
            .query_pairs()
            .find(|(k, _)| k == "tls")
            .map(|(_, v)| v.into_owned());
        let params = || -> anyhow::Result<TlsParameters> {
            let mut builder = TlsParameters::builder(host.clone());
            if let Some(pem) = pem {
                builder = builder.add_root_certificate(Certificate::from_pem(pem)?);
            }
            Ok(builder.build()?)
        };
        let (tls, default_port) = match (url.scheme(), tls_param.as_deref()) {
            ("smtp", Some("required")) => (Tls::Required(params()?), 587),
            ("smtp", Some("opportunistic")) => (Tls::Opportunistic(params()?), 587),
            // The parameters go unused (`tls_from_start` wraps the socket), but the mode is
            // lettre's own enum.
            ("smtps", _) => (Tls::Wrapper(params()?), 465),
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
        // For `smtps://`, the TLS set-up, built once: the same roots lettre uses
        // (`webpki-roots`, and `pem`'s) and the same provider (ring).
        let wrap = match tls {
            Tls::Wrapper(_) => Some(Arc::new(
                rustls::ClientConfig::builder_with_provider(Arc::new(
                    rustls::crypto::ring::default_provider(),
                ))
                .with_safe_default_protocol_versions()?
                .with_root_certificates(roots)
                .with_no_client_auth(),
            )),
            _ => None,
        };
        Ok(Relay {
            port: url.port().unwrap_or(default_port),
            host,
            tls,
            hello,
            credentials,
            timeout,
            wrap,
        })
    }

    /// A TCP connection to the first of the host's addresses that answers, each given the
    /// timeout (as lettre does: an address that does not answer must not cost the others).
    async fn reach(&self) -> Result<TcpStream, String> {
        let at = format!("{}:{}", self.host, self.port);
        let addresses = within(
            self.timeout,
            tokio::net::lookup_host((self.host.as_str(), self.port)),
        )
        .await?
        .map_err(|e| format!("cannot resolve {at}: {e}"))?;
        let mut last = format!("{at} has no address");
        for address in addresses {
            match within(self.timeout, TcpStream::connect(address)).await {
                Ok(Ok(tcp)) => return Ok(tcp),
                Ok(Err(e)) => last = e.to_string(),
                Err(late) => last = late,
            }
        }
        Err(format!("cannot connect to {at}: {last}"))
    }

    /// A new connection, greeted, encrypted as the URL asks, and signed in.
    async fn connect(&self) -> Result<AsyncSmtpConnection, String> {
        let tcp = self.reach().await?;
        // The point of this module (see the top).
        tcp.set_nodelay(true)
            .map_err(|e| format!("cannot set TCP_NODELAY: {e}"))?;
        let stream: Box<dyn AsyncTokioStream> = match &self.wrap {
            Some(config) => {
                Box::new(within(self.timeout, self.tls_from_start(config, tcp)).await??)
            }
            None => Box::new(tcp),
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

    /// `smtps://`: TLS before the relay's greeting. lettre's own TLS set-up only wraps sockets
    /// it opened itself (short of a type it marks as not meant to be public).
    async fn tls_from_start(
        &self,
        config: &Arc<rustls::ClientConfig>,
        tcp: TcpStream,
    ) -> Result<Encrypted, String> {
        let host = &self.host;
        let name = rustls::pki_types::ServerName::try_from(host.clone())
            .map_err(|e| format!("{host} is not a TLS server name: {e}"))?;
        tokio_rustls::TlsConnector::from(config.clone())
            .connect(name, tcp)
            .await
            .map(Encrypted)
            .map_err(|e| format!("TLS with {host}: {e}"))
    }
}

/// A TLS stream lettre can run SMTP over (it asks streams for their peer's address). lettre
/// takes it for a plain one: the connection's `is_encrypted()` says false, and nothing here asks.
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

/// The relay and the connection kept to it (the thread closes it after its idle time without a
/// mail, so a kept one is never older than that).
struct Link {
    relay: Relay,
    kept: Option<AsyncSmtpConnection>,
}

impl Link {
    async fn send(&mut self, envelope: &Envelope, message: &[u8]) -> Result<(), String> {
        let mut earlier = None;
        if let Some(conn) = self.kept.take() {
            if conn.has_broken() {
                // Closed by dropping it: a broken connection has nothing to say goodbye on.
            } else {
                match self.attempt(conn, envelope, message).await {
                    Ok(()) => return Ok(()),
                    Err(Failure::Refused(e)) => return Err(e),
                    // The relay closed the kept connection meanwhile, or a firewall forgot it:
                    // once more on a new one.
                    Err(Failure::Broken(e)) => earlier = Some(e),
                }
            }
        }
        let conn = self.relay.connect().await?;
        self.attempt(conn, envelope, message)
            .await
            .map_err(|failure| match earlier {
                Some(e) => format!(
                    "{} (before that, on the kept connection: {e})",
                    failure.text()
                ),
                None => failure.text(),
            })
    }

    /// One try of a mail on `conn`, which is kept when it went through and closed otherwise.
    async fn attempt(
        &mut self,
        mut conn: AsyncSmtpConnection,
        envelope: &Envelope,
        message: &[u8],
    ) -> Result<(), Failure> {
        match within(
            self.relay.timeout * SEND_STEPS,
            conn.send(envelope, message),
        )
        .await
        {
            Ok(Ok(_)) => {
                self.kept = Some(conn);
                Ok(())
            }
            // A refusal (5xx) would only be refused again, on any connection.
            Ok(Err(e)) if e.is_permanent() => Err(Failure::Refused(e.to_string())),
            Ok(Err(e)) => Err(Failure::Broken(e.to_string())),
            Err(late) => Err(Failure::Broken(late)),
        }
    }

    /// Says goodbye on the kept connection, if any (idle, or at shutdown).
    async fn close(&mut self) {
        if let Some(conn) = self.kept.take() {
            self.quit(conn).await;
        }
    }

    /// `QUIT`, waiting for the answer only briefly: the connection is closed either way when
    /// `conn` is dropped (never lettre's `abort`, which waits for its own `QUIT` unbounded).
    async fn quit(&self, mut conn: AsyncSmtpConnection) {
        let _ = within(QUIT_WAIT, conn.quit()).await;
    }
}

/// Why a try failed: the relay refused the mail for good, or the connection or the relay failed
/// (worth a new connection).
enum Failure {
    Refused(String),
    Broken(String),
}

impl Failure {
    fn text(self) -> String {
        match self {
            Failure::Refused(e) | Failure::Broken(e) => e,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(url: &str) -> Relay {
        Relay::parse(url, Duration::from_secs(1), None).unwrap()
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
