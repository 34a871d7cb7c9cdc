//! Run-length encoded input tapes.
//!
//! Inputs change rarely along a link (a run-up, a held jump, a few steering
//! changes, the settle), so a [`crate::NavMap`] keeps every link's tape as
//! runs of identical inputs in one shared byte arena: one byte per run of up
//! to [`MAX_RUN`] ticks, the input's code in the high nibble and the run
//! length minus one in the low nibble. Generated links average about five
//! runs and six bytes for 40-100 ticks.
//!
//! Codes 0 to 11 (up not held) fit the nibble. A run of an input with up
//! held takes two bytes: [`ESCAPE`] in the high nibble with the run length,
//! then its code (12 to 23).

use crate::physics::Input;

/// The longest run one byte holds; longer runs take several bytes.
pub(crate) const MAX_RUN: usize = 16;

/// The number of input codes.
pub(crate) const CODES: u8 = 24;

/// The high nibble of a run whose code is in the next byte.
const ESCAPE: u8 = 15;

/// An input's code in `0..24`: `up * 12 + (move + 1) * 4 + jump * 2 +
/// down`, or `None` when `move_x` is not -1, 0 or +1.
#[must_use]
pub(crate) fn code(i: Input) -> Option<u8> {
    let m = u8::try_from(i.move_x + 1).ok().filter(|&m| m <= 2)?;
    Some(u8::from(i.up) * 12 + m * 4 + u8::from(i.jump) * 2 + u8::from(i.down))
}

/// The input of a code written by [`code`], or `None` for a code of
/// [`CODES`] or more.
#[must_use]
pub(crate) fn decode(c: u8) -> Option<Input> {
    let k = c % 12;
    (c < CODES).then(|| Input::new((k / 4) as i8 - 1, k & 2 != 0, k & 1 != 0).with_up(c >= 12))
}

/// Appends the run-length encoding of `inputs` to `out`; `false` (and `out`
/// unchanged) when an input has no code.
pub(crate) fn encode(inputs: &[Input], out: &mut Vec<u8>) -> bool {
    let start = out.len();
    let mut i = 0;
    while i < inputs.len() {
        let Some(c) = code(inputs[i]) else {
            out.truncate(start);
            return false;
        };
        let mut n = 1;
        while i + n < inputs.len() && n < MAX_RUN && inputs[i + n] == inputs[i] {
            n += 1;
        }
        if c < 12 {
            out.push(c << 4 | (n - 1) as u8);
        } else {
            out.extend([ESCAPE << 4 | (n - 1) as u8, c]);
        }
        i += n;
    }
    true
}

/// A link's input tape, one [`Input`] per tick, decoded on the fly from the
/// map's compact storage. Returned by [`crate::NavMap::inputs`]; collect it
/// into a `Vec<Input>` when you need random access.
#[derive(Debug, Clone)]
pub struct Tape<'a> {
    runs: &'a [u8],
    input: Input,
    left_in_run: usize,
    left: usize,
}

impl<'a> Tape<'a> {
    /// The tape of `ticks` ticks that the valid runs `runs` start with
    /// (bytes after its last run are ignored).
    pub(crate) fn new(runs: &'a [u8], ticks: usize) -> Self {
        Self {
            runs,
            input: Input::IDLE,
            left_in_run: 0,
            left: ticks,
        }
    }

    /// The remaining tape as runs: `(input, ticks)` pairs, consecutive runs
    /// may hold the same input.
    pub fn runs(self) -> impl Iterator<Item = (Input, usize)> + 'a {
        let first = (self.left_in_run > 0).then_some((self.input, self.left_in_run));
        let mut rest = self.runs;
        // The tape ends after its ticks: the bytes after them are another's.
        let mut left = self.left - self.left_in_run.min(self.left);
        first.into_iter().chain(std::iter::from_fn(move || {
            if left == 0 {
                return None;
            }
            let (input, n) = next_run(&mut rest)?;
            left = left.saturating_sub(n);
            Some((input, n))
        }))
    }
}

/// The bytes of the tape of `ticks` ticks that `runs` starts with (a map
/// keeps each link's start alone: its tick count says where it ends).
pub(crate) fn byte_len(runs: &[u8], ticks: usize) -> usize {
    let mut rest = runs;
    let mut left = ticks;
    while left > 0 {
        let Some((_, n)) = next_run(&mut rest) else {
            break;
        };
        left = left.saturating_sub(n);
    }
    runs.len() - rest.len()
}

/// Whether `runs` is a tape of exactly `ticks` ticks, every byte of it
/// read (no bad code, cut-off run, runs that end before or after `ticks`,
/// or bytes left over): for runs read from a file, which a map then keeps
/// as they are.
#[cfg(feature = "serde")]
pub(crate) fn is_exact(runs: &[u8], ticks: usize) -> bool {
    let mut seen = 0;
    let mut rest = runs;
    while !rest.is_empty() {
        let Some((c, escaped, n)) = split_run(&mut rest) else {
            return false;
        };
        // Codes 12 and up take the escape byte, and only they do.
        if escaped != (c >= 12) || c >= CODES || seen + n > ticks {
            return false;
        }
        seen += n;
    }
    seen == ticks
}

/// The first run of `runs`, which it is moved past: its code, whether the
/// code came after the escape byte, and its length; `None` when `runs`
/// ends inside a run.
#[inline]
fn split_run(runs: &mut &[u8]) -> Option<(u8, bool, usize)> {
    let (&b, rest) = runs.split_first()?;
    *runs = rest;
    let escaped = b >> 4 == ESCAPE;
    let c = if escaped {
        let (&c, rest) = runs.split_first()?;
        *runs = rest;
        c
    } else {
        b >> 4
    };
    Some((c, escaped, usize::from(b & 15) + 1))
}

/// The first run of `runs`, which it is moved past.
#[inline]
fn next_run(runs: &mut &[u8]) -> Option<(Input, usize)> {
    let (c, _, n) = split_run(runs)?;
    // Runs are validated when stored: a bad code cannot occur.
    Some((decode(c).unwrap_or(Input::IDLE), n))
}

impl Iterator for Tape<'_> {
    type Item = Input;

    #[inline]
    fn next(&mut self) -> Option<Input> {
        if self.left == 0 {
            return None;
        }
        if self.left_in_run == 0 {
            (self.input, self.left_in_run) = next_run(&mut self.runs)?;
        }
        self.left_in_run -= 1;
        self.left = self.left.saturating_sub(1);
        Some(self.input)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Tape<'_> {}

impl std::iter::FusedIterator for Tape<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Encodes `inputs`, checks that the tape and its runs give them back,
    /// also with another tape's bytes after it, and returns the encoding.
    fn round_trip(inputs: &[Input]) -> Vec<u8> {
        let mut out = Vec::new();
        assert!(encode(inputs, &mut out));
        assert_eq!(byte_len(&out, inputs.len()), out.len());
        let mut followed = out.clone();
        assert!(encode(&[Input::new(-1, true, false); 20], &mut followed));
        assert_eq!(byte_len(&followed, inputs.len()), out.len());
        let tape = Tape::new(&followed, inputs.len());
        assert_eq!(tape.len(), inputs.len());
        assert_eq!(tape.clone().collect::<Vec<_>>(), inputs);
        let from_runs: Vec<Input> = tape
            .runs()
            .flat_map(|(i, n)| std::iter::repeat_n(i, n))
            .collect();
        assert_eq!(from_runs, inputs);
        #[cfg(feature = "serde")]
        {
            assert!(is_exact(&out, inputs.len()));
            // Runs that hold more or fewer ticks than asked are not the tape.
            assert!(!is_exact(&out, inputs.len() + 1));
            assert!(!is_exact(&followed, inputs.len()));
        }
        out
    }

    #[test]
    fn round_trips_every_code_and_long_runs() {
        let mut inputs = Vec::new();
        for c in 0..12u8 {
            for _ in 0..(usize::from(c) * 7 % 40 + 1) {
                inputs.push(decode(c).unwrap());
            }
        }
        inputs.extend(std::iter::repeat_n(Input::new(1, false, false), 100));
        let out = round_trip(&inputs);
        assert!(out.len() < inputs.len() / 4);
        for c in 0..12 {
            assert_eq!(code(decode(c).unwrap()), Some(c));
        }
    }

    #[test]
    fn inputs_with_up_take_two_bytes_a_run_and_round_trip() {
        let mut inputs = Vec::new();
        for c in (0..CODES).rev() {
            for _ in 0..(usize::from(c) * 5 % 23 + 1) {
                inputs.push(decode(c).unwrap());
            }
        }
        round_trip(&inputs);
        for c in 0..CODES {
            let i = decode(c).unwrap();
            assert_eq!(code(i), Some(c));
            assert_eq!(i.up, c >= 12);
        }
        let up = Input::new(-1, true, false).with_up(true);
        let mut out = Vec::new();
        assert!(encode(&[up, up, Input::IDLE], &mut out));
        assert_eq!(out.len(), 3, "one escaped run of two bytes, one plain run");
        assert_eq!(
            Tape::new(&out, 3).collect::<Vec<_>>(),
            [up, up, Input::IDLE]
        );
    }

    #[test]
    fn rejects_inputs_and_bytes_without_a_code() {
        let mut out = vec![7];
        let bad = Input {
            move_x: 2,
            ..Input::IDLE
        };
        assert!(!encode(&[Input::IDLE, bad], &mut out));
        assert_eq!(out, vec![7]);
        assert_eq!(decode(CODES), None);
        #[cfg(feature = "serde")]
        {
            // An escaped code past the last, a plain code escaped, a code
            // that needs the escape without it, a run cut off.
            assert!(!is_exact(&[ESCAPE << 4, CODES], 1));
            assert!(!is_exact(&[ESCAPE << 4, 3], 1));
            assert!(!is_exact(&[ESCAPE << 4], 1));
            assert!(is_exact(&[ESCAPE << 4 | 1, 12], 2));
        }
    }
}
