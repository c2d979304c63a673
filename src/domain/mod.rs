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

fn no_control_chars(field: &str, value: &str) -> Result<(), Invalid> {
    if value.chars().any(char::is_control) {
        return Err(Invalid(format!(
            "{field} must not contain control characters or NUL bytes"
        )));
    }
    Ok(())
}

/// A syntactically plausible e-mail address, trimmed and lower-cased (one address, one account).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct EmailAddress(String);

impl EmailAddress {
    /// # Errors
    /// When the text is not an address of the form `name@domain.tld` of at most 254 characters.
    pub fn parse(text: &str) -> Result<EmailAddress, Invalid> {
        let text = text.trim().to_lowercase();
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
        let text = text.trim();
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
    fn email_addresses_are_trimmed_and_lower_cased() {
        assert_eq!(
            EmailAddress::parse("  Ada@Example.TEST ").map(|e| e.0),
            Ok("ada@example.test".to_owned())
        );
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
