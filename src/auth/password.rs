//! Password hashing with argon2id (the crate's default parameters).

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

/// The PHC string to store for `password`.
///
/// # Errors
/// Only if argon2 refuses its own parameters.
pub fn hash(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::encode_b64(&super::random_bytes::<16>())
        .map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("password hashing: {e}"))
}

/// Whether `password` matches the stored PHC string. A malformed stored hash matches nothing.
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Spends the time of a verification without an account, so a wrong address answers as slowly
/// as a wrong password (no account enumeration by timing).
pub fn verify_nothing(password: &str) {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let stored = DUMMY.get_or_init(|| hash("not the password of anyone").unwrap_or_default());
    let _ = verify(password, stored);
}
