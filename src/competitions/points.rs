//! Exact scores. Half points, shared places (a 3-way tie splits by 3) and Sonneborn–Berger (half
//! of a half) all land on whole multiples of 1/720, so standings compare exactly and the API, the
//! CSV and the page print the same digits from one [`Display`](std::fmt::Display).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub};

/// Units per point: 2^4 · 3^2 · 5, so halves, thirds, quarters, fifths, sixths, eighths, tenths...
const UNIT: i64 = 720;

/// A score, exact: an integer number of 1/720 points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(i64);

impl Points {
    pub const ZERO: Points = Points(0);
    pub const HALF: Points = Points(UNIT / 2);
    pub const ONE: Points = Points(UNIT);

    /// `n` whole points.
    pub const fn whole(n: i64) -> Points {
        Points(n * UNIT)
    }

    /// `n` half points.
    pub const fn halves(n: i64) -> Points {
        Points(n * UNIT / 2)
    }

    /// `num / den` points, rounded toward zero to the unit (exact for the denominators above).
    pub fn ratio(num: i64, den: i64) -> Points {
        if den == 0 {
            return Points::ZERO;
        }
        Points(num * UNIT / den)
    }

    /// This score divided by `n` (shared places), rounded toward zero to the unit.
    pub fn shared_by(self, n: i64) -> Points {
        if n == 0 {
            return Points::ZERO;
        }
        Points(self.0 / n)
    }

    /// This score times a fraction `num / den` (a result of ½ against an opponent's score).
    pub fn times(self, num: i64, den: i64) -> Points {
        if den == 0 {
            return Points::ZERO;
        }
        Points(self.0 * num / den)
    }

    /// The score in half points, rounded down (TRF and Swiss scores are in half points).
    pub fn in_halves(self) -> i64 {
        self.0.div_euclid(UNIT / 2)
    }

    /// The raw count of 1/720 points, for hashing and sorting keys.
    pub fn raw(self) -> i64 {
        self.0
    }

    /// The nearest float: exact whenever the score is a multiple of 1/4.
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / UNIT as f64
    }

    /// The score rounded to one decimal as TRF writes it (`11.5`).
    pub fn one_decimal(self) -> String {
        let tenths = (self.0 * 10 + self.0.signum() * UNIT / 2) / UNIT;
        let sign = if tenths < 0 { "-" } else { "" };
        format!("{sign}{}.{}", tenths.abs() / 10, tenths.abs() % 10)
    }
}

impl fmt::Display for Points {
    /// Whole numbers as `3`, others with up to two decimals (`2.5`, `2.25`, `2.33` for 7/3).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.abs();
        let hundredths = (abs * 100 + UNIT / 2) / UNIT;
        let (int, frac) = (hundredths / 100, hundredths % 100);
        if frac == 0 {
            write!(f, "{sign}{int}")
        } else if frac % 10 == 0 {
            write!(f, "{sign}{int}.{}", frac / 10)
        } else {
            write!(f, "{sign}{int}.{frac:02}")
        }
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0 + o.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        self.0 += o.0;
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, o: Points) -> Points {
        Points(self.0 - o.0)
    }
}

impl Neg for Points {
    type Output = Points;
    fn neg(self) -> Points {
        Points(-self.0)
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, |a, b| a + b)
    }
}

/// Serialised as the JSON number the page shows (`2.5`), so API and page agree digit for digit.
impl Serialize for Points {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let shown: f64 = self.to_string().parse().unwrap_or_else(|_| self.to_f64());
        if shown.fract() == 0.0 && shown.abs() < 1e15 {
            s.serialize_i64(shown as i64)
        } else {
            s.serialize_f64(shown)
        }
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Points, D::Error> {
        let v = f64::deserialize(d)?;
        if !v.is_finite() || v.abs() > 1e12 {
            return Err(serde::de::Error::custom("points out of range"));
        }
        Ok(Points((v * UNIT as f64).round() as i64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_print_the_same_digits_everywhere() {
        assert_eq!(Points::whole(3).to_string(), "3");
        assert_eq!(Points::halves(5).to_string(), "2.5");
        assert_eq!(
            (Points::halves(5) + Points::ratio(1, 4)).to_string(),
            "2.75"
        );
        assert_eq!(Points::ratio(7, 3).to_string(), "2.33");
        assert_eq!(Points::halves(-1).to_string(), "-0.5");
        assert_eq!(Points::halves(5).one_decimal(), "2.5");
        assert_eq!(Points::whole(11).one_decimal(), "11.0");
        assert_eq!(serde_json::to_string(&Points::halves(5)).unwrap(), "2.5");
        assert_eq!(serde_json::to_string(&Points::whole(2)).unwrap(), "2");
        let back: Points = serde_json::from_str("1.5").unwrap();
        assert_eq!(back, Points::halves(3));
    }

    #[test]
    fn thirds_add_up_exactly() {
        let third = Points::ratio(1, 3);
        assert_eq!(third + third + third, Points::ONE);
        assert_eq!(
            Points::whole(7).shared_by(3) + Points::whole(2).shared_by(3),
            Points::whole(3)
        );
    }
}
