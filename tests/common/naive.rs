//! A deliberately naive reference for impartial grid games and heaps:
//! plain recursion with a memo on the whole board, no symmetry, no
//! components, and its own move generation written cell by cell. It shares
//! no code with the kernel, so agreement is evidence for both.

use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rules {
    Cram,
    DominoJuvavum,
    Juvavum,
}

pub struct Board {
    pub rows: usize,
    pub cols: usize,
}

impl Board {
    fn bit(&self, r: usize, c: usize) -> u64 {
        1u64 << (r * self.cols + c)
    }

    fn free(&self, pos: u64, r: usize, c: usize) -> bool {
        pos & self.bit(r, c) != 0
    }

    /// Every position reachable in one move.
    pub fn options(&self, rules: Rules, pos: u64) -> HashSet<u64> {
        let mut out = HashSet::new();
        match rules {
            Rules::Cram => {
                for r in 0..self.rows {
                    for c in 0..self.cols {
                        if !self.free(pos, r, c) {
                            continue;
                        }
                        if c + 1 < self.cols && self.free(pos, r, c + 1) {
                            out.insert(pos & !self.bit(r, c) & !self.bit(r, c + 1));
                        }
                        if r + 1 < self.rows && self.free(pos, r + 1, c) {
                            out.insert(pos & !self.bit(r, c) & !self.bit(r + 1, c));
                        }
                    }
                }
            }
            Rules::DominoJuvavum => {
                for r in 0..self.rows {
                    let line: Vec<u64> = (0..self.cols).map(|c| self.bit(r, c)).collect();
                    self.line_dominoes(pos, &line, 0, 0, &mut out);
                }
                for c in 0..self.cols {
                    let line: Vec<u64> = (0..self.rows).map(|r| self.bit(r, c)).collect();
                    self.line_dominoes(pos, &line, 0, 0, &mut out);
                }
            }
            Rules::Juvavum => {
                let mut lines: Vec<Vec<u64>> = Vec::new();
                for r in 0..self.rows {
                    lines.push(
                        (0..self.cols)
                            .map(|c| self.bit(r, c))
                            .filter(|b| pos & b != 0)
                            .collect(),
                    );
                }
                for c in 0..self.cols {
                    lines.push(
                        (0..self.rows)
                            .map(|r| self.bit(r, c))
                            .filter(|b| pos & b != 0)
                            .collect(),
                    );
                }
                for line in lines {
                    for subset in 1u32..(1 << line.len()) {
                        let mut next = pos;
                        for (i, b) in line.iter().enumerate() {
                            if subset & (1 << i) != 0 {
                                next &= !b;
                            }
                        }
                        out.insert(next);
                    }
                }
            }
        }
        out
    }

    /// Non-overlapping dominoes along one line, at least one, from index `i` on.
    fn line_dominoes(&self, pos: u64, line: &[u64], i: usize, placed: u32, out: &mut HashSet<u64>) {
        if i + 1 >= line.len() {
            if placed > 0 {
                out.insert(pos);
            }
            return;
        }
        self.line_dominoes(pos, line, i + 1, placed, out);
        if pos & line[i] != 0 && pos & line[i + 1] != 0 {
            self.line_dominoes(pos & !line[i] & !line[i + 1], line, i + 2, placed + 1, out);
        }
    }
}

fn mex(values: impl Iterator<Item = u32>) -> u32 {
    let set: HashSet<u32> = values.collect();
    (0..).find(|v| !set.contains(v)).unwrap_or(0)
}

/// Normal (misere = false) or misère Grundy value of the position `free`
/// of a `rows` x `cols` board, with a fresh memo.
pub fn value_of(rules: Rules, rows: usize, cols: usize, free: u64, misere: bool) -> u32 {
    grundy(
        &Board { rows, cols },
        rules,
        free,
        misere,
        &mut HashMap::new(),
    )
}

/// Normal (misere = false) or misère Grundy value of `pos`.
pub fn grundy(
    board: &Board,
    rules: Rules,
    pos: u64,
    misere: bool,
    memo: &mut HashMap<u64, u32>,
) -> u32 {
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let options = board.options(rules, pos);
    let value = if misere && options.is_empty() {
        1
    } else {
        let values: Vec<u32> = options
            .iter()
            .map(|&o| grundy(board, rules, o, misere, memo))
            .collect();
        mex(values.into_iter())
    };
    memo.insert(pos, value);
    value
}

/// Positions reachable from `pos`, including it.
pub fn reachable(board: &Board, rules: Rules, pos: u64) -> HashSet<u64> {
    let mut seen = HashSet::from([pos]);
    let mut stack = vec![pos];
    while let Some(p) = stack.pop() {
        for o in board.options(rules, p) {
            if seen.insert(o) {
                stack.push(o);
            }
        }
    }
    seen
}

/// A map of cells (row, column) to cells.
type CellMap = Box<dyn Fn(usize, usize) -> (usize, usize)>;

/// The images of `pos` under the symmetries of the rectangle that keep its
/// shape (cell by cell, with explicit coordinates).
pub fn images(board: &Board, pos: u64) -> Vec<u64> {
    let (h, w) = (board.rows, board.cols);
    let mut maps: Vec<CellMap> = vec![
        Box::new(|r, c| (r, c)),
        Box::new(move |r, c| (h - 1 - r, c)),
        Box::new(move |r, c| (r, w - 1 - c)),
        Box::new(move |r, c| (h - 1 - r, w - 1 - c)),
    ];
    if h == w {
        maps.push(Box::new(|r, c| (c, r)));
        maps.push(Box::new(move |r, c| (w - 1 - c, r)));
        maps.push(Box::new(move |r, c| (c, h - 1 - r)));
        maps.push(Box::new(move |r, c| (w - 1 - c, h - 1 - r)));
    }
    maps.iter()
        .map(|m| {
            let mut out = 0u64;
            for r in 0..h {
                for c in 0..w {
                    if pos & board.bit(r, c) != 0 {
                        let (r2, c2) = m(r, c);
                        out |= board.bit(r2, c2);
                    }
                }
            }
            out
        })
        .collect()
}

/// Normal-play values of an octal game's heaps 0..=n, by the definition
/// (digit 0 may split a heap in two without removing anything).
pub fn octal_values_with_d0(digits: &[u8], n: usize) -> Vec<u32> {
    let mut values = vec![0u32; n + 1];
    for size in 1..=n {
        let mut options = Vec::new();
        for (k, &d) in digits.iter().enumerate() {
            if k > size {
                continue;
            }
            let rest = size - k;
            if d & 1 != 0 && rest == 0 {
                options.push(0);
            }
            if d & 2 != 0 && rest > 0 && k > 0 {
                options.push(values[rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    options.push(values[a] ^ values[rest - a]);
                }
            }
        }
        values[size] = mex(options.into_iter());
    }
    values
}
