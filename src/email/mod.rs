//! Email: the mailer (SMTP to the relay of `SMTP_URL` through lettre, [`smtp`], or `.eml` files
//! under `DATA_DIR/mail` without it) and the [`Sender`] that turns email jobs into messages.
//!
//! Every message is plain text plus HTML, in the recipient's locale, built only from what the
//! recipient's seat may see: a service step reads it ([`gather`]), a pure renderer writes it
//! ([`compose`]). Headers: a `Message-ID` fixed when the job was created, one thread per game
//! (`In-Reply-To`/`References` to the game's stable root id), and `List-Unsubscribe` with
//! one-click `List-Unsubscribe-Post` (RFC 8058) on every mail that the unsubscribe turns off.
//!
//! Must not depend on actix or routes.

pub mod compose;
pub mod envelope;
pub mod gather;
mod i18n;
pub mod inbound;
pub mod jobs;
pub mod listener;
pub mod smtp;

use crate::config::Settings;
use crate::jobs::JobError;
use crate::metrics::Metrics;
use anyhow::Context;
use lettre::Message;
use lettre::message::header::{
    ContentTransferEncoding, ContentType, Header, HeaderName, HeaderValue,
};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Where messages go.
pub enum Mailer {
    Smtp(Box<smtp::Smtp>),
    /// Local development without a mail server: `.eml` files in this folder.
    Files(PathBuf),
}

impl Mailer {
    /// SMTP when `SMTP_URL` is set (`smtp://host:port`, `smtps://user:pass@host:465`,
    /// `smtp://host:587?tls=starttls`), files under `DATA_DIR/mail` otherwise.
    ///
    /// # Errors
    /// An `SMTP_URL` lettre cannot use, or a mail folder that cannot be created.
    pub fn from_settings(settings: &Settings) -> anyhow::Result<Mailer> {
        match &settings.email.smtp_url {
            Some(url) => {
                // lettre calls STARTTLS `tls=required`; `tls=starttls` is the name people expect.
                let url = url.replace("tls=starttls", "tls=required");
                let authorities =
                    match &settings.email.smtp_ca_file {
                        Some(path) => Some(std::fs::read(path).with_context(|| {
                            format!("cannot read SMTP_CA_FILE {}", path.display())
                        })?),
                        None => None,
                    };
                let relay = smtp::Smtp::new(&url, Duration::from_secs(20), authorities.as_deref())
                    .context("SMTP_URL is not a usable smtp:// or smtps:// URL, or SMTP_CA_FILE holds no usable certificate")?;
                Ok(Mailer::Smtp(Box::new(relay)))
            }
            None => {
                let dir = settings.data_dir.join("mail");
                private_folder(&dir)
                    .with_context(|| format!("cannot create the mail folder {}", dir.display()))?;
                Ok(Mailer::Files(dir))
            }
        }
    }

    fn send(&self, mail: &compose::Mail, message: &Message) -> Result<(), JobError> {
        match self {
            Mailer::Smtp(relay) => relay
                .send(message.envelope(), message.formatted())
                .map_err(|e| JobError::Retry(format!("SMTP: {e}"))),
            Mailer::Files(dir) => {
                let path = dir.join(format!(
                    "{}-{}.eml",
                    chrono::Utc::now().format("%Y%m%dT%H%M%S%.3f"),
                    mail.message_id
                ));
                write_private(&path, &message.formatted()).map_err(|e| {
                    JobError::Retry(format!("cannot write {}: {e}", path.display()))
                })?;
                // The file, never its links: they carry tokens, and logs are read by more
                // people than the mail's recipient (design.md section 20).
                tracing::info!(to = %mail.to_email, file = %path.display(), "mail written");
                Ok(())
            }
        }
    }
}

/// Creates `dir` (and its parents) readable by the owner only, and makes an existing one so:
/// the mails in it hold sign-in and play links (design.md section 20).
fn private_folder(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        builder.mode(0o700);
        builder.create(dir)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
    }
    #[cfg(not(unix))]
    builder.create(dir)
}

/// Writes a new file readable and writable by the owner only (mode 0600 from its creation, so
/// that no other user can open it in between).
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)?.write_all(bytes)
}

/// Runs email jobs: reads what the recipient may see, composes, sends.
pub struct Sender {
    mailer: Mailer,
    ctx: gather::Context,
    /// Where sent and failed mails are counted (`herald_mails_*_total`), if anywhere.
    metrics: Option<Arc<Metrics>>,
}

impl Sender {
    pub fn new(settings: &Settings, mailer: Mailer) -> Sender {
        Sender {
            mailer,
            ctx: gather::Context::new(settings),
            metrics: None,
        }
    }

    /// Counts sent and failed mails into `metrics` (those of the server beside the worker).
    #[must_use]
    pub fn counting_into(mut self, metrics: Arc<Metrics>) -> Sender {
        self.metrics = Some(metrics);
        self
    }

    /// What mails are composed with (keys, addresses).
    pub fn context(&self) -> &gather::Context {
        &self.ctx
    }

    /// Sends the mail a job composed (inside the worker's transaction); `None` (the recipient
    /// opted out, already acted, ...) sends nothing.
    ///
    /// # Errors
    /// [`JobError::Retry`] when sending failed; [`JobError::Permanent`] for a mail that cannot
    /// be built.
    pub fn send(&self, mail: Option<compose::Mail>, kind: &str) -> Result<(), JobError> {
        let Some(mail) = mail else {
            tracing::debug!(kind, "nothing to send");
            return Ok(());
        };
        let sent = self
            .build(&mail)
            .and_then(|message| self.mailer.send(&mail, &message));
        if let Some(metrics) = &self.metrics {
            match sent {
                Ok(()) => metrics.mails_sent.inc(),
                Err(_) => metrics.mails_failed.inc(),
            }
        }
        sent?;
        tracing::info!(kind, message_id = %mail.message_id, "mail sent");
        Ok(())
    }

    /// Builds the message of `mail` as [`Sender::send`] would and drops it: nothing is sent,
    /// counted or written. For a mail that must cost its sending's work without going anywhere
    /// (a sign-in link asked for an address without an account); it logs what a mail that is no
    /// longer due logs, and only at debug.
    ///
    /// # Errors
    /// [`JobError::Permanent`] for a mail that cannot be built, as `send`.
    pub fn discard(&self, mail: &compose::Mail, kind: &str) -> Result<(), JobError> {
        let message = self.build(mail)?;
        std::hint::black_box(message.formatted());
        tracing::debug!(kind, "nothing to send");
        Ok(())
    }

    fn build(&self, mail: &compose::Mail) -> Result<Message, JobError> {
        let bad = |e: &dyn std::fmt::Display| JobError::Permanent(format!("bad message: {e}"));
        let to: Mailbox = format!("{} <{}>", quote(&mail.to_name), mail.to_email)
            .parse()
            .or_else(|_| mail.to_email.parse())
            .map_err(|e| bad(&e))?;
        let mut builder = Message::builder()
            .from(self.ctx.from.clone())
            .to(to)
            .subject(mail.subject.clone())
            .message_id(Some(format!("<{}@{}>", mail.message_id, self.ctx.domain)));
        let root = mail
            .thread
            .map(|game| format!("<game-{}@{}>", game.0, self.ctx.domain));
        // An answer to a reply by mail goes in that reply's thread (and the game's).
        match (root, &mail.in_reply_to) {
            (Some(root), Some(reply)) => {
                builder = builder
                    .in_reply_to(reply.clone())
                    .references(format!("{root} {reply}"));
            }
            (Some(root), None) => builder = builder.in_reply_to(root.clone()).references(root),
            (None, Some(reply)) => {
                builder = builder.in_reply_to(reply.clone()).references(reply.clone());
            }
            (None, None) => {}
        }
        if let Some(reply_to) = &mail.reply_to {
            let mailbox: Mailbox = reply_to.parse().map_err(|e| bad(&e))?;
            builder = builder.reply_to(mailbox);
        }
        if mail.auto_replied {
            builder = builder.header(AutoSubmitted);
        }
        if let Some(url) = &mail.unsubscribe_url {
            builder = builder
                .header(ListUnsubscribe(format!("<{url}>")))
                .header(ListUnsubscribePost);
        }
        // The plain text keeps its links whole on lines of their own, unencoded (7bit or 8bit:
        // lettre would otherwise choose quoted-printable for any line over 76 characters), so
        // that even a reader of the raw message can follow them. Lines are CRLF-terminated and
        // far below SMTP's 998; HTML is encoded as lettre sees fit.
        let plain = mail.text.lines().all(|l| l.len() <= 998) && !mail.text.contains('\0');
        let text = if plain {
            let encoding = if mail.text.is_ascii() {
                ContentTransferEncoding::SevenBit
            } else {
                ContentTransferEncoding::EightBit
            };
            Body::dangerous_pre_encoded(mail.text.clone().into_bytes(), encoding)
        } else {
            Body::new(mail.text.clone())
        };
        builder
            .multipart(
                MultiPart::alternative()
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_PLAIN)
                            .body(text),
                    )
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_HTML)
                            .body(mail.html.clone()),
                    ),
            )
            .map_err(|e| bad(&e))
    }
}

/// A display name as an RFC 5322 quoted string.
fn quote(name: &str) -> String {
    let clean: String = name
        .chars()
        .filter(|c| !c.is_control())
        .map(|c| if c == '"' || c == '\\' { '\'' } else { c })
        .collect();
    format!("\"{clean}\"")
}

/// `List-Unsubscribe: <https://.../unsubscribe/{token}>`.
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `Auto-Submitted: auto-replied` (RFC 3834): on answers to replies by mail, so that mail
/// programs do not answer them automatically (and a loop cannot start).
#[derive(Clone)]
struct AutoSubmitted;

impl Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-replied".to_owned())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_owned())
    }
}
