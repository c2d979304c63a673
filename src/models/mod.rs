//! Diesel rows: `X` is what a query loads, `NewX` what an insert writes. No logic here.

mod accounts;
mod games;
mod ratings;

pub use accounts::{ApiToken, NewApiToken, NewUser, User};
pub use games::{
    Game, GameAction, GameEvent, GameHead, GameResult, GameSeat, NewGame, NewGameSeat,
};
pub use ratings::{NewRatingChange, RatingChange, RatingRow};
