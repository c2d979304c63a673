//! Verifiable randomness (design.md section 4). The secret seed is committed to at creation
//! (`seed_commitment` = SHA-256 of the seed). The generator's seed is
//! `SHA-256("herald seed v1" || seed || per seat: 0x00, or 0x01 || u64 length || entropy)`, so
//! every player who joined with entropy made the dice theirs too. When the game is over the seed
//! is revealed and replaying the stored actions from it must reproduce the stored state.

use super::resource::GameStatus;
use super::{check_readable, kind_of, load_game, load_seats, load_state, seed_of};
use crate::domain::{GameId, UserId};
use crate::engine::registry;
use crate::engine::{Seat, Seed};
use crate::error::ApiError;
use diesel::prelude::*;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

/// The generator's seed from the secret seed and the players' entropy, in seat order.
pub fn effective_seed(secret: &[u8], entropy: &[Option<String>]) -> Option<Seed> {
    if secret.len() != 32 {
        return None;
    }
    let mut hash = Sha256::new();
    hash.update(b"herald seed v1");
    hash.update(secret);
    for e in entropy {
        match e {
            None => hash.update([0u8]),
            Some(e) => {
                hash.update([1u8]);
                hash.update((e.len() as u64).to_be_bytes());
                hash.update(e.as_bytes());
            }
        }
    }
    Some(Seed(hash.finalize().into()))
}

/// What anyone may check about a game's randomness.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Fairness {
    /// Lower-case hex SHA-256 of `seed`, published at creation.
    #[schema(pattern = "^[0-9a-f]{64}$")]
    pub seed_commitment: String,
    /// The entropy each seat mixed in when joining (by seat; `null` for none).
    pub entropy: Vec<Option<String>>,
    /// The secret seed in hex: present once the game is over, absent before.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[0-9a-f]{64}$")]
    pub seed: Option<String>,
    /// Whether replaying the public record from the seed reproduces the stored result: present
    /// once the game is over, absent before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_ok: Option<bool>,
}

/// The result of replaying a game.
#[derive(Debug, Clone)]
pub struct Verification {
    pub finished: bool,
    pub actions: usize,
    pub replay_ok: bool,
    /// Why the replay failed, when it did.
    pub problem: Option<String>,
}

/// Replays game `id` from its seed and stored actions and compares the result with the stored
/// state and outcome. Used by the fairness endpoint and `herald verify`.
///
/// # Errors
/// 404 for no such game.
pub fn verify(conn: &mut PgConnection, id: GameId) -> Result<Verification, ApiError> {
    let game = load_game(conn, id, false)?;
    let seats = load_seats(conn, id)?;
    let finished = GameStatus::from_db(&game.status) == GameStatus::Finished;
    let Some(stored) = load_state(&game)? else {
        return Ok(Verification {
            finished,
            actions: 0,
            replay_ok: false,
            problem: Some("the game has not started".to_owned()),
        });
    };
    let actions: Vec<(Seat, Value)> = super::record::actions(conn, id.0)?
        .into_iter()
        .map(|a| (Seat(u8::try_from(a.seat).unwrap_or(u8::MAX)), a.action))
        .collect();
    let seed = seed_of(&game, &seats)?;
    let count = u8::try_from(seats.len()).unwrap_or(u8::MAX);
    let replayed = registry::replay(kind_of(&game)?, &game.options, count, &seed, &actions);
    let problem = match replayed {
        Err(e) => Some(format!("the record does not replay: {e}")),
        Ok(state) if state != stored => {
            Some("the replayed state differs from the stored state".to_owned())
        }
        Ok(state) if state.outcome() != game.outcome => {
            Some("the replayed outcome differs from the stored outcome".to_owned())
        }
        Ok(_) => None,
    };
    Ok(Verification {
        finished,
        actions: actions.len(),
        replay_ok: problem.is_none(),
        problem,
    })
}

/// The fairness record of game `id`.
///
/// # Errors
/// 404 for no such game; 401 for an anonymous caller before the end.
pub fn fairness(
    conn: &mut PgConnection,
    caller: Option<UserId>,
    id: GameId,
) -> Result<Fairness, ApiError> {
    let game = load_game(conn, id, false)?;
    check_readable(&game, caller)?;
    let seats = load_seats(conn, id)?;
    let finished = GameStatus::from_db(&game.status) == GameStatus::Finished;
    let replay_ok = if finished {
        Some(verify(conn, id)?.replay_ok)
    } else {
        None
    };
    Ok(Fairness {
        seed_commitment: game.seed_commitment.clone(),
        entropy: seats.iter().map(|s| s.row.entropy.clone()).collect(),
        seed: finished.then(|| hex::encode(&game.seed)),
        replay_ok,
    })
}

#[cfg(test)]
mod tests {
    use super::effective_seed;

    #[test]
    fn every_seat_s_entropy_changes_the_seed_and_its_position_matters() {
        let secret = [7u8; 32];
        let none = effective_seed(&secret, &[None, None]).map(|s| s.0);
        let mine = effective_seed(&secret, &[Some("a".into()), None]).map(|s| s.0);
        let theirs = effective_seed(&secret, &[None, Some("a".into())]).map(|s| s.0);
        assert!(none.is_some());
        assert_ne!(none, mine);
        assert_ne!(mine, theirs);
        // Length-prefixed: ("ab", "") differs from ("a", "b").
        let split = effective_seed(&secret, &[Some("a".into()), Some("b".into())]).map(|s| s.0);
        let joined =
            effective_seed(&secret, &[Some("ab".into()), Some(String::new())]).map(|s| s.0);
        assert_ne!(split, joined);
        assert!(effective_seed(&[1, 2, 3], &[]).is_none());
    }
}
