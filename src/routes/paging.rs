//! The query parameters of the lists that page, read and checked at the edge, and the `Link`
//! header (RFC 8288) that sends a client to the next page. What a page is lives in
//! [`crate::services::paging`].
//!
//! A value out of range is refused in the very words [`super::params`] uses for one that does not
//! parse (`limit=0` and `limit=x` read alike), so a client learns one sentence per parameter.

use super::params;
use crate::error::ApiError;
use crate::services::paging::{After, DEFAULT_PAGE, MAX_OFFSET, MAX_PAGE, Page};
use actix_web::dev::Payload;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::future::{Ready, ready};
use utoipa::IntoParams;

/// Which page of a list, by position.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Rows to answer (1–200). Without it, 50, except where the operation says it answers the
    /// whole list.
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// Rows to skip (default 0).
    #[param(minimum = 0, maximum = 1_000_000)]
    pub offset: Option<u32>,
}

impl PageQuery {
    /// The names it reads, to tell them from a list's own filters (see [`WithPage`]).
    const NAMES: [&'static str; 2] = ["limit", "offset"];

    /// The page asked for; [`DEFAULT_PAGE`] rows without a limit.
    ///
    /// # Errors
    /// 422 `validation_failed` naming a limit or offset out of range.
    pub fn page(&self) -> Result<Page, ApiError> {
        let limit = self.limit.map(checked_limit).transpose()?;
        Ok(Page {
            limit: limit.unwrap_or(DEFAULT_PAGE),
            offset: self.checked_offset()?,
        })
    }

    /// The page asked for, where no limit means the whole list: up to `whole` rows (a cap that
    /// predates paging; a `Link` leads on when the list is longer).
    ///
    /// # Errors
    /// 422 `validation_failed` naming a limit or offset out of range.
    pub fn page_or_whole(&self, whole: u32) -> Result<Page, ApiError> {
        let limit = self.limit.map(checked_limit).transpose()?;
        Ok(Page {
            limit: limit.unwrap_or(whole),
            offset: self.checked_offset()?,
        })
    }

    fn checked_offset(&self) -> Result<u32, ApiError> {
        let offset = self.offset.unwrap_or(0);
        if offset > MAX_OFFSET {
            return Err(out_of_range("offset", 0, Some(MAX_OFFSET)));
        }
        Ok(offset)
    }
}

/// What is new in a log numbered by `seq`: the entries after a number, a page at a time.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AfterQuery {
    /// Only the entries whose `seq` is greater than this: give the last `seq` you hold to fetch
    /// only what is new. Without it, from the first.
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// At most this many entries (1–200); without it, every entry after `after`. A full page
    /// with more after it answers a `Link` to the next.
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
}

impl AfterQuery {
    /// The cursor asked for.
    ///
    /// # Errors
    /// 422 `validation_failed` naming a negative `after` or a limit out of range.
    pub fn cursor(&self) -> Result<After, ApiError> {
        if self.after.is_some_and(|a| a < 0) {
            return Err(out_of_range("after", 0, None));
        }
        Ok(After {
            after: self.after,
            limit: self.limit.map(checked_limit).transpose()?,
        })
    }
}

fn checked_limit(limit: u32) -> Result<u32, ApiError> {
    if limit == 0 || limit > MAX_PAGE {
        return Err(out_of_range("limit", 1, Some(MAX_PAGE)));
    }
    Ok(limit)
}

fn out_of_range(name: &str, min: i64, max: Option<u32>) -> ApiError {
    ApiError::Validation(params::integer_problem(name, Some(min), max.map(i64::from)))
}

/// A list's own query parameters `F` and its [`PageQuery`], each read by its own struct so that
/// both still refuse a name neither knows. (`serde(flatten)` cannot: it refuses nothing, and reads
/// every value of the flattened part as text, so no number parses.)
#[derive(Debug)]
pub struct WithPage<F> {
    pub filter: F,
    pub page: PageQuery,
}

impl<F: DeserializeOwned> FromRequest for WithPage<F> {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(with_page(req))
    }
}

/// Splits the query into the paging parameters and the rest, and reads each; what does not parse
/// is refused as any unreadable query is ([`super::query_error`]), the whole query in view.
fn with_page<F: DeserializeOwned>(req: &HttpRequest) -> Result<WithPage<F>, actix_web::Error> {
    let (paging, rest): (Vec<&str>, Vec<&str>) = req
        .query_string()
        .split('&')
        .filter(|pair| !pair.is_empty())
        .partition(|pair| {
            let name = url::form_urlencoded::parse(pair.as_bytes()).next();
            name.is_some_and(|(name, _)| PageQuery::NAMES.contains(&name.as_ref()))
        });
    let filter = web::Query::<F>::from_query(&rest.join("&"))
        .map_err(|e| super::query_error(e, req))?
        .into_inner();
    let page = web::Query::<PageQuery>::from_query(&paging.join("&"))
        .map_err(|e| super::query_error(e, req))?
        .into_inner();
    Ok(WithPage { filter, page })
}

/// Where the next page starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// At this position (lists paged by `offset`).
    Offset(u32),
    /// After this `seq` (logs paged by `after`).
    After(i64),
}

/// A 200 with `rows` as JSON and, when a next page exists, the `Link` to it.
pub fn answer<T: Serialize>(req: &HttpRequest, next: Option<Next>, rows: &T) -> HttpResponse {
    let mut answer = HttpResponse::Ok();
    match next {
        Some(Next::Offset(offset)) => {
            answer.insert_header(next_link(req, "offset", &offset.to_string()));
        }
        Some(Next::After(seq)) => {
            answer.insert_header(next_link(req, "after", &seq.to_string()));
        }
        None => {}
    }
    answer.json(rows)
}

/// `Link: <path?query>; rel="next"`: this request's own address with `name` set to `value`, the
/// other parameters kept in their order.
fn next_link(req: &HttpRequest, name: &str, value: &str) -> (HeaderName, HeaderValue) {
    let mut pairs: Vec<(String, String)> =
        url::form_urlencoded::parse(req.query_string().as_bytes())
            .into_owned()
            .collect();
    match pairs.iter_mut().find(|(n, _)| n == name) {
        Some(pair) => value.clone_into(&mut pair.1),
        None => pairs.push((name.to_owned(), value.to_owned())),
    }
    let query = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(&pairs)
        .finish();
    let link = format!("<{}?{query}>; rel=\"next\"", req.path());
    // Every byte is from a parsed path and an encoded query: visible ASCII.
    let value = HeaderValue::from_str(&link).unwrap_or(HeaderValue::from_static(""));
    (actix_web::http::header::LINK, value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn the_next_link_keeps_the_other_parameters_and_replaces_its_own() {
        let req = TestRequest::get()
            .uri("/api/v1/games?status=active&offset=2&limit=2")
            .to_http_request();
        let (name, value) = next_link(&req, "offset", "4");
        assert_eq!(name, actix_web::http::header::LINK);
        assert_eq!(
            value.to_str().unwrap(),
            "</api/v1/games?status=active&offset=4&limit=2>; rel=\"next\""
        );
        let req = TestRequest::get()
            .uri("/api/v1/games/x/chat?limit=5")
            .to_http_request();
        let (_, value) = next_link(&req, "after", "9");
        assert_eq!(
            value.to_str().unwrap(),
            "</api/v1/games/x/chat?limit=5&after=9>; rel=\"next\""
        );
    }

    #[test]
    fn out_of_range_reads_as_unreadable_does() {
        let zero = PageQuery {
            limit: Some(0),
            offset: None,
        };
        let refused = zero.page_or_whole(500).unwrap_err().to_string();
        assert!(
            refused.contains("the query parameter `limit` must be a number from 1 to 200"),
            "{refused}"
        );
        let negative = AfterQuery {
            after: Some(-1),
            limit: None,
        };
        let refused = negative.cursor().unwrap_err().to_string();
        assert!(
            refused.contains("the query parameter `after` must be a whole number of at least 0"),
            "{refused}"
        );
        assert_eq!(PageQuery::default().page_or_whole(500).unwrap().limit, 500);
        assert_eq!(PageQuery::default().page().unwrap().limit, DEFAULT_PAGE);
    }
}
