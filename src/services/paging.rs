//! Pages of a list: by position (`limit` rows from `offset`, for lists ordered by something that
//! changes, such as ratings or when a game last moved) or after a number (`limit` rows after a
//! `seq`, for logs that only grow, such as a game's history and chat). The values are checked
//! where they are read (routes); this module only says what a page is.
//!
//! Each reader fetches one row more than it answers: that row only tells whether a next page
//! exists, so a client is never sent to an empty page.

/// The most rows one page holds.
pub const MAX_PAGE: u32 = 200;
/// Rows per page of a list that always pages (a leaderboard) when the caller does not say.
pub const DEFAULT_PAGE: u32 = 50;
/// The furthest a page may start.
pub const MAX_OFFSET: u32 = 1_000_000;

/// One page of a list: `limit` rows from `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub limit: u32,
    pub offset: u32,
}

impl Page {
    /// The rows to fetch: one more than the page holds.
    pub fn fetch(self) -> i64 {
        i64::from(self.limit) + 1
    }

    /// Where the next page starts; `None` beyond [`MAX_OFFSET`], where no page may start (a
    /// `Link` there would lead to a refusal).
    pub fn next_offset(self) -> Option<u32> {
        self.offset
            .checked_add(self.limit)
            .filter(|next| *next <= MAX_OFFSET)
    }
}

/// The entries of a log numbered above `after` (all of them when `None`), at most `limit` (all
/// when `None`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct After {
    pub after: Option<i64>,
    pub limit: Option<u32>,
}

impl After {
    /// The whole log.
    pub const ALL: After = After {
        after: None,
        limit: None,
    };

    /// Whether an entry numbered `seq` comes after the cursor.
    pub fn admits(self, seq: i64) -> bool {
        self.after.is_none_or(|after| seq > after)
    }

    /// The lowest number an entry of the page may have.
    pub fn first(self) -> i64 {
        self.after.map_or(i64::MIN, |after| after.saturating_add(1))
    }

    /// The rows to fetch: one more than the page holds, or all.
    pub fn fetch(self) -> Option<i64> {
        self.limit.map(|limit| i64::from(limit) + 1)
    }
}

/// One page of rows, and whether more follow it.
#[derive(Debug, Clone, PartialEq)]
pub struct Paged<T> {
    pub rows: Vec<T>,
    /// More rows follow the last of `rows` (a `Link: rel="next"` is due).
    pub more: bool,
}

impl<T> Paged<T> {
    /// From the rows fetched for a page of at most `limit` (up to `limit + 1`, the extra one
    /// saying that more exist); all of them when there is no limit.
    pub fn of(mut rows: Vec<T>, limit: Option<u32>) -> Paged<T> {
        let Some(limit) = limit.and_then(|l| usize::try_from(l).ok()) else {
            return Paged { rows, more: false };
        };
        let more = rows.len() > limit;
        rows.truncate(limit);
        Paged { rows, more }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_row_fetched_beyond_the_limit_only_says_that_more_exist() {
        let full = Paged::of(vec![1, 2, 3], Some(2));
        assert_eq!((full.rows, full.more), (vec![1, 2], true));
        let last = Paged::of(vec![1, 2], Some(2));
        assert_eq!((last.rows, last.more), (vec![1, 2], false));
        let whole = Paged::of(vec![1, 2, 3], None);
        assert_eq!((whole.rows, whole.more), (vec![1, 2, 3], false));
    }

    #[test]
    fn a_cursor_admits_what_is_numbered_above_it() {
        let after = After {
            after: Some(3),
            limit: None,
        };
        assert!(!after.admits(3));
        assert!(after.admits(4));
        assert_eq!(after.first(), 4);
        assert!(After::ALL.admits(0));
    }
}
