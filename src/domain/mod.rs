//! Typed ids and parsed values. Wire types convert into these at the edge (serde `try_from`), so
//! a service never sees an unchecked e-mail address or a display name of 500 characters.
//!
//! Must not depend on actix, diesel or the services.

use serde::{Deserialize, Serialize};
use std::fmt;
use uuid::Uuid;

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub Uuid);

        impl $name {
            /// A fresh random id.
            pub fn new() -> Self {
                $name(Uuid::new_v4())
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

typed_id!(
    /// An account.
    UserId
);
typed_id!(
    /// A game.
    GameId
);
typed_id!(
    /// A personal access token (not its secret).
    TokenId
);

/// Why a value was refused; the sentence names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

/// Characters that are invisible or reorder what is shown (zero-width spaces and joiners, bidi
/// overrides and isolates, the BOM): in a name or an address they only serve to impersonate.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// Whether `chars[i]` is a tag character of a whole subdivision flag (England's, Scotland's,
/// Wales'): a black flag, two to six tag letters or digits, a cancel tag (Unicode TS 51). Such
/// tags are part of the emoji; any other tag character is hidden text.
fn flag_tag(chars: &[char], i: usize) -> bool {
    let tag = |c: &char| matches!(c, '\u{E0030}'..='\u{E0039}' | '\u{E0061}'..='\u{E007A}');
    let Some(start) = chars[..i].iter().rposition(|c| !tag(c)) else {
        return false;
    };
    let letters = chars[start + 1..].iter().take_while(|c| tag(c)).count();
    chars[start] == '\u{1F3F4}'
        && (2..=6).contains(&letters)
        && chars.get(start + 1 + letters) == Some(&'\u{E007F}')
}

fn no_control_chars(field: &str, value: &str) -> Result<(), Invalid> {
    if value.chars().any(char::is_control) {
        return Err(Invalid(format!(
            "{field} must not contain control characters or NUL bytes"
        )));
    }
    // Unicode's own line and paragraph separators break a one-line text as a newline would.
    if value.chars().any(|c| matches!(c, '\u{2028}' | '\u{2029}')) {
        return Err(Invalid(format!(
            "{field} must be one line, without line or paragraph separators"
        )));
    }
    // A zero-width joiner or a variation selector belongs to an emoji (👩‍💻, ❤️): allowed next to
    // pictographs, never between letters where it would hide a look-alike.
    let chars: Vec<char> = value.chars().collect();
    let pictograph = |c: Option<&char>| c.is_some_and(|c| *c > '\u{2000}' && !c.is_alphanumeric());
    let hidden = chars.iter().enumerate().find(|&(i, c)| {
        let emoji_glue = matches!(c, '\u{200D}' | '\u{FE00}'..='\u{FE0F}')
            && pictograph(i.checked_sub(1).and_then(|p| chars.get(p)))
            && (*c != '\u{200D}' || pictograph(chars.get(i + 1)));
        invisible(*c) && !emoji_glue && !flag_tag(&chars, i)
    });
    if let Some((_, c)) = hidden {
        return Err(Invalid(format!(
            "{field} must not contain invisible or text-direction characters (U+{:04X})",
            u32::from(*c)
        )));
    }
    Ok(())
}

/// A one-line text a person wrote (a competition's name, a director's reason): in NFC, trimmed,
/// between 1 and `max` characters, without control, invisible or text-direction characters.
///
/// # Errors
/// [`Invalid`] naming `field`.
pub fn one_line_text(field: &str, value: &str, max: usize) -> Result<String, Invalid> {
    no_control_chars(field, value)?;
    let text = nfc(value.trim());
    let count = text.chars().count();
    if count == 0 || count > max {
        return Err(Invalid(format!(
            "{field} must be between 1 and {max} characters"
        )));
    }
    Ok(text)
}

/// The text in Unicode NFC, so that one name has one spelling.
fn nfc(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.nfc().collect()
}

/// A syntactically plausible e-mail address, trimmed and lower-cased (one address, one account).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct EmailAddress(String);

impl EmailAddress {
    /// # Errors
    /// When the text is not an address of the form `name@domain.tld` of at most 254 characters.
    pub fn parse(text: &str) -> Result<EmailAddress, Invalid> {
        let text = normalised_address(text);
        let bad = || Invalid(format!("{text:?} is not an e-mail address"));
        no_control_chars("an e-mail address", &text)?;
        if text.len() > 254 || text.chars().any(char::is_whitespace) {
            return Err(bad());
        }
        let (local, domain) = text.split_once('@').ok_or_else(bad)?;
        let labels_ok = domain.split('.').all(|l| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && !l.contains(['@', '"', '(', ')', ',', ':', ';', '<', '>', '[', ']', '\\'])
        });
        if local.is_empty()
            || local.len() > 64
            || local.contains(['"', '(', ')', ',', ':', ';', '<', '>', '[', ']', '\\'])
            || !domain.contains('.')
            || !labels_ok
        {
            return Err(bad());
        }
        Ok(EmailAddress(text))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An address as accounts store it ([`EmailAddress`]: trimmed, NFC, lower case), valid or not:
/// how an address read elsewhere (a mail's `From`) is written before it is compared.
pub fn normalised_address(text: &str) -> String {
    nfc(text.trim()).to_lowercase()
}

/// Whether two addresses name one mailbox: their local parts alike once normalised
/// ([`normalised_address`]), their domains alike ([`same_domain`]). A mail from
/// `jose\u{301}@xn--bcher-kva.example` is from the account `josé@bücher.example`.
pub fn same_mailbox(a: &str, b: &str) -> bool {
    let (a, b) = (normalised_address(a), normalised_address(b));
    match (a.rsplit_once('@'), b.rsplit_once('@')) {
        (Some((local_a, domain_a)), Some((local_b, domain_b))) => {
            local_a == local_b && same_domain(domain_a, domain_b)
        }
        _ => a == b,
    }
}

/// Whether two domains are one: compared in their ASCII form (IDNA, RFC 5890), so that an
/// internationalised domain written in Unicode (`bücher.example`, as SMTPUTF8 mail carries it)
/// and as `xn--` labels (`xn--bcher-kva.example`, as other mail does) is one domain.
pub fn same_domain(a: &str, b: &str) -> bool {
    ascii_domain(a) == ascii_domain(b)
}

/// A domain's ASCII form, lower case, without a final dot; as it is written when IDNA cannot
/// read it (an address literal, a malformed label).
fn ascii_domain(domain: &str) -> String {
    let domain = domain.trim().trim_end_matches('.');
    match url::Host::parse(domain) {
        Ok(url::Host::Domain(ascii)) => ascii,
        _ => domain.to_lowercase(),
    }
}

impl TryFrom<String> for EmailAddress {
    type Error = Invalid;
    fn try_from(value: String) -> Result<Self, Invalid> {
        EmailAddress::parse(&value)
    }
}

impl From<EmailAddress> for String {
    fn from(value: EmailAddress) -> String {
        value.0
    }
}

impl fmt::Display for EmailAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The name other players see: 1 to 64 characters after trimming, no control characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DisplayName(String);

impl DisplayName {
    pub const MAX_CHARS: usize = 64;

    /// # Errors
    /// When the trimmed name is empty, longer than 64 characters, or contains control characters.
    pub fn parse(text: &str) -> Result<DisplayName, Invalid> {
        let text = nfc(text.trim());
        let text = text.as_str();
        no_control_chars("display_name", text)?;
        let chars = text.chars().count();
        if chars == 0 || chars > Self::MAX_CHARS {
            return Err(Invalid(format!(
                "display_name must be 1 to {} characters, not {chars}",
                Self::MAX_CHARS
            )));
        }
        Ok(DisplayName(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for DisplayName {
    type Error = Invalid;
    fn try_from(value: String) -> Result<Self, Invalid> {
        DisplayName::parse(&value)
    }
}

impl From<DisplayName> for String {
    fn from(value: DisplayName) -> String {
        value.0
    }
}

/// A new password: at least 10 characters, at most 1024 bytes (hashing cost stays bounded).
/// Its `Debug` form is redacted.
#[derive(Clone, Deserialize)]
#[serde(try_from = "String")]
pub struct Password(String);

impl Password {
    pub const MIN_CHARS: usize = 10;
    pub const MAX_BYTES: usize = 1024;

    /// # Errors
    /// When shorter than 10 characters, longer than 1024 bytes, or containing NUL bytes.
    pub fn parse(text: String) -> Result<Password, Invalid> {
        if text.contains('\0') {
            return Err(Invalid("password must not contain NUL bytes".to_owned()));
        }
        if text.chars().count() < Self::MIN_CHARS {
            return Err(Invalid(format!(
                "password must be at least {} characters",
                Self::MIN_CHARS
            )));
        }
        if text.len() > Self::MAX_BYTES {
            return Err(Invalid(format!(
                "password must be at most {} bytes",
                Self::MAX_BYTES
            )));
        }
        Ok(Password(text))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Password {
    type Error = Invalid;
    fn try_from(value: String) -> Result<Self, Invalid> {
        Password::parse(value)
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(<secret>)")
    }
}

/// The language of a player's emails and pages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Locale {
    #[default]
    En,
    Es,
    It,
    Fr,
}

impl Locale {
    pub fn as_str(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Es => "es",
            Locale::It => "it",
            Locale::Fr => "fr",
        }
    }

    /// The locale's place in the `[en, es, it, fr]` arrays of translated texts.
    pub fn index(self) -> usize {
        match self {
            Locale::En => 0,
            Locale::Es => 1,
            Locale::It => 2,
            Locale::Fr => 3,
        }
    }

    /// The locale stored in a row; unknown values fall back to English.
    pub fn from_db(text: &str) -> Locale {
        match text {
            "es" => Locale::Es,
            "it" => Locale::It,
            "fr" => Locale::Fr,
            _ => Locale::En,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_and_direction_characters_are_refused_and_names_are_nfc() {
        for bad in [
            "ze\u{200B}ro",
            "rev\u{202E}rsed",
            "bom\u{FEFF}",
            "iso\u{2066}late",
            "a\u{2029}b",
            "ab\u{2028}cd",
            "a\u{FFF9}b",
            "tag\u{E0067}less",
            // Tag letters smuggled after a flag: no cancel tag, capitals, too many.
            "\u{1F3F4}\u{E0067}\u{E0062}",
            "\u{1F3F4}\u{E0047}\u{E0042}\u{E007F}",
            "\u{1F3F4}\u{E0061}\u{E0062}\u{E0063}\u{E0064}\u{E0065}\u{E0066}\u{E0067}\u{E007F}",
        ] {
            assert!(DisplayName::parse(bad).is_err(), "{bad:?}");
            assert!(
                EmailAddress::parse(&format!("{bad}@example.test")).is_err(),
                "{bad:?}"
            );
        }
        let nfd = "Jose\u{0301}";
        assert_eq!(DisplayName::parse(nfd).unwrap().as_str(), "Jos\u{00E9}");
        // The flag of England: a black flag, tag letters "gbeng", a cancel tag.
        let england = "Ada \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
        assert_eq!(DisplayName::parse(england).unwrap().as_str(), england);
        assert_eq!(
            DisplayName::parse("Zoë 👩‍💻").unwrap().as_str(),
            "Zoë 👩‍💻",
            "emoji keep their joiners"
        );
    }

    #[test]
    fn email_addresses_are_trimmed_and_lower_cased() {
        assert_eq!(
            EmailAddress::parse("  Ada@Example.TEST ").map(|e| e.0),
            Ok("ada@example.test".to_owned())
        );
    }

    #[test]
    fn one_mailbox_however_its_unicode_is_written() {
        let stored = EmailAddress::parse("Jos\u{e9}@B\u{fc}cher.Example").unwrap();
        assert_eq!(stored.as_str(), "jos\u{e9}@b\u{fc}cher.example");
        for same in [
            "jose\u{301}@b\u{fc}cher.example",
            "JOS\u{c9}@xn--bcher-kva.example",
            " jos\u{e9}@B\u{dc}CHER.example. ",
        ] {
            assert!(same_mailbox(stored.as_str(), same), "{same}");
        }
        for other in [
            "jose@bucher.example",
            "jos\u{e9}@bucher.example",
            "jos\u{e9}",
        ] {
            assert!(!same_mailbox(stored.as_str(), other), "{other}");
        }
        assert!(same_domain("[127.0.0.1]", "[127.0.0.1]"));
    }

    #[test]
    fn text_without_an_at_sign_or_a_dotted_domain_is_not_an_address() {
        for bad in [
            "ada",
            "ada@",
            "@example.test",
            "ada@localhost",
            "a b@example.test",
            "ada@ex..test",
            "ada\0@example.test",
        ] {
            assert!(EmailAddress::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn display_names_count_characters_not_bytes() {
        assert!(DisplayName::parse(&"é".repeat(64)).is_ok());
        assert!(DisplayName::parse(&"é".repeat(65)).is_err());
        assert!(DisplayName::parse("   ").is_err());
    }

    #[test]
    fn short_passwords_are_refused() {
        assert!(Password::parse("123456789".to_owned()).is_err());
        assert!(Password::parse("1234567890".to_owned()).is_ok());
    }
}
