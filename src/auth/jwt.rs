//! Access tokens: JWTs signed with HS256 and the server's secret.

use crate::domain::UserId;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

/// The claims of an access token.
#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: uuid::Uuid,
    iat: i64,
    exp: i64,
    /// Always `"access"`; other kinds of signed tokens must not pass as access tokens.
    typ: String,
}

/// Signs and checks access tokens.
#[derive(Clone)]
pub struct JwtKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    ttl_s: i64,
}

/// A freshly issued access token.
pub struct Issued {
    pub token: String,
    pub expires_in: i64,
}

impl JwtKeys {
    pub fn new(secret: &[u8], ttl_s: i64) -> JwtKeys {
        JwtKeys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            ttl_s,
        }
    }

    /// An access token for `user`, valid for the configured lifetime.
    ///
    /// # Errors
    /// Only if signing fails.
    pub fn issue(&self, user: UserId) -> anyhow::Result<Issued> {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            sub: user.0,
            iat: now,
            exp: now + self.ttl_s,
            typ: "access".to_owned(),
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)?;
        Ok(Issued {
            token,
            expires_in: self.ttl_s,
        })
    }

    /// The user of a valid, unexpired access token.
    pub fn verify(&self, token: &str) -> Option<UserId> {
        self.verify_until(token).map(|(user, _)| user)
    }

    /// [`Jwt::verify`], with the token's expiry (seconds since the epoch): a long-lived
    /// connection (an event stream) ends when its token does.
    pub fn verify_until(&self, token: &str) -> Option<(UserId, i64)> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 5;
        validation.set_required_spec_claims(&["exp", "sub"]);
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).ok()?;
        (data.claims.typ == "access").then_some((UserId(data.claims.sub), data.claims.exp))
    }
}
