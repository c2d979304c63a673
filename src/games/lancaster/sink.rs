//! Where one walk of the legal actions goes ([`super::rules`]): the full list, their count, the
//! one at an index, or whether a given action is among them (the check of a decision, with no
//! list). The walk hands over runs of consecutive actions that are built by their index, so a
//! run (a county entered with `lo..=n` squires, a ballot with `0..=m` markers) is counted
//! without building its actions. Every sink sees the actions in the list's order, so the action
//! at index `i` is `legal_actions(..)[i]`; the self-play checks hold the count and the indexed
//! walk to the list.

use super::action::Action;

/// A receiver of the legal actions, in order.
pub trait Sink {
    /// `len` consecutive actions; `build(i)` makes the `i`-th of them.
    fn run(&mut self, len: u32, build: impl Fn(u32) -> Action);

    /// One action.
    fn one(&mut self, action: Action);
}

/// The list itself.
impl Sink for Vec<Action> {
    fn run(&mut self, len: u32, build: impl Fn(u32) -> Action) {
        self.extend((0..len).map(build));
    }

    fn one(&mut self, action: Action) {
        self.push(action);
    }
}

/// How many actions there are.
#[derive(Debug, Default)]
pub struct Count(pub u32);

impl Sink for Count {
    fn run(&mut self, len: u32, _build: impl Fn(u32) -> Action) {
        self.0 = self.0.saturating_add(len);
    }

    fn one(&mut self, _action: Action) {
        self.0 = self.0.saturating_add(1);
    }
}

/// The action at one index, built alone.
#[derive(Debug)]
pub struct Nth {
    /// Actions still to pass before the wanted one.
    left: u32,
    pub found: Option<Action>,
}

impl Nth {
    pub fn new(i: u32) -> Nth {
        Nth {
            left: i,
            found: None,
        }
    }
}

impl Sink for Nth {
    fn run(&mut self, len: u32, build: impl Fn(u32) -> Action) {
        if self.found.is_some() {
            return;
        }
        if self.left < len {
            self.found = Some(build(self.left));
        } else {
            self.left -= len;
        }
    }

    fn one(&mut self, action: Action) {
        if self.found.is_some() {
            return;
        }
        if self.left == 0 {
            self.found = Some(action);
        } else {
            self.left -= 1;
        }
    }
}

/// Whether one action is among them (the check of a decision inside a step), with no list.
#[derive(Debug)]
pub struct Contains<'a> {
    action: &'a Action,
    pub found: bool,
}

impl<'a> Contains<'a> {
    pub fn new(action: &'a Action) -> Contains<'a> {
        Contains {
            action,
            found: false,
        }
    }
}

impl Sink for Contains<'_> {
    fn run(&mut self, len: u32, build: impl Fn(u32) -> Action) {
        if !self.found {
            self.found = (0..len).any(|i| build(i) == *self.action);
        }
    }

    fn one(&mut self, action: Action) {
        if !self.found {
            self.found = action == *self.action;
        }
    }
}
