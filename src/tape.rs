//! Run-length encoded input tapes.
//!
//! Inputs change rarely along a link (a run-up, a held jump, a few steering
//! changes, the settle), so a [`crate::NavMap`] keeps every link's tape as
//! runs of identical inputs in one shared byte arena: one byte per run of up
//! to [`MAX_RUN`] ticks, the input's code in the high nibble and the run
//! length minus one in the low nibble. Generated links average about five
//! runs and six bytes for 40-100 ticks.

use crate::physics::Input;

/// The longest run one byte holds; longer runs take several bytes.
pub(crate) const MAX_RUN: usize = 16;

/// An input's code in `0..12`: `(move + 1) * 4 + jump * 2 + down`, or `None`
/// when `move_x` is not -1, 0 or +1.
#[must_use]
pub(crate) fn code(i: Input) -> Option<u8> {
    let m = u8::try_from(i.move_x + 1).ok().filter(|&m| m <= 2)?;
    Some(m * 4 + u8::from(i.jump) * 2 + u8::from(i.down))
}

/// The input of a code written by [`code`], or `None` for a code of 12 or more.
#[must_use]
pub(crate) fn decode(c: u8) -> Option<Input> {
    (c < 12).then(|| Input::new((c / 4) as i8 - 1, c & 2 != 0, c & 1 != 0))
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
        out.push(c << 4 | (n - 1) as u8);
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
    /// A tape over valid runs holding `ticks` ticks in all.
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
        first.into_iter().chain(self.runs.iter().map(|&b| {
            (
                decode(b >> 4).unwrap_or(Input::IDLE),
                usize::from(b & 15) + 1,
            )
        }))
    }
}

impl Iterator for Tape<'_> {
    type Item = Input;

    #[inline]
    fn next(&mut self) -> Option<Input> {
        if self.left_in_run == 0 {
            let (&b, rest) = self.runs.split_first()?;
            self.runs = rest;
            // Runs are validated when stored: a bad code cannot occur.
            self.input = decode(b >> 4).unwrap_or(Input::IDLE);
            self.left_in_run = usize::from(b & 15) + 1;
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

    #[test]
    fn round_trips_every_code_and_long_runs() {
        let mut inputs = Vec::new();
        for c in 0..12u8 {
            for _ in 0..(usize::from(c) * 7 % 40 + 1) {
                inputs.push(decode(c).unwrap());
            }
        }
        inputs.extend(std::iter::repeat_n(Input::new(1, false, false), 100));
        let mut out = Vec::new();
        assert!(encode(&inputs, &mut out));
        assert!(out.len() < inputs.len() / 4);
        let tape = Tape::new(&out, inputs.len());
        assert_eq!(tape.len(), inputs.len());
        assert_eq!(tape.clone().collect::<Vec<_>>(), inputs);
        let from_runs: Vec<Input> = tape
            .runs()
            .flat_map(|(i, n)| std::iter::repeat_n(i, n))
            .collect();
        assert_eq!(from_runs, inputs);
        for c in 0..12 {
            assert_eq!(code(decode(c).unwrap()), Some(c));
        }
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
        assert_eq!(decode(12), None);
    }
}
