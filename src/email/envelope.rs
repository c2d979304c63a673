//! The inbound listener's reading of `MAIL FROM` and `RCPT TO` ([`super::listener`]): the path
//! and its ESMTP parameters, as Postfix reads them. `mailin`'s parser knows only `BODY=`, and
//! answers a bare `500 Syntax error` to anything else (`SIZE=`, `SMTPUTF8`), which a relay that
//! was offered those extensions cannot make sense of; so the listener reads these two commands
//! itself and gives `mailin` only what drives its state machine.
//!
//! - `SIZE=n` (RFC 1870): above [`MAX_MESSAGE_BYTES`] refused at once, `552 5.3.4`; not a
//!   number, `501 5.5.4`.
//! - `BODY=7BIT|8BITMIME` (RFC 6152); another body type, `501 5.5.4`.
//! - `SMTPUTF8` (RFC 6531): the transaction's addresses may be UTF-8; without it a non-ASCII
//!   address is refused `553 5.6.7`.
//! - Any other parameter: `555 5.5.4`.
//!
//! Pure: no IO. A reply never repeats an address (they carry tokens).

use crate::services::inbound::MAX_MESSAGE_BYTES;
use mailin::Response;

/// What a `MAIL FROM` that was accepted says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailFrom {
    /// The reverse path; empty for the null sender `<>` (a bounce).
    pub path: String,
    /// `SMTPUTF8` was given: the transaction's addresses may be UTF-8.
    pub smtputf8: bool,
}

/// Which envelope command a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Mail,
    Rcpt,
}

impl Verb {
    /// The line `mailin` is given instead of the command: its own parser cannot read ESMTP
    /// parameters or every path RFC 5321 allows, and needs only the verb to keep its state.
    /// The handler reads the real arguments ([`read_mail`], [`read_rcpt`]).
    pub fn stand_in(self) -> &'static [u8] {
        match self {
            Verb::Mail => b"MAIL FROM:<stand-in@herald.invalid>\r\n",
            Verb::Rcpt => b"RCPT TO:<stand-in@herald.invalid>\r\n",
        }
    }
}

/// The verb of a `MAIL FROM:` or `RCPT TO:` line (any letter case, one or more spaces after
/// the verb, as `mailin` reads it) and what follows the colon, without the line end.
pub fn split(line: &[u8]) -> Option<(Verb, &[u8])> {
    let (verb, word, rest) = if starts_with_ignore_case(line, b"MAIL") {
        (Verb::Mail, &b"FROM:"[..], &line[4..])
    } else if starts_with_ignore_case(line, b"RCPT") {
        (Verb::Rcpt, &b"TO:"[..], &line[4..])
    } else {
        return None;
    };
    let spaces = rest.iter().take_while(|b| **b == b' ').count();
    let rest = &rest[spaces..];
    if spaces == 0 || !starts_with_ignore_case(rest, word) {
        return None;
    }
    let args = &rest[word.len()..];
    let end = args
        .iter()
        .rposition(|b| !matches!(b, b'\r' | b'\n'))
        .map_or(0, |i| i + 1);
    Some((verb, &args[..end]))
}

fn starts_with_ignore_case(line: &[u8], prefix: &[u8]) -> bool {
    line.len() >= prefix.len() && line[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// Reads the arguments of `MAIL FROM:` (see the module documentation for what is refused).
///
/// # Errors
/// The reply that refuses the command.
pub fn read_mail(args: &[u8]) -> Result<MailFrom, Response> {
    let (path, parameters) = path_and_parameters(args)?;
    let mut smtputf8 = false;
    let mut seen: Vec<String> = Vec::new();
    for (keyword, value) in parameters {
        if seen.contains(&keyword) {
            return Err(refuse(501, "5.5.4", &format!("{keyword} given twice")));
        }
        match (keyword.as_str(), value) {
            ("SIZE", value) => size(value)?,
            ("BODY", Some(v)) if v.eq_ignore_ascii_case("7BIT") => {}
            ("BODY", Some(v)) if v.eq_ignore_ascii_case("8BITMIME") => {}
            ("BODY", _) => return Err(refuse(501, "5.5.4", "BODY takes 7BIT or 8BITMIME")),
            ("SMTPUTF8", None) => smtputf8 = true,
            ("SMTPUTF8", Some(_)) => return Err(refuse(501, "5.5.4", "SMTPUTF8 takes no value")),
            (other, _) => return Err(unsupported(other)),
        }
        seen.push(keyword);
    }
    let path = address(path, smtputf8, "5.1.7", "sender")?;
    Ok(MailFrom { path, smtputf8 })
}

/// Reads the arguments of `RCPT TO:` in a transaction whose `MAIL FROM` did or did not give
/// `SMTPUTF8`; the forward path. No `RCPT` parameter is offered (no DSN).
///
/// # Errors
/// The reply that refuses the command.
pub fn read_rcpt(args: &[u8], smtputf8: bool) -> Result<String, Response> {
    let (path, parameters) = path_and_parameters(args)?;
    if let Some((keyword, _)) = parameters.into_iter().next() {
        return Err(unsupported(&keyword));
    }
    let path = address(path, smtputf8, "5.1.3", "recipient")?;
    if path.is_empty() {
        return Err(refuse(501, "5.1.3", "Bad recipient address syntax"));
    }
    Ok(path)
}

/// The refusal of a message larger than the listener takes, declared (`SIZE=`) or sent.
pub fn too_big() -> Response {
    refuse(
        552,
        "5.3.4",
        &format!("Message size exceeds fixed limit of {MAX_MESSAGE_BYTES} bytes"),
    )
}

/// The `EHLO`/`LHLO` reply: the listener's name, then the extensions it offers (`SIZE` with
/// the same limit DATA enforces). Written by hand: `mailin` offers `8BITMIME` only, and its
/// reply cannot be given more lines.
pub fn ehlo_reply(name: &str) -> Vec<u8> {
    format!("250-{name}\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE {MAX_MESSAGE_BYTES}\r\n")
        .into_bytes()
}

fn refuse(code: u16, status: &str, text: &str) -> Response {
    Response::custom(code, format!("{status} {text}"))
}

/// An ESMTP parameter this listener does not offer. Its keyword is named when it is one
/// (letters, digits and `-`, as RFC 5321 writes them), never other bytes of the client's.
fn unsupported(keyword: &str) -> Response {
    refuse(555, "5.5.4", &format!("Unsupported option: {keyword}"))
}

/// The `SIZE=` value (RFC 1870: 1 to 20 digits), refused when the message would be larger
/// than the listener takes.
fn size(value: Option<&str>) -> Result<(), Response> {
    let digits =
        value.filter(|v| (1..=20).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_digit()));
    let Some(declared) = digits.and_then(|d| d.parse::<u128>().ok()) else {
        return Err(refuse(501, "5.5.4", "Bad message size syntax"));
    };
    if declared > MAX_MESSAGE_BYTES as u128 {
        return Err(too_big());
    }
    Ok(())
}

/// An ESMTP parameter: its keyword in upper case, and its value if it has one.
type Parameter<'a> = (String, Option<&'a str>);

/// The path between `<` and `>` (a quoted local part may hold `>` or spaces), and the
/// parameters after it.
fn path_and_parameters(args: &[u8]) -> Result<(&[u8], Vec<Parameter<'_>>), Response> {
    let syntax = || refuse(501, "5.5.4", "Syntax: <address> then its parameters");
    let args = trim_spaces(args);
    let inner = args.strip_prefix(b"<").ok_or_else(syntax)?;
    let close = closing_bracket(inner).ok_or_else(syntax)?;
    let (path, rest) = (&inner[..close], &inner[close + 1..]);
    if !rest.is_empty() && rest[0] != b' ' {
        return Err(syntax());
    }
    let mut parameters = Vec::new();
    for word in rest.split(|b| *b == b' ').filter(|w| !w.is_empty()) {
        parameters.push(parameter(word)?);
    }
    Ok((without_source_route(path), parameters))
}

/// Where the path's `>` is: the first outside a quoted string.
fn closing_bracket(inner: &[u8]) -> Option<usize> {
    let (mut quoted, mut escaped) = (false, false);
    for (i, b) in inner.iter().enumerate() {
        match b {
            _ if escaped => escaped = false,
            b'\\' if quoted => escaped = true,
            b'"' => quoted = !quoted,
            b'>' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

/// A path without its source route (`@relay,@other:user@domain`), which RFC 5321 says to
/// accept and ignore.
fn without_source_route(path: &[u8]) -> &[u8] {
    if path.first() == Some(&b'@')
        && let Some(colon) = path.iter().position(|b| *b == b':')
    {
        return &path[colon + 1..];
    }
    path
}

/// One `keyword[=value]` parameter: the keyword in upper case.
fn parameter(word: &[u8]) -> Result<Parameter<'_>, Response> {
    let bad = || refuse(501, "5.5.4", "Bad parameter syntax");
    let (keyword, value) = match word.iter().position(|b| *b == b'=') {
        Some(at) => (&word[..at], Some(&word[at + 1..])),
        None => (word, None),
    };
    let keyword_ok = !keyword.is_empty()
        && keyword.len() <= 32
        && keyword[0].is_ascii_alphanumeric()
        && keyword
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-');
    if !keyword_ok {
        return Err(bad());
    }
    // RFC 5321 esmtp-value: printable ASCII but `=`, at least one character.
    let value = match value {
        None => None,
        Some(v) if !v.is_empty() && v.iter().all(|b| (33..=126).contains(b) && *b != b'=') => {
            Some(std::str::from_utf8(v).map_err(|_| bad())?)
        }
        Some(_) => return Err(bad()),
    };
    let keyword = String::from_utf8_lossy(keyword).to_ascii_uppercase();
    Ok((keyword, value))
}

/// The path as text: UTF-8 only with `SMTPUTF8` (RFC 6531 section 3.5: `553 5.6.7` without it),
/// never a control character.
fn address(path: &[u8], smtputf8: bool, status: &str, role: &str) -> Result<String, Response> {
    if !path.is_ascii() && !smtputf8 {
        return Err(refuse(
            553,
            "5.6.7",
            &format!("A non-ASCII {role} address needs SMTPUTF8"),
        ));
    }
    let bad = || refuse(501, status, &format!("Bad {role} address syntax"));
    let text = std::str::from_utf8(path).map_err(|_| bad())?;
    if text.chars().any(char::is_control) {
        return Err(bad());
    }
    Ok(text.to_owned())
}

/// Without the spaces and tabs around it (some clients write `MAIL FROM: <a@b>`).
fn trim_spaces(bytes: &[u8]) -> &[u8] {
    let blank = |b: &&u8| matches!(**b, b' ' | b'\t');
    let start = bytes.iter().take_while(blank).count();
    let end = bytes.len() - bytes[start..].iter().rev().take_while(blank).count();
    &bytes[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(response: Response) -> String {
        String::from_utf8(response.buffer().unwrap()).unwrap()
    }

    fn mail(args: &str) -> Result<MailFrom, String> {
        read_mail(args.as_bytes()).map_err(reply)
    }

    #[test]
    fn envelope_lines_are_split_as_mailin_reads_them() {
        assert_eq!(
            split(b"mail  from: <a@b> SIZE=1\r\n"),
            Some((Verb::Mail, &b" <a@b> SIZE=1"[..]))
        );
        assert_eq!(
            split(b"RCPT TO:<a@b>\r\n"),
            Some((Verb::Rcpt, &b"<a@b>"[..]))
        );
        assert_eq!(split(b"MAILFROM:<a@b>\r\n"), None);
        assert_eq!(split(b"DATA\r\n"), None);
    }

    #[test]
    fn size_body_and_smtputf8_are_read_and_anything_else_refused() {
        let ok = |path: &str, smtputf8| {
            Ok(MailFrom {
                path: path.to_owned(),
                smtputf8,
            })
        };
        assert_eq!(mail("<a@b>"), ok("a@b", false));
        assert_eq!(mail("<>"), ok("", false));
        assert_eq!(
            mail(&format!("<a@b> size={MAX_MESSAGE_BYTES} BODY=8bitmime")),
            ok("a@b", false)
        );
        assert_eq!(mail("<a@b> BODY=7BIT SMTPUTF8"), ok("a@b", true));
        assert_eq!(mail("<@relay.example:a@b>"), ok("a@b", false));
        assert_eq!(mail("<\"a > b\"@c>"), ok("\"a > b\"@c", false));
        let too_big = mail(&format!("<a@b> SIZE={}", MAX_MESSAGE_BYTES + 1)).unwrap_err();
        assert!(too_big.starts_with("552 5.3.4 "), "{too_big}");
        assert!(
            too_big.contains(&MAX_MESSAGE_BYTES.to_string()),
            "{too_big}"
        );
        let huge = mail("<a@b> SIZE=99999999999999999999").unwrap_err();
        assert!(huge.starts_with("552 5.3.4 "), "{huge}");
        for bad in [
            "<a@b> SIZE=",
            "<a@b> SIZE",
            "<a@b> SIZE=12k",
            "<a@b> SIZE=-1",
            "<a@b> SIZE=123456789012345678901",
            "<a@b> SIZE=1 SIZE=1",
            "<a@b> BODY=BINARYMIME",
            "<a@b> SMTPUTF8=yes",
            "<a@b> =1",
            "<a@b> X\u{e9}=1",
            "<a@b>SIZE=1",
            "a@b",
            "<a@b",
        ] {
            let why = mail(bad).unwrap_err();
            assert!(why.starts_with("501 5.5.4 "), "{bad}: {why}");
        }
        for unknown in ["<a@b> AUTH=<>", "<a@b> RET=HDRS", "<a@b> x-extra"] {
            let why = mail(unknown).unwrap_err();
            assert!(why.starts_with("555 5.5.4 Unsupported option: "), "{why}");
        }
    }

    #[test]
    fn a_utf8_address_needs_smtputf8() {
        assert_eq!(
            mail("<jos\u{e9}@exemple.fr> SMTPUTF8").unwrap().path,
            "jos\u{e9}@exemple.fr"
        );
        let why = mail("<jos\u{e9}@exemple.fr>").unwrap_err();
        assert!(why.starts_with("553 5.6.7 "), "{why}");
        let latin1 = read_mail(b"<jos\xe9@exemple.fr> SMTPUTF8").map_err(reply);
        assert!(latin1.unwrap_err().starts_with("501 5.1.7 "));
        let rcpt = |args: &str, smtputf8| read_rcpt(args.as_bytes(), smtputf8).map_err(reply);
        assert_eq!(
            rcpt("<play+x@b\u{fc}cher.example>", true).as_deref(),
            Ok("play+x@b\u{fc}cher.example")
        );
        assert!(
            rcpt("<play+x@b\u{fc}cher.example>", false)
                .unwrap_err()
                .starts_with("553 5.6.7 ")
        );
        assert!(
            rcpt("<a@b> NOTIFY=NEVER", true)
                .unwrap_err()
                .starts_with("555 ")
        );
        assert!(rcpt("<>", true).unwrap_err().starts_with("501 5.1.3 "));
        assert!(
            rcpt("<a\u{1}@b>", true)
                .unwrap_err()
                .starts_with("501 5.1.3 ")
        );
    }

    #[test]
    fn ehlo_offers_size_with_the_limit_data_enforces() {
        let reply = String::from_utf8(ehlo_reply("herald.test")).unwrap();
        assert_eq!(
            reply,
            format!(
                "250-herald.test\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE {MAX_MESSAGE_BYTES}\r\n"
            )
        );
    }
}
