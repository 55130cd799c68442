//! Two pieces of work at once: the passes over every pair of a large solve are shared
//! between this thread and a second one.

use std::{panic, thread};

/// Runs `a` on this thread while `b` runs on a second one, and returns both results. When
/// no thread can be started, `b` runs here after `a`; a panic in `b` goes on here.
pub(crate) fn both<A, B: Send>(a: impl FnOnce() -> A, b: impl Fn() -> B + Sync) -> (A, B) {
    thread::scope(|s| {
        let second = thread::Builder::new().spawn_scoped(s, &b);
        let ra = a();
        let rb = match second {
            Ok(h) => h.join().unwrap_or_else(|e| panic::resume_unwind(e)),
            Err(_) => b(),
        };
        (ra, rb)
    })
}

#[cfg(test)]
mod tests {
    use super::both;

    #[test]
    fn both_results_come_back_in_their_places() {
        let v: Vec<u64> = (1..=1000).collect();
        let (lo, hi) = both(
            || v[..500].iter().sum::<u64>(),
            || v[500..].iter().sum::<u64>(),
        );
        assert_eq!((lo, hi), (125_250, 375_250));
    }
}
