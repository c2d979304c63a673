//! Tests per rule (a refusal cites its rule and changes nothing), the sealed ship choice, the
//! views (no hidden part of a seat leaks to another), determinism, and random games for 1–4
//! players with the component invariants.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::data::{self, Data};
use super::ids::{Loc, Nation, Ship};
use super::state::{Frame, State, Target};
use super::{Action, Merchants, Options};
use crate::engine::{Game, GameRng, Logged, Seat, Seed, Timeout, Viewer};

fn d() -> &'static Data {
    data::load().unwrap()
}

fn new_game(seats: u8, seed: u64) -> State {
    let rules = Merchants::resolve(&Options::default()).unwrap();
    let mut ev = Vec::new();
    Merchants::setup(&rules, seats, &mut GameRng::from_u64(seed), &mut ev).unwrap()
}

fn act(
    st: &mut State,
    seat: Seat,
    a: &Action,
    n: u64,
) -> Result<Vec<Logged<super::Event>>, crate::engine::Illegal> {
    let mut ev = Vec::new();
    let mut rng = GameRng::for_action(&Seed([n as u8; 32]), n);
    Merchants::apply(st, seat, a, &mut rng, &mut ev).map(|()| ev)
}

/// Seals Sloops for everyone: the game is then at the first player's turn.
fn started(seats: u8, seed: u64) -> State {
    let mut st = new_game(seats, seed);
    for s in 0..seats {
        act(&mut st, Seat(s), &Action::Ship { ship: Ship::Sloop }, 1).unwrap();
    }
    st
}

fn turn_seat(st: &State) -> Seat {
    match st.stack.last() {
        Some(Frame::Turn { seat, .. }) => *seat,
        other => panic!("not a turn: {other:?}"),
    }
}

/// A refusal cites `rule` and changes nothing.
fn refused(st: &State, seat: Seat, a: &str, rule: &str) {
    let mut copy = st.clone();
    let a: Action = a.parse().unwrap();
    let err = act(&mut copy, seat, &a, 9).unwrap_err();
    assert_eq!(err.rule, rule, "{a}: {err}");
    assert_eq!(&copy, st, "{a} changed the state");
}

fn zone(code: &str) -> u8 {
    d().zone_index(code).unwrap()
}

#[test]
fn the_data_file_parses_meets_the_counts_of_part_ii_and_marks_its_placeholders() {
    let d = d();
    assert_eq!(d.cargo_cards(), 64);
    assert_eq!(d.zones.len(), 17);
    assert_eq!(d.borders.rows.len(), 28);
    assert_eq!(d.events.len(), 34);
    assert!(d.die.p && d.borders.p && d.captains_p && d.events_p && d.glory_p);
    assert!(d.cargo_per_good.p && d.missions_p && d.rumors_p && d.npcs_p);
    assert!(d.zones.iter().filter(|z| z.port).all(|z| z.p));
    assert!(d.solo.iter().any(|s| s.p) && d.solo.iter().any(|s| !s.p));
    // D-ADJ symmetric: HAV E -> NAS and NAS W -> HAV.
    assert_eq!(d.across(zone("HAV"), super::ids::Dir::E), Some(zone("NAS")));
    assert_eq!(d.across(zone("NAS"), super::ids::Dir::W), Some(zone("HAV")));
    assert_eq!(d.neighbours(zone("CSEA")).len(), 7);
}

#[test]
fn every_action_round_trips_through_its_notation() {
    let all = [
        "ship sloop",
        "ship flute",
        "move SJU",
        "enter",
        "leave",
        "leave drop 3 17",
        "scout merchant",
        "scout p2",
        "scout npc1",
        "port",
        "sell 3 17",
        "buy",
        "take",
        "take 4 5 6",
        "yard frigate",
        "repair hull masts masts",
        "modify",
        "weapon 2",
        "recruit",
        "hire 2",
        "rumor",
        "claim",
        "check",
        "scout rumor",
        "stash 5",
        "stash -7",
        "done",
        "raid ES",
        "let go",
        "draw",
        "discard 12",
        "discard glory 12",
        "discard cargo 12",
        "swap 40",
        "stop",
        "keep",
        "keep 1 2",
        "shoot",
        "board",
        "flee",
        "end",
    ];
    for text in all {
        let a: Action = text.parse().unwrap();
        assert_eq!(a.to_string(), text);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), a);
    }
    for bad in [
        "",
        "move XYZ",
        "ship",
        "sell",
        "scout q1",
        "enter now",
        "let it go",
    ] {
        assert!(bad.parse::<Action>().is_err(), "{bad:?} parsed");
    }
}

#[test]
fn the_notation_is_read_in_any_case_and_with_a_final_full_stop_but_written_as_before() {
    // Phone keyboards capitalise the first letter; a mailed line may end as a sentence.
    for (sent, canonical) in [
        ("Pass", "pass"),
        ("Ship Sloop", "ship sloop"),
        ("SHIP SLOOP", "ship sloop"),
        ("ship Sloop", "ship sloop"),
        ("ship sloop.", "ship sloop"),
        ("Ship Man_O_War", "ship man_o_war"),
        ("Move sju", "move SJU"),
        ("move Csea.", "move CSEA"),
        ("Place hav", "place HAV"),
        ("Raid es", "raid ES"),
        ("Pardon nl", "pardon NL"),
        ("Let Go.", "let go"),
        ("Scout P1", "scout p1"),
        ("Scout NPC3", "scout npc3"),
        ("Scout Merchant sju", "scout merchant SJU"),
        ("Repair Hull Masts", "repair hull masts"),
        ("Discard Glory 12", "discard glory 12"),
        ("Plunder Cargo 12", "plunder cargo 12"),
        ("Stash -5.", "stash -5"),
        (
            "Orders Window tw3: Fire; Declare If Attacked and Hull<=1: Flee; \
             window if Holds gly-14: Play gly-08; hand: Discard gly-05.",
            "orders window TW3: fire; declare if attacked and hull<=1: flee; \
             window if holds GLY-14: play GLY-08; hand: discard GLY-05",
        ),
        ("ORDERS CLEAR", "orders clear"),
        (
            "Script Move Csea; If Gold>=10 And In_Port: Buy; if lacks gly-08: End.",
            "script move CSEA; if gold>=10 and in_port: buy; if lacks GLY-08: end",
        ),
    ] {
        let a: Action = sent
            .parse()
            .unwrap_or_else(|e| panic!("{sent:?} refused: {e}"));
        assert_eq!(a.to_string(), canonical, "{sent:?}");
    }
    // Only one stop, at the very end, and still only real words.
    for bad in ["ship sloop..", "ship. sloop", "Dance", "."] {
        assert!(bad.parse::<Action>().is_err(), "{bad:?} parsed");
    }
    // The line is quoted as sent when no action starts it.
    let err = "Dance".parse::<Action>().unwrap_err();
    assert!(err.contains("\"Dance\""), "{err}");
}

#[test]
fn the_ship_choice_is_sealed_until_every_seat_has_chosen_then_revealed_together() {
    let mut st = new_game(3, 5);
    assert_eq!(Merchants::pending(&st).len(), 3);
    // MM-SETUP-9: only Sloop or Flute.
    refused(&st, Seat(1), "ship frigate", "MM-SETUP-9");
    let ev = act(&mut st, Seat(1), &Action::Ship { ship: Ship::Flute }, 1).unwrap();
    assert_eq!(ev.len(), 1);
    assert_eq!(Merchants::pending(&st).len(), 2);
    assert!(!Merchants::pending(&st).contains(Seat(1)));
    refused(&st, Seat(1), "ship sloop", "MM-ACT-1");
    let other = serde_json::to_string(&Merchants::view(&st, Viewer::Seat(Seat(0)))).unwrap();
    assert!(!other.contains("flute"), "a sealed choice leaked: {other}");
    let own = Merchants::view(&st, Viewer::Seat(Seat(1)));
    assert_eq!(own.players[1].sealed, Some(Ship::Flute));
    act(&mut st, Seat(0), &Action::Ship { ship: Ship::Sloop }, 2).unwrap();
    let ev = act(&mut st, Seat(2), &Action::Ship { ship: Ship::Sloop }, 3).unwrap();
    let reveals = ev
        .iter()
        .filter(|e| matches!(e.event, super::Event::Revealed { .. }))
        .count();
    assert_eq!(reveals, 3);
    for (i, p) in st.players.iter().enumerate() {
        // MM-SETUP-10..13.
        assert!(p.revealed && p.in_port);
        assert_eq!(
            Some(p.zone),
            d().zone_index(&d().captains[usize::from(p.captain)].home)
        );
        assert_eq!(p.gold, 10);
        assert_eq!(p.glory_hand.len(), 1);
        let ship = if i == 1 { Ship::Flute } else { Ship::Sloop };
        assert_eq!(p.ship, Some(ship));
        assert_eq!(
            p.hits,
            Loc::HITS.map(|l| super::rules::max_of(d(), ship, &[], l))
        );
    }
    // MM-ROUND-1: round 1 has begun with an event; the first player has the turn.
    assert_eq!(st.round, 1);
    assert_eq!(st.event_discard.len() + st.event_deck.len(), 34);
    assert!(matches!(
        st.stack.last(),
        Some(Frame::Turn {
            actions_left: 3,
            ..
        })
    ));
}

#[test]
fn moves_go_to_adjacent_zones_and_through_ports_only() {
    let mut st = started(2, 11);
    let seat = turn_seat(&st);
    let here = st.players[seat.index()].zone;
    let far = (0..17u8)
        .find(|z| *z != here && !d().neighbours(here).contains(z))
        .unwrap();
    let far = &d().zones[usize::from(far)].id;
    // In port a Move must first leave (MM-MOVE-1).
    refused(
        &st,
        seat,
        &format!(
            "move {}",
            d().zones[usize::from(d().neighbours(here)[0])].id
        ),
        "MM-MOVE-1",
    );
    refused(&st, seat, "scout merchant", "MM-SCOUT-4");
    act(&mut st, seat, &Action::Leave { drop: vec![] }, 2).unwrap();
    refused(&st, seat, &format!("move {far}"), "MM-MOVE-1");
    refused(&st, seat, "port", "MM-PORT-1");
    let to = d().neighbours(here)[0];
    act(&mut st, seat, &Action::Move { to }, 3).unwrap();
    assert_eq!(st.players[seat.index()].zone, to);
    assert!(matches!(
        st.stack.last(),
        Some(Frame::Turn {
            actions_left: 1,
            ..
        })
    ));
}

#[test]
fn leaving_port_discards_exactly_the_cargo_over_the_hold() {
    let mut st = started(2, 12);
    let seat = turn_seat(&st);
    st.players[seat.index()].cargo = vec![0, 9, 18, 27];
    st.cargo_deck.retain(|c| ![0, 9, 18, 27].contains(c));
    // A Sloop holds 2 at sea (MM-MOVE-3).
    refused(&st, seat, "leave", "MM-MOVE-3");
    refused(&st, seat, "leave drop 0", "MM-MOVE-3");
    refused(&st, seat, "leave drop 0 0", "MM-MOVE-3");
    refused(&st, seat, "leave drop 0 1", "MM-MOVE-3");
    act(&mut st, seat, &"leave drop 0 27".parse().unwrap(), 2).unwrap();
    assert_eq!(st.players[seat.index()].cargo, vec![9, 18]);
    assert!(st.cargo_discard.ends_with(&[0, 27]));
}

#[test]
fn the_port_action_is_once_a_turn_selling_comes_first_and_each_activity_once() {
    let mut st = started(2, 13);
    let seat = turn_seat(&st);
    let z = st.players[seat.index()].zone;
    st.mod_tokens[usize::from(z)].as_mut().unwrap().face_up = false;
    let demand = st.demand[usize::from(z)].unwrap();
    // Two cards of the good in demand and one other.
    let good_cards: Vec<u8> = (0..64)
        .filter(|c| d().cargo_card(*c).good == demand)
        .take(2)
        .collect();
    let other = (0..64).find(|c| d().cargo_card(*c).good != demand).unwrap();
    let mine = vec![good_cards[0], good_cards[1], other];
    st.cargo_deck.retain(|c| !mine.contains(c));
    st.players[seat.index()].cargo = mine.clone();
    let ev = act(&mut st, seat, &Action::Port, 2).unwrap();
    // MM-PORT-3: the modification token is revealed.
    assert!(st.mod_tokens[usize::from(z)].unwrap().face_up);
    assert!(
        ev.iter()
            .any(|e| matches!(e.event, super::Event::ModRevealed { .. }))
    );
    act(&mut st, seat, &Action::Buy, 3).unwrap();
    let Some(Frame::Offer { cards, .. }) = st.stack.last().cloned() else {
        panic!()
    };
    // MM-BUY-2: no card of the good in demand in the offer.
    assert!(cards.iter().all(|c| d().cargo_card(*c).good != demand));
    assert_eq!(cards.len(), 6);
    act(&mut st, seat, &Action::Take { cards: vec![] }, 4).unwrap();
    refused(&st, seat, &format!("sell {}", mine[0]), "MM-PORT-2");
    refused(&st, seat, "buy", "MM-PORT-2");
    act(&mut st, seat, &Action::Done, 5).unwrap();
    refused(&st, seat, "port", "MM-ACT-2");
}

#[test]
fn selling_pays_three_or_six_replaces_the_demand_and_three_in_demand_score_glory() {
    let mut st = started(2, 14);
    let seat = turn_seat(&st);
    // A port without a zone effect on sales.
    st.players[seat.index()].zone = zone("HAV");
    let z = st.players[seat.index()].zone;
    let demand = st.demand[usize::from(z)].unwrap();
    let bonus =
        if super::rules::has_power(d(), &st.players[seat.index()], "sell_demand_bonus").is_some() {
            3
        } else {
            0
        };
    let good_cards: Vec<u8> = (0..64)
        .filter(|c| d().cargo_card(*c).good == demand)
        .take(3)
        .collect();
    let other = (0..64).find(|c| d().cargo_card(*c).good != demand).unwrap();
    let mut mine = good_cards.clone();
    mine.push(other);
    st.cargo_deck.retain(|c| !mine.contains(c));
    st.players[seat.index()].cargo = mine.clone();
    act(&mut st, seat, &Action::Port, 2).unwrap();
    refused(&st, seat, "sell 63 63", "MM-SELL-1");
    let text = format!("sell {} {} {} {}", mine[0], mine[1], mine[2], mine[3]);
    act(&mut st, seat, &text.parse().unwrap(), 3).unwrap();
    let p = &st.players[seat.index()];
    assert_eq!(p.gold, 10 + 3 * 6 + 3 + bonus);
    assert_eq!(p.glory, 1, "MM-SELL-3");
    assert!(p.glory_hand.len() >= 2, "MM-GCARD-1");
    assert_eq!(st.demand_pool.len(), 8, "MM-SELL-2 keeps the pool at 8");
}

/// MM-SELL-2: the demand token is replaced, the new one drawn before the old one goes back:
/// whatever the draw, the same good is never in demand again at once.
#[test]
fn mm_sell_2_the_new_demand_token_is_drawn_before_the_old_one_returns() {
    let st = started(2, 13);
    let z = zone("SDO");
    let old = st.demand[usize::from(z)].unwrap();
    for seed in 0..200 {
        let mut st = st.clone();
        // The pool holds only goods other than the old one: the old one can come back only
        // if it is returned before the draw.
        st.demand_pool.retain(|g| *g != old);
        super::rules::replace_demand(&mut st, z, &mut GameRng::from_u64(seed), &mut Vec::new());
        assert_ne!(st.demand[usize::from(z)], Some(old), "seed {seed}");
        assert!(st.demand_pool.contains(&old));
    }
}

/// MM-RUM-1: a captain holds one rumor at most and discards the old one first, so a failed
/// Influence roll leaves none.
#[test]
fn mm_rum_1_the_old_rumor_is_discarded_first_even_when_the_roll_fails() {
    for seed in 0..200u64 {
        let mut st = started(2, 13);
        let seat = turn_seat(&st);
        st.round_effects.clear();
        let held = st.rumor_deck.pop().unwrap();
        st.players[seat.index()].rumor = Some(held);
        st.players[seat.index()].gold = 10;
        act(&mut st, seat, &Action::Port, 2).unwrap();
        let ev = act(&mut st, seat, &Action::Rumor, seed).unwrap();
        let failed = ev.iter().any(|e| {
            matches!(&e.event, super::Event::Rolled { purpose, successes: 0, .. }
                if purpose.starts_with("Influence"))
        });
        if !failed {
            continue;
        }
        assert_eq!(st.players[seat.index()].rumor, None);
        assert!(st.rumor_discard.contains(&held));
        return;
    }
    panic!("no Influence roll failed");
}

#[test]
fn buying_prices_follow_the_offer_counts_and_gold_and_the_hold_limit_purchases() {
    // MM-BUY-3: one of a good 3, exactly two 2 each, three or more 1 each.
    let offer = [0u8, 1, 8, 16, 17, 18];
    assert_eq!(
        super::rules::offer_prices(d(), zone("HAV"), &offer),
        vec![2, 2, 3, 1, 1, 1]
    );
    let mut st = started(2, 15);
    let seat = turn_seat(&st);
    act(&mut st, seat, &Action::Port, 2).unwrap();
    act(&mut st, seat, &Action::Buy, 3).unwrap();
    let Some(Frame::Offer { cards, .. }) = st.stack.last().cloned() else {
        panic!()
    };
    st.players[seat.index()].gold = 0;
    let one = format!("take {}", cards[0]);
    refused(&st, seat, &one, "MM-BUY-3");
    refused(&st, seat, "take 64", "MM-BUY-4");
    st.players[seat.index()].gold = 40;
    let all = format!(
        "take {}",
        cards
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    st.players[seat.index()].cargo = vec![];
    act(&mut st.clone(), seat, &all.parse().unwrap(), 4).unwrap();
    // MM-BUY-8 [C]: in port, max(6, Cargo) cards.
    let held: Vec<u8> = st.cargo_deck.drain(..1).collect();
    st.players[seat.index()].cargo = held;
    refused(&st, seat, &all, "MM-BUY-8");
}

#[test]
fn stashing_is_for_the_home_port_and_hidden_from_the_others() {
    let mut st = started(2, 16);
    let seat = turn_seat(&st);
    act(&mut st, seat, &Action::Port, 2).unwrap();
    refused(&st, seat, "stash 11", "MM-STASH-1");
    refused(&st, seat, "stash -1", "MM-STASH-1");
    let ev = act(&mut st, seat, &"stash 10".parse().unwrap(), 3).unwrap();
    assert_eq!(st.players[seat.index()].stash, 10);
    let other = Seat(1 - seat.0);
    for e in &ev {
        if matches!(e.event, super::Event::Stashed { .. }) {
            assert!(!e.audience.admits(Viewer::Seat(other)));
        }
    }
    assert_eq!(
        Merchants::view(&st, Viewer::Seat(other)).players[seat.index()].stash,
        None
    );
    // Elsewhere than home: refused.
    let mut away = started(2, 16);
    let seat = turn_seat(&away);
    let p = &mut away.players[seat.index()];
    p.zone = (0..16)
        .find(|z| Some(*z) != d().zone_index(&d().captains[usize::from(p.captain)].home))
        .unwrap();
    act(&mut away, seat, &Action::Port, 2).unwrap_or_default();
    if matches!(away.stack.last(), Some(Frame::Port { .. })) {
        refused(&away, seat, "stash 5", "MM-STASH-1");
    }
}

/// MM-END-1: once a total reaches the target the end is announced and the game ends with the
/// round, even if that total drops again (the stash paying in the home port, MM-STASH-2).
#[test]
fn mm_end_1_an_announced_end_is_not_cancelled_when_the_total_drops_again() {
    let mut st = started(2, 13);
    let a = turn_seat(&st);
    let b = Seat(1 - a.0);
    st.round_effects.clear();
    st.players[a.index()].glory = 9;
    st.players[a.index()].gold = 10;
    act(&mut st, a, &Action::Port, 2).unwrap();
    let ev = act(&mut st, a, &Action::Stash { amount: 10 }, 3).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e.event, super::Event::TargetReached { .. }))
    );
    // A special weapon bought in the home port: the stash pays, the total drops to 9.
    let kind = (0..)
        .find(|k| st.weapon_supply.get(*k).is_some_and(|n| *n > 0))
        .unwrap();
    act(&mut st, a, &format!("weapon {kind}").parse().unwrap(), 4).unwrap();
    assert_eq!(
        super::rules::total_glory(d(), &st, &st.players[a.index()]),
        9
    );
    act(&mut st, a, &Action::Done, 5).unwrap();
    act(&mut st, a, &Action::End, 6).unwrap();
    assert!(st.outcome.is_none(), "every player gets their turn");
    act(&mut st, b, &Action::End, 7).unwrap();
    let outcome = st.outcome.clone().expect("the game ends with the round");
    assert_eq!(outcome.reason, "glory target reached (MM-END-1)");
    assert_eq!(outcome.winners, vec![a]);
}

#[test]
fn a_bounty_from_the_ports_nation_locks_you_out_of_its_port_action() {
    let mut st = started(2, 17);
    let seat = turn_seat(&st);
    let z = st.players[seat.index()].zone;
    let n = d().zones[usize::from(z)].nation.unwrap();
    st.players[seat.index()].bounty[n.index()] = 1;
    refused(&st, seat, "port", "MM-PORT-4");
    assert!(!Merchants::legal_actions(&st, seat).contains(&Action::Port));
}

#[test]
fn the_shipyard_sells_the_old_ship_and_a_big_ship_scores_glory_once_per_captain() {
    let mut st = started(2, 18);
    let seat = turn_seat(&st);
    act(&mut st, seat, &Action::Port, 2).unwrap();
    refused(&st, seat, "yard frigate", "MM-YARD-2");
    refused(&st, seat, "yard man_o_war", "MM-YARD-7");
    st.players[seat.index()].gold = 30;
    act(&mut st, seat, &"yard frigate".parse().unwrap(), 3).unwrap();
    let p = &st.players[seat.index()];
    assert_eq!(p.ship, Some(Ship::Frigate));
    assert_eq!(p.gold, 0, "30 + Sloop 5 - 35");
    assert_eq!(p.glory, 1, "MM-YARD-8");
    // MM-YARD-4: crew moves over and does not rise.
    assert_eq!(super::rules::cur(p, Loc::Crew), 2);
    st.players[seat.index()].gold = 40;
    act(&mut st, seat, &"yard galleon".parse().unwrap(), 4).unwrap();
    assert_eq!(st.players[seat.index()].glory, 1, "once per captain");
    // Repairs: only damaged points (MM-YARD-9).
    refused(&st, seat, "repair hull", "MM-YARD-9");
    refused(&st, seat, "repair crew", "MM-YARD-9");
}

/// EVT-33 "Shipyard fire": the whole Shipyard activity is unavailable in the burned nation's
/// ports — ships, modifications and special weapons as well as repairs.
#[test]
fn evt_33_a_shipyard_fire_stops_every_shipyard_activity_not_only_repairs() {
    let mut st = started(2, 18);
    let seat = turn_seat(&st);
    let z = st.players[seat.index()].zone;
    let nation = d().zones[usize::from(z)].nation.unwrap();
    act(&mut st, seat, &Action::Port, 2).unwrap();
    let p = &mut st.players[seat.index()];
    p.gold = 60;
    p.hits[0] -= 1;
    // A modification token the ship lacks lies here, face-up.
    let kind = (0..u8::try_from(d().modifications.len()).unwrap())
        .find(|k| !st.players[seat.index()].mods.contains(k))
        .unwrap();
    st.mod_tokens[usize::from(z)] = Some(super::state::ModToken {
        kind,
        face_up: true,
    });
    let shipyard = |a: &Action| {
        matches!(
            a,
            Action::Yard { .. }
                | Action::Repair { .. }
                | Action::Modify
                | Action::Weapon { .. }
                | Action::Resell { .. }
        )
    };
    let listed = Merchants::legal_actions(&st, seat);
    assert!(listed.iter().any(|a| matches!(a, Action::Yard { .. })));
    assert!(listed.contains(&Action::Modify));
    assert!(listed.iter().any(|a| matches!(a, Action::Weapon { .. })));
    st.round_effects.push(format!("shipyard_fire:{nation}"));
    let listed = Merchants::legal_actions(&st, seat);
    assert!(!listed.iter().any(shipyard), "{listed:?}");
    for a in ["yard frigate", "repair hull", "modify", "weapon 0"] {
        refused(&st, seat, a, "EVT-33");
    }
}

#[test]
fn a_found_merchant_may_be_raided_as_its_token_or_zone_nation_or_let_go() {
    let mut st = started(2, 19);
    let seat = turn_seat(&st);
    let p = &mut st.players[seat.index()];
    p.in_port = false;
    let z = p.zone;
    st.merchants[usize::from(z)] = Some(Nation::NL);
    st.stack.push(Frame::MerchantFound {
        seat,
        token: Nation::NL,
        zone: z,
    });
    let zn = d().zones[usize::from(z)].nation.unwrap();
    let stranger = Nation::ALL
        .into_iter()
        .find(|n| *n != zn && *n != Nation::NL)
        .unwrap();
    refused(&st, seat, &format!("raid {stranger}"), "MM-RAID-1");
    let mut hurt = st.clone();
    hurt.players[seat.index()].hits[2] = 0;
    refused(&hurt, seat, "raid NL", "MM-RAID-2");
    let mut raid = st.clone();
    act(&mut raid, seat, &"raid NL".parse().unwrap(), 3).unwrap();
    // MM-RAID-3: a Dutch bounty unless at war.
    assert_eq!(raid.players[seat.index()].bounty[Nation::NL.index()], 1);
    act(&mut st, seat, &"let go".parse().unwrap(), 4).unwrap();
    assert!(st.players[seat.index()].bounty.iter().all(|b| *b == 0));
}

#[test]
fn scouting_the_same_target_twice_in_a_turn_is_refused() {
    let mut st = started(2, 20);
    let seat = turn_seat(&st);
    let p = &mut st.players[seat.index()];
    p.in_port = false;
    p.scouted.push(Target::Merchant);
    refused(&st, seat, "scout merchant", "MM-ACT-3");
}

thread_local! {
    /// The event kinds the random games of this thread produced.
    static SEEN: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Plays random listed actions to the end, checking invariants after every step; returns the
/// final state and the number of actions.
fn random_game(seats: u8, seed: u64, check_views: bool) -> (State, u64) {
    random_game_from(new_game(seats, seed), seed, check_views)
}

/// [`random_game`] from a prepared state.
fn random_game_from(mut st: State, seed: u64, check_views: bool) -> (State, u64) {
    let mut chooser = GameRng::from_u64(seed ^ 0xfeed);
    let game_seed = Seed::from_numbers(seed, 7);
    let mut n = 0;
    while let Some(seat) = Merchants::pending(&st).iter().next() {
        let legal = Merchants::legal_actions(&st, seat);
        assert!(
            !legal.is_empty(),
            "pending seat {seat:?} has no action: {:?}",
            st.stack.last()
        );
        let a = legal[chooser.index(legal.len())].clone();
        assert_eq!(a.to_string().parse::<Action>().unwrap(), a, "notation");
        n += 1;
        let mut ev = Vec::new();
        let applied = Merchants::apply(
            &mut st,
            seat,
            &a,
            &mut GameRng::for_action(&game_seed, n),
            &mut ev,
        );
        SEEN.with(|seen| {
            let mut seen = seen.borrow_mut();
            for e in &ev {
                let json = serde_json::to_value(&e.event).unwrap();
                let kind = json["type"].as_str().unwrap_or("").to_string();
                if !seen.contains(&kind) {
                    seen.push(kind);
                }
            }
        });
        applied.unwrap_or_else(|e| panic!("listed {a} refused: {e}"));
        invariants(&st);
        super::check::check(&st).unwrap_or_else(|e| panic!("{e}"));
        if check_views {
            no_leak(&st);
        }
        if let Timeout::Play(t) = Merchants::timeout(&st, seat)
            && Merchants::pending(&st).contains(seat)
        {
            let mut copy = st.clone();
            Merchants::apply(
                &mut copy,
                seat,
                &t,
                &mut GameRng::for_action(&game_seed, 0),
                &mut Vec::new(),
            )
            .unwrap_or_else(|e| panic!("timeout default {t} refused: {e}"));
        }
        assert!(n < 20_000, "the game does not end");
    }
    assert!(st.outcome.is_some(), "pending empty before the end");
    (st, n)
}

fn invariants(st: &State) {
    let mut cargo: Vec<u8> = st
        .cargo_deck
        .iter()
        .chain(&st.cargo_discard)
        .copied()
        .collect();
    let mut glory: Vec<u8> = st
        .glory_deck
        .iter()
        .chain(&st.glory_discard)
        .copied()
        .collect();
    for (i, p) in st.players.iter().enumerate() {
        cargo.extend(&p.cargo);
        glory.extend(p.glory_hand.iter().chain(&p.specialists));
        // Over the limit only while its owner is asked to discard.
        assert!(
            p.glory_hand.len() <= 4
                || Merchants::pending(st).contains(Seat(u8::try_from(i).unwrap())),
            "MM-GCARD-2"
        );
        if p.ship.is_some() {
            for l in Loc::HITS {
                assert!(super::rules::cur(p, l) <= super::rules::max_loc(d(), p, l));
            }
            if !p.in_port {
                assert!(
                    p.cargo.len() <= usize::from(super::rules::cur(p, Loc::Cargo)),
                    "hold at sea"
                );
            }
        }
        assert!(p.bounty.iter().all(|b| *b <= 5));
    }
    let mut owed_mods = 0;
    for f in &st.stack {
        match f {
            Frame::Offer { cards, .. } | Frame::Raid { cards, .. } | Frame::Keep { cards, .. } => {
                cargo.extend(cards)
            }
            Frame::Pick {
                what: super::state::PickWhat::GloryKeep,
                options,
                ..
            } => glory.extend(options),
            Frame::Place { kinds, .. } => owed_mods += kinds.len(),
            _ => {}
        }
    }
    cargo.sort_unstable();
    assert_eq!(cargo, (0..64).collect::<Vec<u8>>(), "cargo cards conserved");
    glory.sort_unstable();
    assert_eq!(glory, (0..70).collect::<Vec<u8>>(), "glory cards conserved");
    let demand = st.demand.iter().flatten().count() + st.demand_pool.len();
    assert_eq!(demand, 24, "demand tokens");
    let mods = st.mod_tokens.iter().flatten().count()
        + st.mod_supply.len()
        + owed_mods
        + st.players.iter().map(|p| p.mods.len()).sum::<usize>();
    assert_eq!(mods, 16, "modification tokens");
    let weapons = st
        .weapon_supply
        .iter()
        .map(|w| usize::from(*w))
        .sum::<usize>()
        + st.players.iter().map(|p| p.weapons.len()).sum::<usize>();
    assert_eq!(weapons, 12, "special weapons");
    let merchants = st.merchants.iter().flatten().count() + st.merchant_track.len();
    assert_eq!(merchants, 17, "merchant tokens");
    let events = st.event_deck.len() + st.event_discard.len() + st.event_aside.len();
    assert_eq!(events, 34, "event cards");
    assert_eq!(Merchants::pending(st).is_empty(), st.outcome.is_some());
}

/// III.4: no seat's cargo, glory cards, stash, rumor or unrevealed captain in another's view.
fn no_leak(st: &State) {
    for owner in 0..st.seats {
        let p = &st.players[usize::from(owner)];
        let captain = &d().captains[usize::from(p.captain)].id;
        let viewers = (0..st.seats)
            .filter(|v| *v != owner)
            .map(|v| Viewer::Seat(Seat(v)));
        for viewer in viewers.chain([Viewer::Spectator]) {
            let v = Merchants::view(st, viewer);
            let json = serde_json::to_string(&v).unwrap();
            let pv = &v.players[usize::from(owner)];
            assert!(pv.cargo.is_none() && pv.glory_hand.is_none() && pv.stash.is_none());
            assert!(pv.rumor.is_none() && pv.sealed.is_none());
            // Tokens the owner placed face-down, and a dead captain's redraw choice.
            assert!(pv.known_mods.is_none() && pv.may_redraw.is_none());
            assert!(pv.orders.is_none() && pv.script.is_none());
            use super::view::DecisionView as D;
            let mine = |s: &Seat| Viewer::Seat(*s) == viewer;
            match &v.decision {
                // MM-PLUN-1: the loser's hidden cards go to the winner only.
                Some(D::Plunder {
                    seat,
                    cargo,
                    glory_hand,
                    rumor,
                    ..
                }) if !mine(seat) => {
                    assert!(cargo.is_none() && glory_hand.is_none() && rumor.is_none());
                }
                // RUM-02's two glory cards, RUM-06's face-down cargo, owed tokens.
                Some(D::Pick {
                    seat,
                    what: super::state::PickWhat::GloryKeep,
                    options,
                }) if !mine(seat) => assert!(options.is_none()),
                Some(D::Place { seat, kinds, .. }) if !mine(seat) => assert!(kinds.is_none()),
                Some(D::Keep { seat, cards, .. }) if !mine(seat) => {
                    let secret = matches!(st.stack.last(), Some(Frame::Keep { secret: true, .. }));
                    assert_eq!(cards.is_none(), secret);
                }
                _ => {}
            }
            if !p.revealed {
                assert!(
                    !json.contains(captain.as_str()),
                    "captain {captain} leaked to {viewer:?}"
                );
                assert!(pv.zone.is_none());
            }
            if let Some(Frame::Offer { seat, .. }) = st.stack.last()
                && Viewer::Seat(*seat) != viewer
            {
                assert!(!json.contains("\"cards\":["), "an offer leaked");
            }
        }
    }
}

#[test]
fn random_games_for_one_to_four_players_keep_every_invariant_and_never_leak() {
    for seats in 1..=4 {
        for seed in 0..6 {
            let (st, n) = random_game(seats, seed * 31 + u64::from(seats), seed < 4);
            assert!(n > 10, "{seats} players, seed {seed}: {n} actions");
            assert!(st.round >= 1);
        }
    }
}

#[test]
fn the_same_seed_and_actions_give_the_same_game() {
    for seats in 1..=4 {
        let (a, na) = random_game(seats, 99, false);
        let (b, nb) = random_game(seats, 99, false);
        assert_eq!(na, nb);
        assert_eq!(a, b);
        let (c, _) = random_game(seats, 100, false);
        assert_ne!(a, c);
    }
}

#[test]
fn a_solo_game_has_its_levels_deck_and_is_won_only_at_the_target() {
    for (level, events) in [("easy", 30), ("medium", 25), ("hard", 20), ("brutal", 15)] {
        let rules = Merchants::resolve(&Options {
            solo_level: Some(level.into()),
            ..Options::default()
        })
        .unwrap();
        let st = Merchants::setup(&rules, 1, &mut GameRng::from_u64(3), &mut Vec::new()).unwrap();
        assert_eq!(st.event_deck.len(), events, "{level}");
        let npcs = st.npcs.len();
        let expect = match level {
            "easy" => 0,
            "medium" => 2,
            _ => 4,
        };
        assert_eq!(npcs, expect, "{level}");
    }
    assert!(
        Merchants::resolve(&Options {
            solo_level: Some("heroic".into()),
            ..Options::default()
        })
        .is_err()
    );
    let (st, _) = random_game(1, 4, false);
    let o = st.outcome.unwrap();
    assert_eq!(o.winners.is_empty(), o.glory[0] < 10);
}

#[test]
fn every_pending_request_has_a_default_on_timeout() {
    let st = new_game(2, 1);
    assert_eq!(
        Merchants::timeout(&st, Seat(0)),
        Timeout::Play(Action::Ship { ship: Ship::Sloop })
    );
    let st = started(2, 1);
    assert_eq!(
        Merchants::timeout(&st, turn_seat(&st)),
        Timeout::Play(Action::End)
    );
}

/// Two captains at sea in one zone; seat `a` to act with three actions.
fn face_off(seed: u64) -> (State, Seat, Seat) {
    let mut st = started(2, seed);
    let a = turn_seat(&st);
    let b = Seat(1 - a.0);
    let z = zone("CSEA");
    for p in &mut st.players {
        p.zone = z;
        p.in_port = false;
        // No tactic in hand: no window interrupts these fights.
        st.glory_discard.append(&mut p.glory_hand);
    }
    st.npcs.clear();
    (st, a, b)
}

#[test]
fn a_scout_names_its_target_as_data_and_the_mail_names_the_player_not_debug_text() {
    use crate::present::{Names, Present};
    let names: Vec<String> = ["Ada", "Bruno"].map(String::from).to_vec();
    let (mut st, a, b) = face_off(1);
    let ev = act(&mut st, a, &format!("scout p{}", b.0).parse().unwrap(), 1).unwrap();
    let scouted = ev
        .iter()
        .map(|l| serde_json::to_value(&l.event).unwrap())
        .find(|e| e["type"] == "scouted")
        .unwrap();
    assert_eq!(
        scouted["target"],
        serde_json::json!({"kind": "player", "id": b.0})
    );
    for (locale, text) in [
        (crate::domain::Locale::En, "scouted Bruno and"),
        (crate::domain::Locale::Es, "exploró Bruno"),
    ] {
        let mut e = scouted.clone();
        e["seat"] = 0.into();
        e["target"]["id"] = 1.into();
        let line = Merchants::event(locale, &e).unwrap().plain(&Names {
            locale,
            names: &names,
        });
        assert!(line.starts_with("Ada ") && line.contains(text), "{line}");
        assert!(!line.contains("Seat") && !line.contains("Player"), "{line}");
    }
    // The other targets read as words too (CAP-02's far merchant by its zone's name).
    let far = serde_json::json!({"type": "scouted", "seat": 0, "found": true,
        "target": {"kind": "far_merchant", "id": zone("SJU")}});
    let n = Names {
        locale: crate::domain::Locale::En,
        names: &names,
    };
    assert_eq!(
        Merchants::event(crate::domain::Locale::En, &far)
            .unwrap()
            .plain(&n),
        "Ada scouted the merchant in San Juan and found it."
    );
}

/// The reminder of `seat`'s mail, in English, from its own view.
fn reminder(st: &State, seat: Seat) -> String {
    use crate::present::{Names, Present};
    let view = serde_json::to_value(Merchants::view(st, Viewer::Seat(seat))).unwrap();
    let names: Vec<String> = ["Ada", "Bruno"].map(String::from).to_vec();
    let n = Names {
        locale: crate::domain::Locale::En,
        names: &names,
    };
    Merchants::reminder(crate::domain::Locale::En, &view, seat.index())
        .iter()
        .map(|s| s.plain(&n))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn only_the_seat_a_decision_asks_is_told_what_to_decide_in_its_mail() {
    let mut st = new_game(2, 5);
    act(&mut st, Seat(0), &Action::Ship { ship: Ship::Sloop }, 1).unwrap();
    assert!(!reminder(&st, Seat(0)).contains("Choose your ship"));
    assert!(reminder(&st, Seat(1)).contains("Choose your ship"));

    let mut combats = 0;
    for n in 1..60u64 {
        let (mut st, a, b) = face_off(n);
        assert!(reminder(&st, a).contains("Your turn"));
        let waiting = reminder(&st, b);
        assert!(!waiting.contains("Your turn"), "{waiting}");
        act(&mut st, a, &format!("scout p{}", b.0).parse().unwrap(), n).unwrap();
        if !matches!(st.stack.last(), Some(Frame::Combat { .. })) {
            continue;
        }
        combats += 1;
        // The aggressor declares first (MM-NAV-4), then only the defender is asked.
        assert!(reminder(&st, a).contains("Naval combat: declare"));
        assert!(!reminder(&st, b).contains("Naval combat"));
        act(&mut st, a, &"shoot".parse().unwrap(), 100 + n).unwrap();
        if matches!(st.stack.last(), Some(Frame::Combat { .. })) {
            let declared = reminder(&st, a);
            assert!(!declared.contains("Naval combat"), "{declared}");
            assert!(reminder(&st, b).contains("Naval combat: declare"));
        }
    }
    assert!(combats > 0);

    // MM-GCARD-2: a hand over the limit is the owner's to settle, in anyone's turn.
    let (mut st, a, b) = face_off(1);
    let limit = usize::from(d().start.glory_hand_limit);
    let drawn: Vec<_> = st.glory_deck.drain(..=limit).collect();
    st.players[b.index()].glory_hand = drawn;
    assert!(reminder(&st, b).contains("over the limit"));
    assert!(!reminder(&st, b).contains("Your turn"));
    assert!(!reminder(&st, a).contains("over the limit"));
}

#[test]
fn a_defender_answers_during_the_attackers_turn_which_then_resumes_exactly() {
    let mut fought = 0;
    for n in 1..60u64 {
        let (mut st, a, b) = face_off(n);
        act(
            &mut st,
            a,
            &"scout p0"
                .replace("p0", &format!("p{}", b.0))
                .parse()
                .unwrap(),
            n,
        )
        .unwrap();
        if !matches!(st.stack.last(), Some(Frame::Combat { .. })) {
            // A failed scout still spends the action and marks the target (MM-SCOUT-3).
            assert!(matches!(
                st.stack.last(),
                Some(Frame::Turn {
                    actions_left: 2,
                    ..
                })
            ));
            refused(&st, a, &format!("scout p{}", b.0), "MM-ACT-3");
            continue;
        }
        fought += 1;
        let below = st.stack[st.stack.len() - 2].clone();
        assert_eq!(
            below,
            Frame::Turn {
                seat: a,
                actions_left: 2,
                port_used: false,
                started: true,
                free_move: false,
                pardoned: false,
                bonus_moves: 0,
            }
        );
        // The aggressor declares first (MM-NAV-4); round 1 is Shoot only.
        assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![a]);
        refused(&st, a, "flee", "MM-NAV-4");
        refused(&st, b, "shoot", "MM-ACT-1");
        act(&mut st, a, &"shoot".parse().unwrap(), 100 + n).unwrap();
        // Now the defender is pending in the middle of a's turn.
        assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![b]);
        let mut k = 200;
        while let Some(top @ (Frame::Combat { .. } | Frame::Window { .. })) =
            st.stack.last().cloned()
        {
            let seat = match top {
                Frame::Combat { declared: None, .. } => a,
                Frame::Combat { .. } => b,
                Frame::Window { seat, .. } => seat,
                _ => unreachable!(),
            };
            let legal = Merchants::legal_actions(&st, seat);
            let flee: Action = "flee".parse().unwrap();
            let pick = if legal.contains(&flee) {
                flee
            } else {
                legal[0].clone()
            };
            k += 1;
            act(&mut st, seat, &pick, k).unwrap();
        }
        let alive = st.players[a.index()].ship.is_some();
        if alive {
            // The suspended turn is back on top, as it was.
            assert_eq!(
                st.stack.last(),
                Some(&Frame::Turn {
                    seat: a,
                    actions_left: 2,
                    port_used: false,
                    started: true,
                    free_move: false,
                    pardoned: false,
                    bonus_moves: 0,
                })
            );
        } else {
            assert!(
                !st.stack
                    .iter()
                    .any(|f| matches!(f, Frame::Turn { seat, .. } if *seat == a))
            );
        }
        if st.players[b.index()].ship.is_none() && alive {
            // A defender's death never blocks the active turn (III.3.9).
            assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![a]);
            assert!(matches!(st.stack.first(), Some(Frame::ShipChoice { .. })));
        }
        if fought >= 5 {
            break;
        }
    }
    assert!(fought > 0);
}

#[test]
fn attacking_a_non_pirate_captain_earns_a_bounty_of_their_nation() {
    for n in 1..60u64 {
        let (mut st, a, b) = face_off(n);
        let nation = d().captains[usize::from(st.players[b.index()].captain)].nation;
        act(&mut st, a, &format!("scout p{}", b.0).parse().unwrap(), n).unwrap();
        if matches!(st.stack.last(), Some(Frame::Combat { .. })) {
            assert_eq!(st.players[a.index()].bounty[nation.index()], 1, "MM-NAV-2");
            return;
        }
    }
    panic!("no scout succeeded");
}

#[test]
fn a_captain_in_port_cannot_be_scouted() {
    let (mut st, a, b) = face_off(3);
    st.players[b.index()].in_port = true;
    refused(&st, a, &format!("scout p{}", b.0), "MM-SCOUT-1");
    refused(&st, a, &format!("scout p{}", a.0), "MM-SCOUT-1");
}

/// Self-play's contract in miniature: 50 random games for each player count, every listed
/// action accepted, components conserved, pending empty exactly at the end, and the games
/// reach every part of the engine built so far.
#[test]
fn fifty_random_games_per_player_count_reach_combats_raids_sales_deaths_and_the_end() {
    for seats in 1..=4 {
        for seed in 0..50 {
            random_game(seats, 1000 + seed, false);
        }
    }
    let seen = SEEN.with(|s| s.borrow().clone());
    for kind in [
        "revealed",
        "combat_starts",
        "declared",
        "combat_ends",
        "defeated",
        "raid_ended",
        "sold",
        "bought",
        "ship_bought",
        "died",
        "npc_moves",
        "war",
        "mission_claimed",
        "rumor_taken",
        "rumor_checked",
        "stashed",
        "game_ends",
        "glory_played",
        "weapon_used",
        "weapon_sold",
        "employed",
        "mission_completed",
        "mod_placed",
        "plundered",
        "ship_captured",
        "paid_from_stash",
    ] {
        assert!(
            seen.iter().any(|k| k == kind),
            "no {kind} in 200 random games: {seen:?}"
        );
    }
}

#[test]
fn a_dead_captain_keeps_glory_and_stash_and_takes_ten_gold_from_the_stash() {
    let mut st = started(2, 21);
    let seat = turn_seat(&st);
    let other = Seat(1 - seat.0);
    {
        let p = &mut st.players[other.index()];
        p.glory = 3;
        p.stash = 14;
        p.gold = 7;
        p.bounty = [1, 0, 2, 0];
    }
    let old_captain = st.players[other.index()].captain;
    let mut ev = Vec::new();
    super::rules::die(d(), &mut st, other, &mut GameRng::from_u64(1), &mut ev);
    let p = &st.players[other.index()];
    // MM-DEATH-1/3/4.
    assert_eq!((p.glory, p.stash, p.gold), (3, 4, 10));
    assert_eq!(p.bounty, [0; 4]);
    assert_eq!(p.ship, None);
    assert_ne!(p.captain, old_captain);
    assert!(!p.revealed);
    assert_eq!(p.glory_hand.len(), 1);
    // Another's death waits beneath the active turn, its seat free to answer it now, out of
    // turn, but not pending before its own turn (III.3.9, MM-DEATH-2).
    assert_eq!(
        Merchants::pending(&st).iter().collect::<Vec<_>>(),
        vec![seat]
    );
    assert!(Merchants::allowed_out_of_turn(
        &st,
        other,
        &Action::Ship { ship: Ship::Sloop }
    ));
    assert!(matches!(st.stack.first(), Some(Frame::ShipChoice { .. })));
    invariants(&st);
}

/// Kills `seat`'s captain with one modification on its ship (taken from a port, so every token
/// stays once): a new ship and a token placement are owed.
fn die_with_a_mod(st: &mut State, seat: Seat) {
    let port = st.mod_tokens.iter().position(Option::is_some).unwrap();
    let token = st.mod_tokens[port].take().unwrap();
    st.players[seat.index()].mods.push(token.kind);
    super::rules::die(d(), st, seat, &mut GameRng::from_u64(1), &mut Vec::new());
}

fn decision_kind(st: &State, seat: Seat) -> String {
    let v = serde_json::to_value(Merchants::view(st, Viewer::Seat(seat))).unwrap();
    v["decision"]["kind"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// MM-DEATH-2 / III.3.9: a captain dying in another player's turn may answer its new ship at
/// once (out of turn), never blocks the active player nor the turns after, and is waited for
/// only when its own next turn would begin.
#[test]
fn mm_death_2_a_death_in_another_turn_never_blocks_the_turns_before_its_own() {
    let rejoin = |st: &State, seat: Seat| {
        let v = serde_json::to_value(Merchants::view(st, Viewer::Seat(seat))).unwrap();
        v["rejoin"]["kind"].as_str().unwrap_or_default().to_string()
    };
    for seats in [3u8, 4] {
        let mut st = started(seats, 21);
        let a = turn_seat(&st);
        let b = Seat((a.0 + 1) % seats);
        let c = Seat((a.0 + 2) % seats);
        die_with_a_mod(&mut st, c);
        // c may answer now, out of turn; it is not pending (no deadline), nothing is listed.
        assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![a]);
        assert!(Merchants::legal_actions(&st, c).is_empty());
        assert!(Merchants::allowed_out_of_turn(
            &st,
            c,
            &Action::Ship { ship: Ship::Sloop }
        ));
        assert_eq!(rejoin(&st, c), "ship_choice");
        assert_eq!(decision_kind(&st, c), "turn");
        assert_eq!(decision_kind(&st, a), "turn");
        // a ends its turn: b's turn begins, c still free to answer.
        act(&mut st, a, &Action::End, 2).unwrap();
        assert_eq!(turn_seat(&st), b);
        assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![b]);
        assert_eq!(rejoin(&st, c), "ship_choice");
        invariants(&st);
        if seats == 4 {
            // c answers in b's turn: the ship, then the token; b's turn is untouched.
            act(&mut st, c, &Action::Ship { ship: Ship::Flute }, 3).unwrap();
            assert_eq!(st.players[c.index()].ship, Some(Ship::Flute));
            assert_eq!(turn_seat(&st), b);
            assert_eq!(rejoin(&st, c), "place");
            let Timeout::Play(place) = Merchants::timeout(&st, c) else {
                panic!("no default placement");
            };
            act(&mut st, c, &place, 4).unwrap();
            assert_eq!(turn_seat(&st), b);
            assert!(!Merchants::pending(&st).contains(c));
            act(&mut st, b, &Action::End, 5).unwrap();
            assert_eq!(turn_seat(&st), c);
            invariants(&st);
            continue;
        }
        // b ends its turn: c's own turn would begin, so the game waits for c alone.
        act(&mut st, b, &Action::End, 3).unwrap();
        assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![c]);
        act(&mut st, c, &Action::Ship { ship: Ship::Sloop }, 4).unwrap();
        assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![c]);
        assert_eq!(decision_kind(&st, c), "place");
        let Timeout::Play(place) = Merchants::timeout(&st, c) else {
            panic!("no default placement");
        };
        act(&mut st, c, &place, 5).unwrap();
        assert_eq!(turn_seat(&st), c);
        invariants(&st);
    }
}

// ---------------------------------------------------------------------------------------------
// Second stage: weapons, windows and glory cards, plunder, missions, rumors, zones, captains
// ---------------------------------------------------------------------------------------------

/// Moves glory card `card` (wherever it is) into `seat`'s hand, keeping every card once.
fn give_glory(st: &mut State, seat: Seat, card: u8) {
    st.glory_deck.retain(|c| *c != card);
    st.glory_discard.retain(|c| *c != card);
    for p in &mut st.players {
        p.glory_hand.retain(|c| *c != card);
    }
    st.players[seat.index()].glory_hand.push(card);
}

/// The first card of the glory design `id` (GLY-07 → 30).
fn glory(id: &str) -> u8 {
    let i = d().glory.iter().position(|g| g.id == id).unwrap();
    u8::try_from(i).unwrap() * d().glory_copies
}

/// Takes weapon `kind` from the supply for `seat`.
fn give_weapon(st: &mut State, seat: Seat, kind: u8) {
    st.weapon_supply[usize::from(kind)] -= 1;
    st.players[seat.index()].weapons.push(kind);
}

/// Scouts the other captain until a scout succeeds (a fresh face-off per try); the state then
/// waits for the first decision after the scout.
fn found(mut prepare: impl FnMut(&mut State, Seat, Seat)) -> (State, Seat, Seat) {
    for n in 1..200u64 {
        let (mut st, a, b) = face_off(n);
        prepare(&mut st, a, b);
        act(&mut st, a, &format!("scout p{}", b.0).parse().unwrap(), n).unwrap();
        if !matches!(st.stack.last(), Some(Frame::Turn { .. })) {
            return (st, a, b);
        }
    }
    panic!("no scout succeeded");
}

#[test]
fn long_guns_fire_in_the_opening_volley_aggressor_first_and_go_back_to_the_supply() {
    let (mut st, a, b) = found(|st, a, b| {
        give_weapon(st, a, 0);
        give_weapon(st, b, 0);
    });
    // TW3 asks the aggressor first (MM-NAV-3), then the defender, before any declaration.
    assert!(matches!(st.stack.last(), Some(Frame::Window { tw: 3, seat, .. }) if *seat == a));
    refused(&st, a, "shoot", "MM-ACT-1");
    refused(&st, a, &format!("play {}", glory("GLY-09")), "MM-GCARD-5");
    let ev = act(&mut st, a, &Action::Fire, 5).unwrap();
    assert!(ev.iter().any(|e| matches!(
        &e.event,
        super::Event::Rolled { purpose, .. } if purpose.contains("MM-WPN-2")
    )));
    // MM-WPN-1: used once.
    assert!(!st.players[a.index()].weapons.contains(&0));
    assert_eq!(st.weapon_supply[0], 3);
    if st.players[b.index()].ship.is_some() && st.players[a.index()].ship.is_some() {
        assert!(matches!(st.stack.last(), Some(Frame::Window { tw: 3, seat, .. }) if *seat == b));
        act(&mut st, b, &Action::Pass, 6).unwrap();
        // The defender passed: the aggressor declares now, the weapon still on board.
        assert!(st.players[b.index()].weapons.contains(&0));
        assert!(matches!(
            st.stack.last(),
            Some(Frame::Combat { declared: None, .. })
        ));
    }
    invariants(&st);
}

#[test]
fn chain_shot_declared_with_shoot_puts_every_hit_on_the_masts() {
    for n in 0..40 {
        let (mut st, a, b) = found(|st, a, _| give_weapon(st, a, 1));
        let _ = n;
        assert!(matches!(st.stack.last(), Some(Frame::Combat { .. })));
        // MM-WPN-3: only with Shoot, only held weapons.
        refused(&st, a, "shoot 2", "MM-WPN-3");
        let ev = act(&mut st, a, &"shoot 1".parse().unwrap(), 7).unwrap();
        assert!(
            ev.iter()
                .any(|e| matches!(e.event, super::Event::WeaponUsed { kind: 1, .. }))
        );
        assert!(st.players[a.index()].weapons.is_empty());
        let ev = act(&mut st, b, &"shoot".parse().unwrap(), 8).unwrap();
        let hits_on_b: Vec<Loc> = ev
            .iter()
            .filter_map(|e| match e.event {
                super::Event::Hit { seat, loc } if seat == b => Some(loc),
                _ => None,
            })
            .collect();
        if hits_on_b.is_empty() {
            continue;
        }
        // Masts, or the Hull once the Masts are gone (MM-DMG-3).
        assert!(
            hits_on_b
                .iter()
                .all(|l| matches!(l, Loc::Masts | Loc::Hull))
        );
        assert_eq!(hits_on_b[0], Loc::Masts);
        return;
    }
    panic!("no hit in 40 combats");
}

#[test]
fn hidden_cove_cancels_a_scout_against_you_and_the_attackers_turn_goes_on() {
    let (mut st, a, b) = found(|st, _, b| give_glory(st, b, glory("GLY-08")));
    // TW2: the target is asked first, in the middle of the scouting player's turn.
    assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![b]);
    assert!(matches!(st.stack.last(), Some(Frame::Window { tw: 2, .. })));
    let card = glory("GLY-08");
    act(&mut st, b, &format!("play {card}").parse().unwrap(), 3).unwrap();
    assert!(st.glory_discard.contains(&card));
    // No combat; the suspended turn is back on top with its two actions.
    assert!(matches!(
        st.stack.last(),
        Some(Frame::Turn { seat, actions_left: 2, .. }) if *seat == a
    ));
    invariants(&st);
}

#[test]
fn a_window_asks_only_seats_with_a_legal_play_and_passing_resumes_the_scout() {
    let (st, _, _) = found(|_, _, _| {});
    // Nobody holds a card: the combat starts at once.
    assert!(matches!(st.stack.last(), Some(Frame::Combat { .. })));
    let (mut st, a, b) = found(|st, _, b| give_glory(st, b, glory("GLY-08")));
    act(&mut st, b, &Action::Pass, 3).unwrap();
    assert!(
        matches!(st.stack.last(), Some(Frame::Combat { aggressor, .. }) if *aggressor == super::combat::Side::Player(a))
    );
}

#[test]
fn full_broadside_adds_a_hit_after_the_locations_are_rolled() {
    for n in 1..80u64 {
        let (mut st, a, b) = found(|st, a, _| give_glory(st, a, glory("GLY-09")));
        let _ = n;
        act(&mut st, a, &"shoot".parse().unwrap(), 11).unwrap();
        act(&mut st, b, &"shoot".parse().unwrap(), 12).unwrap();
        let Some(Frame::Window { tw: 6, seat, .. }) = st.stack.last().cloned() else {
            continue;
        };
        assert_eq!(seat, a);
        let Some(Frame::Combat {
            under_way: Some(rd),
            ..
        }) = st.stack.iter().rev().nth(1).cloned()
        else {
            panic!("the round waits in the combat frame")
        };
        let before = rd.locs[1].len();
        let hull = st.players[b.index()].hits;
        let card = glory("GLY-09");
        let ev = act(&mut st, a, &format!("play {card}").parse().unwrap(), 13).unwrap();
        let on_b = ev
            .iter()
            .filter(|e| matches!(e.event, super::Event::Hit { seat, .. } if seat == b))
            .count();
        assert_eq!(on_b, before + 1, "{hull:?}");
        return;
    }
    panic!("no round reached TW6");
}

#[test]
fn start_of_turn_tactics_come_before_the_first_action() {
    let mut st = started(2, 31);
    let seat = turn_seat(&st);
    let windfall = glory("GLY-13");
    let wind = glory("GLY-07");
    give_glory(&mut st, seat, windfall);
    give_glory(&mut st, seat, wind);
    let legal = Merchants::legal_actions(&st, seat);
    assert!(legal.contains(&format!("play {windfall}").parse().unwrap()));
    let gold = st.players[seat.index()].gold;
    act(
        &mut st,
        seat,
        &format!("play {windfall}").parse().unwrap(),
        2,
    )
    .unwrap();
    assert_eq!(st.players[seat.index()].gold, gold + 5);
    act(&mut st, seat, &"leave".parse().unwrap(), 3).unwrap();
    // TW1 is over once an action was taken.
    refused(&st, seat, &format!("play {wind}"), "MM-GCARD-5");
    let mut fresh = started(2, 31);
    let s = turn_seat(&fresh);
    give_glory(&mut fresh, s, wind);
    act(&mut fresh, s, &format!("play {wind}").parse().unwrap(), 2).unwrap();
    assert!(matches!(
        fresh.stack.last(),
        Some(Frame::Turn {
            actions_left: 3,
            bonus_moves: 1,
            ..
        })
    ));
    // GLY-07: the extra action is a Move; once the three actions are spent only moves are left.
    if let Some(Frame::Turn { actions_left, .. }) = fresh.stack.last_mut() {
        *actions_left = 0;
    }
    let legal = Merchants::legal_actions(&fresh, s);
    assert!(
        legal
            .iter()
            .all(|a| matches!(a, Action::Leave { .. } | Action::End | Action::Play { .. })),
        "{legal:?}"
    );
    refused(&fresh, s, "port", "MM-ACT-1");
    act(&mut fresh, s, &"leave".parse().unwrap(), 3).unwrap();
    assert!(!matches!(fresh.stack.last(), Some(Frame::Turn { seat, .. }) if *seat == s));
}

/// A Plunder frame: `a` beat `b` in crew combat at sea; `b` has gold, cargo, a glory card,
/// a rumor and a weapon.
fn plundering() -> (State, Seat, Seat) {
    let (mut st, a, b) = face_off(5);
    let cards: Vec<u8> = st.cargo_deck.drain(..2).collect();
    st.players[b.index()].cargo = cards;
    st.players[b.index()].gold = 9;
    st.players[b.index()].rumor = st.rumor_deck.pop();
    give_glory(&mut st, b, glory("GLY-11"));
    give_weapon(&mut st, b, 2);
    st.players[b.index()].mods = vec![st.mod_tokens[0].take().unwrap().kind];
    st.stack.push(Frame::Plunder { seat: a, from: b });
    (st, a, b)
}

#[test]
fn the_winner_of_a_crew_combat_chooses_the_plunder_and_the_loser_dies_after() {
    let (mut st, a, b) = plundering();
    invariants(&st);
    refused(&st, a, "plunder cargo 99", "MM-PLUN-1");
    refused(&st, a, "plunder weapon 0", "MM-PLUN-1");
    refused(&st, b, "plunder gold", "MM-ACT-1");
    let card = st.players[b.index()].cargo[0];
    act(&mut st, a, &"plunder gold".parse().unwrap(), 2).unwrap();
    act(
        &mut st,
        a,
        &format!("plunder cargo {card}").parse().unwrap(),
        3,
    )
    .unwrap();
    act(&mut st, a, &"plunder rumor".parse().unwrap(), 4).unwrap();
    assert_eq!(st.players[a.index()].gold, 19);
    assert!(st.players[a.index()].cargo.contains(&card));
    assert!(st.players[a.index()].rumor.is_some());
    act(&mut st, a, &Action::Done, 5).unwrap();
    // MM-CREW-4 / MM-DEATH-1: the loser dies once the plunder is done; its ship's
    // modification is placed by its owner (MM-YARD-5).
    assert!(st.players[b.index()].ship.is_none());
    assert!(
        st.stack
            .iter()
            .any(|f| matches!(f, Frame::Place { seat, .. } if *seat == b))
    );
    invariants(&st);
}

#[test]
fn capturing_the_defeated_ship_takes_it_as_it_is_and_returns_your_own_modifications() {
    let (mut st, a, b) = plundering();
    st.players[b.index()].ship = Some(Ship::Flute);
    st.players[b.index()].hits = [2, 3, 1, 0, 4];
    let kind = st.mod_tokens[1].take().unwrap().kind;
    st.players[a.index()].mods = vec![kind];
    let their_mods = st.players[b.index()].mods.clone();
    act(&mut st, a, &Action::Capture, 2).unwrap();
    let p = &st.players[a.index()];
    assert_eq!(p.ship, Some(Ship::Flute));
    assert_eq!(p.mods, their_mods);
    assert_eq!(p.hits[0], 2);
    // The old ship's token waits for its owner to place it.
    assert!(
        matches!(st.stack.last(), Some(Frame::Place { seat, kinds }) if *seat == a && *kinds == vec![kind])
    );
    let taken = (0..17u8)
        .find(|z| st.mod_tokens[usize::from(*z)].is_some())
        .unwrap();
    refused(
        &st,
        a,
        &format!("place {}", d().zones[usize::from(taken)].id),
        "MM-YARD-5",
    );
    let to = (0..16u8)
        .find(|z| st.mod_tokens[usize::from(*z)].is_none())
        .unwrap();
    act(&mut st, a, &Action::Place { to }, 3).unwrap();
    assert_eq!(st.mod_tokens[usize::from(to)].unwrap().kind, kind);
    // The placer knows what lies there; the others do not.
    let own = Merchants::view(&st, Viewer::Seat(a));
    assert!(
        own.players[a.index()]
            .known_mods
            .as_ref()
            .unwrap()
            .contains(&(to, kind))
    );
    let other = Merchants::view(&st, Viewer::Seat(b));
    assert!(other.players[a.index()].known_mods.is_none());
    refused(&st, a, "capture", "MM-PLUN-4");
    invariants(&st);
}

#[test]
fn the_plunder_and_its_hidden_cards_are_shown_to_the_winner_only() {
    let (st, a, b) = plundering();
    let rumor = &d().rumors[usize::from(st.players[b.index()].rumor.unwrap())].id;
    let winner = serde_json::to_string(&Merchants::view(&st, Viewer::Seat(a))).unwrap();
    assert!(winner.contains(rumor.as_str()));
    let json = serde_json::to_string(&Merchants::view(&st, Viewer::Spectator)).unwrap();
    assert!(!json.contains(rumor.as_str()), "{json}");
    no_leak(&st);
}

#[test]
fn specialists_are_employed_during_recruit_two_at_most() {
    let mut st = started(2, 40);
    let seat = turn_seat(&st);
    let (sm, lo, pu) = (glory("GLY-01"), glory("GLY-05"), glory("GLY-06"));
    for c in [sm, lo, pu] {
        give_glory(&mut st, seat, c);
    }
    let rest: Vec<u8> = st.players[seat.index()]
        .glory_hand
        .iter()
        .filter(|c| ![sm, lo, pu].contains(c))
        .copied()
        .collect();
    st.players[seat.index()]
        .glory_hand
        .retain(|c| [sm, lo, pu].contains(c));
    st.glory_discard.extend(rest);
    st.players[seat.index()].gold = 20;
    act(&mut st, seat, &Action::Port, 2).unwrap();
    act(&mut st, seat, &format!("employ {sm}").parse().unwrap(), 3).unwrap();
    act(&mut st, seat, &format!("employ {lo}").parse().unwrap(), 4).unwrap();
    assert_eq!(st.players[seat.index()].specialists, vec![sm, lo]);
    assert_eq!(st.players[seat.index()].gold, 20 - 3 - 2);
    refused(&st, seat, &format!("employ {pu}"), "MM-GCARD-4");
    refused(&st, seat, "employ 0", "MM-GCARD-4");
    invariants(&st);
}

/// MM-RECR-2 / MM-GCARD-4 / MM-PORT-2: employing a specialist happens inside the Recruit
/// activity and does not use it up: the Leadership roll may follow, once, and nothing of
/// Recruit after another activity has begun.
#[test]
fn mm_recr_2_employing_first_leaves_the_recruit_roll_of_the_same_activity() {
    let mut st = started(2, 40);
    let seat = turn_seat(&st);
    let sm = glory("GLY-01");
    give_glory(&mut st, seat, sm);
    let rest: Vec<u8> = st.players[seat.index()]
        .glory_hand
        .iter()
        .filter(|c| **c != sm)
        .copied()
        .collect();
    st.players[seat.index()].glory_hand.retain(|c| *c == sm);
    st.glory_discard.extend(rest);
    st.players[seat.index()].gold = 20;
    st.players[seat.index()].hits[3] = 1;
    let before = st.clone();
    act(&mut st, seat, &Action::Port, 2).unwrap();
    act(&mut st, seat, &format!("employ {sm}").parse().unwrap(), 3).unwrap();
    assert!(Merchants::legal_actions(&st, seat).contains(&Action::Recruit));
    act(&mut st, seat, &Action::Recruit, 4).unwrap();
    if matches!(st.stack.last(), Some(Frame::Hire { .. })) {
        act(&mut st, seat, &Action::Hire { crew: 0 }, 5).unwrap();
    }
    // One Recruit activity per Port action.
    assert!(!Merchants::legal_actions(&st, seat).contains(&Action::Recruit));
    st.players[seat.index()].hits[3] = 1;
    refused(&st, seat, "recruit", "MM-PORT-2");
    // Employing, then another activity: the Recruit is over.
    let mut st = before;
    act(&mut st, seat, &Action::Port, 2).unwrap();
    act(&mut st, seat, &format!("employ {sm}").parse().unwrap(), 3).unwrap();
    act(&mut st, seat, &Action::Buy, 4).unwrap();
    act(&mut st, seat, &Action::Take { cards: vec![] }, 5).unwrap();
    refused(&st, seat, "recruit", "MM-PORT-2");
}

#[test]
fn a_mission_is_completed_by_its_objective_for_its_gold_and_a_glory_point() {
    // MIS-04: carry 10 gold into the port of SEU and pay it.
    let mut st = started(2, 41);
    let seat = turn_seat(&st);
    let m = u8::try_from(d().missions.iter().position(|m| m.id == "MIS-04").unwrap()).unwrap();
    st.mission_deck.retain(|x| *x != m);
    st.missions_open.retain(|x| *x != m);
    let p = &mut st.players[seat.index()];
    p.mission = Some(m);
    p.zone = zone("SEU");
    p.in_port = false;
    p.gold = 12;
    act(&mut st, seat, &Action::Enter, 2).unwrap();
    let p = &st.players[seat.index()];
    assert_eq!(p.mission, None);
    assert_eq!(p.gold, 12 - 10 + 18);
    assert_eq!(p.glory, 1);
    assert!(st.mission_discard.contains(&m));
}

#[test]
fn a_mission_tested_at_sea_is_a_scout_action_in_its_zone() {
    let m = u8::try_from(d().missions.iter().position(|m| m.id == "MIS-08").unwrap()).unwrap();
    let mut done = false;
    for n in 0..30 {
        let mut st = started(2, 42 + n);
        let seat = turn_seat(&st);
        st.mission_deck.retain(|x| *x != m);
        st.missions_open.retain(|x| *x != m);
        let p = &mut st.players[seat.index()];
        p.mission = Some(m);
        p.zone = zone("CSEA");
        p.in_port = false;
        st.npcs.clear();
        assert!(Merchants::legal_actions(&st, seat).contains(&"scout mission".parse().unwrap()));
        act(&mut st, seat, &"scout mission".parse().unwrap(), 2 + n).unwrap();
        refused(&st, seat, "scout mission", "MM-ACT-3");
        if st.players[seat.index()].mission.is_none() {
            assert!(st.players[seat.index()].glory >= 1);
            done = true;
            break;
        }
    }
    assert!(done, "Scouting 2 successes never came");
    let st = started(2, 43);
    let seat = turn_seat(&st);
    let mut at_sea = st.clone();
    at_sea.players[seat.index()].in_port = false;
    refused(&at_sea, seat, "scout mission", "MM-MIS-4");
}

#[test]
fn a_true_rumor_of_two_glory_cards_keeps_the_one_picked() {
    let mut st = started(2, 44);
    let seat = turn_seat(&st);
    let r = u8::try_from(d().rumors.iter().position(|r| r.id == "RUM-02").unwrap()).unwrap();
    let mut done = false;
    for n in 0..40 {
        let mut s = st.clone();
        s.rumor_deck.retain(|x| *x != r);
        let p = &mut s.players[seat.index()];
        p.rumor = Some(r);
        p.zone = zone("NAS");
        p.in_port = true;
        p.bounty = [0; 4];
        act(&mut s, seat, &Action::Port, 2 + n).unwrap();
        act(&mut s, seat, &Action::Check, 100 + n).unwrap();
        let Some(Frame::Pick { options, .. }) = s.stack.last().cloned() else {
            continue;
        };
        assert_eq!(options.len(), 2);
        // The two cards are the chooser's alone.
        let other = Merchants::view(&s, Viewer::Seat(Seat(1 - seat.0)));
        assert!(matches!(
            other.decision,
            Some(super::view::DecisionView::Pick { options: None, .. })
        ));
        refused(&s, seat, "pick 200", "MM-RUM-3");
        act(&mut s, seat, &Action::Pick { option: options[1] }, 300).unwrap();
        assert!(
            s.players[seat.index()].glory_hand.contains(&options[1])
                || s.players[seat.index()].glory_hand.len() == 4
        );
        assert!(s.glory_discard.contains(&options[0]));
        invariants(&s);
        done = true;
        break;
    }
    assert!(done);
    st.stack.clear();
}

#[test]
fn a_dead_captain_whose_home_zone_holds_a_pirate_may_draw_another() {
    let mut st = started(2, 21);
    let seat = turn_seat(&st);
    let other = Seat(1 - seat.0);
    // A pirate NPC in every zone: whatever the new captain's home, it is there.
    let pirate = u8::try_from(d().npcs.iter().position(|n| n.pirate).unwrap()).unwrap();
    st.npcs = (0..17)
        .map(|z| super::state::Npc {
            card: pirate,
            zone: z,
            hits: [0; 5],
        })
        .collect();
    super::rules::die(
        d(),
        &mut st,
        other,
        &mut GameRng::from_u64(1),
        &mut Vec::new(),
    );
    assert!(st.players[other.index()].may_redraw);
    // The choice waits beneath the active turn (III.3.9); bring it up.
    let frame = st.stack.remove(0);
    st.stack.push(frame);
    let before = st.players[other.index()].captain;
    assert!(Merchants::legal_actions(&st, other).contains(&Action::Redraw));
    act(&mut st, other, &Action::Redraw, 2).unwrap();
    assert_ne!(st.players[other.index()].captain, before);
    refused(&st, other, "redraw", "MM-DEATH-4");
    // The redraw is the dead player's own business.
    assert_eq!(
        Merchants::action_audience(&Action::Redraw, other),
        crate::engine::Audience::Only(crate::engine::SeatSet::only(other))
    );
}

#[test]
fn zone_effects_change_prices_lockouts_and_raids() {
    let mut st = started(2, 45);
    let seat = turn_seat(&st);
    // D-ZONE NAS: a pirate haven; MM-PORT-4 does not apply.
    let p = &mut st.players[seat.index()];
    p.zone = zone("NAS");
    p.in_port = true;
    p.bounty = [0, 2, 0, 0];
    assert!(Merchants::legal_actions(&st, seat).contains(&Action::Port));
    let mut locked = st.clone();
    locked.players[seat.index()].zone = zone("PRY");
    refused(&locked, seat, "port", "MM-PORT-4");
    // D-ZONE SEU: special weapons cost 2.
    st.players[seat.index()].zone = zone("SEU");
    st.players[seat.index()].gold = 2;
    act(&mut st, seat, &Action::Port, 2).unwrap();
    act(&mut st, seat, &"weapon 0".parse().unwrap(), 3).unwrap();
    assert_eq!(st.players[seat.index()].gold, 0);
    // MM-YARD-12: sold back for 1.
    act(&mut st, seat, &"resell 0".parse().unwrap(), 4).unwrap();
    assert_eq!(st.players[seat.index()].gold, 1);
    refused(&st, seat, "resell 0", "MM-YARD-12");
    // D-ZONE CUR: goods appearing exactly twice cost 1 less.
    let twice = [0u8, 1, 8];
    assert_eq!(
        super::rules::offer_prices(d(), zone("CUR"), &twice),
        vec![1, 1, 3]
    );
    assert_eq!(
        super::rules::offer_prices(d(), zone("HAV"), &twice),
        vec![2, 2, 3]
    );
    invariants(&st);
}

#[test]
fn captain_abilities_apply_where_their_card_says() {
    let mut st = started(2, 46);
    let seat = turn_seat(&st);
    // CAP-14: a rumor costs 0; CAP-05: repairs cost 1 less.
    let vh = u8::try_from(d().captains.iter().position(|c| c.id == "CAP-14").unwrap()).unwrap();
    let lc = u8::try_from(d().captains.iter().position(|c| c.id == "CAP-05").unwrap()).unwrap();
    let mine = st.players[seat.index()].captain;
    let swap = |st: &mut State, c: u8| {
        let old = st.players[seat.index()].captain;
        if let Some(x) = st.captain_deck.iter_mut().find(|x| **x == c) {
            *x = old;
        } else if let Some(x) = st.players.iter_mut().find(|p| p.captain == c) {
            x.captain = old;
        }
        st.players[seat.index()].captain = c;
    };
    swap(&mut st, vh);
    assert_eq!(super::rules::rumor_price(d(), &st.players[seat.index()]), 0);
    swap(&mut st, lc);
    let p = &st.players[seat.index()];
    assert_eq!(super::rules::repair_price(d(), p), 1);
    let _ = mine;
    invariants(&st);
}

#[test]
fn a_general_pardon_buys_off_a_bounty_at_the_start_of_the_turn() {
    let mut st = started(2, 47);
    let seat = turn_seat(&st);
    st.round_effects.push("pardon".into());
    st.players[seat.index()].bounty = [2, 0, 0, 0];
    st.players[seat.index()].gold = 10;
    refused(&st, seat, "pardon EN", "EVT-29");
    act(&mut st, seat, &"pardon ES".parse().unwrap(), 2).unwrap();
    assert_eq!(st.players[seat.index()].bounty, [1, 0, 0, 0]);
    assert_eq!(st.players[seat.index()].gold, 5);
    refused(&st, seat, "pardon ES", "EVT-29");
}

/// MM-NPC-5/6: a moving NPC with several hunted captains at sea next to it sails toward the
/// highest on its hunt list (a higher bounty level first), not the first in turn order.
#[test]
fn mm_npc_5_a_moving_npc_sails_toward_the_highest_bounty_not_the_first_in_turn_order() {
    let mut st = started(2, 48);
    let first = st.first;
    let other = Seat(1 - first.0);
    let npc = u8::try_from(d().npcs.iter().position(|n| n.id == "NPC-01").unwrap()).unwrap();
    st.npcs = vec![super::state::Npc {
        card: npc,
        zone: zone("CSEA"),
        hits: [0; 5],
    }];
    for (seat, at, level) in [(first, "SDO", 1), (other, "PRY", 3)] {
        let p = &mut st.players[seat.index()];
        p.zone = zone(at);
        p.in_port = false;
        p.bounty = [0; 4];
        p.bounty[Nation::ES.index()] = level;
    }
    let card = u8::try_from(d().events.iter().position(|e| e.id == "EVT-14").unwrap()).unwrap();
    st.event_deck.retain(|c| *c != card);
    st.event_deck.push(card);
    st.stack.clear();
    st.turns_this_round = st.seats;
    super::rules::advance(d(), &mut st, &mut GameRng::from_u64(2), &mut Vec::new());
    assert_eq!(st.npcs[0].zone, zone("PRY"));
}

#[test]
fn pirate_hunters_sail_toward_the_nearest_captain_with_their_nations_bounty() {
    let mut st = started(2, 48);
    let seat = turn_seat(&st);
    let naval = u8::try_from(
        d().npcs
            .iter()
            .position(|n| n.nation == Some(Nation::ES))
            .unwrap(),
    )
    .unwrap();
    st.npcs = vec![super::state::Npc {
        card: naval,
        zone: zone("HAV"),
        hits: [0; 5],
    }];
    for p in &mut st.players {
        p.in_port = true;
    }
    let p = &mut st.players[seat.index()];
    p.bounty = [1, 0, 0, 0];
    p.zone = zone("TOR");
    p.in_port = false;
    let card = u8::try_from(d().events.iter().position(|e| e.id == "EVT-27").unwrap()).unwrap();
    st.event_deck.retain(|c| *c != card);
    st.event_deck.push(card);
    st.stack.clear();
    st.turns_this_round = st.seats;
    super::rules::advance(d(), &mut st, &mut GameRng::from_u64(2), &mut Vec::new());
    // HAV → NAS → TOR: one step, to NAS.
    assert_eq!(st.npcs[0].zone, zone("NAS"));
}

fn scouted_into_combat(
    prepare: impl Fn(&mut State, Seat, Seat),
) -> (State, Seat, Seat, Vec<Logged<super::Event>>) {
    for n in 1..200u64 {
        let (mut st, a, b) = face_off(n);
        prepare(&mut st, a, b);
        let ev = act(&mut st, a, &format!("scout p{}", b.0).parse().unwrap(), n).unwrap();
        if ev
            .iter()
            .any(|e| matches!(e.event, super::Event::CombatStarts { .. }))
        {
            return (st, a, b, ev);
        }
    }
    panic!("no scout succeeded");
}

fn disengaged(ev: &[Logged<super::Event>]) -> bool {
    ev.iter().any(|e| {
        matches!(
            &e.event,
            super::Event::CombatEnds { how } if how == "disengaged"
        )
    })
}

/// MM-NAV-5/8/10: ships without a cannon may still Board or Flee from round 2 while they have
/// masts, so the fight goes on; only when neither side can Shoot, Board or Flee (no cannon, no
/// mast on either) do they part, so that such a fight still ends. (The earlier reading parted
/// as soon as both had no cannon.)
#[test]
fn mm_nav_5_ships_without_cannons_fight_on_while_either_can_board_or_flee() {
    let (st, _, _, ev) = scouted_into_combat(|st, a, b| {
        st.players[a.index()].hits[2] = 0;
        st.players[b.index()].hits[2] = 0;
    });
    assert!(!disengaged(&ev));
    assert!(matches!(st.stack.last(), Some(Frame::Combat { .. })));
}

#[test]
fn ships_that_can_neither_shoot_board_nor_flee_part_instead_of_fighting_forever() {
    let (st, a, _, ev) = scouted_into_combat(|st, a, b| {
        for s in [a, b] {
            st.players[s.index()].hits[1] = 0;
            st.players[s.index()].hits[2] = 0;
        }
    });
    assert!(disengaged(&ev));
    assert!(matches!(
        st.stack.last(),
        Some(Frame::Turn { seat, actions_left: 2, .. }) if *seat == a
    ));
}

#[test]
fn a_free_modification_from_a_rumor_offers_face_down_tokens_blind_and_reveals_the_one_picked() {
    let mut st = started(2, 50);
    let seat = turn_seat(&st);
    let z = zone("HAV");
    let t = st.mod_tokens[usize::from(z)].unwrap();
    assert!(!t.face_up);
    // The ship already has that kind: the token is revealed and stays (D-RUM "if legal").
    let spare = (0..16)
        .find(|x| *x != z && st.mod_tokens[usize::from(*x)].is_some_and(|o| o.kind == t.kind))
        .or_else(|| (0..16).find(|x| *x != z && st.mod_tokens[usize::from(*x)].is_some()))
        .unwrap();
    let taken = st.mod_tokens[usize::from(spare)].take().unwrap();
    st.players[seat.index()].mods.push(taken.kind);
    let has_kind = taken.kind == t.kind;
    st.stack.push(Frame::Pick {
        seat,
        what: super::state::PickWhat::FreeMod,
        options: vec![z],
    });
    act(&mut st, seat, &Action::Pick { option: z }, 2).unwrap();
    let now = st.mod_tokens[usize::from(z)];
    if has_kind {
        assert_eq!(now.map(|x| x.face_up), Some(true));
    } else {
        assert!(now.is_none());
        assert!(st.players[seat.index()].mods.contains(&t.kind));
    }
    invariants(&st);
}

// ---------------------------------------------------------------------------------------------
// Standing orders (III.3.3, III.3.5, III.4)
// ---------------------------------------------------------------------------------------------

fn file(st: &mut State, seat: Seat, text: &str) -> Vec<Logged<super::Event>> {
    act(st, seat, &text.parse().unwrap(), 3).unwrap()
}

#[test]
fn standing_orders_round_trip_through_their_notation_and_json() {
    let text = "orders window TW3: fire; declare if attacked and hull<=1: flee; \
                declare if crew_margin>=2 and round>1: board; declare if vs npc: shoot 1; \
                declare: shoot; window TW2 if attacked and lacks GLY-11: play GLY-08; \
                window if holds GLY-14 and vs player: ask; window: pass";
    let a: Action = text.parse().unwrap();
    let Action::Orders { orders } = &a else {
        panic!("{a:?}")
    };
    assert_eq!(orders.len(), 8);
    assert_eq!(a.to_string().parse::<Action>().unwrap(), a);
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["type"], "orders");
    assert_eq!(json["orders"][1]["if"][1]["cmp"], "<=");
    assert_eq!(serde_json::from_value::<Action>(json).unwrap(), a);
    for clear in ["orders", "orders clear"] {
        assert_eq!(
            clear.parse::<Action>().unwrap(),
            Action::Orders { orders: Vec::new() }
        );
    }
    assert_eq!(
        Action::Orders { orders: Vec::new() }.to_string(),
        "orders clear"
    );
    for bad in [
        "orders declare shoot",
        "orders attack: shoot",
        "orders declare if tall: shoot",
        "orders declare if hull<=x: shoot",
        "orders window TW: pass",
        "orders declare: dance",
    ] {
        assert!(bad.parse::<Action>().is_err(), "{bad}");
    }
}

#[test]
fn badly_formed_standing_orders_are_refused_citing_their_rule_and_change_nothing() {
    let st = started(2, 3);
    let other = Seat(1 - turn_seat(&st).0);
    for (text, rule) in [
        ("orders window TW8: pass", "III.3.5"),
        ("orders declare: pass", "MM-NAV-4"),
        ("orders window: shoot", "MM-GCARD-5"),
        ("orders window: play GLY-01", "MM-GCARD-4"),
        ("orders window: play GLY-99", "MM-GCARD-3"),
        ("orders window: play GLY-13", "MM-GCARD-5"),
        ("orders window TW2: play GLY-09", "MM-GCARD-5"),
        ("orders window TW5: fire", "MM-WPN-2"),
        ("orders declare: shoot 0", "MM-WPN-2"),
        ("orders declare: shoot 9", "MM-WPN-3"),
        ("orders declare if holds GLY-77: shoot", "MM-GCARD-3"),
    ] {
        refused(&st, other, text, rule);
    }
    let many = ["declare: shoot"; 33].join("; ");
    refused(&st, other, &format!("orders {many}"), "III.3.3");
    let conds = ["hull>0"; 9].join(" and ");
    refused(
        &st,
        other,
        &format!("orders declare if {conds}: shoot"),
        "III.3.3",
    );
}

#[test]
fn standing_orders_are_filed_out_of_turn_seen_by_their_owner_only_and_replaced() {
    let mut st = started(3, 4);
    let active = turn_seat(&st);
    let me = Seat((active.0 + 1) % 3);
    assert!(!Merchants::pending(&st).contains(me));
    let a: Action = "orders declare if hull<=1: flee; window: pass"
        .parse()
        .unwrap();
    assert!(Merchants::allowed_out_of_turn(&st, me, &a));
    assert_eq!(
        Merchants::action_audience(&a, me),
        crate::engine::Audience::Only(crate::engine::SeatSet::only(me))
    );
    let before = st.clone();
    let ev = act(&mut st, me, &a, 5).unwrap();
    // Nothing else moved: the active turn is as it was.
    assert_eq!(st.stack, before.stack);
    assert_eq!(st.players, before.players);
    assert!(
        ev.iter()
            .all(|e| e.audience == crate::engine::Audience::Only(crate::engine::SeatSet::only(me)))
    );
    for v in [
        Viewer::Seat(active),
        Viewer::Seat(Seat((me.0 + 1) % 3)),
        Viewer::Spectator,
    ] {
        let view = Merchants::view(&st, v);
        assert!(
            view.players
                .iter()
                .all(|p| p.orders.is_none() || Some(p.seat) == view.you)
        );
        assert!(view.players[me.index()].orders.is_none());
        let text = serde_json::to_string(&view).unwrap();
        assert!(
            !text.contains("flee") && !text.contains("hull<=1"),
            "{text}"
        );
        assert!(ev.iter().all(|e| !e.audience.admits(v)));
    }
    let mine = Merchants::view(&st, Viewer::Seat(me));
    assert_eq!(
        mine.players[me.index()].orders,
        Some(vec![
            "declare if hull<=1: flee".to_string(),
            "window: pass".to_string()
        ])
    );
    // A new filing replaces the old; an empty one clears.
    file(&mut st, me, "orders declare: board");
    assert_eq!(st.orders[me.index()].len(), 1);
    file(&mut st, me, "orders clear");
    assert!(st.orders[me.index()].is_empty());
    // Filing is never listed (as Magnate's `prefer`).
    assert!(
        Merchants::legal_actions(&st, active)
            .iter()
            .all(|a| !matches!(a, Action::Orders { .. }))
    );
}

#[test]
fn a_defender_with_standing_orders_is_never_asked_to_declare_and_only_it_hears_why() {
    let mut decided = 0;
    for n in 1..80u64 {
        let (mut st, a, b) = face_off(n);
        // Round 1 is Shoot only (MM-NAV-4): the first order is skipped then, not an error.
        file(
            &mut st,
            b,
            "orders declare if round>=2: flee; declare: shoot",
        );
        act(&mut st, a, &format!("scout p{}", b.0).parse().unwrap(), n).unwrap();
        if !matches!(st.stack.last(), Some(Frame::Combat { .. })) {
            continue;
        }
        let mut k = 300;
        while let Some(Frame::Combat { .. } | Frame::Window { .. }) = st.stack.last() {
            // b's declarations are all decided: only a is ever pending in this combat.
            assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![a]);
            let legal = Merchants::legal_actions(&st, a);
            let pick = legal
                .iter()
                .find(|x| **x == "shoot".parse().unwrap())
                .cloned()
                .unwrap_or_else(|| legal[0].clone());
            k += 1;
            let ev = act(&mut st, a, &pick, k).unwrap();
            for e in &ev {
                if let super::Event::OrderApplied {
                    seat,
                    order,
                    action,
                } = &e.event
                {
                    assert_eq!(*seat, b);
                    assert_eq!(
                        e.audience,
                        crate::engine::Audience::Only(crate::engine::SeatSet::only(b))
                    );
                    assert!(matches!(
                        (order, action.as_str()),
                        (1, "flee") | (2, "shoot")
                    ));
                    decided += 1;
                }
            }
            // The answer itself is public, as if b had sent it.
            if ev
                .iter()
                .any(|e| matches!(e.event, super::Event::OrderApplied { .. }))
            {
                assert!(ev.iter().any(|e| matches!(
                    e.event,
                    super::Event::Declared { side: super::combat::Side::Player(s), .. } if s == b
                ) && e.audience == crate::engine::Audience::Everyone));
            }
            invariants(&st);
        }
        if decided >= 3 {
            return;
        }
    }
    panic!("too few combats decided by standing orders: {decided}");
}

#[test]
fn an_auto_passed_window_looks_the_same_to_the_others_as_holding_nothing() {
    let mut compared = 0;
    for n in 1..60u64 {
        let (mut base, a, b) = face_off(n);
        // Both cards come from the deck, so that the deck counts agree.
        for card in [glory("GLY-08"), glory("GLY-13")] {
            if base.glory_discard.contains(&card) {
                base.glory_discard.retain(|c| *c != card);
                base.glory_deck.insert(0, card);
            }
        }
        // b holds Hidden Cove (TW2) and auto-passes every window...
        let mut cove = base.clone();
        give_glory(&mut cove, b, glory("GLY-08"));
        file(&mut cove, b, "orders window: pass");
        // ... or holds a card of its own turn only (Windfall, TW1) and has no orders.
        let mut windfall = base.clone();
        give_glory(&mut windfall, b, glory("GLY-13"));
        let scout: Action = format!("scout p{}", b.0).parse().unwrap();
        let ev1 = act(&mut cove, a, &scout, n).unwrap();
        let ev2 = act(&mut windfall, a, &scout, n).unwrap();
        for v in [Viewer::Seat(a), Viewer::Spectator] {
            let seen = |ev: &[Logged<super::Event>]| -> Vec<String> {
                ev.iter()
                    .filter(|e| e.audience.admits(v))
                    .map(|e| serde_json::to_string(&e.event).unwrap())
                    .collect()
            };
            assert_eq!(seen(&ev1), seen(&ev2), "seed {n}");
            assert_eq!(
                serde_json::to_value(Merchants::view(&cove, v)).unwrap(),
                serde_json::to_value(Merchants::view(&windfall, v)).unwrap()
            );
        }
        assert_eq!(Merchants::pending(&cove), Merchants::pending(&windfall));
        if ev1
            .iter()
            .any(|e| matches!(e.event, super::Event::OrderApplied { .. }))
        {
            compared += 1;
        }
    }
    assert!(compared > 0, "no scout found b");
}

#[test]
fn an_order_may_play_a_tactic_and_ask_stops_the_search() {
    // b is asked in TW2; filing an order that decides the request answers it at once: Hidden
    // Cove cancels the scout and a's turn goes on.
    let (mut st, a, b) = found(|st, _, b| give_glory(st, b, glory("GLY-08")));
    assert!(matches!(st.stack.last(), Some(Frame::Window { tw: 2, seat, .. }) if *seat == b));
    let ev = file(&mut st, b, "orders window TW2 if attacked: play GLY-08");
    assert!(matches!(
        st.stack.last(),
        Some(Frame::Turn { seat, actions_left: 2, .. }) if *seat == a
    ));
    assert!(st.glory_discard.contains(&glory("GLY-08")));
    assert!(ev.iter().any(|e| matches!(
        e.event,
        super::Event::GloryPlayed { seat, .. } if seat == b
    ) && e.audience == crate::engine::Audience::Everyone));
    invariants(&st);
    // `ask` before `pass`: b holding the card is asked as without orders.
    let (mut st, _, b) = found(|st, _, b| give_glory(st, b, glory("GLY-08")));
    let asked = st.clone();
    file(
        &mut st,
        b,
        "orders window if holds GLY-08: ask; window: pass",
    );
    assert_eq!(st.stack, asked.stack);
    assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![b]);
    let ev = file(
        &mut st,
        b,
        "orders window if lacks GLY-08: ask; window: pass",
    );
    assert!(!matches!(st.stack.last(), Some(Frame::Window { .. })));
    assert!(
        ev.iter()
            .any(|e| matches!(e.event, super::Event::OrderApplied { order: 2, .. }))
    );
    invariants(&st);
}

// ---------------------------------------------------------------------------------------------
// MM-GCARD-2: the owner's discard from a hand over the limit
// ---------------------------------------------------------------------------------------------

/// Fills `seat`'s hand to `n` cards from the glory deck (drawn in deck order).
fn fill_hand(st: &mut State, seat: Seat, n: usize) {
    while st.players[seat.index()].glory_hand.len() < n {
        let c = st.glory_deck.pop().unwrap();
        st.players[seat.index()].glory_hand.push(c);
    }
}

#[test]
fn a_fifth_glory_card_is_kept_until_its_owner_discards_one_of_their_choice() {
    let mut st = started(2, 30);
    let seat = turn_seat(&st);
    fill_hand(&mut st, seat, 4);
    let mut ev = Vec::new();
    super::rules::draw_glory_card(d(), &mut st, seat, &mut GameRng::from_u64(3), &mut ev);
    // Nothing is discarded for the owner: the fifth card stays until it chooses.
    assert_eq!(st.players[seat.index()].glory_hand.len(), 5);
    assert!(
        !ev.iter()
            .any(|e| matches!(e.event, super::Event::GloryDiscarded { .. }))
    );
    let hand = st.players[seat.index()].glory_hand.clone();
    let legal = Merchants::legal_actions(&st, seat);
    assert_eq!(
        legal,
        hand.iter()
            .map(|card| Action::DiscardGlory { card: *card })
            .collect::<Vec<_>>()
    );
    // "At once": its turn waits until the hand is back at the limit.
    refused(&st, seat, "end", "MM-GCARD-2");
    let outside = (0..70u8).find(|c| !hand.contains(c)).unwrap();
    refused(&st, seat, &format!("discard glory {outside}"), "MM-GCARD-2");
    let first = hand[0];
    let ev = act(&mut st, seat, &Action::DiscardGlory { card: first }, 4).unwrap();
    assert_eq!(st.players[seat.index()].glory_hand, hand[1..].to_vec());
    assert_eq!(st.glory_discard.last(), Some(&first));
    // The discarded card is public once discarded.
    assert!(ev.iter().any(
        |e| matches!(e.event, super::Event::GloryDiscarded { card, .. } if card == first)
            && e.audience == crate::engine::Audience::Everyone
    ));
    // Back at the limit: no more discards, the turn goes on.
    refused(
        &st,
        seat,
        &format!("discard glory {}", hand[1]),
        "MM-GCARD-2",
    );
    assert!(Merchants::legal_actions(&st, seat).contains(&Action::End));
    invariants(&st);
}

#[test]
fn a_hand_over_the_limit_in_another_players_turn_is_asked_without_blocking_that_turn() {
    let mut st = started(2, 31);
    let active = turn_seat(&st);
    let other = Seat(1 - active.0);
    fill_hand(&mut st, other, 6);
    // Both are pending: the owner for its discard, the active seat for its turn.
    let pending: Vec<Seat> = Merchants::pending(&st).iter().collect();
    assert!(pending.contains(&active) && pending.contains(&other));
    assert!(
        !Merchants::legal_actions(&st, active)
            .iter()
            .any(|a| matches!(a, Action::DiscardGlory { .. }))
    );
    // The hand stays hidden: the others see its count only, and what is asked shows no card.
    let seen = Merchants::view(&st, Viewer::Seat(active));
    assert!(seen.players[other.index()].glory_hand.is_none());
    assert_eq!(seen.players[other.index()].glory_cards, 6);
    // The active turn moves on meanwhile.
    let moved = Merchants::legal_actions(&st, active)
        .into_iter()
        .find(|a| {
            matches!(
                a,
                Action::Move { .. } | Action::Enter | Action::Leave { .. }
            )
        })
        .unwrap();
    act(&mut st, active, &moved, 5).unwrap();
    // III.2's default on timeout: the most recently drawn card, once per card over.
    let hand = st.players[other.index()].glory_hand.clone();
    for k in 0..2 {
        let Timeout::Play(a) = Merchants::timeout(&st, other) else {
            panic!("no default")
        };
        assert_eq!(
            a,
            Action::DiscardGlory {
                card: hand[hand.len() - 1 - k]
            }
        );
        act(&mut st, other, &a, 6 + k as u64).unwrap();
    }
    assert_eq!(st.players[other.index()].glory_hand, hand[..4].to_vec());
    assert!(!Merchants::pending(&st).contains(other));
    refused(
        &st,
        other,
        &format!("discard glory {}", hand[0]),
        "MM-ACT-1",
    );
    invariants(&st);
}

#[test]
fn a_hand_order_discards_for_its_owner_and_only_the_owner_hears_which_order() {
    let mut st = started(2, 32);
    let active = turn_seat(&st);
    let other = Seat(1 - active.0);
    fill_hand(&mut st, other, 4);
    give_glory(&mut st, other, glory("GLY-05"));
    st.players[other.index()].glory_hand.rotate_right(1);
    let newest = *st.players[other.index()].glory_hand.last().unwrap();
    // The filing answers the open request at once: a GLY-05 goes, not the newest card.
    let ev = file(
        &mut st,
        other,
        "orders hand: discard GLY-05; hand: discard newest",
    );
    let hand = &st.players[other.index()].glory_hand;
    assert_eq!(hand.len(), 4);
    assert!(hand.contains(&newest));
    assert!(!hand.contains(&glory("GLY-05")));
    let applied: Vec<_> = ev
        .iter()
        .filter(|e| matches!(e.event, super::Event::OrderApplied { .. }))
        .collect();
    assert_eq!(applied.len(), 1);
    assert_eq!(
        applied[0].audience,
        crate::engine::Audience::Only(crate::engine::SeatSet::only(other))
    );
    // Next time no GLY-05 is held: the second order takes the newest.
    fill_hand(&mut st, other, 4);
    let mut ev = Vec::new();
    super::rules::draw_glory_card(d(), &mut st, other, &mut GameRng::from_u64(4), &mut ev);
    let newest = *st.players[other.index()].glory_hand.last().unwrap();
    let moved = Merchants::legal_actions(&st, active)
        .into_iter()
        .find(|a| {
            matches!(
                a,
                Action::Move { .. } | Action::Enter | Action::Leave { .. }
            )
        })
        .unwrap();
    act(&mut st, active, &moved, 7).unwrap();
    assert_eq!(st.players[other.index()].glory_hand.len(), 4);
    assert!(!st.players[other.index()].glory_hand.contains(&newest));
    invariants(&st);
}

// ---------------------------------------------------------------------------------------------
// Standing orders for plunder, claim and the ship choice (III.2)
// ---------------------------------------------------------------------------------------------

#[test]
fn plunder_claim_ship_and_hand_orders_round_trip_and_bad_ones_are_refused() {
    let text = "orders hand if holds GLY-08: discard GLY-03; hand: discard newest; \
                plunder: plunder gold; plunder if vs player: plunder cargo; plunder: capture; \
                plunder: done; claim if hull<=1: capture; claim: done; ship: redraw; \
                ship: ship flute";
    let a: Action = text.parse().unwrap();
    assert_eq!(a.to_string().parse::<Action>().unwrap(), a);
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["orders"][0]["when"]["kind"], "hand");
    assert_eq!(json["orders"][2]["then"]["what"], "gold");
    assert_eq!(json["orders"][9]["then"]["ship"], "flute");
    assert_eq!(serde_json::from_value::<Action>(json).unwrap(), a);
    let st = started(2, 3);
    let other = Seat(1 - turn_seat(&st).0);
    for (text, rule) in [
        ("orders hand: pass", "MM-GCARD-2"),
        ("orders hand: discard GLY-99", "MM-GCARD-3"),
        ("orders plunder: flee", "MM-PLUN-1"),
        ("orders claim: plunder gold", "MM-PLUN-4"),
        ("orders ship: ship frigate", "MM-DEATH-4"),
        ("orders ship: capture", "MM-DEATH-4"),
        ("orders window: capture", "MM-GCARD-5"),
        ("orders declare: redraw", "MM-NAV-4"),
    ] {
        refused(&st, other, text, rule);
    }
    assert!("orders plunder: plunder ship".parse::<Action>().is_err());
}

#[test]
fn plunder_orders_take_gold_and_the_best_cargo_then_finish_without_asking() {
    let (mut st, a, b) = plundering();
    let cargo = st.players[b.index()].cargo.clone();
    let best = *cargo
        .iter()
        .max_by_key(|c| d().cargo_card(**c).plunder)
        .unwrap();
    let ev = file(
        &mut st,
        a,
        "orders plunder: plunder gold; plunder: plunder cargo; plunder: done",
    );
    let p = &st.players[a.index()];
    assert_eq!(p.gold, 19);
    assert!(p.cargo.contains(&best));
    // Both cards fit, so both were taken before `done`; the loser is dead.
    assert!(cargo.iter().all(|c| p.cargo.contains(c)));
    assert!(st.players[b.index()].ship.is_none());
    for e in ev
        .iter()
        .filter(|e| matches!(e.event, super::Event::OrderApplied { .. }))
    {
        assert_eq!(
            e.audience,
            crate::engine::Audience::Only(crate::engine::SeatSet::only(a))
        );
    }
    invariants(&st);
}

#[test]
fn a_claim_order_captures_or_keeps_the_ship_instead_of_asking() {
    for (order, ship) in [
        ("claim: capture", Ship::Frigate),
        ("claim: done", Ship::Sloop),
    ] {
        let mut st = started(2, 33);
        let seat = turn_seat(&st);
        st.stack.push(Frame::Claim {
            seat,
            ship: Ship::Frigate,
            hits: [3, 3, 3, 3, 3],
        });
        file(&mut st, seat, &format!("orders {order}"));
        assert_eq!(st.players[seat.index()].ship, Some(ship), "{order}");
        assert!(!matches!(st.stack.last(), Some(Frame::Claim { .. })));
        invariants(&st);
    }
}

#[test]
fn ship_orders_redraw_when_allowed_then_choose_the_ship_for_a_dead_captain() {
    let mut st = started(2, 21);
    let seat = turn_seat(&st);
    let other = Seat(1 - seat.0);
    let pirate = u8::try_from(d().npcs.iter().position(|n| n.pirate).unwrap()).unwrap();
    st.npcs = (0..17)
        .map(|z| super::state::Npc {
            card: pirate,
            zone: z,
            hits: [0; 5],
        })
        .collect();
    file(&mut st, other, "orders ship: redraw; ship: ship flute");
    let before = st.players[other.index()].captain;
    super::rules::die(
        d(),
        &mut st,
        other,
        &mut GameRng::from_u64(1),
        &mut Vec::new(),
    );
    let frame = st.stack.remove(0);
    st.stack.push(frame);
    // The next accepted action lets the orders answer: redraw, then a Flute.
    let ev = file(&mut st, other, "orders ship: redraw; ship: ship flute");
    let p = &st.players[other.index()];
    assert_ne!(p.captain, before);
    assert_eq!(p.ship, Some(Ship::Flute));
    let applied: Vec<String> = ev
        .iter()
        .filter_map(|e| match &e.event {
            super::Event::OrderApplied { action, .. } => Some(action.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        applied,
        vec!["redraw".to_string(), "ship flute".to_string()]
    );
    invariants(&st);
}

// ---------------------------------------------------------------------------------------------
// MM-STASH-2: paying from the stash in the home port
// ---------------------------------------------------------------------------------------------

#[test]
fn in_the_home_port_the_stash_pays_what_the_gold_on_board_does_not_and_only_its_owner_is_told() {
    let mut st = started(2, 16);
    let seat = turn_seat(&st);
    let other = Seat(1 - seat.0);
    let each = super::rules::repair_price(d(), &st.players[seat.index()]);
    {
        let p = &mut st.players[seat.index()];
        p.gold = each - 1;
        p.stash = 20;
        p.hits[0] -= 1;
    }
    act(&mut st, seat, &Action::Port, 2).unwrap();
    // Listed although the gold on board does not cover it.
    let legal = Merchants::legal_actions(&st, seat);
    let repair = Action::Repair {
        locs: vec![Loc::Hull],
    };
    assert!(legal.contains(&repair));
    let ev = act(&mut st, seat, &repair, 3).unwrap();
    // Board first, the stash the rest.
    let p = &st.players[seat.index()];
    assert_eq!(p.gold, 0);
    assert_eq!(p.stash, 19);
    let told = ev
        .iter()
        .find(|e| matches!(e.event, super::Event::PaidFromStash { .. }))
        .unwrap();
    assert_eq!(
        told.audience,
        crate::engine::Audience::Only(crate::engine::SeatSet::only(seat))
    );
    // Nothing the other seat sees names the stash's balance.
    for e in ev.iter().filter(|e| e.audience.admits(Viewer::Seat(other))) {
        let json = serde_json::to_value(&e.event).unwrap();
        assert!(json.get("stash").is_none(), "{json}");
    }
    assert_eq!(
        Merchants::view(&st, Viewer::Seat(other)).players[seat.index()].stash,
        None
    );
    // More than gold and stash together: not listed, and refused with nothing changed.
    st.players[seat.index()].stash = 0;
    st.players[seat.index()].hits[1] -= 1;
    assert!(
        !Merchants::legal_actions(&st, seat)
            .iter()
            .any(|a| matches!(a, Action::Repair { .. }))
    );
    refused(&st, seat, "repair masts", "MM-YARD-9");
    invariants(&st);
}

#[test]
fn away_from_the_home_port_the_stash_pays_nothing() {
    let mut st = started(2, 16);
    let seat = turn_seat(&st);
    let home = d()
        .zone_index(&d().captains[usize::from(st.players[seat.index()].captain)].home)
        .unwrap();
    let away = (0..17u8)
        .find(|z| *z != home && d().zones[usize::from(*z)].port)
        .unwrap();
    {
        let p = &mut st.players[seat.index()];
        p.zone = away;
        p.gold = 0;
        p.stash = 30;
        p.hits[0] -= 1;
    }
    act(&mut st, seat, &Action::Port, 2).unwrap();
    assert!(
        !Merchants::legal_actions(&st, seat)
            .iter()
            .any(|a| matches!(a, Action::Repair { .. } | Action::Weapon { .. }))
    );
    refused(&st, seat, "repair hull", "MM-YARD-9");
    refused(&st, seat, "weapon 1", "MM-YARD-12");
}

// ---------------------------------------------------------------------------------------------
// III.3.4: conditional turn scripts
// ---------------------------------------------------------------------------------------------

#[test]
fn a_turn_script_round_trips_through_notation_and_json_and_bad_ones_are_refused() {
    let text = "script move CSEA; if gold>=10 and in_port: buy; if in_combat: shoot; \
                if not_in_combat and hull>1 and lacks GLY-08: scout merchant; end";
    let a: Action = text.parse().unwrap();
    let Action::Script { steps } = &a else {
        panic!("{a:?}")
    };
    assert_eq!(steps.len(), 5);
    assert_eq!(a.to_string().parse::<Action>().unwrap(), a);
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["type"], "script");
    assert_eq!(json["steps"][1]["if"][0]["kind"], "gold");
    assert_eq!(json["steps"][1]["do"]["type"], "buy");
    assert_eq!(serde_json::from_value::<Action>(json).unwrap(), a);
    assert_eq!(
        "script clear".parse::<Action>().unwrap(),
        Action::Script { steps: Vec::new() }
    );
    for bad in ["script if gold: buy", "script dance", "script if tall: end"] {
        assert!(bad.parse::<Action>().is_err(), "{bad}");
    }
    let st = started(2, 3);
    let other = Seat(1 - turn_seat(&st).0);
    refused(&st, other, "script port; orders clear", "III.3.4");
    refused(&st, other, "script if holds GLY-99: end", "MM-GCARD-3");
    refused(
        &st,
        other,
        &format!("script {}", ["end"; 33].join("; ")),
        "III.3.4",
    );
}

#[test]
fn a_turn_script_plays_its_steps_skips_false_conditions_and_asks_where_it_does_not_fit() {
    let mut st = started(2, 3);
    let seat = turn_seat(&st);
    let other = Seat(1 - seat.0);
    assert!(st.players[seat.index()].in_port);
    let ev = file(
        &mut st,
        seat,
        "script port; if gold>=1000: buy; done; move CSEA; end",
    );
    // `port` and `done` were taken, `buy` skipped, and `move` (in port) stopped the script.
    let steps: Vec<String> = ev
        .iter()
        .filter_map(|e| match &e.event {
            super::Event::ScriptStep { action, .. } => Some(action.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(steps, vec!["port".to_string(), "done".to_string()]);
    assert!(ev.iter().any(|e| matches!(&e.event,
        super::Event::ScriptEnded { stopped_at: Some(a), .. } if a == "move CSEA")));
    for e in &ev {
        if matches!(
            e.event,
            super::Event::ScriptStep { .. }
                | super::Event::ScriptEnded { .. }
                | super::Event::ScriptFiled { .. }
        ) {
            assert!(!e.audience.admits(Viewer::Seat(other)));
        }
    }
    // The seat is asked: its turn waits, the Port action used, the script gone.
    assert!(matches!(
        st.stack.last(),
        Some(Frame::Turn {
            port_used: true,
            ..
        })
    ));
    assert!(st.scripts[seat.index()].is_empty());
    invariants(&st);
}

#[test]
fn a_script_filed_out_of_turn_waits_for_its_seats_turn_and_is_hidden_from_the_others() {
    let mut st = started(2, 3);
    let active = turn_seat(&st);
    let other = Seat(1 - active.0);
    file(&mut st, other, "script port; done");
    // Nothing happens in the active seat's turn; the others do not see the script.
    assert_eq!(st.scripts[other.index()].len(), 2);
    assert!(
        Merchants::view(&st, Viewer::Seat(active)).players[other.index()]
            .script
            .is_none()
    );
    assert_eq!(
        Merchants::view(&st, Viewer::Seat(other)).players[other.index()].script,
        Some(vec!["port".to_string(), "done".to_string()])
    );
    let ev = act(&mut st, active, &Action::End, 4).unwrap();
    if st.players[other.index()].in_port && turn_seat(&st) == other {
        assert!(ev.iter().any(|e| matches!(&e.event,
            super::Event::ScriptStep { seat, action } if *seat == other && action == "done")));
        assert!(st.scripts[other.index()].is_empty());
    }
    // A script ends with its turn.
    let seat = turn_seat(&st);
    file(&mut st, seat, "script end; port");
    assert!(st.scripts[seat.index()].is_empty());
    invariants(&st);
}

#[test]
fn random_games_with_full_glory_hands_ask_for_discards_and_keep_every_invariant() {
    // Random play rarely fills a hand; with four cards each from the start, the first glory
    // point of a captain asks it for a discard (MM-GCARD-2), in its turn or another's.
    for seats in 1..=4 {
        for seed in 0..10 {
            let mut st = new_game(seats, 5000 + seed);
            for s in 0..seats {
                fill_hand(&mut st, Seat(s), 4);
            }
            random_game_from(st, 5000 + seed, seed == 0);
        }
    }
    let seen = SEEN.with(|s| s.borrow().clone());
    assert!(seen.iter().any(|k| k == "glory_discarded"), "{seen:?}");
}

/// MM-ACT-4 / MM-NPC-7: every NPC in the zone with the active captain on its hunt list tries
/// once at the start of the turn, the next after the fight with the one before: the first NPC
/// found the captain (and the ships parted at once) — the second still tries.
#[test]
fn mm_npc_7_every_hunting_npc_in_the_zone_tries_once_not_only_the_first_to_find() {
    let naval = |n: Nation| {
        u8::try_from(d().npcs.iter().position(|r| r.nation == Some(n)).unwrap()).unwrap()
    };
    let (first, second) = (naval(Nation::ES), naval(Nation::FR));
    for seed in 1..300u64 {
        let mut st = started(2, 48);
        let a = turn_seat(&st);
        let z = zone("CSEA");
        let p = &mut st.players[a.index()];
        p.zone = z;
        p.in_port = false;
        p.bounty = [0; 4];
        // Higher on the Spanish list: the Spanish NPC tries first (MM-NPC-6).
        p.bounty[Nation::ES.index()] = 2;
        p.bounty[Nation::FR.index()] = 1;
        // Neither the captain nor the Spanish ship can Shoot, Board or Flee: they part at once.
        p.hits[1] = 0;
        p.hits[2] = 0;
        st.npcs = vec![
            super::state::Npc {
                card: first,
                zone: z,
                hits: [0, 9, 9, 0, 0],
            },
            super::state::Npc {
                card: second,
                zone: z,
                hits: [0; 5],
            },
        ];
        st.stack.clear();
        st.first = a;
        st.turns_this_round = 0;
        let mut ev = Vec::new();
        super::rules::advance(d(), &mut st, &mut GameRng::from_u64(seed), &mut ev);
        let scouts: Vec<u8> = ev
            .iter()
            .filter_map(|e| match &e.event {
                super::Event::Rolled {
                    purpose, successes, ..
                } if purpose.starts_with("NPC Scouting") => Some(*successes),
                _ => None,
            })
            .collect();
        if scouts.first().is_none_or(|s| *s == 0) {
            continue;
        }
        assert!(ev.iter().any(|e| matches!(
            &e.event,
            super::Event::CombatEnds { how } if how == "disengaged"
        )));
        assert_eq!(scouts.len(), 2, "the second hunter tries too");
        return;
    }
    panic!("the first hunter never found the captain");
}

/// MM-BUY-6 "to make room you may discard old cargo face-up": a full hold in port swaps old
/// cargo for the offer; the discarded card is public, the rest of the hold stays hidden.
#[test]
fn mm_buy_6_a_full_hold_discards_old_cargo_face_up_to_make_room_for_the_offer() {
    let mut st = started(2, 15);
    let seat = turn_seat(&st);
    let other = Seat(1 - seat.0);
    act(&mut st, seat, &Action::Port, 2).unwrap();
    // MM-BUY-8: six cards fill a Sloop's hold in port.
    let held: Vec<u8> = st.cargo_deck.drain(..6).collect();
    st.players[seat.index()].cargo = held.clone();
    st.players[seat.index()].gold = 40;
    act(&mut st, seat, &Action::Buy, 3).unwrap();
    let Some(Frame::Offer { cards, .. }) = st.stack.last().cloned() else {
        panic!("no offer")
    };
    let legal = Merchants::legal_actions(&st, seat);
    assert!(
        legal
            .iter()
            .filter(|a| matches!(a, Action::Take { .. }))
            .all(|a| *a == Action::Take { cards: vec![] }),
        "the full hold takes nothing"
    );
    for c in &held {
        assert!(legal.contains(&Action::DiscardCargo { card: *c }), "{c}");
    }
    // Only while the hold, not the gold, limits the purchase; only cards held.
    let mut broke = st.clone();
    broke.players[seat.index()].gold = 0;
    assert!(
        !Merchants::legal_actions(&broke, seat)
            .iter()
            .any(|a| matches!(a, Action::DiscardCargo { .. }))
    );
    refused(
        &broke,
        seat,
        &format!("discard cargo {}", held[0]),
        "MM-BUY-6",
    );
    refused(
        &st,
        seat,
        &format!("discard cargo {}", cards[0]),
        "MM-BUY-6",
    );
    // The timeout still buys nothing and discards nothing (III.2).
    assert_eq!(
        Merchants::timeout(&st, seat),
        Timeout::Play(Action::Take { cards: vec![] })
    );
    let ev = act(&mut st, seat, &Action::DiscardCargo { card: held[0] }, 4).unwrap();
    assert!(ev.iter().any(|e| matches!(
        &e.event,
        super::Event::CargoDiscarded { seat: s, cards } if *s == seat && *cards == vec![held[0]]
    ) && e.audience.admits(Viewer::Seat(other))));
    assert_eq!(st.cargo_discard.last(), Some(&held[0]));
    let theirs = Merchants::view(&st, Viewer::Seat(other));
    assert!(theirs.players[seat.index()].cargo.is_none());
    assert_eq!(theirs.players[seat.index()].cargo_count, 5);
    assert!(
        matches!(st.stack.last(), Some(Frame::Offer { .. })),
        "still buying"
    );
    act(
        &mut st,
        seat,
        &Action::Take {
            cards: vec![cards[0]],
        },
        5,
    )
    .unwrap();
    let p = &st.players[seat.index()];
    assert_eq!(p.cargo.len(), 6);
    assert!(p.cargo.contains(&cards[0]) && !p.cargo.contains(&held[0]));
    invariants(&st);
}

/// MM-BUY-6 where else cargo comes into a full hold: a successful raid's cards (MM-RAID-6: at
/// sea the excess is discarded at once, so old cargo may go instead) and a defeated captain's
/// cargo (MM-PLUN-1).
#[test]
fn mm_raid_6_and_mm_plun_1_a_full_hold_discards_old_cargo_to_keep_raid_cargo_or_plunder() {
    // A raid's cards to keep, at sea with a full Sloop hold (Cargo 2).
    let (mut st, a, b) = face_off(5);
    let held: Vec<u8> = st.cargo_deck.drain(..2).collect();
    let raid: Vec<u8> = st.cargo_deck.drain(..3).collect();
    st.players[a.index()].cargo = held.clone();
    st.stack.push(Frame::Keep {
        seat: a,
        cards: raid.clone(),
        secret: false,
    });
    let legal = Merchants::legal_actions(&st, a);
    assert!(legal.contains(&Action::DiscardCargo { card: held[1] }));
    assert_eq!(
        Merchants::timeout(&st, a),
        Timeout::Play(Action::Keep { cards: vec![] }),
        "the default keeps what fits and discards nothing of the hold"
    );
    act(&mut st, a, &Action::DiscardCargo { card: held[1] }, 2).unwrap();
    act(
        &mut st,
        a,
        &Action::Keep {
            cards: vec![raid[2]],
        },
        3,
    )
    .unwrap();
    assert_eq!(st.players[a.index()].cargo, vec![held[0], raid[2]]);
    assert!(st.cargo_discard.contains(&held[1]));
    invariants(&st);

    // A defeated captain's cargo, with the winner's hold full.
    let (mut st, a, b2) = plundering();
    assert_eq!(b2, b);
    let held: Vec<u8> = st.cargo_deck.drain(..2).collect();
    st.players[a.index()].cargo = held.clone();
    let loot = st.players[b.index()].cargo[0];
    refused(&st, a, &format!("plunder cargo {loot}"), "MM-PLUN-1");
    assert!(Merchants::legal_actions(&st, a).contains(&Action::DiscardCargo { card: held[0] }));
    act(&mut st, a, &Action::DiscardCargo { card: held[0] }, 2).unwrap();
    act(
        &mut st,
        a,
        &format!("plunder cargo {loot}").parse().unwrap(),
        3,
    )
    .unwrap();
    assert_eq!(st.players[a.index()].cargo, vec![held[1], loot]);
    // Room again for the loser's last card; then nothing needs room and no discard is listed.
    let last = st.players[b.index()].cargo[0];
    act(&mut st, a, &Action::DiscardCargo { card: held[1] }, 4).unwrap();
    act(
        &mut st,
        a,
        &format!("plunder cargo {last}").parse().unwrap(),
        5,
    )
    .unwrap();
    assert!(
        !Merchants::legal_actions(&st, a)
            .iter()
            .any(|x| matches!(x, Action::DiscardCargo { .. }))
    );
    refused(&st, a, &format!("discard cargo {loot}"), "MM-PLUN-1");
    invariants(&st);
}

/// MM-YARD-2 names no exception for the ship type you sail: a damaged Sloop is sold (its value
/// less its damage, MM-YARD-3) for a new Sloop at full value (MM-YARD-6), crew moving over.
#[test]
fn mm_yard_2_a_damaged_ship_may_be_sold_for_a_new_one_of_the_same_type() {
    let mut st = started(2, 18);
    let seat = turn_seat(&st);
    act(&mut st, seat, &Action::Port, 2).unwrap();
    let p = &mut st.players[seat.index()];
    assert_eq!(p.ship, Some(Ship::Sloop));
    p.gold = 10;
    p.hits = [1, 1, 1, 1, 2];
    assert!(Merchants::legal_actions(&st, seat).contains(&Action::Yard { ship: Ship::Sloop }));
    act(&mut st, seat, &"yard sloop".parse().unwrap(), 3).unwrap();
    let p = &st.players[seat.index()];
    assert_eq!(p.ship, Some(Ship::Sloop));
    assert_eq!(
        p.gold,
        10 + (5 - 2) - 10,
        "sold for 5 less 2 damage, bought for 10"
    );
    assert_eq!(
        p.hits,
        [2, 2, 1, 1, 2],
        "full value but the crew (MM-YARD-4)"
    );
    invariants(&st);
}

/// III.2's timeout defaults in a naval declaration: the defender Shoots; the aggressor repeats
/// its last declaration of the combat (if still allowed), else Shoots.
#[test]
fn iii_2_a_late_aggressor_repeats_its_last_declaration_and_a_late_defender_shoots() {
    use super::combat::Decl;
    let declare = |decl| Timeout::Play(Action::Declare { decl, weapon: None });
    let (mut st, a, b) = found(|st, _, _| {
        // No cannons on either side: rounds pass without damage.
        for p in &mut st.players {
            p.hits[2] = 0;
        }
    });
    let pending = |st: &State, seat: Seat| {
        matches!(st.stack.last(), Some(Frame::Combat { .. }))
            && Merchants::pending(st).contains(seat)
    };
    assert!(pending(&st, a));
    assert_eq!(
        Merchants::timeout(&st, a),
        declare(Decl::Shoot),
        "nothing to repeat"
    );
    act(&mut st, a, &"shoot".parse().unwrap(), 2).unwrap();
    act(&mut st, b, &"shoot".parse().unwrap(), 3).unwrap();
    assert!(pending(&st, a), "round 2");
    // A combat stored before the aggressor's last declaration was kept still loads.
    let mut json = serde_json::to_value(&st).unwrap();
    for f in json["stack"].as_array_mut().unwrap() {
        f.as_object_mut().unwrap().remove("last");
    }
    let old: State = serde_json::from_value(json).unwrap();
    assert!(matches!(
        old.stack.last(),
        Some(Frame::Combat { last: None, .. })
    ));
    assert_eq!(Merchants::timeout(&old, a), declare(Decl::Shoot));
    // Round 2: the aggressor flees; until the flight succeeds the next default is Flee.
    for n in 0..200u64 {
        let mut st = st.clone();
        act(&mut st, a, &"flee".parse().unwrap(), 4).unwrap();
        assert_eq!(Merchants::timeout(&st, b), declare(Decl::Shoot));
        act(&mut st, b, &"shoot".parse().unwrap(), n).unwrap();
        if !pending(&st, a) {
            continue;
        }
        assert_eq!(Merchants::timeout(&st, a), declare(Decl::Flee));
        // No longer allowed (Masts 0: only Shoot, MM-NAV-5): Shoot.
        let mut dismasted = st.clone();
        dismasted.players[a.index()].hits[1] = 0;
        assert_eq!(Merchants::timeout(&dismasted, a), declare(Decl::Shoot));
        // The default is a declaration the engine accepts.
        let Timeout::Play(x) = Merchants::timeout(&st, a) else {
            panic!()
        };
        act(&mut st, a, &x, 5).unwrap();
        assert_eq!(Merchants::timeout(&st, b), declare(Decl::Shoot));
        return;
    }
    panic!("no flight failed");
}

/// EVT-28 "Price on their heads" is no engagement: MM-BNTY-3's war exception (no bounty from a
/// nation at war with your captain's, for engaging its non-pirates) does not apply to it.
#[test]
fn evt_28_a_price_on_their_heads_is_set_even_by_a_nation_at_war_with_the_captains() {
    let mut st = started(2, 48);
    let seat = turn_seat(&st);
    st.npcs.clear();
    for p in &mut st.players {
        p.in_port = true;
    }
    let own = super::rules::captain_nation(d(), &st.players[seat.index()]).unwrap();
    let enemy = Nation::ALL.into_iter().find(|n| *n != own).unwrap();
    let third = Nation::ALL
        .into_iter()
        .find(|n| *n != own && *n != enemy)
        .unwrap();
    let z = (0..17u8)
        .find(|z| d().zones[usize::from(*z)].nation == Some(enemy))
        .unwrap();
    let p = &mut st.players[seat.index()];
    p.bounty = [0; 4];
    p.bounty[third.index()] = 1;
    p.zone = z;
    p.in_port = false;
    st.war = Some((own, enemy));
    let card = u8::try_from(d().events.iter().position(|e| e.id == "EVT-28").unwrap()).unwrap();
    st.event_deck.retain(|c| *c != card);
    st.event_deck.push(card);
    st.stack.clear();
    st.turns_this_round = st.seats;
    super::rules::advance(d(), &mut st, &mut GameRng::from_u64(2), &mut Vec::new());
    assert!(st.event_discard.contains(&card));
    assert_eq!(st.war, Some((own, enemy)));
    assert_eq!(st.players[seat.index()].bounty[enemy.index()], 1);
    // Engaging that nation's non-pirates still gives no bounty while the war lasts.
    let before = st.players[seat.index()].bounty;
    super::rules::engage_bounty(d(), &mut st, seat, enemy, &mut Vec::new());
    assert_eq!(st.players[seat.index()].bounty, before, "MM-BNTY-3");
}

/// D-ZONE BAR: Sugar always sells as in demand at Barbados, beside the token's good, and leaves
/// the token alone; MM-SELL-3's glory needs three cards of one in-demand good, so Sugar and the
/// token's good are not counted together.
#[test]
fn mm_sell_3_at_barbados_sugar_and_the_demand_token_good_count_apart_for_glory() {
    let mut st = started(2, 14);
    st.round_effects.clear();
    let seat = turn_seat(&st);
    let bar = zone("BAR");
    let sugar = d().good_index("G1").unwrap();
    // The token here is another good than Sugar.
    if st.demand[usize::from(bar)] == Some(sugar) {
        let i = st.demand_pool.iter().position(|g| *g != sugar).unwrap();
        let g = std::mem::replace(&mut st.demand_pool[i], sugar);
        st.demand[usize::from(bar)] = Some(g);
    }
    let token = st.demand[usize::from(bar)].unwrap();
    let p = &mut st.players[seat.index()];
    p.zone = bar;
    p.in_port = true;
    p.bounty = [0; 4];
    let bonus = u32::from(
        super::rules::has_power(d(), &st.players[seat.index()], "sell_demand_bonus").is_some(),
    );
    let of = |g: u8, n: usize| -> Vec<u8> {
        (0..64)
            .filter(|c| d().cargo_card(*c).good == g)
            .take(n)
            .collect()
    };
    act(&mut st, seat, &Action::Port, 2).unwrap();
    let sell = |st: &mut State, cards: &[u8]| {
        st.cargo_deck.retain(|c| !cards.contains(c));
        st.cargo_discard.retain(|c| !cards.contains(c));
        st.players[seat.index()].cargo = cards.to_vec();
        st.players[seat.index()].gold = 10;
        let text = format!(
            "sell {}",
            cards
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
        act(st, seat, &text.parse().unwrap(), 3).unwrap();
    };
    // Two of the token's good and one Sugar: all three at the in-demand price, no glory.
    let mut mixed = st.clone();
    let cards: Vec<u8> = of(token, 2).into_iter().chain(of(sugar, 1)).collect();
    sell(&mut mixed, &cards);
    let p = &mixed.players[seat.index()];
    assert_eq!(p.gold, 10 + 3 * (6 + bonus));
    assert_eq!(p.glory, 0, "not three cards of one in-demand good");
    invariants(&mixed);
    // Three Sugar: three of an in-demand good here, and the token stays.
    let mut sweet = st.clone();
    sell(&mut sweet, &of(sugar, 3));
    let p = &sweet.players[seat.index()];
    assert_eq!(p.gold, 10 + 3 * (6 + bonus));
    assert_eq!(p.glory, 1, "MM-SELL-3");
    assert_eq!(sweet.demand[usize::from(bar)], Some(token));
    invariants(&sweet);
}

/// Plays every decision of a combat by its III.2 timeout default (a late or dropped seat, as
/// the server does each time the deadline passes) until the combat is over; the highest round
/// it reached, or `None` if it was still on after `steps` defaults.
fn play_combat_by_timeouts(st: &mut State, steps: u64) -> Option<u8> {
    let mut highest = 0;
    for n in 0..steps {
        let Some((_, _, round)) = super::combat::sides(st) else {
            return Some(highest);
        };
        highest = highest.max(round);
        let seat = Merchants::pending(st).lowest().unwrap();
        let Timeout::Play(a) = Merchants::timeout(st, seat) else {
            panic!("no default for {seat:?}");
        };
        act(st, seat, &a, 100 + n).unwrap();
    }
    None
}

/// Design 14 (a game must never stall) with MM-NAV-5/8 and MM-NPC-8: a dropped captain whose
/// ship has lost its cannons, hunted by an NPC that has lost its own and whose policy neither
/// Boards nor Flees, is defaulted to Shoot round after round; nothing can ever change, so after
/// such an idle round (from round 2, when another declaration was open) the ships part.
#[test]
fn a_dropped_captain_and_a_hunting_npc_without_cannons_part_instead_of_fighting_forever() {
    let spanish = u8::try_from(
        d().npcs
            .iter()
            .position(|r| r.nation == Some(Nation::ES))
            .unwrap(),
    )
    .unwrap();
    for seed in 1..300u64 {
        let mut st = started(3, 48);
        let a = turn_seat(&st);
        let z = zone("CSEA");
        let p = &mut st.players[a.index()];
        p.zone = z;
        p.in_port = false;
        p.bounty = [0; 4];
        p.bounty[Nation::ES.index()] = 2;
        // Masts left (Board and Flee stay open to it), no cannon.
        p.hits[2] = 0;
        for p in &mut st.players {
            st.glory_discard.append(&mut p.glory_hand);
        }
        // The NPC: no cannon and no crew (MM-NPC-8: never Boards; Hull full: never Flees).
        st.npcs = vec![super::state::Npc {
            card: spanish,
            zone: z,
            hits: [0, 0, 9, 9, 0],
        }];
        st.stack.clear();
        st.first = a;
        st.turns_this_round = 0;
        super::rules::advance(d(), &mut st, &mut GameRng::from_u64(seed), &mut Vec::new());
        if super::combat::sides(&st).is_none() {
            continue;
        }
        let highest = play_combat_by_timeouts(&mut st, 200).expect("the combat never ended");
        assert_eq!(
            highest, 2,
            "round 1 is Shoot only; round 2 idle: the ships part"
        );
        assert_eq!(turn_seat(&st), a, "the hunted captain's turn goes on");
        invariants(&st);
        return;
    }
    panic!("the NPC never found the captain");
}

/// The same between two captains without cannons who both let every deadline pass (the
/// aggressor repeats Shoot, the defender Shoots): they part after the first idle round 2.
#[test]
fn two_late_captains_without_cannons_part_after_an_idle_round() {
    let (mut st, a, _) = found(|st, _, _| {
        for p in &mut st.players {
            p.hits[2] = 0;
        }
    });
    let highest = play_combat_by_timeouts(&mut st, 200).expect("the combat never ended");
    assert_eq!(highest, 2);
    assert_eq!(turn_seat(&st), a);
}

/// III.3.3: two captains whose standing orders always Shoot, with masts but no cannon, are
/// answered by the engine without asking anyone: they part after an idle round 2 instead of
/// trading harmless rounds until the orders' loop guard.
#[test]
fn standing_orders_that_always_shoot_without_cannons_part_instead_of_looping() {
    for n in 1..80u64 {
        let (mut st, a, b) = face_off(n);
        for p in &mut st.players {
            p.hits[2] = 0;
        }
        file(&mut st, a, "orders declare: shoot");
        file(&mut st, b, "orders declare: shoot");
        let ev = act(&mut st, a, &format!("scout p{}", b.0).parse().unwrap(), n).unwrap();
        if !ev
            .iter()
            .any(|e| matches!(e.event, super::Event::CombatStarts { .. }))
        {
            continue;
        }
        assert!(disengaged(&ev));
        let declared = ev
            .iter()
            .filter(|e| matches!(e.event, super::Event::Declared { .. }))
            .count();
        assert_eq!(declared, 4, "two rounds of two declarations");
        assert!(super::combat::sides(&st).is_none());
        assert_eq!(turn_seat(&st), a);
        return;
    }
    panic!("no scout succeeded");
}

/// MM-DEATH-2 "dying during another player's turn means simply rejoining on your own next
/// turn" with design 14: the dead captain's seat gets no deadline (it is not pending, nothing
/// lists or times out for it) until the game waits for it, when its own turn would begin; until
/// then it may send its new ship early, accepted out of turn and shown to it in the view.
#[test]
fn mm_death_2_a_captain_dead_in_another_turn_is_not_pending_until_its_own_turn_would_begin() {
    let mut st = started(3, 21);
    let a = turn_seat(&st);
    let b = Seat((a.0 + 1) % 3);
    let c = Seat((a.0 + 2) % 3);
    die_with_a_mod(&mut st, c);
    let sloop = Action::Ship { ship: Ship::Sloop };
    let view = |st: &State, seat: Seat| {
        serde_json::to_value(Merchants::view(st, Viewer::Seat(seat))).unwrap()
    };
    // What c's view offers before it is due, as notations (each offer is a listed action).
    let offered = |st: &State| -> Vec<String> {
        let v = view(st, c);
        let actions = v["rejoin"]["actions"].as_array().unwrap().clone();
        for a in &actions {
            let notation = a["notation"].as_str().unwrap();
            let typed = serde_json::to_value(notation.parse::<Action>().unwrap()).unwrap();
            assert_eq!(a["type"], typed["type"], "{a}");
        }
        actions
            .iter()
            .map(|a| a["notation"].as_str().unwrap().to_owned())
            .collect()
    };
    let early_offer = offered(&st);
    assert!(early_offer.contains(&sloop.to_string()), "{early_offer:?}");
    for st in [&st, &{
        let mut s = st.clone();
        act(&mut s, a, &Action::End, 2).unwrap();
        s
    }] {
        let on_turn = turn_seat(st);
        assert_eq!(
            Merchants::pending(st).iter().collect::<Vec<_>>(),
            vec![on_turn]
        );
        assert!(Merchants::legal_actions(st, c).is_empty());
        assert!(Merchants::allowed_out_of_turn(st, c, &sloop));
        assert!(!Merchants::allowed_out_of_turn(st, c, &Action::End));
        // c is not asked: its view shows the game's decision, and its own early choice apart.
        assert_eq!(decision_kind(st, c), "turn");
        assert_eq!(view(st, c)["rejoin"]["kind"], "ship_choice");
        assert!(view(st, on_turn)["rejoin"].is_null());
    }
    // c's early choice goes through the driver, out of turn.
    let mut early = st.clone();
    let mut ev = Vec::new();
    let mut rng = GameRng::for_action(&Seed([3; 32]), 3);
    crate::engine::driver::submit::<Merchants>(&mut early, c, &sloop, &mut rng, &mut ev).unwrap();
    assert_eq!(early.players[c.index()].ship, Some(Ship::Sloop));
    assert_eq!(turn_seat(&early), a);
    assert_eq!(view(&early, c)["rejoin"]["kind"], "place");
    let Timeout::Play(default_place) = Merchants::timeout(&early, c) else {
        panic!("no default placement");
    };
    assert!(offered(&early).contains(&default_place.to_string()));
    assert_eq!(
        Merchants::pending(&early).iter().collect::<Vec<_>>(),
        vec![a]
    );
    // Left unanswered, c is waited for (and may time out) only when its own turn would begin.
    act(&mut st, a, &Action::End, 2).unwrap();
    act(&mut st, b, &Action::End, 3).unwrap();
    assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![c]);
    assert!(Merchants::legal_actions(&st, c).contains(&sloop));
    // The early offer was what is listed once the game waits for it.
    let listed: Vec<String> = Merchants::legal_actions(&st, c)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(early_offer, listed);
    assert_eq!(Merchants::timeout(&st, c), Timeout::Play(sloop.clone()));
    assert_eq!(decision_kind(&st, c), "ship_choice");
    assert_eq!(decision_kind(&st, a), "ship_choice");
    assert!(view(&st, c)["rejoin"].is_null());
    invariants(&st);
    // Two dead in a's turn (4 seats): the game waits for the one whose turn comes first, and
    // everyone's view shows that seat's ship choice, whatever order the requests lie in.
    let mut st = started(4, 21);
    let a = turn_seat(&st);
    let [b, c, e] = [1, 2, 3].map(|k| Seat((a.0 + k) % 4));
    die_with_a_mod(&mut st, e);
    die_with_a_mod(&mut st, c);
    act(&mut st, a, &Action::End, 2).unwrap();
    act(&mut st, b, &Action::End, 3).unwrap();
    assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![c]);
    for seat in [a, b, c] {
        assert_eq!(decision_kind(&st, seat), "ship_choice");
        assert_eq!(
            view(&st, seat)["decision"]["waiting"],
            serde_json::json!([c])
        );
    }
    assert_eq!(view(&st, e)["rejoin"]["kind"], "ship_choice");
    assert!(Merchants::legal_actions(&st, e).is_empty());
    act(&mut st, c, &sloop, 4).unwrap();
    let Timeout::Play(place) = Merchants::timeout(&st, c) else {
        panic!("no default placement");
    };
    act(&mut st, c, &place, 5).unwrap();
    assert_eq!(turn_seat(&st), c);
    assert_eq!(Merchants::pending(&st).iter().collect::<Vec<_>>(), vec![c]);
    invariants(&st);
}
