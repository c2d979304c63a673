//! Reading a reply to a turn mail (moves by email, design.md section 18): who sent it, to which
//! reply address, whether a machine sent it (RFC 3834 and its cousins) or a person forwarded it,
//! and the one line that is the move.
//!
//! The move is the first line of the reply that is not quoted (`>`), not an attribution
//! ("On ... wrote:", in our four languages and German), not the quoted original (Outlook's
//! "From: ... Sent: ..." block, "-----Original Message-----", a line of underscores), not a
//! signature ("-- " and everything after it, "Sent from my iPhone"). HTML-only mails are read as
//! their text, with the quoted part (`<blockquote>`, Gmail's and Outlook's quote containers) cut
//! off first. Charsets and transfer encodings are the MIME parser's business.
//!
//! Pure: no database, no network, no logging (a message is never logged: it carries a token).

use mail_parser::{MessageParser, PartType};

/// The longest move line read; anything longer is cut here (a move is a few words).
pub const MAX_LINE: usize = 1000;

/// What a received message says, as far as moves by email care.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// `<id>` from `Message-ID`, if the message has one.
    pub message_id: Option<String>,
    /// The message it answers: the last `<id>` of `In-Reply-To`, or of `References` without
    /// one.
    pub replied_to: Option<String>,
    /// The `From` address, written as accounts' addresses are
    /// ([`crate::domain::normalised_address`]: NFC, lower case); UTF-8 as RFC 6532 allows.
    pub from: Option<String>,
    /// The addresses of `To`, `Cc`, `Delivered-To`, `X-Original-To` and `Envelope-To`, in lower
    /// case (the SMTP envelope, when there is one, is better: see [`reply_token`]).
    pub recipients: Vec<String>,
    /// Why the message is automatic (an auto-reply, a bounce, a list), when it is.
    pub automatic: Option<&'static str>,
    /// A person forwarded it (a `Fwd:` subject, `Resent-*` headers, a forwarded-message block).
    pub forwarded: bool,
    /// The move line, if the reply has one.
    pub line: Option<String>,
    /// The lines after it that could be the move instead, when the move line cannot be read as
    /// one (a greeting, "Hola,", typed above the move): at most [`MORE_LINES`].
    pub more_lines: Vec<String>,
}

/// How many lines after the move line a reply is also searched for its move.
pub const MORE_LINES: usize = 2;

/// Reads a raw RFC 5322 message; `None` when it is not one (no header at all).
pub fn read(raw: &[u8]) -> Option<Reply> {
    let message = MessageParser::default().parse(raw)?;
    if message.headers().is_empty() {
        return None;
    }
    let header = |name: &str| -> Vec<String> {
        message
            .headers_raw()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_owned())
            .collect()
    };
    let from = message
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(crate::domain::normalised_address);
    let mut recipients: Vec<String> = message
        .to()
        .into_iter()
        .chain(message.cc())
        .flat_map(|a| a.iter())
        .filter_map(|a| a.address())
        .map(|a| a.trim().to_lowercase())
        .collect();
    for name in [
        "Delivered-To",
        "X-Original-To",
        "Envelope-To",
        "X-Envelope-To",
    ] {
        for value in header(name) {
            recipients.extend(addresses_in(&value));
        }
    }
    let text = body_text(&message);
    let subject = message.subject().unwrap_or("").trim().to_lowercase();
    let forwarded = ["fwd:", "fw:", "tr:", "rv:", "i:", "wg:", "enc:"]
        .iter()
        .any(|p| subject.starts_with(p))
        || !header("Resent-From").is_empty()
        || !header("Resent-Sender").is_empty()
        || text.lines().any(|l| forwarded_marker(&clean(l)));
    let content_type = header("Content-Type").join(" ").to_lowercase();
    let automatic = automatic(&header, from.as_deref(), &content_type, &subject);
    let lines = move_lines(&text, 1 + MORE_LINES);
    Some(Reply {
        message_id: message.message_id().map(|id| format!("<{}>", id.trim())),
        replied_to: last_id(&header("In-Reply-To")).or_else(|| last_id(&header("References"))),
        from,
        recipients,
        automatic,
        forwarded,
        line: lines.first().cloned(),
        more_lines: lines.into_iter().skip(1).collect(),
    })
}

/// How auto-replies' subjects begin (lower case), in the languages herald writes and a few
/// more its players' mail programs may use.
const AUTOMATIC_SUBJECTS: [&str; 14] = [
    "automatic reply:",
    "auto reply:",
    "autoreply:",
    "auto:",
    "out of office",
    "out of the office",
    "respuesta automática:",
    "fuera de la oficina",
    "risposta automatica:",
    "fuori sede",
    "réponse automatique",
    "absence du bureau",
    "abwesenheitsnotiz",
    "automatische antwort",
];

/// Why a message was sent by a machine (RFC 3834 `Auto-Submitted`, `Precedence: bulk`, the
/// usual auto-responder and list headers, a delivery report, a mailer-daemon or postmaster
/// sender, an auto-reply's `subject`, decoded and in lower case), or `None` for a person's
/// mail. Such a mail never plays and is never answered.
fn automatic(
    header: &dyn Fn(&str) -> Vec<String>,
    from: Option<&str>,
    content_type: &str,
    subject: &str,
) -> Option<&'static str> {
    let lower = |name: &str| -> Vec<String> {
        header(name).into_iter().map(|v| v.to_lowercase()).collect()
    };
    if lower("Auto-Submitted")
        .iter()
        .any(|v| v.split(';').next().unwrap_or("").trim() != "no")
    {
        return Some("auto-submitted");
    }
    if lower("Precedence")
        .iter()
        .any(|v| ["bulk", "junk", "list", "auto_reply"].contains(&first_word(v)))
    {
        return Some("precedence");
    }
    if [
        "X-Autoreply",
        "X-Autorespond",
        "X-Auto-Reply",
        "X-Autoresponder",
    ]
    .iter()
    .any(|h| !header(h).is_empty())
    {
        return Some("auto-reply header");
    }
    // Exchange's and Outlook's out-of-office replies carry no RFC 3834 header, only this one
    // (`All` or `OOF`: asking that nobody answer them).
    if lower("X-Auto-Response-Suppress")
        .iter()
        .any(|v| v.split(',').any(|w| ["all", "oof"].contains(&w.trim())))
    {
        return Some("auto-reply header");
    }
    // Nor do some mail programs' out-of-office replies: their subject says it, in their
    // reader's language.
    if AUTOMATIC_SUBJECTS.iter().any(|p| subject.starts_with(p)) {
        return Some("auto-reply subject");
    }
    if ["List-Id", "List-Unsubscribe", "List-Post"]
        .iter()
        .any(|h| !header(h).is_empty())
    {
        return Some("mailing list");
    }
    if lower("Return-Path").iter().any(|v| v.trim() == "<>") {
        return Some("bounce");
    }
    if content_type.contains("multipart/report") {
        return Some("delivery report");
    }
    let local = from
        .and_then(|f| f.rsplit_once('@'))
        .map(|(local, _)| local);
    if local.is_some_and(|l| {
        let l = l.to_lowercase();
        l == "mailer-daemon" || l == "postmaster" || l.starts_with("mailer-daemon")
    }) {
        return Some("mailer-daemon");
    }
    None
}

/// The addresses in a header value written loosely (`<a@b>`, `a@b`, several per line).
/// The last `<id>` in the values of a header naming messages (`In-Reply-To`, `References`).
fn last_id(values: &[String]) -> Option<String> {
    values
        .iter()
        .flat_map(|v| v.split('<').skip(1))
        .filter_map(|v| v.split_once('>'))
        .map(|(id, _)| format!("<{}>", id.trim()))
        .last()
}

fn addresses_in(value: &str) -> Vec<String> {
    value
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '<' | '>' | '"'))
        .filter(|w| w.contains('@'))
        .map(str::to_lowercase)
        .collect()
}

/// The token of a reply address `play+<token>@<domain>` (any letter case); with a domain, only
/// at that domain (written in Unicode or in `xn--` labels alike: [`crate::domain::same_domain`]).
pub fn reply_token(address: &str, domain: Option<&str>) -> Option<String> {
    let address = address.trim().trim_matches(|c| c == '<' || c == '>');
    let (local, at) = address.rsplit_once('@')?;
    if domain.is_some_and(|d| !crate::domain::same_domain(at, d)) {
        return None;
    }
    let (tag, token) = local.split_once('+')?;
    (tag.eq_ignore_ascii_case("play")
        && !token.is_empty()
        && token.bytes().all(|b| b.is_ascii_alphanumeric()))
    .then(|| token.to_ascii_lowercase())
}

/// The reply's text: its plain part, or its HTML part read as text without the quoted part.
fn body_text(message: &mail_parser::Message<'_>) -> String {
    if let Some(part) = message.text_part(0) {
        match &part.body {
            PartType::Text(text) => return text.to_string(),
            PartType::Html(html) => return html_text(html),
            _ => {}
        }
    }
    message
        .body_html(0)
        .map(|html| html_text(&html))
        .unwrap_or_default()
}

/// The text of an HTML reply above its quoted part. Block ends become line breaks (the MIME
/// parser's converter breaks lines at `<br>` and `</p>` only).
pub fn html_text(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    // Where the quoted original begins: a blockquote, or the container Gmail, Outlook,
    // Thunderbird, Yahoo or Apple Mail put it in (cut at the tag that carries the marker).
    let markers = [
        "<blockquote",
        "class=\"gmail_quote",
        "class=\"gmail_attr",
        "id=\"divrplyfwdmsg\"",
        "id=\"appendonsend\"",
        "id=\"mail-editor-reference-message-container\"",
        "class=\"moz-cite-prefix\"",
        "class=\"yahoo_quoted\"",
        "data-marker=\"__quoted_text__\"",
        "<hr",
    ];
    let cut = markers
        .iter()
        .filter_map(|m| {
            let at = lower.find(m)?;
            Some(if m.starts_with('<') {
                at
            } else {
                lower[..at].rfind('<').unwrap_or(at)
            })
        })
        .min()
        .unwrap_or(html.len());
    // A line break before every block that starts or ends, in one pass over the tags (searching
    // the rest for each kind of block again after every one was quadratic: a 10 MB reply of
    // `<p>`s kept a thread busy for hours).
    const BLOCKS: [&str; 9] = [
        "</div", "</p", "</li", "</tr", "</h1", "</h2", "</h3", "<div", "<p>",
    ];
    let head = &lower[..cut];
    let mut kept = String::with_capacity(cut + 64);
    let mut copied = 0;
    for (at, _) in head.match_indices('<') {
        if BLOCKS.iter().any(|t| head[at..].starts_with(t)) {
            kept.push_str(&html[copied..at]);
            kept.push_str("<br>");
            copied = at;
        }
    }
    kept.push_str(&html[copied..cut]);
    mail_parser::decoders::html::html_to_text(&kept)
}

/// A header value's first word, as responders write it: `bulk`, `"bulk"`, `bulk (vacation)`,
/// `bulk; x`.
fn first_word(value: &str) -> &str {
    value
        .trim_start_matches([' ', '\t', '"', '\''])
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ';' | ','))
        .next()
        .unwrap_or("")
}

/// A line without the spaces, non-breaking spaces and invisible characters mail programs add.
fn clean(line: &str) -> String {
    line.chars()
        .filter(|c| !matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}'))
        .map(|c| if c == '\u{A0}' { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// "On ... wrote:" and its translations: how an attribution line ends.
const WROTE: &[&str] = &[
    "wrote:",
    "writes:",
    "escribió:",
    "ha scritto:",
    "scrisse:",
    "a écrit :",
    "a écrit:",
    "a écrit :",
    "schrieb:",
];

/// How an attribution line begins, when it is long enough to be wrapped.
const ON: &[&str] = &["on ", "el ", "il ", "le ", "am ", "em "];

fn ends_wrote(line: &str) -> bool {
    let lower = line.to_lowercase();
    WROTE.iter().any(|w| lower.ends_with(w))
}

/// The line where an attribution starting at `lines[i]` ends (it may be wrapped over three).
fn attribution_end(lines: &[String], i: usize) -> Option<usize> {
    if ends_wrote(&lines[i]) {
        return Some(i);
    }
    let lower = lines[i].to_lowercase();
    if ON.iter().any(|on| lower.starts_with(on)) {
        for (j, line) in lines.iter().enumerate().skip(i + 1).take(2) {
            if line.starts_with('>') {
                break;
            }
            if ends_wrote(line) {
                return Some(j);
            }
        }
    }
    // Any language: a line ending in ':' right above the quoted text.
    if lines[i].ends_with(':') {
        let next = lines.iter().skip(i + 1).find(|l| !l.is_empty());
        if next.is_some_and(|l| l.starts_with('>')) {
            return Some(i);
        }
    }
    None
}

/// A line that begins a forwarded message.
fn forwarded_marker(line: &str) -> bool {
    let lower = line.to_lowercase();
    let dashed = lower.starts_with("--") || lower.starts_with("——");
    (dashed
        && [
            "forwarded message",
            "mensaje reenviado",
            "messaggio inoltrato",
            "message transféré",
            "message réexpédié",
        ]
        .iter()
        .any(|m| lower.contains(m)))
        || [
            "begin forwarded message:",
            "inicio del mensaje reenviado:",
            "inizio messaggio inoltrato:",
            "début du message réexpédié :",
            "début du message réexpédié:",
        ]
        .iter()
        .any(|m| lower.starts_with(m))
}

/// A line that begins the quoted original without `>`: Outlook's separator and header block,
/// "-----Original Message-----" in our languages, a forwarded message.
fn original_begins(lines: &[String], i: usize) -> bool {
    let line = &lines[i];
    let lower = line.to_lowercase();
    if line.len() >= 10 && line.chars().all(|c| c == '_') {
        return true;
    }
    if lower.starts_with("--")
        && [
            "original message",
            "mensaje original",
            "messaggio originale",
            "message d'origine",
            "message d’origine",
            "message original",
            "ursprüngliche nachricht",
        ]
        .iter()
        .any(|m| lower.contains(m))
    {
        return true;
    }
    if forwarded_marker(line) {
        return true;
    }
    // "From: herald ... / Sent: ..." (Outlook; bold in HTML turned text: "*From:*").
    let field = |l: &str, names: &[&str]| {
        let l = l.trim_start_matches('*').to_lowercase();
        names.iter().any(|n| {
            l.strip_prefix(n)
                .is_some_and(|r| r.trim_start().starts_with(':'))
        })
    };
    if field(line, &["from", "de", "da", "von"]) {
        let head = [
            "sent", "date", "enviado", "envoyé", "inviato", "fecha", "data", "gesendet", "to",
            "para", "a", "à", "subject", "asunto", "oggetto", "objet",
        ];
        return lines.iter().skip(i + 1).take(4).any(|l| field(l, &head));
    }
    false
}

/// A signature a mail program adds by itself.
fn stock_signature(line: &str) -> bool {
    let lower = line.to_lowercase();
    [
        "sent from my ",
        "sent from outlook",
        "sent from mail for windows",
        "sent from yahoo",
        "sent with proton",
        "get outlook for ",
        "enviado desde mi ",
        "enviado desde outlook",
        "enviado desde yahoo",
        "obtener outlook para ",
        "inviato da ",
        "scarica outlook per ",
        "envoyé de mon ",
        "envoyé depuis ",
        "télécharger outlook pour ",
        "obtenir outlook pour ",
    ]
    .iter()
    .any(|s| lower.starts_with(s))
}

/// The move line of a reply's text: the first line that is not empty, quoted, an attribution,
/// the quoted original or a signature. `None` when the reply has none.
pub fn move_line(text: &str) -> Option<String> {
    move_lines(text, 1).into_iter().next()
}

/// The first `most` lines of a reply's text that could be its move (see [`move_line`]), in
/// order.
fn move_lines(text: &str, most: usize) -> Vec<String> {
    let lines: Vec<String> = text.lines().map(clean).collect();
    let raw: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() && found.len() < most {
        let line = &lines[i];
        if line.is_empty() || line.starts_with('>') {
            i += 1;
            continue;
        }
        // "-- " opens the signature (and a reader that trims sees "--").
        if raw[i].trim_end_matches('\r') == "-- " || line == "--" || original_begins(&lines, i) {
            break;
        }
        if let Some(end) = attribution_end(&lines, i) {
            i = end + 1;
            continue;
        }
        if stock_signature(line) {
            i += 1;
            continue;
        }
        let mut line = line.clone();
        if line.len() > MAX_LINE {
            let mut end = MAX_LINE;
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            line.truncate(end);
        }
        found.push(line);
        i += 1;
    }
    found
}

/// The number of a move in a mail's numbered list, when `action` is that alone: `3`, `3.`,
/// `3)`, `#3`, `(3)`. No game's notation is a bare number.
pub fn list_number(action: &str) -> Option<usize> {
    let digits = action
        .trim()
        .trim_start_matches(['#', '('])
        .trim_end_matches(['.', ')']);
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// `action` without the number of a move copied from a mail's numbered list, together with it
/// (`3. B:4VL@b+V+L3`): the move itself decides.
pub fn without_number(action: &str) -> &str {
    let trimmed = action.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    match trimmed
        .get(digits..)
        .and_then(|rest| rest.strip_prefix(['.', ')']))
    {
        Some(rest)
            if digits > 0 && rest.starts_with(char::is_whitespace) && !rest.trim().is_empty() =>
        {
            rest.trim()
        }
        _ => action,
    }
}

/// The actions of a move line: `;` separates them, except within a filing of standing orders
/// or a turn script (Merchants & Marauders' `orders …` and `script …`), whose own clauses are
/// separated by `;`: such a filing takes the rest of the line, as it does in the API.
pub fn actions(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let start = rest.trim_start();
        let first = start
            .split(|c: char| c.is_whitespace() || c == ';')
            .next()
            .unwrap_or("");
        let (action, after) = if FILINGS.iter().any(|f| first.eq_ignore_ascii_case(f)) {
            (start, "")
        } else {
            start.split_once(';').unwrap_or((start, ""))
        };
        let action = action.trim();
        if !action.is_empty() {
            out.push(action.to_owned());
        }
        rest = after;
    }
    out
}

/// The first words of actions whose notation holds `;` (see [`actions`]).
const FILINGS: [&str; 2] = ["orders", "script"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_answered_is_the_last_of_in_reply_to_or_else_of_references() {
        let with = |headers: &str| {
            let raw = format!("From: a@example.test\r\n{headers}Subject: x\r\n\r\n1\r\n");
            read(raw.as_bytes()).and_then(|r| r.replied_to)
        };
        assert_eq!(
            with("In-Reply-To: <a.l1@h>\r\nReferences: <root@h> <b@h>\r\n").as_deref(),
            Some("<a.l1@h>")
        );
        assert_eq!(
            with("References: <root@h>\r\n <b.l2@h>\r\n").as_deref(),
            Some("<b.l2@h>")
        );
        assert_eq!(with(""), None);
    }

    fn crlf(text: &str) -> Vec<u8> {
        text.replace('\n', "\r\n").into_bytes()
    }

    #[test]
    fn a_number_alone_names_a_listed_move_and_a_copied_number_is_dropped() {
        for (text, n) in [
            ("2", Some(2)),
            (" 12. ", Some(12)),
            ("#3", Some(3)),
            ("(4)", Some(4)),
        ] {
            assert_eq!(list_number(text), n, "{text}");
        }
        for text in ["", "E", "2a", "12345", "-1", "3.5", "B:4VL@b+V+L3"] {
            assert_eq!(list_number(text), None, "{text}");
        }
        assert_eq!(without_number("3. B:4VL@b+V+L3"), "B:4VL@b+V+L3");
        assert_eq!(without_number("12) take 0"), "take 0");
        for kept in ["3.", "3", "take 0", "B:4VL@b+V+L3", "3.B:4VL"] {
            assert_eq!(without_number(kept), kept);
        }
    }

    #[test]
    fn the_first_line_above_a_quote_is_the_move() {
        let text = "B:4VL@b+V+L3\n\nOn Mon, 1 Jan 2024 at 10:00, herald <herald@x.test> wrote:\n> Hello Ada,\n> - S:6SY\n";
        assert_eq!(move_line(text).as_deref(), Some("B:4VL@b+V+L3"));
    }

    #[test]
    fn the_lines_after_the_move_line_are_kept_in_case_it_is_a_greeting() {
        let text = "Hola,\n\nS:6SY\nthanks\nand more\n\n-- \nAda\n";
        assert_eq!(move_lines(text, 3), vec!["Hola,", "S:6SY", "thanks"]);
        assert_eq!(move_lines("E\n-- \nS:1Y\n", 3), vec!["E"]);
    }

    #[test]
    fn a_move_below_the_quote_is_found_too() {
        let text = "On Mon, 1 Jan 2024 at 10:00, herald <\nherald@x.test> wrote:\n\n> Hello Ada,\n> E\n\nS:6SY ; E\n\n-- \nAda\n";
        assert_eq!(move_line(text).as_deref(), Some("S:6SY ; E"));
        assert_eq!(actions("S:6SY ; E;;"), vec!["S:6SY", "E"]);
        assert_eq!(
            actions("orders declare if attacked: shoot; window: pass"),
            vec!["orders declare if attacked: shoot; window: pass"]
        );
        assert_eq!(
            actions("leave; Script if gold>=3: port; end"),
            vec!["leave", "Script if gold>=3: port; end"]
        );
        assert_eq!(actions("scripted; E"), vec!["scripted", "E"]);
    }

    #[test]
    fn attributions_in_every_language_are_skipped() {
        for attribution in [
            "El lun, 1 ene 2024 a las 10:00, herald (<herald@x.test>) escribió:",
            "Il giorno lun 1 gen 2024 alle ore 10:00 herald <herald@x.test> ha scritto:",
            "Le lun. 1 janv. 2024 à 10:00, herald <herald@x.test> a écrit :",
            "Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb herald <herald@x.test>:",
            "herald <herald@x.test> schrieb am 1.1.2024:",
        ] {
            let text = format!("{attribution}\n> Hola\n\nE\n");
            assert_eq!(move_line(&text).as_deref(), Some("E"), "{attribution}");
        }
    }

    #[test]
    fn a_signature_or_the_quoted_original_is_never_the_move() {
        assert_eq!(move_line("\n-- \nAda Lovelace\nE\n"), None);
        assert_eq!(
            move_line("Sent from my iPhone\n\nOn 1 Jan 2024, at 10:00, herald wrote:\n> E\n"),
            None
        );
        assert_eq!(
            move_line("-----Original Message-----\nFrom: herald\nE\n"),
            None
        );
        assert_eq!(
            move_line(
                "________________________________\nFrom: herald <herald@x.test>\nSent: Monday\nTo: Ada\nSubject: Your move\n\nE\n"
            ),
            None
        );
        assert_eq!(
            move_line("De : herald\nEnvoyé : lundi\nÀ : Ada\nObjet : À vous\n\nE\n"),
            None
        );
        assert_eq!(
            move_line("Enviado desde mi iPhone\n\nS:6SY\n").as_deref(),
            Some("S:6SY")
        );
    }

    #[test]
    fn invisible_characters_and_non_breaking_spaces_are_dropped() {
        assert_eq!(
            move_line("\u{FEFF}\u{A0}S:6SY\u{200B}\u{A0}\n").as_deref(),
            Some("S:6SY")
        );
    }

    #[test]
    fn a_gmail_reply_plays_its_first_line() {
        let raw = crlf(
            "From: Ada <Ada@Example.test>\nTo: play+abc234@herald.test\nSubject: Re: Your move in Magnate with Bruno\nMessage-ID: <CAF1@mail.gmail.com>\nIn-Reply-To: <t1@herald.test>\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"b1\"\n\n--b1\nContent-Type: text/plain; charset=\"UTF-8\"\n\nS:6SY\n\nOn Mon, 1 Jan 2024 at 10:00, herald <herald@x.test> wrote:\n\n> Hello Ada,\n>\n> E\n>\n\n--b1\nContent-Type: text/html; charset=\"UTF-8\"\n\n<div dir=\"ltr\">S:6SY</div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Mon, 1 Jan 2024 at 10:00, herald wrote:<br></div><blockquote class=\"gmail_quote\">Hello Ada,<br>E</blockquote></div>\n\n--b1--\n",
        );
        let reply = read(&raw).unwrap();
        assert_eq!(reply.from.as_deref(), Some("ada@example.test"));
        assert_eq!(reply.message_id.as_deref(), Some("<CAF1@mail.gmail.com>"));
        assert_eq!(reply.recipients, vec!["play+abc234@herald.test"]);
        assert_eq!(reply.line.as_deref(), Some("S:6SY"));
        assert_eq!(reply.automatic, None);
        assert!(!reply.forwarded);
    }

    #[test]
    fn a_large_html_reply_is_read_in_one_pass() {
        // 1.2 MB of blocks: searched again after every block, this took hours (see
        // `html_text`); each block is its own line.
        let html = "<div>E</div><p>x</p>".repeat(60_000);
        let text = html_text(&html);
        assert_eq!(text.lines().filter(|l| l.trim() == "E").count(), 60_000);
        assert_eq!(text.lines().filter(|l| l.trim() == "x").count(), 60_000);
        assert_eq!(move_line(&text).as_deref(), Some("E"));
    }

    #[test]
    fn an_html_only_quoted_printable_reply_is_read_above_its_quote() {
        let raw = crlf(
            "From: Ada <ada@example.test>\nTo: play+abc@herald.test\nSubject: Re: Your move\nMIME-Version: 1.0\nContent-Type: text/html; charset=\"utf-8\"\nContent-Transfer-Encoding: quoted-printable\n\n<div dir=3D\"ltr\">B:4VL@b+V+L3</div><br><div class=3D\"gmail_quote\"><div d=\nir=3D\"ltr\" class=3D\"gmail_attr\">On Mon, herald wrote:<br></div><blockquot=\ne class=3D\"gmail_quote\">E<br>S:6SY</blockquote></div>\n",
        );
        assert_eq!(read(&raw).unwrap().line.as_deref(), Some("B:4VL@b+V+L3"));
    }

    #[test]
    fn an_outlook_reply_with_its_original_below_plays_its_first_line() {
        let html = "<html><body><div>E</div><div>Thanks, Ada</div><hr><div id=\"divRplyFwdMsg\"><b>From:</b> herald<br><b>Sent:</b> Monday<br>S:6SY</div></body></html>";
        assert_eq!(move_line(&html_text(html)).as_deref(), Some("E"));
        let text = "S:6SY\r\n\r\n________________________________\r\nFrom: herald <herald@x.test>\r\nSent: Monday, 1 January 2024 10:00\r\nTo: Ada\r\nSubject: Your move\r\n\r\nE\r\n";
        assert_eq!(move_line(text).as_deref(), Some("S:6SY"));
    }

    #[test]
    fn an_apple_mail_reply_in_latin_1_reads_its_accents() {
        let raw = b"From: =?iso-8859-1?q?Andr=E9?= <andre@example.test>\r\nTo: play+abc@herald.test\r\nSubject: Re: =?iso-8859-1?q?=C0_vous?=\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\nE ; d\xe9j\xe0\r\n\r\nEnvoy\xe9 de mon iPhone\r\n\r\n> Le 1 janv. 2024 \xe0 10:00, herald <herald@x.test> a \xe9crit :\r\n> \r\n> S:6SY\r\n".to_vec();
        let reply = read(&raw).unwrap();
        assert_eq!(reply.line.as_deref(), Some("E ; déjà"));
        let raw = b"From: a@example.test\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nUzo2U1kKCj4gUXVvdGVkCg==\r\n";
        assert_eq!(read(raw).unwrap().line.as_deref(), Some("S:6SY"));
    }

    #[test]
    fn machines_and_forwards_are_recognised() {
        let mail = |headers: &str| {
            read(&crlf(&format!(
                "From: ada@example.test\nTo: play+abc@herald.test\nSubject: Re: Your move\n{headers}\nE\n"
            )))
            .unwrap()
        };
        assert_eq!(mail("").automatic, None);
        assert_eq!(mail("Auto-Submitted: no\n").automatic, None);
        assert!(mail("Auto-Submitted: auto-replied\n").automatic.is_some());
        assert!(
            mail("Auto-Submitted: Auto-Generated; owner-email=x\n")
                .automatic
                .is_some()
        );
        assert!(mail("Precedence: bulk\n").automatic.is_some());
        assert!(mail("Precedence: junk\n").automatic.is_some());
        assert!(mail("X-Autoreply: yes\n").automatic.is_some());
        assert!(
            mail("X-Auto-Response-Suppress: DR, OOF, AutoReply\n")
                .automatic
                .is_some()
        );
        assert_eq!(mail("X-Auto-Response-Suppress: DR\n").automatic, None);
        let subject = |subject: &str| {
            read(&crlf(&format!(
                "From: ada@example.test\nTo: play+abc@herald.test\nSubject: {subject}\n\nE\n"
            )))
            .unwrap()
            .automatic
        };
        assert!(subject("Réponse automatique : Re: À vous").is_some());
        assert!(subject("Automatic reply: Your move").is_some());
        assert!(subject("Out of Office: Re: Your move").is_some());
        assert_eq!(subject("Re: Your move"), None);
        assert_eq!(subject("Re: Auto-trade?"), None);
        assert!(subject("=?iso-8859-1?q?R=E9ponse_automatique_:_Re:_=C0_vous?=").is_some());
        assert!(mail("List-Id: <games.example.test>\n").automatic.is_some());
        assert!(mail("Return-Path: <>\n").automatic.is_some());
        let bounce = read(&crlf(
            "From: MAILER-DAEMON@mx.example.test\nTo: play+abc@herald.test\nSubject: Undelivered\n\nE\n",
        ))
        .unwrap();
        assert_eq!(bounce.automatic, Some("mailer-daemon"));
        let forward = read(&crlf(
            "From: ada@example.test\nTo: play+abc@herald.test\nSubject: Fwd: Your move\n\nE\n",
        ))
        .unwrap();
        assert!(forward.forwarded);
        assert!(mail("Resent-From: ada@example.test\n").forwarded);
        let body = read(&crlf(
            "From: ada@example.test\nTo: play+abc@herald.test\nSubject: Your move\n\nE\n\n---------- Forwarded message ---------\nFrom: herald\n",
        ))
        .unwrap();
        assert!(body.forwarded);
    }

    #[test]
    fn reply_addresses_give_their_token_at_our_domain_only() {
        let domain = Some("herald.test");
        assert_eq!(
            reply_token("PLAY+AbC234@Herald.Test", domain).as_deref(),
            Some("abc234")
        );
        assert_eq!(
            reply_token("<play+abc@herald.test>", None).as_deref(),
            Some("abc")
        );
        assert_eq!(reply_token("play+abc@elsewhere.test", domain), None);
        let idn = Some("jeux.b\u{fc}cher.example");
        for address in [
            "play+abc@jeux.b\u{fc}cher.example",
            "play+abc@JEUX.xn--bcher-kva.example",
        ] {
            assert_eq!(
                reply_token(address, idn).as_deref(),
                Some("abc"),
                "{address}"
            );
        }
        assert_eq!(reply_token("play+abc@jeux.bucher.example", idn), None);
        assert_eq!(reply_token("other+abc@herald.test", domain), None);
        assert_eq!(reply_token("play+@herald.test", domain), None);
        assert_eq!(reply_token("play+a.b@herald.test", domain), None);
        assert_eq!(reply_token("play@herald.test", domain), None);
    }

    #[test]
    fn utf8_header_fields_are_read_and_the_sender_normalised() {
        // RFC 6532: raw UTF-8 in the header, as SMTPUTF8 mail carries it; the sender in NFD
        // (as some mail programs write it) is read in NFC, as accounts store addresses.
        let raw = crlf(
            "From: Jos\u{e9} <JOSE\u{301}@Exemple.fr>\nTo: play+abc@herald.test\nSubject: R\u{e9}p : \u{c0} vous\nMessage-ID: <\u{e9}t\u{e9}@exemple.fr>\nContent-Type: text/plain; charset=utf-8\n\nE ; d\u{e9}j\u{e0}\n",
        );
        let reply = read(&raw).unwrap();
        assert_eq!(reply.from.as_deref(), Some("jos\u{e9}@exemple.fr"));
        assert_eq!(
            reply.message_id.as_deref(),
            Some("<\u{e9}t\u{e9}@exemple.fr>")
        );
        assert_eq!(reply.line.as_deref(), Some("E ; d\u{e9}j\u{e0}"));
        assert_eq!(reply.automatic, None);
        assert!(!reply.forwarded);
    }

    #[test]
    fn what_is_not_a_message_is_refused() {
        assert_eq!(read(b""), None);
    }
}
