//! How a page ends, for queries and scans alike: a page has a cursor exactly when another
//! matching item follows it, so a page that ends the results has none.
//!
//! DynamoDB's `Limit` counts items read before the filter, and a response may stop
//! (`LastEvaluatedKey`) right after the last match there is. Neither a full page nor a
//! `LastEvaluatedKey` says that more matches follow, so once a page has all it returns, the
//! reader reads on until it meets one more match (not returned; the next page starts with
//! it) or the true end.

use super::Page;
use super::cursor::Cursor;

/// The most a look-ahead request doubles to: 2^20 items, far beyond the 1 MB a response
/// holds, so the cap only keeps the shift in range.
const MAX_LOOKAHEAD_DOUBLINGS: u32 = 20;

/// One page being filled: its items, where the last of them is (a position `P` to make the
/// cursor from), and whether it is full.
pub(super) struct PageFill<T, P> {
    limit: Option<usize>,
    items: Vec<T>,
    last: Option<P>,
    /// Set when a page without a limit has its items: the matches of one response.
    responded: bool,
    /// Requests sent since the page became full, to size the next look-ahead.
    lookaheads: u32,
    /// Items the read's policy left out before the page was full, and after: those after
    /// are read again by the next page when more follow, so they count only on the last.
    skipped: (usize, usize),
}

/// What [`PageFill::offer`] did with a match.
pub(super) enum Offered {
    /// Added to the page.
    Taken,
    /// The page was already full: this match shows that more follow, and the page is done.
    Beyond,
}

impl<T, P> PageFill<T, P> {
    /// A page of at most `limit` items; without one, of the matches of the first response
    /// that has any.
    pub(super) fn new(limit: Option<usize>) -> Self {
        Self {
            limit,
            items: Vec::new(),
            last: None,
            responded: false,
            lookaheads: 0,
            skipped: (0, 0),
        }
    }

    /// Counts an item the read's [`UnknownEntity`](super::UnknownEntity) policy left out.
    pub(super) fn skip(&mut self) {
        if self.is_full() {
            self.skipped.1 += 1;
        } else {
            self.skipped.0 += 1;
        }
    }

    /// True when the page has all it returns: reading on only tells whether more follow.
    pub(super) fn is_full(&self) -> bool {
        self.responded || Some(self.items.len()) == self.limit
    }

    /// True when the next match would be the page's last item if the page ended with it,
    /// so its position is needed for a cursor. Positions of other items are not made.
    pub(super) fn wants_position(&self) -> bool {
        !self.is_full() && self.limit.is_none_or(|n| self.items.len() + 1 == n)
    }

    /// Adds a match at `position` (given when [`wants_position`](Self::wants_position)
    /// said so), or reports that the page is done because it was full already.
    pub(super) fn offer(&mut self, item: T, position: Option<P>) -> Offered {
        if self.is_full() {
            return Offered::Beyond;
        }
        self.items.push(item);
        if position.is_some() {
            self.last = position;
        }
        Offered::Taken
    }

    /// Marks the end of one DynamoDB response whose matches were all offered.
    pub(super) fn end_response(&mut self) {
        if self.is_full() {
            self.lookaheads += 1;
        }
        self.responded |= self.limit.is_none() && !self.items.is_empty();
    }

    /// The `Limit` (items read, before the filter) for the next request of a reader that
    /// sizes its requests: while filling, what is still wanted and one more (so an unfiltered
    /// page learns in the same response whether anything follows); once full, a look-ahead
    /// of 1 item, doubled with every further request, so a sparse filter costs a few
    /// round trips and reads at most about twice what lies before the next match.
    pub(super) fn request_limit(&self) -> Option<usize> {
        if self.is_full() {
            Some(1 << self.lookaheads.min(MAX_LOOKAHEAD_DOUBLINGS))
        } else {
            self.limit.map(|n| n - self.items.len() + 1)
        }
    }

    /// The page, with a cursor after its last item when `more` matches follow it.
    pub(super) fn into_page(self, more: bool, cursor: impl FnOnce(P) -> Cursor) -> Page<T> {
        let (before, after) = self.skipped;
        Page {
            cursor: self.last.filter(|_| more).map(cursor),
            items: self.items,
            skipped: if more { before } else { before + after },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(fill: PageFill<u32, u32>, more: bool) -> (Vec<u32>, Option<String>) {
        let page = fill.into_page(more, |at| Cursor::from(format!("after {at}")));
        (page.items, page.cursor.map(|c| c.as_str().to_owned()))
    }

    #[test]
    fn a_limited_page_wants_only_its_last_position_and_reads_one_beyond() {
        let mut fill = PageFill::new(Some(2));
        assert_eq!(fill.request_limit(), Some(3));
        assert!(!fill.wants_position());
        assert!(matches!(fill.offer(1, None), Offered::Taken));
        assert_eq!(fill.request_limit(), Some(2));
        assert!(fill.wants_position());
        assert!(matches!(fill.offer(2, Some(2)), Offered::Taken));
        assert!(fill.is_full() && !fill.wants_position());
        assert!(matches!(fill.offer(3, None), Offered::Beyond));
        assert_eq!(page(fill, true), (vec![1, 2], Some("after 2".to_owned())));
    }

    #[test]
    fn look_ahead_requests_double_until_a_match_or_the_end() {
        let mut fill = PageFill::new(Some(1));
        fill.offer(7, Some(7));
        let sizes: Vec<Option<usize>> = (0..4)
            .map(|_| {
                let size = fill.request_limit();
                fill.end_response();
                size
            })
            .collect();
        assert_eq!(sizes, [Some(1), Some(2), Some(4), Some(8)]);
        // The end came before another match: no cursor.
        assert_eq!(page(fill, false), (vec![7], None));
    }

    #[test]
    fn without_a_limit_a_page_is_the_first_response_with_matches() {
        let mut fill = PageFill::new(None);
        assert_eq!(fill.request_limit(), None);
        fill.end_response(); // a response whose items the filter dropped
        assert!(!fill.is_full());
        assert!(fill.wants_position());
        fill.offer(1, Some(1));
        fill.offer(2, Some(2));
        fill.end_response();
        assert!(fill.is_full());
        assert_eq!(fill.request_limit(), Some(1));
        assert!(matches!(fill.offer(3, None), Offered::Beyond));
        assert_eq!(page(fill, true), (vec![1, 2], Some("after 2".to_owned())));
    }

    #[test]
    fn items_left_out_after_a_full_page_count_only_on_the_last_page() {
        let filled = |more: bool| {
            let mut fill = PageFill::new(Some(1));
            fill.skip(); // before the page's item: this page's
            fill.offer(1, Some(1));
            fill.skip(); // after it: read again by the next page, if there is one
            fill.into_page(more, |at| Cursor::from(format!("after {at}")))
        };
        assert_eq!(filled(true).skipped, 1);
        assert_eq!(filled(false).skipped, 2);
    }
}
