//! The JSON body extractor of the API. Unlike `actix_web::web::Json` it answers every bad body
//! with the right problem: unparsable JSON 400 `malformed_request`; wrong types, unknown fields,
//! out-of-range values and NUL bytes 422 `validation_failed`; too large 413; not JSON, or not
//! said to be, 415.

use crate::error::ApiError;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web::BytesMut};
use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

/// The largest body the API reads (a list of actions fits many times over).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// How long a body may take to arrive whole. The largest crosses a slow mobile link in a few
/// seconds; a client that stalls or trickles it (one byte a second would take 18 hours) would
/// otherwise hold its connection, and enough of them every file the server may open.
pub const BODY_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// A JSON request body, parsed into `T` (which should `deny_unknown_fields`).
#[derive(Debug)]
pub struct Json<T>(pub T);

/// Like [`Json`], but an empty body means `T::default()` (for bodies whose fields are all
/// optional).
#[derive(Debug)]
pub struct OptionalJson<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = read_body(req, payload);
        Box::pin(async move {
            let bytes = body.await?;
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Err(ApiError::MalformedRequest(
                    "this request needs a JSON body".to_owned(),
                ));
            }
            parse(&bytes).map(Json)
        })
    }
}

impl<T: DeserializeOwned + Default + 'static> FromRequest for OptionalJson<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = read_body(req, payload);
        Box::pin(async move {
            let bytes = body.await?;
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Ok(OptionalJson(T::default()));
            }
            parse(&bytes).map(OptionalJson)
        })
    }
}

fn read_body(
    req: &HttpRequest,
    payload: &mut Payload,
) -> LocalBoxFuture<'static, Result<BytesMut, ApiError>> {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap_or("?").to_owned());
    let encoding = req
        .headers()
        .get(header::CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap_or("?").trim().to_ascii_lowercase());
    let declared_length = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let mut payload = payload.take();
    let typed = content_type.is_some();
    Box::pin(async move {
        if let Some(content_type) = content_type {
            let essence = content_type
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if essence != "application/json" && !essence.ends_with("+json") {
                return Err(ApiError::UnsupportedMediaType(format!(
                    "the body must be application/json, not {essence:?}"
                )));
            }
            // JSON is UTF-8 (RFC 8259 section 8.1): a body said to be in another charset would be
            // read wrongly, not refused, if it were believed.
            let charset = content_type.split(';').skip(1).find_map(|p| {
                let (name, value) = p.split_once('=')?;
                name.trim()
                    .eq_ignore_ascii_case("charset")
                    .then(|| value.trim().trim_matches('"').to_ascii_lowercase())
            });
            if let Some(charset) = charset.filter(|c| c != "utf-8" && c != "utf8") {
                return Err(ApiError::UnsupportedMediaType(format!(
                    "JSON is read as UTF-8: the charset {charset:?} is not"
                )));
            }
        }
        // A compressed body is not read: refused by name, rather than read as broken JSON.
        if let Some(encoding) = encoding.filter(|e| e != "identity") {
            return Err(ApiError::UnsupportedMediaType(format!(
                "the body must be sent without a Content-Encoding, not {encoding:?}"
            )));
        }
        let too_large = ApiError::PayloadTooLarge {
            limit: MAX_BODY_BYTES,
        };
        if declared_length.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
            return Err(too_large);
        }
        let read = async {
            let mut body = BytesMut::new();
            while let Some(chunk) = payload.next().await {
                let chunk = chunk.map_err(|e| {
                    ApiError::MalformedRequest(format!("the body could not be read: {e}"))
                })?;
                if body.len() + chunk.len() > MAX_BODY_BYTES {
                    return Err(too_large);
                }
                body.extend_from_slice(&chunk);
            }
            // A body must say it is JSON. Without a Content-Type a browser sends it cross-site
            // with no preflight (a "simple" request), so any page a visitor opens could drive the
            // calls that need no token (accounts, sign-in links) from the visitor's address.
            // Bodiless calls (an empty optional body) need none.
            if !typed && !body.iter().all(u8::is_ascii_whitespace) {
                return Err(ApiError::UnsupportedMediaType(
                    "a body must be sent with Content-Type: application/json".to_owned(),
                ));
            }
            Ok(body)
        };
        actix_web::rt::time::timeout(BODY_WAIT, read)
            .await
            .unwrap_or_else(|_| {
                Err(ApiError::RequestTimeout(format!(
                    "the body did not arrive within {} s",
                    BODY_WAIT.as_secs()
                )))
            })
    })
}

/// Parses a body, classifying failures the way the API promises.
///
/// # Errors
/// 400 for text that is not JSON, 422 for JSON of the wrong shape or containing NUL.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if has_nul(bytes) {
        return Err(ApiError::Validation(
            "the body contains a NUL character, which no field accepts".to_owned(),
        ));
    }
    // Every body of the API is an object; serde would also read a struct from an array of its
    // fields in order (`["ada@example.org", "Ada", ...]`), or from `[]` when all are optional.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(
            match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
                Ok(_) => ApiError::Validation("the body must be a JSON object".to_owned()),
                Err(e) => ApiError::MalformedRequest(format!("the body is not valid JSON: {e}")),
            },
        );
    }
    let parsed = serde_json::from_slice(bytes).map_err(|e| {
        use serde_json::error::Category;
        match e.classify() {
            // A shape error may come before a syntax error further on: the body as a whole
            // decides which problem it is.
            Category::Data => match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
                Ok(_) => ApiError::Validation(e.to_string()),
                Err(syntax) => {
                    ApiError::MalformedRequest(format!("the body is not valid JSON: {syntax}"))
                }
            },
            Category::Syntax | Category::Eof | Category::Io => {
                ApiError::MalformedRequest(format!("the body is not valid JSON: {e}"))
            }
        }
    })?;
    // A typed field named twice is refused by serde; inside a field kept as JSON (a game's
    // `options`, an action, a clock) the last one would silently win.
    serde_json::from_slice::<Unique>(bytes).map_err(|e| ApiError::Validation(e.to_string()))?;
    Ok(parsed)
}

/// Any JSON value in which no object names a key twice.
struct Unique;

impl<'de> serde::Deserialize<'de> for Unique {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Unique)
    }
}

impl<'de> serde::de::Visitor<'de> for Unique {
    type Value = Unique;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_unit<E>(self) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<Unique, A::Error> {
        while items.next_element::<Unique>()?.is_some() {}
        Ok(Unique)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut seen = std::collections::BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key {key:?} appears twice in one object"
                )));
            }
            map.next_value::<Unique>()?;
            seen.insert(key);
        }
        Ok(Unique)
    }
}

/// A raw NUL byte, or the escape `\u0000` inside a JSON string (PostgreSQL text cannot hold it).
fn has_nul(bytes: &[u8]) -> bool {
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            0 => return true,
            b'\\' => {
                if bytes.get(i + 1) == Some(&b'u')
                    && bytes.get(i + 2..i + 6).is_some_and(|h| h == b"0000")
                {
                    return true;
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{has_nul, parse};
    use crate::error::ApiError;
    use serde_json::Value;

    #[test]
    fn a_key_named_twice_in_any_object_is_refused_and_named() {
        for body in [
            r#"{"options": {"tax_dice": 2, "tax_dice": 1}}"#,
            r#"{"actions": [{"type": "end"}, {"type": "sell", "card": "1M", "card": "2M"}]}"#,
            r#"{"a": 1, "a": 1}"#,
        ] {
            match parse::<Value>(body.as_bytes()) {
                Err(ApiError::Validation(text)) => {
                    assert!(text.contains("appears twice in one object"), "{text}");
                }
                other => panic!("{body}: {other:?}"),
            }
        }
        let fine = r#"{"a": {"x": 1}, "b": {"x": [1, {"x": null, "y": true}], "y": -1.5}}"#;
        assert!(parse::<Value>(fine.as_bytes()).is_ok());
    }

    #[test]
    fn an_escaped_nul_is_found_but_an_escaped_backslash_before_u0000_is_not() {
        assert!(has_nul(br#"{"a":"x\u0000"}"#));
        assert!(!has_nul(br#"{"a":"x\\u0000"}"#));
        assert!(has_nul(b"{\"a\":\"\0\"}"));
        assert!(!has_nul(br#"{"a":"\u00e9"}"#));
    }
}
