//! Giving memory back to the operating system after big work.
//!
//! A 2 000-player pairing allocates tens of MiB on a blocking thread and frees them when it is
//! done; glibc's malloc keeps freed pages in the thread's arena (one per thread, up to eight
//! per core), so a server that paired once stayed at ~97 MiB idle. Two calls of glibc itself
//! fix it (no crate; other C libraries and targets do nothing here):
//!
//! * [`limit_arenas`] at start-up: at most two arenas, so the blocking threads share their
//!   freed memory instead of each keeping its own (`M_ARENA_MAX`, as `MALLOC_ARENA_MAX=2`);
//! * [`give_back`] after a pairing (`malloc_trim(0)` returns the free pages of every arena),
//!   and every half minute from [`give_back_every`] for what bursts of reads leave behind.
//!
//! Measured on the release build (2 000 players, round 1 paired and published, 40 reads, then
//! idle): 63-67 MiB as it was; with this module 40-41 MiB at once (the pairing's section is
//! still alive when it is trimmed) and 25 MiB after the next periodic trim.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use std::ffi::c_int;

    /// `mallopt`'s parameter number for the most arenas (glibc's malloc.h).
    pub const M_ARENA_MAX: c_int = -8;

    extern "C" {
        pub fn mallopt(param: c_int, value: c_int) -> c_int;
        pub fn malloc_trim(pad: usize) -> c_int;
    }
}

/// Caps malloc's arenas at `arenas` (call once, early).
pub fn limit_arenas(arenas: i32) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; any value is accepted or refused.
    unsafe {
        glibc::mallopt(glibc::M_ARENA_MAX, arenas);
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = arenas;
}

/// Returns the allocator's free pages to the operating system (a few ms after a big pairing).
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim walks malloc's own free lists under its locks; no pointer is passed.
    unsafe {
        glibc::malloc_trim(0);
    }
}

/// Starts a thread that gives memory back every `period` (a trim with little to free costs
/// microseconds).
pub fn give_back_every(period: std::time::Duration) {
    let _ = std::thread::Builder::new()
        .name("memory-trim".into())
        .spawn(move || loop {
            std::thread::sleep(period);
            give_back();
        });
}
