//! Signed tokens for browsers and emailed links, all HS256 with the server's secret and each
//! with its own `typ`, so no kind of token passes for another:
//!
//! - `play`: the `?t=` of a "your move" link, `PUBLIC_URL/play/{game_id}?t=<token>`. It names one
//!   game and one seat and expires (default 14 days). It is refused for any other game.
//! - `play_session`: the cookie a valid `play` link sets for that game only
//!   ([`play_cookie_name`], `Path=/play/{game_id}`): the device may act for that seat.
//! - `sign_in`: an emailed sign-in link; `jti` names its `email_links` row, so it is single use.
//! - `user_session`: the account-wide browser session ([`USER_COOKIE`]) after a sign-in link.
//! - `invite`: the accept link of an invitation mailed to an address that may have no account
//!   yet: one game, one seat, and the invited address's SHA-256 (never the address itself).
//!
//! - `reply`: the token of a turn mail's reply address, `play+<token>@MAIL_DOMAIN` (moves by
//!   email, design.md section 18): one game, one seat, the version the mail showed, an expiry.
//!   Not a JWT: a mail address's local part has room for 64 characters and may lose its case on
//!   the way, so it is 36 bytes (the claims and the first 80 bits of their HMAC-SHA256 under the
//!   same key) in lower-case base32. Tokens of 35 bytes (before the expiry had its fraction of
//!   a second) are still read.
//!
//! Tokens carry ids only, never a hand, a seed or an address.

use crate::domain::{GameId, UserId};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The account-wide browser session cookie.
pub const USER_COOKIE: &str = "herald_user";

/// The cookie holding a device's grant for one game's seat.
pub fn play_cookie_name(game: GameId) -> String {
    format!("herald_play_{}", game.0.simple())
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Claims {
    sub: Uuid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    game: Option<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seat: Option<i16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    jti: Option<Uuid>,
    /// `invite` only: hex SHA-256 of the invited address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    email: Option<String>,
    iat: i64,
    exp: i64,
    typ: String,
}

/// What a play link or play session grants: acting for `seat` of `game` as `user`, nothing more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayGrant {
    pub user: UserId,
    pub game: GameId,
    pub seat: i16,
}

/// What a reply address grants: a move of `seat` in `game`, decided on the position of
/// `version` (an older or newer game refuses it as stale).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyGrant {
    pub game: GameId,
    pub seat: i16,
    pub version: i64,
}

/// What a reply token signs before its claims: no other token's signed text starts so.
const REPLY_CONTEXT: &[u8] = b"herald reply address\0";
/// What a numbered list's tag signs before the grant and the moves.
const LIST_CONTEXT: &[u8] = b"herald numbered list\0";
/// Claims: game (16 bytes), seat (1), version (4), expiry in Unix seconds (4), then the
/// expiry's fraction of a second in 256ths, rounded down (1): it tells, to a few milliseconds,
/// when the mail was written (see `services::inbound`).
const REPLY_CLAIMS: usize = 26;
/// The claims of a token made before the fraction was added.
const REPLY_CLAIMS_WHOLE_SECONDS: usize = 25;
/// The HMAC-SHA256 kept: 80 bits, enough against guessing over the network.
const REPLY_MAC: usize = 10;

/// Why a link was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("this link has expired")]
    Expired,
    #[error("this link is for another game")]
    OtherGame,
    #[error("this link is not valid")]
    Invalid,
}

/// Signs and checks link and session tokens.
#[derive(Clone)]
pub struct LinkKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl LinkKeys {
    pub fn new(secret: &[u8]) -> LinkKeys {
        LinkKeys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
        }
    }

    fn sign(&self, claims: &Claims) -> String {
        // HS256 over our own claims cannot fail; an empty token would simply never verify.
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
            .unwrap_or_default()
    }

    fn read(&self, token: &str, typ: &str) -> Result<Claims, LinkError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 5;
        validation.set_required_spec_claims(&["exp", "sub"]);
        match jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation) {
            Ok(data) if data.claims.typ == typ => Ok(data.claims),
            Ok(_) => Err(LinkError::Invalid),
            Err(e) if matches!(e.kind(), jsonwebtoken::errors::ErrorKind::ExpiredSignature) => {
                Err(LinkError::Expired)
            }
            Err(_) => Err(LinkError::Invalid),
        }
    }

    fn claims(typ: &str, user: UserId, ttl_s: i64) -> Claims {
        let now = chrono::Utc::now().timestamp();
        Claims {
            sub: user.0,
            game: None,
            seat: None,
            jti: None,
            email: None,
            iat: now,
            exp: now + ttl_s,
            typ: typ.to_owned(),
        }
    }

    fn grant(&self, token: &str, typ: &str, game: GameId) -> Result<PlayGrant, LinkError> {
        let c = self.read(token, typ)?;
        match (c.game, c.seat) {
            (Some(g), Some(seat)) if g == game.0 => Ok(PlayGrant {
                user: UserId(c.sub),
                game,
                seat,
            }),
            (Some(_), Some(_)) => Err(LinkError::OtherGame),
            _ => Err(LinkError::Invalid),
        }
    }

    /// The `?t=` token of a "your move" link for `grant`, valid `ttl_s` seconds.
    pub fn play_link(&self, grant: PlayGrant, ttl_s: i64) -> String {
        let mut c = LinkKeys::claims("play", grant.user, ttl_s);
        c.game = Some(grant.game.0);
        c.seat = Some(grant.seat);
        self.sign(&c)
    }

    /// Checks a play link opened at `/play/{game}`.
    ///
    /// # Errors
    /// [`LinkError`]: expired, for another game, or not a valid play link.
    pub fn verify_play_link(&self, token: &str, game: GameId) -> Result<PlayGrant, LinkError> {
        self.grant(token, "play", game)
    }

    /// The value of the [`play_cookie_name`] cookie for `grant`.
    pub fn play_session(&self, grant: PlayGrant, ttl_s: i64) -> String {
        let mut c = LinkKeys::claims("play_session", grant.user, ttl_s);
        c.game = Some(grant.game.0);
        c.seat = Some(grant.seat);
        self.sign(&c)
    }

    /// The grant of a play-session cookie, for `game` only.
    pub fn verify_play_session(&self, token: &str, game: GameId) -> Option<PlayGrant> {
        self.grant(token, "play_session", game).ok()
    }

    /// The token of a single-use sign-in link; `link_id` is its `email_links` row.
    pub fn sign_in_link(&self, user: UserId, link_id: Uuid, ttl_s: i64) -> String {
        let mut c = LinkKeys::claims("sign_in", user, ttl_s);
        c.jti = Some(link_id);
        self.sign(&c)
    }

    /// The user and `email_links` row of a sign-in link (the caller marks the row used).
    ///
    /// # Errors
    /// [`LinkError::Expired`] or [`LinkError::Invalid`].
    pub fn verify_sign_in(&self, token: &str) -> Result<(UserId, Uuid), LinkError> {
        let c = self.read(token, "sign_in")?;
        c.jti.map(|j| (UserId(c.sub), j)).ok_or(LinkError::Invalid)
    }

    /// The token of a single-use sign-up link: its `email_links` row holds the address (there
    /// is no account yet, so the row id stands as the subject too).
    pub fn sign_up_link(&self, link_id: Uuid, ttl_s: i64) -> String {
        let mut c = LinkKeys::claims("sign_up", UserId(link_id), ttl_s);
        c.jti = Some(link_id);
        self.sign(&c)
    }

    /// The `email_links` row of a sign-up link.
    ///
    /// # Errors
    /// [`LinkError::Expired`] or [`LinkError::Invalid`].
    pub fn verify_sign_up(&self, token: &str) -> Result<Uuid, LinkError> {
        self.read(token, "sign_up")?.jti.ok_or(LinkError::Invalid)
    }

    /// The account and link row of a sign-in token whose signature holds, expired or not: a
    /// spent or expired link may still ask for a fresh one, mailed to its account only.
    pub fn sign_in_owner(&self, token: &str) -> Option<(UserId, Uuid)> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.validate_exp = false;
        validation.set_required_spec_claims(&["sub"]);
        let c = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .ok()?
            .claims;
        (c.typ == "sign_in").then_some(())?;
        c.jti.map(|j| (UserId(c.sub), j))
    }

    /// The token of an invitation's accept link: seat `seat` of `game` for whoever holds the
    /// invited `email` (the accepting account must have that address).
    pub fn invite_link(&self, game: GameId, seat: i16, email: &str, ttl_s: i64) -> String {
        let mut c = LinkKeys::claims("invite", UserId(Uuid::nil()), ttl_s);
        c.game = Some(game.0);
        c.seat = Some(seat);
        c.email = Some(email_digest(email));
        self.sign(&c)
    }

    /// The seat an invitation link offers, if it is valid for `game` and `email`.
    ///
    /// # Errors
    /// [`LinkError`]: expired, for another game, or not for this address.
    pub fn verify_invite(&self, token: &str, game: GameId, email: &str) -> Result<i16, LinkError> {
        let c = self.read(token, "invite")?;
        match (c.game, c.seat, c.email) {
            (Some(g), _, _) if g != game.0 => Err(LinkError::OtherGame),
            (Some(_), Some(seat), Some(digest)) if digest == email_digest(email) => Ok(seat),
            _ => Err(LinkError::Invalid),
        }
    }

    /// The seat of an invitation link for `game` and the digest of the address it was sent to,
    /// whoever opens it (the caller checks that the invitation still stands).
    ///
    /// # Errors
    /// [`LinkError`]: expired, for another game, or not an invitation link.
    pub fn invite_seat(&self, token: &str, game: GameId) -> Result<(i16, String), LinkError> {
        let c = self.read(token, "invite")?;
        match (c.game, c.seat, c.email) {
            (Some(g), _, _) if g != game.0 => Err(LinkError::OtherGame),
            (Some(_), Some(seat), Some(digest)) => Ok((seat, digest)),
            _ => Err(LinkError::Invalid),
        }
    }

    /// The 80-bit MAC of a reply token's claims.
    fn reply_mac(&self, claims: &[u8]) -> Option<Vec<u8>> {
        self.mac(REPLY_CONTEXT, claims, REPLY_MAC)
    }

    /// The first `len` bytes of the HS256 MAC of `context` then `body`, under the link key.
    fn mac(&self, context: &[u8], body: &[u8], len: usize) -> Option<Vec<u8>> {
        use base64::Engine;
        let mut message = context.to_vec();
        message.extend_from_slice(body);
        let mac = jsonwebtoken::crypto::sign(&message, &self.encoding, Algorithm::HS256).ok()?;
        let mut mac = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(mac)
            .ok()?;
        mac.truncate(len);
        Some(mac)
    }

    /// A short tag of the moves a mail for `grant` numbered, in order: the same tag means the
    /// same move for every number (`services::inbound`). Keyed, since a seat's moves follow
    /// from its hidden cards and a `Message-ID` is logged and seen on the way: without the key,
    /// no list can be tried against a tag.
    pub fn list_tag(&self, grant: ReplyGrant, moves: &[String]) -> String {
        let mut body = grant.game.0.as_bytes().to_vec();
        body.extend_from_slice(&grant.seat.to_be_bytes());
        body.extend_from_slice(&grant.version.to_be_bytes());
        for m in moves {
            body.extend_from_slice(m.as_bytes());
            body.push(b'\n');
        }
        // Signing with our own HS256 key cannot fail; an empty tag would match no mail's.
        let mac = self.mac(LIST_CONTEXT, &body, 8).unwrap_or_default();
        format!("l{}", hex::encode(mac))
    }

    /// The token of a reply address for `grant`, valid `ttl_s` seconds: 58 characters of
    /// lower-case base32.
    pub fn reply_token(&self, grant: ReplyGrant, ttl_s: i64) -> String {
        let now = chrono::Utc::now();
        let exp = now.timestamp().saturating_add(ttl_s);
        // In 256ths of a second, rounded down (below 256).
        let ticks = u64::from(now.timestamp_subsec_nanos()) * 256 / 1_000_000_000;
        self.reply_token_expiring(grant, exp, u8::try_from(ticks).unwrap_or(u8::MAX))
    }

    fn reply_token_expiring(&self, grant: ReplyGrant, exp: i64, fraction: u8) -> String {
        let mut bytes = Vec::with_capacity(REPLY_CLAIMS + REPLY_MAC);
        bytes.extend_from_slice(grant.game.0.as_bytes());
        bytes.push(u8::try_from(grant.seat).unwrap_or(u8::MAX));
        bytes.extend_from_slice(
            &u32::try_from(grant.version)
                .unwrap_or(u32::MAX)
                .to_be_bytes(),
        );
        bytes.extend_from_slice(&u32::try_from(exp).unwrap_or(0).to_be_bytes());
        bytes.push(fraction);
        // Signing with our own HS256 key cannot fail; an empty MAC would never verify.
        let mac = self.reply_mac(&bytes).unwrap_or_default();
        bytes.extend_from_slice(&mac);
        base32(&bytes)
    }

    /// The grant of a reply token (in any letter case).
    ///
    /// # Errors
    /// [`LinkError::Expired`] for a genuine token past its expiry, [`LinkError::Invalid`] for
    /// anything else.
    pub fn verify_reply_token(&self, token: &str) -> Result<ReplyGrant, LinkError> {
        self.verify_reply_token_expiring(token)
            .map(|(grant, _)| grant)
    }

    /// [`LinkKeys::verify_reply_token`], with the token's expiry (to 1/256 s, rounded down; a
    /// whole second for a token made before that was kept).
    ///
    /// # Errors
    /// As [`LinkKeys::verify_reply_token`].
    pub fn verify_reply_token_expiring(
        &self,
        token: &str,
    ) -> Result<(ReplyGrant, chrono::DateTime<chrono::Utc>), LinkError> {
        let bytes = unbase32(token).ok_or(LinkError::Invalid)?;
        let claims_len = match bytes.len().checked_sub(REPLY_MAC) {
            Some(REPLY_CLAIMS) => REPLY_CLAIMS,
            Some(REPLY_CLAIMS_WHOLE_SECONDS) => REPLY_CLAIMS_WHOLE_SECONDS,
            _ => return Err(LinkError::Invalid),
        };
        let (claims, mac) = bytes.split_at(claims_len);
        let expected = self.reply_mac(claims).ok_or(LinkError::Invalid)?;
        // Compared in constant time: every byte is looked at.
        let differ = expected
            .iter()
            .zip(mac)
            .fold(u8::from(expected.len() != mac.len()), |acc, (a, b)| {
                acc | (a ^ b)
            });
        if differ != 0 {
            return Err(LinkError::Invalid);
        }
        let word = |at: usize| {
            u32::from_be_bytes([claims[at], claims[at + 1], claims[at + 2], claims[at + 3]])
        };
        let game = Uuid::from_slice(&claims[..16]).map_err(|_| LinkError::Invalid)?;
        let seconds = i64::from(word(21));
        if seconds < chrono::Utc::now().timestamp() {
            return Err(LinkError::Expired);
        }
        let fraction = claims.get(25).copied().unwrap_or(0);
        let expiry = chrono::DateTime::from_timestamp(seconds, 0).ok_or(LinkError::Invalid)?
            + chrono::Duration::nanoseconds(i64::from(fraction) * 1_000_000_000 / 256);
        let grant = ReplyGrant {
            game: GameId(game),
            seat: i16::from(claims[16]),
            version: i64::from(word(17)),
        };
        Ok((grant, expiry))
    }

    /// The value of the [`USER_COOKIE`] cookie.
    pub fn user_session(&self, user: UserId, ttl_s: i64) -> String {
        self.sign(&LinkKeys::claims("user_session", user, ttl_s))
    }

    /// An account cookie naming its server-side session row `session`.
    pub fn user_session_in(&self, user: UserId, session: Uuid, ttl_s: i64) -> String {
        let mut claims = LinkKeys::claims("user_session", user, ttl_s);
        claims.jti = Some(session);
        self.sign(&claims)
    }

    pub fn verify_user_session(&self, token: &str) -> Option<UserId> {
        self.read(token, "user_session").ok().map(|c| UserId(c.sub))
    }

    /// The server-side session an account cookie names (none for a cookie from before
    /// sessions were kept, which then no longer signs in).
    pub fn user_session_id(&self, token: &str) -> Option<Uuid> {
        self.read(token, "user_session").ok().and_then(|c| c.jti)
    }
}

const BASE32: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// RFC 4648 base32 in lower case, without padding.
fn base32(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 8 / 5 + 1);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &byte in bytes {
        buffer = (buffer << 8) | u32::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(BASE32[((buffer >> bits) & 31) as usize]));
        }
    }
    if bits > 0 {
        out.push(char::from(BASE32[((buffer << (5 - bits)) & 31) as usize]));
    }
    out
}

/// [`base32`] read back, in either case; `None` for any other character.
fn unbase32(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        let value = BASE32.iter().position(|&b| b == c.to_ascii_lowercase())?;
        buffer = (buffer << 5) | u32::try_from(value).ok()?;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((buffer >> bits) & 0xff).ok()?);
        }
    }
    // What [`base32`] writes leaves fewer than 5 bits over, all zero: anything else was added.
    (bits < 5 && buffer & ((1 << bits) - 1) == 0).then_some(out)
}

/// Hex SHA-256 of a trimmed, lower-case address.
/// The digest an invitation link carries instead of its address.
pub fn email_digest(email: &str) -> String {
    hex::encode(crate::auth::token_hash(&email.trim().to_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> LinkKeys {
        LinkKeys::new(b"a test secret of some length")
    }

    #[test]
    fn a_play_link_works_for_its_game_only_and_is_no_session() {
        let k = keys();
        let grant = PlayGrant {
            user: UserId::new(),
            game: GameId::new(),
            seat: 1,
        };
        let t = k.play_link(grant, 60);
        assert_eq!(k.verify_play_link(&t, grant.game), Ok(grant));
        assert_eq!(
            k.verify_play_link(&t, GameId::new()),
            Err(LinkError::OtherGame)
        );
        assert_eq!(k.verify_play_session(&t, grant.game), None);
        assert_eq!(k.verify_user_session(&t), None);
        let mut tampered = t.clone();
        tampered.push('x');
        assert_eq!(
            k.verify_play_link(&tampered, grant.game),
            Err(LinkError::Invalid)
        );
        assert_eq!(
            LinkKeys::new(b"another secret").verify_play_link(&t, grant.game),
            Err(LinkError::Invalid)
        );
    }

    #[test]
    fn an_expired_link_says_so() {
        let k = keys();
        let grant = PlayGrant {
            user: UserId::new(),
            game: GameId::new(),
            seat: 0,
        };
        let t = k.play_link(grant, -60);
        assert_eq!(k.verify_play_link(&t, grant.game), Err(LinkError::Expired));
    }

    #[test]
    fn sessions_and_sign_in_links_keep_their_kinds_apart() {
        let k = keys();
        let user = UserId::new();
        let link = Uuid::new_v4();
        let s = k.sign_in_link(user, link, 60);
        assert_eq!(k.verify_sign_in(&s), Ok((user, link)));
        assert_eq!(k.verify_user_session(&s), None);
        let u = k.user_session(user, 60);
        assert_eq!(k.verify_user_session(&u), Some(user));
        assert_eq!(k.verify_sign_in(&u), Err(LinkError::Invalid));
        let grant = PlayGrant {
            user,
            game: GameId::new(),
            seat: 0,
        };
        let p = k.play_session(grant, 60);
        assert_eq!(k.verify_play_session(&p, grant.game), Some(grant));
        assert_eq!(k.verify_play_session(&p, GameId::new()), None);
    }

    #[test]
    fn a_numbered_lists_tag_needs_the_key_and_names_one_list_of_one_mail() {
        let k = keys();
        let grant = ReplyGrant {
            game: GameId::new(),
            seat: 1,
            version: 42,
        };
        let moves: Vec<String> = (0..5).map(|i| format!("move {i}")).collect();
        let tag = k.list_tag(grant, &moves);
        assert!(tag.starts_with('l') && tag.len() == 17, "{tag}");
        assert_eq!(
            tag,
            k.list_tag(grant, &moves),
            "the same list, the same tag"
        );
        // Another list, or the same one in another mail, has another tag.
        assert_ne!(tag, k.list_tag(grant, &moves[1..]));
        assert_ne!(tag, k.list_tag(grant, &moves[..4]));
        let other = ReplyGrant {
            version: 43,
            ..grant
        };
        assert_ne!(tag, k.list_tag(other, &moves));
        // Hidden cards decide a seat's moves: without our key no list can be tried against it.
        assert_ne!(
            tag,
            LinkKeys::new(b"another secret").list_tag(grant, &moves)
        );
        let unkeyed = {
            use sha2::{Digest, Sha256};
            let mut hash = Sha256::new();
            for m in &moves {
                hash.update(m.as_bytes());
                hash.update(b"\n");
            }
            format!("l{}", hex::encode(&hash.finalize()[..8]))
        };
        assert_ne!(tag, unkeyed);
    }

    #[test]
    fn a_reply_token_fits_an_address_survives_lower_case_and_refuses_tampering() {
        let k = keys();
        let grant = ReplyGrant {
            game: GameId::new(),
            seat: 1,
            version: 42,
        };
        let t = k.reply_token(grant, 60);
        assert!(t.len() <= 64 - "play+".len(), "{} characters", t.len());
        assert!(
            t.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        );
        assert_eq!(k.verify_reply_token(&t), Ok(grant));
        assert_eq!(k.verify_reply_token(&t.to_uppercase()), Ok(grant));
        let mut bytes = t.clone().into_bytes();
        bytes[3] = if bytes[3] == b'a' { b'b' } else { b'a' };
        let tampered = String::from_utf8(bytes).unwrap();
        assert_eq!(k.verify_reply_token(&tampered), Err(LinkError::Invalid));
        assert_eq!(
            LinkKeys::new(b"another secret").verify_reply_token(&t),
            Err(LinkError::Invalid)
        );
        for bad in ["", "play", &t[..40], "1!", &format!("{t}a")] {
            assert_eq!(k.verify_reply_token(bad), Err(LinkError::Invalid), "{bad}");
        }
        let old = k.reply_token(grant, -60);
        assert_eq!(k.verify_reply_token(&old), Err(LinkError::Expired));
        // The expiry comes back to within 1/256 s, never earlier than it was.
        let before = chrono::Utc::now() + chrono::Duration::seconds(60);
        let (_, expiry) = k.verify_reply_token_expiring(&t).unwrap();
        assert!(
            expiry >= before - chrono::Duration::milliseconds(1000),
            "{expiry} {before}"
        );
        let exact = k.reply_token_expiring(grant, before.timestamp(), 128);
        let (_, expiry) = k.verify_reply_token_expiring(&exact).unwrap();
        assert_eq!(expiry.timestamp(), before.timestamp());
        assert_eq!(expiry.timestamp_subsec_millis(), 500);
        // A token of whole seconds, as made before, still verifies.
        let mut claims = grant.game.0.as_bytes().to_vec();
        claims.push(1);
        claims.extend_from_slice(&42u32.to_be_bytes());
        claims.extend_from_slice(&u32::try_from(before.timestamp()).unwrap().to_be_bytes());
        let mac = k.reply_mac(&claims).unwrap();
        claims.extend_from_slice(&mac);
        let legacy = base32(&claims);
        assert_eq!(legacy.len(), 56);
        assert_eq!(k.verify_reply_token(&legacy), Ok(grant));
        // No other token passes for a reply token.
        let play = k.play_link(
            PlayGrant {
                user: UserId::new(),
                game: grant.game,
                seat: 1,
            },
            60,
        );
        assert_eq!(k.verify_reply_token(&play), Err(LinkError::Invalid));
    }

    #[test]
    fn base32_round_trips() {
        for n in 0..40u8 {
            let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37).wrapping_add(n)).collect();
            assert_eq!(unbase32(&base32(&bytes)).unwrap(), bytes);
        }
    }

    #[test]
    fn an_invitation_link_is_for_its_game_and_address_only() {
        let k = keys();
        let game = GameId::new();
        let t = k.invite_link(game, 1, "Bruno@Example.test", 60);
        assert_eq!(k.verify_invite(&t, game, "bruno@example.test"), Ok(1));
        assert_eq!(
            k.verify_invite(&t, game, "eve@example.test"),
            Err(LinkError::Invalid)
        );
        assert_eq!(
            k.verify_invite(&t, GameId::new(), "bruno@example.test"),
            Err(LinkError::OtherGame)
        );
        assert_eq!(k.verify_play_link(&t, game), Err(LinkError::Invalid));
    }
}
