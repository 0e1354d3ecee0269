//! Maximum matching in a general graph (Edmonds' blossom algorithm), kept up to date while the
//! Swiss pairing fixes one pair after another.
//!
//! Swiss pairing must know, before it fixes a pair, whether the entrants left can still be
//! paired with as few rematches as the best pairing of everyone. That is a question about the
//! largest matching of the "not met yet" graph, which greedy search answers only by
//! backtracking (exponential at 256 entrants); Edmonds' algorithm answers it in polynomial time.

/// A maximum matching over the vertices still alive, in a graph given by `edge(u, v)`.
#[derive(Debug, Clone)]
pub struct Matching {
    mate: Vec<Option<usize>>,
    alive: Vec<bool>,
}

impl Matching {
    /// The largest matching of the graph on `n` vertices whose edges `edge` gives.
    pub fn maximum(n: usize, edge: &impl Fn(usize, usize) -> bool) -> Self {
        let mut m = Matching {
            mate: vec![None; n],
            alive: vec![true; n],
        };
        // A greedy start leaves few vertices for the blossom search.
        for u in 0..n {
            if m.mate[u].is_none() {
                if let Some(v) = (u + 1..n).find(|&v| m.mate[v].is_none() && edge(u, v)) {
                    m.mate[u] = Some(v);
                    m.mate[v] = Some(u);
                }
            }
        }
        for u in 0..n {
            if m.mate[u].is_none() {
                m.augment_from(u, edge);
            }
        }
        m
    }

    /// How many pairs the matching holds.
    pub fn size(&self) -> usize {
        self.mate.iter().flatten().count() / 2
    }

    /// The matching with `a` and `b` taken out of the graph, still maximum on what is left.
    ///
    /// One vertex at a time: with one vertex gone, a path that could grow the matching must end
    /// at the vertex that lost its mate (otherwise it would have grown the maximum one before),
    /// so one search from it restores a maximum matching, and the second vertex goes from that
    /// one. Freeing both mates first and searching from each missed matchings: the first
    /// search could pair the two freed vertices together where each had its own partner.
    pub fn without(&self, a: usize, b: usize, edge: &impl Fn(usize, usize) -> bool) -> Self {
        let mut m = self.clone();
        // `a` goes first, `b` still in the graph; then `b`, from the matching that gave.
        m.take_out(a, b, edge);
        m.take_out(b, b, edge);
        m
    }

    /// Takes `v` out; its mate, freed, searches a new one (unless it is `next`, which goes
    /// next: a pair taken out together leaves a maximum matching as it is).
    fn take_out(&mut self, v: usize, next: usize, edge: &impl Fn(usize, usize) -> bool) {
        self.alive[v] = false;
        if let Some(w) = self.mate[v].take() {
            self.mate[w] = None;
            if w != next && self.alive[w] {
                self.augment_from(w, edge);
            }
        }
    }

    /// Searches an augmenting path from the exposed vertex `root` and flips it; whether found.
    fn augment_from(&mut self, root: usize, edge: &impl Fn(usize, usize) -> bool) -> bool {
        let n = self.mate.len();
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut base: Vec<usize> = (0..n).collect();
        let mut used = vec![false; n];
        let mut queue = std::collections::VecDeque::new();
        used[root] = true;
        queue.push_back(root);
        while let Some(v) = queue.pop_front() {
            for to in 0..n {
                if !self.alive[to] || to == v || base[v] == base[to] || self.mate[v] == Some(to) {
                    continue;
                }
                if !edge(v, to) {
                    continue;
                }
                let odd_cycle = to == root || self.mate[to].is_some_and(|m| parent[m].is_some());
                if odd_cycle {
                    let cur = self.lca(&base, &parent, v, to);
                    let mut blossom = vec![false; n];
                    self.mark_path(&base, &mut parent, &mut blossom, v, cur, to);
                    self.mark_path(&base, &mut parent, &mut blossom, to, cur, v);
                    for i in 0..n {
                        if self.alive[i] && blossom[base[i]] {
                            base[i] = cur;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to].is_none() {
                    parent[to] = Some(v);
                    match self.mate[to] {
                        None => {
                            self.flip(&parent, to);
                            return true;
                        }
                        Some(next) => {
                            used[next] = true;
                            queue.push_back(next);
                        }
                    }
                }
            }
        }
        false
    }

    fn lca(&self, base: &[usize], parent: &[Option<usize>], a: usize, b: usize) -> usize {
        let mut seen = vec![false; self.mate.len()];
        let mut a = a;
        loop {
            a = base[a];
            seen[a] = true;
            match self.mate[a] {
                None => break,
                Some(m) => match parent[m] {
                    None => break,
                    Some(p) => a = p,
                },
            }
        }
        let mut b = b;
        loop {
            b = base[b];
            if seen[b] {
                return b;
            }
            let m = self.mate[b].expect("a matched vertex on the path to the root");
            b = parent[m].expect("a labelled vertex on the path to the root");
        }
    }

    fn mark_path(
        &self,
        base: &[usize],
        parent: &mut [Option<usize>],
        blossom: &mut [bool],
        mut v: usize,
        b: usize,
        mut child: usize,
    ) {
        while base[v] != b {
            let m = self.mate[v].expect("a matched vertex inside a blossom");
            blossom[base[v]] = true;
            blossom[base[m]] = true;
            parent[v] = Some(child);
            child = m;
            v = parent[m].expect("a labelled vertex inside a blossom");
        }
    }

    fn flip(&mut self, parent: &[Option<usize>], mut v: usize) {
        loop {
            let pv = parent[v].expect("an augmenting path's vertex has a parent");
            let next = self.mate[pv];
            self.mate[v] = Some(pv);
            self.mate[pv] = Some(v);
            match next {
                Some(n) => v = n,
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(n: usize, edge: &impl Fn(usize, usize) -> bool, alive: u32) -> usize {
        let Some(u) = (0..n).find(|&u| alive & (1 << u) != 0) else {
            return 0;
        };
        let rest = alive & !(1 << u);
        let mut best = brute(n, edge, rest);
        for v in 0..n {
            if rest & (1 << v) != 0 && edge(u, v) {
                best = best.max(1 + brute(n, edge, rest & !(1 << v)));
            }
        }
        best
    }

    #[test]
    fn agrees_with_brute_force_on_small_graphs() {
        let mut seed = 12345u64;
        for trial in 0..400 {
            let n = 2 + trial % 9;
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let bits = seed;
            let edge = |u: usize, v: usize| {
                let (a, b) = (u.min(v), u.max(v));
                (bits >> ((a * 7 + b * 3) % 61)) & 1 == 1
            };
            let m = Matching::maximum(n, &edge);
            assert_eq!(m.size(), brute(n, &edge, (1 << n) - 1), "trial {trial}");
            // Every pair taken out, not only the first two (which missed the case below).
            for a in 0..n {
                for b in a + 1..n {
                    assert_eq!(
                        m.without(a, b, &edge).size(),
                        brute(n, &edge, ((1 << n) - 1) & !(1 << a) & !(1 << b)),
                        "trial {trial} without {a} and {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn taking_two_out_keeps_the_largest_matching_of_what_is_left() {
        // Found by a review: 0 and 1 taken out free 2 and 3, which the old search paired with
        // each other first, leaving 4 and 5 bare where 2-4 and 3-5 pair all four.
        let edges = [(0, 2), (1, 3), (2, 3), (2, 4), (3, 5)];
        let edge = |u: usize, v: usize| edges.contains(&(u.min(v), u.max(v)));
        let m = Matching::maximum(6, &edge);
        assert_eq!(m.size(), 2);
        assert_eq!(m.without(0, 1, &edge).size(), 2);
    }

    #[test]
    fn finds_a_matching_through_an_odd_cycle() {
        // A triangle 0-1-2 with a tail 2-3 and 0-4: only a path through the blossom pairs all.
        let edges = [(0, 1), (1, 2), (0, 2), (2, 3), (0, 4), (4, 5)];
        let edge = |u: usize, v: usize| edges.contains(&(u.min(v), u.max(v)));
        assert_eq!(Matching::maximum(6, &edge).size(), 3);
    }
}
