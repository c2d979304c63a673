//! Authentication: passwords (argon2), access tokens (JWT, HS256), personal access tokens (random
//! secrets stored as SHA-256 hashes), the [`AuthUser`] extractor, and rate limits on sign-in.
//!
//! The one place OS randomness is drawn for secrets ([`random_bytes`]). Must not depend on
//! routes; services call into it for hashing.

mod extract;
pub mod jwt;
pub mod links;
pub mod password;
pub mod rate_limit;
mod scope;

pub(crate) use extract::within_limit;
pub use extract::{AuthUser, Credential, MaybeAuthUser};
pub use rate_limit::{AccountLimiter, RateLimiter};
pub use scope::{Scope, ScopeSet};

use base64::Engine;
use sha2::{Digest, Sha256};

/// `N` bytes from the operating system's generator: seeds, salts and token secrets.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    rand::fill(&mut bytes[..]);
    bytes
}

/// The prefix that tells a personal access token from a JWT (and makes leaked tokens greppable).
pub const PERSONAL_TOKEN_PREFIX: &str = "hpat_";

/// A new personal access token secret: the prefix and 32 random bytes in URL-safe base64.
pub fn new_personal_token() -> String {
    let secret = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes::<32>());
    format!("{PERSONAL_TOKEN_PREFIX}{secret}")
}

/// What is stored for a secret token: its SHA-256. The secrets carry 256 random bits, so a fast
/// hash is enough (no dictionary to attack).
pub fn token_hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}
