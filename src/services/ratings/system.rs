//! The two rating systems of design.md section 16, as pure functions over one game's players and
//! places: Glicko-2 for two-player kinds, Weng–Lin (Bradley–Terry, full pairing) for kinds of
//! more seats. The formulas are the kept crate `skillratings`; this module only chooses the
//! constants, maps places to outcomes and says how a rating is shown.
//!
//! Must not import diesel or actix: the live update and the rebuild both call [`rate`], so they
//! compute the same numbers bit for bit.

use crate::engine::registry::GameKind;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};

/// Glicko-2 deviation above which a rating is provisional.
pub const GLICKO2_PROVISIONAL_DEVIATION: f64 = 110.0;
/// Weng–Lin σ above which a rating is provisional.
pub const WENG_LIN_PROVISIONAL_SIGMA: f64 = 2.5;
/// Weng–Lin is shown on a 1500-based scale: 1500 + `SCALE` × (μ − 3σ), deviation `SCALE` × σ.
const WENG_LIN_SCALE: f64 = 40.0;

/// Which system rates a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    Glicko2,
    WengLin,
}

impl System {
    /// By the kind's seat range, not the seat count of one game: a kind has one rating per
    /// account, so it needs one scale. Only kinds that are always two-player use Glicko-2;
    /// Lancaster (2–5 seats) is Weng–Lin even in a two-player game.
    pub fn of(kind: GameKind) -> System {
        if kind.info().max_seats <= 2 {
            System::Glicko2
        } else {
            System::WengLin
        }
    }
}

/// A rating in its own system's numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Skill {
    Glicko2(Glicko2Rating),
    WengLin(WengLinRating),
}

/// A rating as it is stored and shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shown {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: Option<f64>,
    pub mu: Option<f64>,
    pub sigma: Option<f64>,
}

impl Shown {
    /// Provisional while the deviation is wide (σ for Weng–Lin, whose rows carry it).
    pub fn provisional(&self) -> bool {
        match self.sigma {
            Some(sigma) => sigma > WENG_LIN_PROVISIONAL_SIGMA,
            None => self.deviation > GLICKO2_PROVISIONAL_DEVIATION,
        }
    }
}

fn glicko2_config() -> Glicko2Config {
    Glicko2Config {
        tau: 0.5,
        convergence_tolerance: 0.000_001,
    }
}

fn weng_lin_config() -> WengLinConfig {
    WengLinConfig {
        beta: 25.0 / 6.0,
        // κ of Weng and Lin: the floor of the factor that shrinks σ.
        uncertainty_tolerance: 0.0001,
    }
}

/// One decimal, as the API shows it.
pub fn one_decimal(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Skill {
    /// The rating of an account that has not played a rated game of the kind.
    pub fn initial(system: System) -> Skill {
        match system {
            System::Glicko2 => Skill::Glicko2(Glicko2Rating {
                rating: 1500.0,
                deviation: 350.0,
                volatility: 0.06,
            }),
            System::WengLin => Skill::WengLin(WengLinRating {
                rating: 25.0,
                uncertainty: 25.0 / 3.0,
            }),
        }
    }

    /// Back from stored numbers (what a missing number defaults to never happens for rows this
    /// module wrote; it keeps a hand-edited row readable).
    pub fn stored(system: System, shown: &Shown) -> Skill {
        match system {
            System::Glicko2 => Skill::Glicko2(Glicko2Rating {
                rating: shown.rating,
                deviation: shown.deviation,
                volatility: shown.volatility.unwrap_or(0.06),
            }),
            System::WengLin => Skill::WengLin(WengLinRating {
                rating: shown.mu.unwrap_or(25.0),
                uncertainty: shown.sigma.unwrap_or(25.0 / 3.0),
            }),
        }
    }

    pub fn shown(&self) -> Shown {
        match self {
            Skill::Glicko2(g) => Shown {
                rating: g.rating,
                deviation: g.deviation,
                volatility: Some(g.volatility),
                mu: None,
                sigma: None,
            },
            Skill::WengLin(w) => Shown {
                rating: one_decimal(1500.0 + WENG_LIN_SCALE * (w.rating - 3.0 * w.uncertainty)),
                deviation: WENG_LIN_SCALE * w.uncertainty,
                volatility: None,
                mu: Some(w.rating),
                sigma: Some(w.uncertainty),
            },
        }
    }
}

/// The players' ratings after one game, in the order given; `place` is 1 for a winner and tied
/// players share a place. `None` when the system cannot rate this table (Glicko-2 with other
/// than two players, or fewer than two players).
pub fn rate(system: System, players: &[(Skill, u8)]) -> Option<Vec<Skill>> {
    if players.len() < 2 {
        return None;
    }
    match system {
        System::Glicko2 => {
            let [(Skill::Glicko2(a), pa), (Skill::Glicko2(b), pb)] = players else {
                return None;
            };
            let outcome = match pa.cmp(pb) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
            };
            // Each game its own rating period (as Lichess does): the crate's two-player update
            // is one period with one game for each side.
            let (a, b) = glicko2(a, b, &outcome, &glicko2_config());
            Some(vec![Skill::Glicko2(a), Skill::Glicko2(b)])
        }
        System::WengLin => {
            let mut teams = Vec::with_capacity(players.len());
            for (skill, place) in players {
                let Skill::WengLin(w) = skill else {
                    return None;
                };
                teams.push(([*w], MultiTeamOutcome::new(usize::from(*place))));
            }
            // Every player a team of one: the full-pairing update over all pairs, a shared
            // place counting as a draw between the two.
            let refs: Vec<(&[WengLinRating], MultiTeamOutcome)> =
                teams.iter().map(|(t, o)| (&t[..], *o)).collect();
            let rated = weng_lin_multi_team(&refs, &weng_lin_config());
            rated
                .into_iter()
                .map(|team| team.first().copied().map(Skill::WengLin))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tolerance: f64) -> bool {
        (got - want).abs() <= tolerance
    }

    fn glicko(rating: f64, deviation: f64, volatility: f64) -> Skill {
        Skill::Glicko2(Glicko2Rating {
            rating,
            deviation,
            volatility,
        })
    }

    #[test]
    fn a_first_two_player_win_from_1500_gives_1662_3_and_the_loss_1337_7() {
        let start = Skill::initial(System::Glicko2);
        let after = rate(System::Glicko2, &[(start, 1), (start, 2)]).unwrap();
        let (winner, loser) = (after[0].shown(), after[1].shown());
        // The crate's own example (glicko2.rs), to one more decimal.
        assert_eq!(one_decimal(winner.rating), 1662.3);
        assert_eq!(one_decimal(winner.deviation), 290.3);
        assert_eq!(one_decimal(loser.rating), 1337.7);
        assert_eq!(one_decimal(loser.deviation), 290.3);
        assert!(close(winner.volatility.unwrap(), 0.059_999_675, 1e-9));
        assert!(winner.provisional() && loser.provisional());
    }

    #[test]
    fn glickmans_example_played_as_three_one_game_periods() {
        // Glickman (2012), section "Example": a 1500/200/0.06 player beats a 1400/30, loses to
        // a 1550/100 and to a 1700/300. Herald rates each game as its own period, so the player
        // is updated three times in a row; the expected values come from a separate
        // implementation of the paper's steps 1-8 (the acceptance check's `glicko2`).
        let mut me = glicko(1500.0, 200.0, 0.06);
        let games = [
            (glicko(1400.0, 30.0, 0.06), 1, 2),
            (glicko(1550.0, 100.0, 0.06), 2, 1),
            (glicko(1700.0, 300.0, 0.06), 2, 1),
        ];
        let want = [
            (1_563.564_194, 175.402_656, 0.059_998_657),
            (1_492.258_736, 158.302_592, 0.059_998_345),
            (1_463.788_372, 151.873_213, 0.059_997_514),
        ];
        for ((opponent, mine, theirs), (r, rd, vol)) in games.into_iter().zip(want) {
            me = rate(System::Glicko2, &[(me, mine), (opponent, theirs)]).unwrap()[0];
            let s = me.shown();
            assert!(close(s.rating, r, 1e-4), "{s:?}");
            assert!(close(s.deviation, rd, 1e-4), "{s:?}");
            assert!(close(s.volatility.unwrap(), vol, 1e-8), "{s:?}");
        }
        // Close to the paper's single three-game period (1464.06 / 151.52), as it should be.
        assert!(close(me.shown().rating, 1464.06, 1.0));
    }

    #[test]
    fn a_drawn_two_player_game_between_equals_moves_neither_rating() {
        let start = Skill::initial(System::Glicko2);
        let after = rate(System::Glicko2, &[(start, 1), (start, 1)]).unwrap();
        assert!(close(after[0].shown().rating, 1500.0, 1e-9));
        assert!(after[0].shown().deviation < 350.0);
    }

    #[test]
    fn three_new_players_placed_first_second_third_by_hand() {
        // By hand, Weng & Lin (2011) algorithm 1 (Bradley-Terry, full pairing): every pair has
        // c = sqrt(2 σ² + 2 β²) = sqrt(2 · 69.444 + 2 · 17.361) = 13.176 and p = 1/2, so
        // Ω = Σ σ²/c · (s − 1/2): +5.2705 for the winner (two wins), 0 for the second, −5.2705
        // for the third; Δ = Σ (σ/c) · σ²/c² · 1/4 = 2 · 0.63246 · 0.4 · 0.25 = 0.12649 for
        // everyone, σ' = σ · sqrt(1 − Δ) = 7.7885. Shown: 1500 + 40 (μ − 3σ), 40 σ.
        let start = Skill::initial(System::WengLin);
        let after = rate(System::WengLin, &[(start, 1), (start, 2), (start, 3)]).unwrap();
        let shown: Vec<Shown> = after.iter().map(Skill::shown).collect();
        let mus: Vec<f64> = shown.iter().map(|s| s.mu.unwrap()).collect();
        assert!(close(mus[0], 30.2705, 1e-4), "{mus:?}");
        assert!(close(mus[1], 25.0, 1e-9), "{mus:?}");
        assert!(close(mus[2], 19.7295, 1e-4), "{mus:?}");
        for s in &shown {
            assert!(close(s.sigma.unwrap(), 7.7885, 1e-4), "{s:?}");
            assert!(close(s.deviation, 311.539, 1e-3), "{s:?}");
            assert!(s.provisional());
        }
        let ratings: Vec<f64> = shown.iter().map(|s| s.rating).collect();
        assert_eq!(ratings, [1776.2, 1565.4, 1354.6]);
    }

    #[test]
    fn players_sharing_a_place_get_the_same_weng_lin_update() {
        // A shared place counts as a draw between the two: for each winner
        // Ω = σ²/c · ((1/2 − 1/2) + (1 − 1/2)) = 5.2705 / 2 = +2.6352; the loser as before.
        let start = Skill::initial(System::WengLin);
        let after = rate(System::WengLin, &[(start, 1), (start, 1), (start, 3)]).unwrap();
        let shown: Vec<Shown> = after.iter().map(Skill::shown).collect();
        assert_eq!(shown[0], shown[1]);
        assert!(close(shown[0].mu.unwrap(), 27.6352, 1e-4), "{shown:?}");
        assert!(close(shown[2].mu.unwrap(), 19.7295, 1e-4), "{shown:?}");
        assert_eq!(shown[0].rating, 1670.8);
    }

    #[test]
    fn stored_numbers_give_back_the_same_rating() {
        for system in [System::Glicko2, System::WengLin] {
            let start = Skill::initial(system);
            let after = rate(system, &[(start, 2), (start, 1)]).unwrap()[0];
            assert_eq!(Skill::stored(system, &after.shown()), after);
        }
    }

    #[test]
    fn glicko2_rates_exactly_two_players_and_nobody_alone_is_rated() {
        let g = Skill::initial(System::Glicko2);
        assert!(rate(System::Glicko2, &[(g, 1), (g, 2), (g, 3)]).is_none());
        assert!(rate(System::Glicko2, &[(g, 1)]).is_none());
        let w = Skill::initial(System::WengLin);
        assert!(rate(System::WengLin, &[(w, 1)]).is_none());
    }

    #[test]
    fn magnate_is_glicko2_and_lancaster_is_weng_lin_at_any_seat_count() {
        assert_eq!(
            System::of(GameKind::parse("magnate").unwrap()),
            System::Glicko2
        );
        assert_eq!(
            System::of(GameKind::parse("lancaster").unwrap()),
            System::WengLin
        );
    }

    #[test]
    fn provisional_follows_the_deviation_and_sigma_thresholds() {
        let g = |deviation| Shown {
            rating: 1500.0,
            deviation,
            volatility: Some(0.06),
            mu: None,
            sigma: None,
        };
        assert!(g(110.1).provisional());
        assert!(!g(110.0).provisional());
        let w = |sigma| {
            Skill::WengLin(WengLinRating {
                rating: 25.0,
                uncertainty: sigma,
            })
        };
        assert!(w(2.51).shown().provisional());
        assert!(!w(2.5).shown().provisional());
    }
}
