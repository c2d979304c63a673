//! Hidden information (MAG-INFO) and the engine contract as the server uses it: views, event
//! audiences, out-of-turn preferences, refusals that change nothing.

use super::*;
use crate::engine::driver::{Refusal, submit};
use crate::engine::{Game, GameRng, Logged, Seat, Viewer};
use crate::games::magnate::{Action, Event, Magnate};

/// Seat 1 holds the Pact and the Sailor and prefers Leaves on its Chance Meeting deed; seat 0
/// prefers Wyrms on its Cave deed. The draw pile starts with the Mill and the Author.
fn table() -> Pos {
    Pos::new()
        .hand(0, &["5ML"])
        .hand(1, &["9MS", "4VL"])
        .deed(0, "b", "7VY", json!({"V": 2}))
        .prefer(0, "b", "Y")
        .deed(1, "d", "7ML", json!({}))
        .prefer(1, "d", "L")
        .built(1, "e", &["3SK"])
        .supply(0, json!({"M": 2}))
        .draw(&["8VL", "2MK"])
        .discard(&["6LK"])
}

fn view_json(state: &State, viewer: Viewer) -> String {
    serde_json::to_string(&Magnate::view(state, viewer)).unwrap()
}

fn quoted(code: &str) -> String {
    format!("\"{code}\"")
}

#[test]
fn a_players_view_never_shows_the_opponents_hand_or_preferences_or_the_draw_pile() {
    let state = table().state();
    let mine = view_json(&state, Viewer::Seat(Seat(0)));
    for hidden in ["9MS", "4VL", "8VL", "2MK", "1M", "9LK"] {
        assert!(
            !mine.contains(&quoted(hidden)),
            "seat 0 sees {hidden}: {mine}"
        );
    }
    let view = Magnate::view(&state, Viewer::Seat(Seat(0)));
    assert_eq!(view.players[1].hand, None);
    assert_eq!(view.players[1].hand_count, 2);
    assert_eq!(view.players[0].hand.as_deref(), Some(&[card("5ML")][..]));
    let d = &view.districts[3];
    assert_eq!(
        d.columns[1][0].prefer, None,
        "the opponent's preference is private"
    );
    assert_eq!(
        view.districts[1].columns[0][0].prefer,
        Some(crate::games::magnate::cards::Suit::Wyrms)
    );
    assert_eq!(view.draw_pile_count, 30 - 7);
    // Seat 1 sees its own hand and preference, not seat 0's.
    let theirs = Magnate::view(&state, Viewer::Seat(Seat(1)));
    assert_eq!(theirs.players[0].hand, None);
    assert_eq!(theirs.districts[1].columns[0][0].prefer, None);
    assert!(theirs.districts[3].columns[1][0].prefer.is_some());
    assert!(!view_json(&state, Viewer::Seat(Seat(1))).contains(&quoted("5ML")));
}

#[test]
fn a_spectator_sees_no_hand_and_no_preference() {
    let state = table().state();
    let view = Magnate::view(&state, Viewer::Spectator);
    assert!(view.players.iter().all(|p| p.hand.is_none()));
    assert!(
        view.districts
            .iter()
            .flat_map(|d| d.columns.iter().flatten())
            .all(|p| p.prefer.is_none())
    );
    let text = view_json(&state, Viewer::Spectator);
    for hidden in ["5ML", "9MS", "4VL", "8VL", "2MK"] {
        assert!(!text.contains(&quoted(hidden)), "a spectator sees {hidden}");
    }
}

#[test]
fn everyone_sees_the_public_table() {
    let mut state = table().state();
    state.last_roll = Some(crate::games::magnate::state::Roll {
        d10: [1, 7],
        d6: [4, 0],
    });
    let view = Magnate::view(&state, Viewer::Spectator);
    let b = &view.districts[1];
    assert_eq!(b.card, card("PVLY"));
    assert!(b.columns[0][0].deed);
    assert_eq!(b.columns[0][0].target, Some(7));
    assert_eq!(b.columns[0][0].tokens_on_deed.total(), 2);
    assert_eq!(view.players[0].supply.total(), 2);
    assert_eq!(view.players[1].crowns.len(), 3);
    assert_eq!(view.discard, vec![card("6LK")]);
    let roll = view.last_roll.unwrap();
    assert_eq!(
        (roll.hi, roll.tax_suit),
        (7, Some(crate::games::magnate::cards::Suit::Leaves))
    );
    assert_eq!(view.standings.district_points, [0, 1]);
}

#[test]
fn a_drawn_card_and_a_preference_are_told_to_their_owner_only() {
    let mut state = table().state();
    let mut events: Vec<Logged<Event>> = Vec::new();
    let mut rng = GameRng::from_u64(8);
    submit::<Magnate>(
        &mut state,
        Seat(1),
        &"P:7ML+M".parse().unwrap(),
        &mut rng,
        &mut events,
    )
    .unwrap();
    submit::<Magnate>(
        &mut state,
        Seat(0),
        &"S:5ML".parse().unwrap(),
        &mut rng,
        &mut events,
    )
    .unwrap();
    submit::<Magnate>(&mut state, Seat(0), &Action::End, &mut rng, &mut events).unwrap();
    let seen = |viewer: Viewer| -> String {
        events
            .iter()
            .filter(|l| l.audience.admits(viewer))
            .map(|l| serde_json::to_string(&l.event).unwrap())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let by0 = seen(Viewer::Seat(Seat(0)));
    let by1 = seen(Viewer::Seat(Seat(1)));
    let public = seen(Viewer::Spectator);
    assert!(by0.contains(&quoted("8VL")), "seat 0 sees the card it drew");
    assert!(!by1.contains(&quoted("8VL")) && !public.contains(&quoted("8VL")));
    assert!(by1.contains("drew_face_down"));
    assert!(
        by1.contains("preferred") && !by0.contains("preferred") && !public.contains("preferred")
    );
    assert!(public.contains("\"sold\""));
    // The roll that begins seat 1's turn is published to everyone.
    assert!(public.contains("\"rolled\"") && by0.contains("\"rolled\""));
}

#[test]
fn a_preference_is_accepted_out_of_turn_but_never_listed() {
    let mut state = table().state();
    assert_eq!(
        Magnate::pending(&state),
        crate::engine::SeatSet::only(Seat(0))
    );
    assert!(Magnate::legal_actions(&state, Seat(1)).is_empty());
    assert!(
        !Magnate::legal_actions(&state, Seat(0))
            .iter()
            .any(|a| a.kind() == "prefer"),
        "not listed even for the active seat's own deed"
    );
    let mut events = Vec::new();
    let mut rng = GameRng::from_u64(1);
    submit::<Magnate>(
        &mut state,
        Seat(1),
        &"P:7ML+M".parse().unwrap(),
        &mut rng,
        &mut events,
    )
    .unwrap();
    assert_eq!(
        state.players[Seat(1)].deed(card("7ML")).unwrap().prefer,
        Some(crate::games::magnate::cards::Suit::Moons)
    );
    assert_eq!(state.turn.seat, Seat(0), "the turn does not change");
    let e = submit::<Magnate>(
        &mut state,
        Seat(1),
        &"S:9MS".parse().unwrap(),
        &mut rng,
        &mut events,
    )
    .unwrap_err();
    assert_eq!(e, Refusal::NotYourTurn(Seat(1)));
}

#[test]
fn a_refused_action_changes_nothing_and_tells_nothing() {
    let state = table().played().state();
    let attempts = [
        (0, "S:5ML"),
        (0, "B:9MS@d+M5+S4"),
        (0, "A:7VY+M"),
        (0, "A:7VY+V6"),
        (0, "T:M2+V"),
        (0, "T:M3+S"),
        (0, "P:7VY+M"),
        (0, "P:7ML+M"),
        (0, "R:3,4"),
        (1, "S:9MS"),
        (1, "P:7VY+V"),
    ];
    for (seat, text) in attempts {
        let mut copy = state.clone();
        let mut events = Vec::new();
        let action: Action = text.parse().unwrap();
        let e = Magnate::apply(
            &mut copy,
            Seat(seat),
            &action,
            &mut GameRng::from_u64(2),
            &mut events,
        )
        .unwrap_err();
        assert!(e.rule.starts_with("MAG-"), "{text}: {e}");
        assert_sentence(&e.detail);
        assert_eq!(copy, state, "{text} changed the state");
        assert!(events.is_empty(), "{text} logged {events:?}");
    }
}

#[test]
fn a_finished_game_has_no_pending_seat_and_refuses_everything() {
    let mut state = Pos::new().turn(0, "over").rest(Rest::Discard).state();
    assert!(Magnate::pending(&state).is_empty());
    assert!(Magnate::outcome(&state).is_some());
    let e = submit::<Magnate>(
        &mut state,
        Seat(0),
        &Action::End,
        &mut GameRng::from_u64(1),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert_eq!(e, Refusal::GameOver);
    let e = Magnate::apply(
        &mut state,
        Seat(1),
        &"P:7ML+M".parse().unwrap(),
        &mut GameRng::from_u64(1),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert_eq!(e.rule, "MAG-END-4");
}

#[test]
fn a_resignation_ends_the_game_for_the_other_seat() {
    let mut state = table().state();
    Magnate::resign(&mut state, Seat(0)).unwrap();
    let o = Magnate::outcome(&state).unwrap();
    assert_eq!(o.winners, vec![Seat(1)]);
    assert_eq!(o.resigned, Some(Seat(0)));
    assert!(Magnate::pending(&state).is_empty());
    assert_eq!(
        Magnate::resign(&mut state, Seat(1)).unwrap_err().rule,
        "MAG-END-4"
    );
}

#[test]
fn a_seat_that_lets_its_deadline_pass_loses_on_time_and_the_state_reads_back() {
    let mut state = table().state();
    assert_eq!(
        Magnate::timeout(&state, Seat(0)),
        crate::engine::Timeout::Loses
    );
    Magnate::lose_on_time(&mut state, Seat(0)).unwrap();
    let o = Magnate::outcome(&state).unwrap();
    assert_eq!(o.winners, vec![Seat(1)]);
    assert_eq!(o.timed_out, Some(Seat(0)));
    assert_eq!(o.resigned, None);
    let json = serde_json::to_value(&o).unwrap();
    assert_eq!(json["reason"], "timeout");
    let stored = serde_json::to_value(&state).unwrap();
    assert_eq!(serde_json::from_value::<State>(stored).unwrap(), state);
}
