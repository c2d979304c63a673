//! A service's transaction stopped by a refusal or a failure, for the services whose refusals are
//! types (`games::refusal`, `competitions::refusal`): the API says a refusal in its English
//! sentences and codes, the pages in their reader's language, so the refusal travels as itself
//! until one of them answers. Either kind of stop rolls the transaction back.

use crate::error::ApiError;

/// A service's typed refusal: what [`Failure`] carries besides a failure. Only refusal types
/// implement it, which keeps `From<ApiError>` and `From<R>` for [`Failure`] apart.
pub(crate) trait Refusal: Into<ApiError> {}

/// What stops a service's transaction: a refusal or a failure. Either rolls it back.
#[derive(Debug)]
pub(crate) enum Failure<R> {
    Refused(R),
    Failed(ApiError),
}

impl<R: Refusal> From<R> for Failure<R> {
    fn from(r: R) -> Failure<R> {
        Failure::Refused(r)
    }
}

impl<R> From<ApiError> for Failure<R> {
    fn from(e: ApiError) -> Failure<R> {
        Failure::Failed(e)
    }
}

impl<R> From<diesel::result::Error> for Failure<R> {
    fn from(e: diesel::result::Error) -> Failure<R> {
        Failure::Failed(e.into())
    }
}

impl<R: Refusal> From<Failure<R>> for ApiError {
    fn from(f: Failure<R>) -> ApiError {
        match f {
            Failure::Refused(r) => r.into(),
            Failure::Failed(e) => e,
        }
    }
}

/// A transaction's outcome as the services answer it: `Ok(Err(_))` for a refusal (nothing
/// written), `Err` for a failure.
pub(crate) fn split<T, R>(done: Result<T, Failure<R>>) -> Result<Result<T, R>, ApiError> {
    match done {
        Ok(done) => Ok(Ok(done)),
        Err(Failure::Refused(r)) => Ok(Err(r)),
        Err(Failure::Failed(e)) => Err(e),
    }
}

/// A `try_` service's outcome as the API answers it: a refusal in its English.
pub(crate) fn as_api<T, R: Refusal>(done: Result<Result<T, R>, ApiError>) -> Result<T, ApiError> {
    done?.map_err(Into::into)
}
