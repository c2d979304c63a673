//! The complete list of legal actions of the active seat (every payment variant its own entry),
//! and, for fast self-play, the same list counted and indexed without building it.
//!
//! The list is organised in groups (one card and district to build on, one deed to develop, one
//! suit to trade away, ...). [`legal_actions`] lists every member of every group; [`count`] and
//! [`nth`] count groups' members with closed forms and build only the chosen action, so
//! `nth(state, i) == legal_actions(state)[i]` (a test checks it over many random games).

use super::action::Action;
use super::cards::{Card, District, Suit};
use super::options::{ForbidAllow, TradeRule};
use super::play::{cost, deed_allowed, deed_price, placement_suits};
use super::state::{Phase, State};
use super::tokens::Tokens;
use crate::engine::Seat;

/// A group of legal actions that differ only in their payment.
#[derive(Debug, Clone, Copy)]
enum Group {
    Build(Card, District),
    Deed(Card, District),
    Sell(Card),
    Develop(Card),
    /// three_same: give three of this suit, take any allowed suit.
    TradeThree(Suit),
    /// any_three: every three tokens of the supply, take any allowed suit.
    TradeAny,
    End,
}

/// Calls `f` with every group open to `seat` now, in list order.
fn groups(state: &State, seat: Seat, mut f: impl FnMut(Group)) {
    if state.is_over() || seat != state.turn.seat || state.turn.phase != Phase::Action {
        return;
    }
    let player = &state.players[seat];
    if !state.turn.card_played {
        let places = placement_suits(state, seat);
        for card in player.hand.iter() {
            for (d, suits) in District::ALL.into_iter().zip(places) {
                if card.suits().intersects(suits) {
                    f(Group::Build(card, d));
                }
            }
        }
        for card in player.hand.iter() {
            if !deed_allowed(card, &state.rules)
                || !deed_price(card, &state.rules).is_ok_and(|p| player.supply.covers(&p))
            {
                continue;
            }
            for (d, suits) in District::ALL.into_iter().zip(places) {
                if card.suits().intersects(suits) {
                    f(Group::Deed(card, d));
                }
            }
        }
        for card in player.hand.iter() {
            f(Group::Sell(card));
        }
    }
    for (_, p) in player.placed() {
        if p.deed.is_some() {
            f(Group::Develop(p.card));
        }
    }
    match state.rules.trade {
        TradeRule::ThreeSame => {
            for s in Suit::ALL {
                if player.supply.get(s) >= 3 {
                    f(Group::TradeThree(s));
                }
            }
        }
        TradeRule::AnyThree => {
            if player.supply.total() >= 3 {
                f(Group::TradeAny);
            }
        }
    }
    if state.turn.card_played || player.hand.is_empty() {
        f(Group::End);
    }
}

/// The number of ways to put `total` tokens on `suits`, at least `min` and at most the supply
/// of each.
fn count_compositions(suits: &[Suit], total: u16, min: u16, caps: &Tokens) -> u32 {
    match suits {
        [] => u32::from(total == 0),
        [a] => u32::from(total >= min && total <= caps.get(*a)),
        [a, b] => {
            // a + b = total with a in [min, cap_a] and b in [min, cap_b].
            let lo = i32::from(min).max(i32::from(total) - i32::from(caps.get(*b)));
            let hi = i32::from(caps.get(*a)).min(i32::from(total) - i32::from(min));
            (hi - lo + 1).max(0) as u32
        }
        [a, rest @ ..] => {
            let top = caps.get(*a).min(total);
            (min..=top)
                .map(|k| count_compositions(rest, total - k, min, caps))
                .sum()
        }
    }
}

/// Calls `f` with every way to put `total` tokens on `suits` (bounds as above), in order.
fn compositions(
    suits: &[Suit],
    total: u16,
    min: u16,
    caps: &Tokens,
    cur: &mut Tokens,
    f: &mut impl FnMut(&Tokens) -> bool,
) -> bool {
    match suits {
        [] => total != 0 || f(cur),
        [a] => {
            if total < min || total > caps.get(*a) {
                return true;
            }
            cur.set(*a, total);
            let go_on = f(cur);
            cur.set(*a, 0);
            go_on
        }
        [a, rest @ ..] => {
            let top = caps.get(*a).min(total);
            for k in min..=top {
                cur.set(*a, k);
                if !compositions(rest, total - k, min, caps, cur, f) {
                    cur.set(*a, 0);
                    return false;
                }
            }
            cur.set(*a, 0);
            true
        }
    }
}

fn suits_of(card: Card) -> ([Suit; 6], usize) {
    card.suits().to_array()
}

/// The tokens still missing on `seat`'s deed of `card`, and the tokens on it.
fn deed_room(state: &State, seat: Seat, card: Card) -> (u16, Tokens) {
    let on = state.players[seat]
        .deed(card)
        .map(|d| d.tokens)
        .unwrap_or_default();
    let target = cost(card, &state.rules);
    (target.saturating_sub(on.total() as u16), on)
}

/// MAG-DEV-7 with `deed_dev_each_suit`: the development leaves room for the missing suits.
fn each_suit_ok(state: &State, card: Card, on: &Tokens, payment: &Tokens, room: u16) -> bool {
    if !state.rules.deed_dev_each_suit {
        return true;
    }
    let missing = card
        .suits()
        .iter()
        .filter(|s| on.get(*s) + payment.get(*s) == 0)
        .count() as u32;
    u32::from(room) - payment.total() >= missing
}

fn take_options(state: &State, give: &Tokens) -> impl Iterator<Item = Suit> {
    let allow = state.rules.trade_same_suit == ForbidAllow::Allow;
    let give = *give;
    Suit::ALL
        .into_iter()
        .filter(move |s| allow || give.get(*s) == 0)
}

/// Calls `f` with each member of `group`, in order; stops when `f` returns false.
fn members(state: &State, seat: Seat, group: Group, f: &mut impl FnMut(Action) -> bool) -> bool {
    let supply = state.players[seat].supply;
    match group {
        Group::Build(card, district) => {
            let (suits, n) = suits_of(card);
            let mut cur = Tokens::NONE;
            compositions(
                suits.get(..n).unwrap_or(&[]),
                cost(card, &state.rules),
                1,
                &supply,
                &mut cur,
                &mut |p| {
                    f(Action::Build {
                        card,
                        district,
                        payment: *p,
                    })
                },
            )
        }
        Group::Deed(card, district) => f(Action::Deed { card, district }),
        Group::Sell(card) => f(Action::Sell { card }),
        Group::Develop(card) => {
            let (suits, n) = suits_of(card);
            let (room, on) = deed_room(state, seat, card);
            let mut cur = Tokens::NONE;
            for t in 1..=room {
                let go_on = compositions(
                    suits.get(..n).unwrap_or(&[]),
                    t,
                    0,
                    &supply,
                    &mut cur,
                    &mut |p| {
                        !each_suit_ok(state, card, &on, p, room)
                            || f(Action::Develop { card, payment: *p })
                    },
                );
                if !go_on {
                    return false;
                }
            }
            true
        }
        Group::TradeThree(s) => {
            let give = Tokens::of(s, 3);
            take_options(state, &give).all(|take| f(Action::Trade { give, take }))
        }
        Group::TradeAny => {
            let mut cur = Tokens::NONE;
            compositions(&Suit::ALL, 3, 0, &supply, &mut cur, &mut |give| {
                let give = *give;
                take_options(state, &give).all(|take| f(Action::Trade { give, take }))
            })
        }
        Group::End => f(Action::End),
    }
}

fn group_size(state: &State, seat: Seat, group: Group) -> u32 {
    let supply = state.players[seat].supply;
    let allow = state.rules.trade_same_suit == ForbidAllow::Allow;
    match group {
        Group::Build(card, _) => {
            let (suits, n) = suits_of(card);
            count_compositions(
                suits.get(..n).unwrap_or(&[]),
                cost(card, &state.rules),
                1,
                &supply,
            )
        }
        Group::Deed(..) | Group::Sell(_) | Group::End => 1,
        Group::Develop(card) if !state.rules.deed_dev_each_suit => {
            let (suits, n) = suits_of(card);
            let (room, _) = deed_room(state, seat, card);
            (1..=room)
                .map(|t| count_compositions(suits.get(..n).unwrap_or(&[]), t, 0, &supply))
                .sum()
        }
        Group::TradeThree(_) => {
            if allow {
                6
            } else {
                5
            }
        }
        Group::Develop(_) | Group::TradeAny => {
            let mut n = 0;
            members(state, seat, group, &mut |_| {
                n += 1;
                true
            });
            n
        }
    }
}

/// Every legal action of `seat` now, complete (MAG actions; `prefer` is never listed).
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    groups(state, seat, |g| {
        members(state, seat, g, &mut |a| {
            out.push(a);
            true
        });
    });
    out
}

/// How many legal actions `seat` has now; `legal_actions(..).len()` without building the list.
pub fn count(state: &State, seat: Seat) -> u32 {
    let mut n = 0;
    groups(state, seat, |g| n += group_size(state, seat, g));
    n
}

/// A uniformly random legal action of `seat` (`None` when it has none): the groups are sized once,
/// on the stack, and only the chosen action is built. Equivalent to `nth(state, seat,
/// rng.below(count(state, seat)))`.
pub fn pick(state: &State, seat: Seat, rng: &mut crate::engine::GameRng) -> Option<Action> {
    const CAP: usize = 96;
    let mut sized = [(Group::End, 0u32); CAP];
    let mut len = 0;
    let mut total = 0u32;
    let mut overflow = false;
    groups(state, seat, |g| {
        let size = group_size(state, seat, g);
        total += size;
        match sized.get_mut(len) {
            Some(slot) => *slot = (g, size),
            None => overflow = true,
        }
        len += 1;
    });
    if total == 0 {
        return None;
    }
    let mut left = rng.below(total);
    if overflow {
        // Only reachable from unusual positions with very large hands.
        return nth(state, seat, left);
    }
    for &(g, size) in sized.iter().take(len) {
        if left >= size {
            left -= size;
            continue;
        }
        let mut chosen = None;
        members(state, seat, g, &mut |a| {
            if left == 0 {
                chosen = Some(a);
                return false;
            }
            left -= 1;
            true
        });
        return chosen;
    }
    None
}

/// The `i`-th legal action of `seat`, as `legal_actions(..)[i]`, built alone.
pub fn nth(state: &State, seat: Seat, i: u32) -> Option<Action> {
    let mut left = i;
    let mut chosen = None;
    groups(state, seat, |g| {
        if chosen.is_some() {
            return;
        }
        let size = group_size(state, seat, g);
        if left >= size {
            left -= size;
            return;
        }
        let mut k = left;
        members(state, seat, g, &mut |a| {
            if k == 0 {
                chosen = Some(a);
                return false;
            }
            k -= 1;
            true
        });
    });
    chosen
}
