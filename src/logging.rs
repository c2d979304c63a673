//! Where log lines go and how they look: stderr, filtered by `RUST_LOG` (default `herald=info,actix_http::h1::dispatcher=off,warn`),
//! as text or, with `LOG_FORMAT=json`, as one JSON object per line for log collectors.
//!
//! Colour codes only when stderr is a terminal (or never, with `NO_COLOR`): a log written to a
//! file or read by a collector must not carry escape sequences.

use std::io::IsTerminal;
use std::sync::OnceLock;

/// The shape of log lines (`LOG_FORMAT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    /// One human-readable line per event (the default).
    Text,
    /// One JSON object per line: `timestamp`, `level`, `target`, `message` and the event's fields.
    Json,
}

impl LogFormat {
    /// Reads a `LOG_FORMAT` value: unset or empty is text; `text` and `json` in any case.
    ///
    /// # Errors
    /// Any other value, with the message to log.
    pub fn parse(value: Option<&str>) -> Result<LogFormat, String> {
        match value.map(str::trim).unwrap_or("") {
            "" => Ok(LogFormat::Text),
            v if v.eq_ignore_ascii_case("text") => Ok(LogFormat::Text),
            v if v.eq_ignore_ascii_case("json") => Ok(LogFormat::Json),
            v => Err(format!(
                "LOG_FORMAT {v:?} is neither \"text\" nor \"json\"; logging as text"
            )),
        }
    }
}

static FORMAT: OnceLock<LogFormat> = OnceLock::new();

/// The format [`init`] chose (text before it ran).
pub fn format() -> LogFormat {
    FORMAT.get().copied().unwrap_or(LogFormat::Text)
}

/// The log filter without `RUST_LOG`.
pub const DEFAULT_FILTER: &str = "herald=info,actix_http::h1::dispatcher=off,warn";

/// Installs the global subscriber for the `herald` commands, once; later calls do nothing.
pub fn init() {
    let (format, problem) = match LogFormat::parse(std::env::var("LOG_FORMAT").ok().as_deref()) {
        Ok(format) => (format, None),
        Err(problem) => (LogFormat::Text, Some(problem)),
    };
    // actix-http logs each request it cannot parse at ERROR, before any handler: by default
    // those lines are off, so that no client can fill the log with them.
    let mut filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_FILTER));
    // The SMTP state machine traces every command line, `RCPT TO:<play+token@...>` included: its
    // lines never show, whatever `RUST_LOG` asks (design.md section 20).
    if let Ok(directive) = "mailin=off".parse() {
        filter = filter.add_directive(directive);
    }
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let installed = match format {
        LogFormat::Json => builder
            .json()
            // The event's fields beside `message` at the top level, no span lists: one flat
            // object per line is what collectors index best.
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .try_init(),
        LogFormat::Text => builder.with_ansi(colour()).try_init(),
    };
    if installed.is_ok() {
        let _ = FORMAT.set(format);
    }
    if let Some(problem) = problem {
        tracing::warn!("{problem}");
    }
}

/// Colour only for a person at a terminal.
fn colour() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Reports a fatal error: a log line in JSON mode (every line stays JSON), plain text on stderr
/// otherwise (readable even when `RUST_LOG` filters herald's lines out).
pub fn fatal(message: &str) {
    match format() {
        LogFormat::Json => tracing::error!("{message}"),
        LogFormat::Text => eprintln!("{message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_format_reads_text_and_json_and_refuses_the_rest() {
        assert_eq!(LogFormat::parse(None), Ok(LogFormat::Text));
        assert_eq!(LogFormat::parse(Some(" ")), Ok(LogFormat::Text));
        assert_eq!(LogFormat::parse(Some("JSON")), Ok(LogFormat::Json));
        assert_eq!(LogFormat::parse(Some("text")), Ok(LogFormat::Text));
        assert!(LogFormat::parse(Some("yaml")).is_err());
    }
}
