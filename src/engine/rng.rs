//! Fair, replayable randomness.
//!
//! A game has one secret 32-byte [`Seed`]. The generator for action number `n` is ChaCha20 keyed
//! by the seed on stream `n` (stream 0 is the setup), so any action's dice can be replayed alone
//! and nothing depends on how many numbers an earlier action drew. Dice, shuffles and draws are
//! our own small functions over raw `u32`s (Lemire's unbiased bounded integers), so their output
//! cannot change under us with a `rand` release; the golden-value tests below pin it.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use std::fmt;

/// A game's secret seed. Its `Debug` form is redacted so it cannot slip into a log line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Seed(pub [u8; 32]);

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(<secret>)")
    }
}

impl Seed {
    /// A seed derived from two integers: self-play game `i` of a run seeded with `s`, or a
    /// referee request's `"seed"`. Reproducible on every platform.
    ///
    /// The first 32 bytes of ChaCha20 keyed by `seed_from_u64(s)` on stream `i`, as rand_chacha
    /// gives them, from one [`block`] of our own: self-play derives one seed a game, and
    /// rand_chacha's refill of four blocks for it took 2 % of a Magnate game.
    pub fn from_numbers(s: u64, i: u64) -> Seed {
        let key = key_words(&ChaCha20Rng::seed_from_u64(s).get_seed());
        let mut bytes = [0u8; 32];
        for (out, word) in bytes.chunks_exact_mut(4).zip(block(&key, i, 0)) {
            out.copy_from_slice(&word.to_le_bytes());
        }
        Seed(bytes)
    }

    /// Lower-case hex, for the reveal at the end of a game.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Parses 64 hex digits.
    pub fn from_hex(s: &str) -> Option<Seed> {
        let s = s.as_bytes();
        if s.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (byte, pair) in out.iter_mut().zip(s.chunks(2)) {
            let text = std::str::from_utf8(pair).ok()?;
            *byte = u8::from_str_radix(text, 16).ok()?;
        }
        Some(Seed(out))
    }
}

/// The generator handed to a game for one setup or one action. It computes nothing until the
/// first number is drawn: most actions draw none. Self-play keeps one per game and moves it to
/// each action's stream with [`GameRng::to_action`].
///
/// The words are ChaCha20's, keyed by the seed, on stream `n`, exactly as rand_chacha's
/// `ChaCha20Rng` gives them (a test compares them for many seeds and streams), but computed here
/// one block of 16 words at a time ([`block`]). rand_chacha computes four blocks for each refill
/// and must be repositioned for every action: an action draws a few words (a roll two), so that
/// threw three blocks away and took 340 ns where one block takes 60 (`selfplay magnate` drew
/// about 47 blocks a game: the setup's shuffle, one roll a turn, the policy's picks).
pub struct GameRng {
    /// The seed as ChaCha20's eight key words (little-endian).
    key: [u32; 8],
    stream: u64,
    /// The number of the next block of `stream` to compute (0: nothing drawn on it yet).
    counter: u64,
    /// The block last computed; `next` is the next of its words to hand out (16: used up).
    block: [u32; 16],
    next: usize,
}

impl GameRng {
    /// The generator for the game's setup (stream 0).
    pub fn for_setup(seed: &Seed) -> GameRng {
        GameRng::for_action(seed, 0)
    }

    /// The generator for action number `n` (the first action is 1).
    pub fn for_action(seed: &Seed, n: u64) -> GameRng {
        GameRng {
            key: key_words(&seed.0),
            stream: n,
            counter: 0,
            block: [0; 16],
            next: 16,
        }
    }

    /// Makes this the generator for action number `n` of the same game: exactly what
    /// `GameRng::for_action(seed, n)` would draw, without reading the key again.
    pub fn to_action(&mut self, n: u64) {
        self.stream = n;
        self.counter = 0;
        self.next = 16;
    }

    /// Whether a number has been drawn on this stream: the action played with it rolled, shuffled
    /// or drew at random, so its outcome was not its player's to foresee.
    pub fn drew(&self) -> bool {
        self.counter != 0
    }

    /// A generator from a plain integer, for tools (the referee's `"seed"`).
    pub fn from_u64(seed: u64) -> GameRng {
        GameRng::for_setup(&Seed::from_numbers(seed, 0))
    }

    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if let Some(&word) = self.block.get(self.next) {
            self.next += 1;
            return word;
        }
        self.block = block(&self.key, self.stream, self.counter);
        self.counter = self.counter.wrapping_add(1);
        self.next = 1;
        self.block[0]
    }

    /// A uniformly distributed integer in `0..n`; `0` when `n` is 0.
    pub fn below(&mut self, n: u32) -> u32 {
        Draw::below(self, n)
    }

    /// A uniformly distributed index into a collection of `len` items (`0` when empty).
    pub fn index(&mut self, len: usize) -> usize {
        Draw::index(self, len)
    }

    /// One roll of a fair die with `sides` faces, 1..=sides.
    pub fn die(&mut self, sides: u8) -> u8 {
        self.below(u32::from(sides)) as u8 + 1
    }

    /// Shuffles in place (Fisher–Yates, from the end): every order equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

/// A 32-byte seed as ChaCha20's eight key words (little-endian).
fn key_words(seed: &[u8; 32]) -> [u32; 8] {
    let mut key = [0u32; 8];
    for (word, bytes) in key.iter_mut().zip(seed.chunks_exact(4)) {
        let mut le = [0u8; 4];
        le.copy_from_slice(bytes);
        *word = u32::from_le_bytes(le);
    }
    key
}

/// A source of uniform `u32` words and the bounded draws made from them: a game's [`GameRng`],
/// or a self-play policy's cheaper generator (the policy's choices need no secret and no
/// replay by players, only a fixed seed).
pub trait Draw {
    fn next_u32(&mut self) -> u32;

    /// A uniformly distributed integer in `0..n`; `0` when `n` is 0.
    fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        // Lemire: multiply into 64 bits, reject the few low words that would bias the result. The
        // threshold is below `n`, so a low word of at least `n` is accepted without dividing.
        loop {
            let m = u64::from(self.next_u32()) * u64::from(n);
            let low = m as u32;
            if low >= n || low >= n.wrapping_neg() % n {
                return (m >> 32) as u32;
            }
        }
    }

    /// A uniformly distributed index into a collection of `len` items (`0` when empty).
    fn index(&mut self, len: usize) -> usize {
        self.below(u32::try_from(len).unwrap_or(u32::MAX)) as usize
    }
}

impl Draw for GameRng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        GameRng::next_u32(self)
    }
}

/// ChaCha20's constant words ("expand 32-byte k").
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// Four words, one row of ChaCha20's state, operated on lane by lane (vectorised by LLVM: four
/// column or diagonal quarter rounds at once; against a scalar block of sixteen words, self-play
/// took 1-4 % less CPU in alternating runs, within this machine's noise).
type Row = [u32; 4];

#[inline(always)]
fn add(x: Row, y: Row) -> Row {
    let ([x0, x1, x2, x3], [y0, y1, y2, y3]) = (x, y);
    [
        x0.wrapping_add(y0),
        x1.wrapping_add(y1),
        x2.wrapping_add(y2),
        x3.wrapping_add(y3),
    ]
}

#[inline(always)]
fn xor_rotate(x: Row, y: Row, r: u32) -> Row {
    let ([x0, x1, x2, x3], [y0, y1, y2, y3]) = (x, y);
    [
        (x0 ^ y0).rotate_left(r),
        (x1 ^ y1).rotate_left(r),
        (x2 ^ y2).rotate_left(r),
        (x3 ^ y3).rotate_left(r),
    ]
}

/// Four quarter rounds at once, one per lane.
#[inline(always)]
fn quarters(mut a: Row, mut b: Row, mut c: Row, mut d: Row) -> (Row, Row, Row, Row) {
    a = add(a, b);
    d = xor_rotate(d, a, 16);
    c = add(c, d);
    b = xor_rotate(b, c, 12);
    a = add(a, b);
    d = xor_rotate(d, a, 8);
    c = add(c, d);
    b = xor_rotate(b, c, 7);
    (a, b, c, d)
}

/// Block `counter` of ChaCha20 keyed by `key` on stream `stream`, as rand_chacha lays out its
/// state: the constants, the key, a 64-bit block counter and the 64-bit stream.
#[inline]
fn block(key: &[u32; 8], stream: u64, counter: u64) -> [u32; 16] {
    let [k0, k1, k2, k3, k4, k5, k6, k7] = *key;
    let (a0, b0, c0, d0) = (
        SIGMA,
        [k0, k1, k2, k3],
        [k4, k5, k6, k7],
        [
            counter as u32,
            (counter >> 32) as u32,
            stream as u32,
            (stream >> 32) as u32,
        ],
    );
    let (mut a, mut b, mut c, mut d) = (a0, b0, c0, d0);
    for _ in 0..10 {
        (a, b, c, d) = quarters(a, b, c, d);
        // The diagonals into the lanes: lane i takes words (i, 5 + i, 10 + i, 15 + i) mod rows.
        let ([b0_, b1, b2, b3], [c0_, c1, c2, c3], [d0_, d1, d2, d3]) = (b, c, d);
        (a, b, c, d) = quarters(a, [b1, b2, b3, b0_], [c2, c3, c0_, c1], [d3, d0_, d1, d2]);
        let ([b0_, b1, b2, b3], [c0_, c1, c2, c3], [d0_, d1, d2, d3]) = (b, c, d);
        (b, c, d) = ([b3, b0_, b1, b2], [c2, c3, c0_, c1], [d1, d2, d3, d0_]);
    }
    let ([w0, w1, w2, w3], [w4, w5, w6, w7]) = (add(a, a0), add(b, b0));
    let ([w8, w9, w10, w11], [w12, w13, w14, w15]) = (add(c, c0), add(d, d0));
    [
        w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::Rng;

    fn seed(byte: u8) -> Seed {
        Seed([byte; 32])
    }

    #[test]
    fn golden_first_outputs_for_fixed_seeds_never_change() {
        let mut rng = GameRng::for_setup(&seed(0));
        let raw: Vec<u32> = (0..4).map(|_| rng.next_u32()).collect();
        assert_eq!(raw, GOLDEN_RAW_SEED0_STREAM0);
        let mut rng = GameRng::for_action(&seed(7), 3);
        let dice: Vec<u8> = (0..10).map(|_| rng.die(10)).collect();
        assert_eq!(dice, GOLDEN_D10_SEED7_STREAM3);
        let mut rng = GameRng::for_action(&seed(7), 4);
        let mut deck: Vec<u8> = (0..10).collect();
        rng.shuffle(&mut deck);
        assert_eq!(deck, GOLDEN_SHUFFLE_SEED7_STREAM4);
        assert_eq!(
            Seed::from_numbers(1, 2).to_hex()[..16],
            *GOLDEN_SEED_1_2_PREFIX
        );
    }

    const GOLDEN_RAW_SEED0_STREAM0: [u32; 4] = [0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653];
    const GOLDEN_D10_SEED7_STREAM3: [u8; 10] = [10, 10, 9, 8, 7, 1, 2, 1, 9, 4];
    const GOLDEN_SHUFFLE_SEED7_STREAM4: [u8; 10] = [1, 5, 0, 9, 7, 2, 8, 6, 4, 3];
    const GOLDEN_SEED_1_2_PREFIX: &str = "6fb662012d5c8629";

    #[test]
    fn a_generator_moved_to_an_action_draws_what_a_fresh_one_draws() {
        let s = seed(5);
        let mut moved = GameRng::for_action(&s, 1);
        for n in [1u64, 2, 3, 9, 2, u64::MAX] {
            moved.to_action(n);
            // Draw past a whole buffer now and then, so positions inside and after it are reset.
            let len = if n % 2 == 0 { 70 } else { 3 };
            let fresh: Vec<u32> = {
                let mut r = GameRng::for_action(&s, n);
                (0..len).map(|_| r.next_u32()).collect()
            };
            let again: Vec<u32> = (0..len).map(|_| moved.next_u32()).collect();
            assert_eq!(again, fresh, "stream {n}");
        }
        let mut undrawn = GameRng::for_setup(&s);
        undrawn.to_action(4);
        assert_eq!(undrawn.next_u32(), GameRng::for_action(&s, 4).next_u32());
    }

    #[test]
    fn block_zero_and_beyond_equal_rand_chachas_words() {
        let mut seeds = vec![seed(0), seed(0xff), Seed::from_numbers(1, 2)];
        seeds.extend((0..40u64).map(|i| Seed::from_numbers(7, i)));
        let streams = [
            0u64,
            1,
            2,
            3,
            17,
            255,
            1 << 32,
            (1 << 32) + 5,
            u64::MAX - 1,
            u64::MAX,
        ];
        for s in &seeds {
            // One generator moved from stream to stream, as self-play uses it.
            let mut moved = GameRng::for_setup(s);
            for (k, &n) in streams.iter().enumerate() {
                let expected: Vec<u32> = {
                    let mut r = ChaCha20Rng::from_seed(s.0);
                    r.set_stream(n);
                    (0..200).map(|_| r.next_u32()).collect()
                };
                let mut fresh = GameRng::for_action(s, n);
                let got: Vec<u32> = (0..40).map(|_| fresh.next_u32()).collect();
                assert_eq!(got, expected.get(..40).unwrap_or(&[]), "stream {n}");
                moved.to_action(n);
                let len = [40, 3, 16, 17, 200][k % 5];
                let again: Vec<u32> = (0..len).map(|_| moved.next_u32()).collect();
                assert_eq!(again, expected.get(..len).unwrap_or(&[]), "stream {n}");
            }
        }
    }

    #[test]
    fn seeds_from_numbers_are_rand_chachas_bytes() {
        for s in [0u64, 1, 7, 42, u64::MAX] {
            for i in [0u64, 1, 2, 99, 1 << 32, u64::MAX] {
                let mut r = ChaCha20Rng::seed_from_u64(s);
                r.set_stream(i);
                let mut bytes = [0u8; 32];
                r.fill_bytes(&mut bytes);
                assert_eq!(Seed::from_numbers(s, i).0, bytes, "{s} {i}");
            }
        }
    }

    #[test]
    fn streams_differ_and_the_same_stream_repeats() {
        let a: Vec<u32> = {
            let mut r = GameRng::for_action(&seed(1), 5);
            (0..8).map(|_| r.next_u32()).collect()
        };
        let b: Vec<u32> = {
            let mut r = GameRng::for_action(&seed(1), 5);
            (0..8).map(|_| r.next_u32()).collect()
        };
        let c: Vec<u32> = {
            let mut r = GameRng::for_action(&seed(1), 6);
            (0..8).map(|_| r.next_u32()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn dice_are_unbiased_over_many_rolls() {
        let mut rng = GameRng::for_setup(&seed(3));
        let mut counts = [0u32; 10];
        let n = 200_000;
        for _ in 0..n {
            let face = rng.die(10);
            assert!((1..=10).contains(&face));
            counts[usize::from(face - 1)] += 1;
        }
        // Chi-square with 9 degrees of freedom; 27.88 is the 0.999 quantile.
        let expected = f64::from(n) / 10.0;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 27.88, "chi-square {chi2} with counts {counts:?}");
    }

    #[test]
    fn a_shuffle_is_a_permutation_and_below_stays_in_range() {
        let mut rng = GameRng::for_setup(&seed(9));
        let mut v: Vec<u32> = (0..45).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..45).collect::<Vec<_>>());
        for n in [1u32, 2, 3, 7, 1 << 31, u32::MAX] {
            assert!(rng.below(n) < n);
        }
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn seeds_round_trip_through_hex_and_never_print_in_debug() {
        let s = Seed::from_numbers(42, 0);
        assert_eq!(Seed::from_hex(&s.to_hex()), Some(s));
        assert_eq!(Seed::from_hex("zz"), None);
        assert!(!format!("{s:?}").contains(&s.to_hex()[..8]));
    }
}
