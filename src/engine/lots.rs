//! Drawing lots: the order in which participants receive pairing numbers 1, 2, 3...

use crate::engine::rng::SplitMix64;

/// A participant as the draw sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entrant {
    /// Any stable key (the entry order breaks ties).
    pub key: i64,
    pub rating: Option<i32>,
}

/// At random: the entrants in key order, shuffled by the seed. The same seed and the same
/// entrants always give the same numbers.
pub fn draw_random(entrants: &[Entrant], seed: u64) -> Vec<i64> {
    let mut keys: Vec<i64> = entrants.iter().map(|e| e.key).collect();
    keys.sort_unstable();
    SplitMix64::new(seed).shuffle(&mut keys);
    keys
}

/// By rating, highest first; unrated entrants last; equal ratings by key (entry order).
pub fn draw_by_rating(entrants: &[Entrant]) -> Vec<i64> {
    let mut sorted = entrants.to_vec();
    sorted.sort_by_key(|e| (e.rating.is_none(), std::cmp::Reverse(e.rating), e.key));
    sorted.into_iter().map(|e| e.key).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrants() -> Vec<Entrant> {
        vec![
            Entrant {
                key: 1,
                rating: Some(1500),
            },
            Entrant {
                key: 2,
                rating: None,
            },
            Entrant {
                key: 3,
                rating: Some(2100),
            },
            Entrant {
                key: 4,
                rating: Some(1500),
            },
        ]
    }

    #[test]
    fn by_rating_puts_the_strongest_first_and_unrated_last() {
        assert_eq!(draw_by_rating(&entrants()), vec![3, 1, 4, 2]);
    }

    #[test]
    fn random_draw_is_a_reproducible_permutation() {
        let a = draw_random(&entrants(), 99);
        let mut reversed = entrants();
        reversed.reverse();
        // Input order does not matter, only the seed.
        assert_eq!(a, draw_random(&reversed, 99));
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, vec![1, 2, 3, 4]);
        let different = (0..20).any(|s| draw_random(&entrants(), s) != a);
        assert!(different);
    }
}
