//! Team colour preferences (1.7) and the colour allocation of a pair (Article 4).

use super::{ColourPreferences, TeamFacts, TeamSwissSettings};
use crate::engine::chess::swiss::Colour;
use std::cmp::{Ordering, Reverse};

/// A team's colour preference: the colour and whether it is strong (Type B; Type A
/// preferences are simple, held as not strong).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preference {
    pub colour: Colour,
    pub strong: bool,
}

/// The team's colour preference for the round (1.7), if any.
pub fn preference(t: &TeamFacts, s: &TeamSwissSettings) -> Option<Preference> {
    if s.preferences == ColourPreferences::None || t.colours.is_empty() {
        return None;
    }
    let cd = t.cd();
    let last_two =
        |c: Colour| t.colours.len() >= 2 && t.colours.iter().rev().take(2).all(|x| *x == c);
    let strong = |colour| {
        Some(Preference {
            colour,
            strong: s.preferences == ColourPreferences::TypeB,
        })
    };
    if cd < -1 || ((cd == 0 || cd == -1) && last_two(Colour::Black)) {
        return strong(Colour::White);
    }
    if cd > 1 || ((cd == 0 || cd == 1) && last_two(Colour::White)) {
        return strong(Colour::Black);
    }
    if s.preferences == ColourPreferences::TypeA {
        return None;
    }
    let last = *t.colours.last().expect("a played match");
    let mild = |colour| {
        Some(Preference {
            colour,
            strong: false,
        })
    };
    match cd {
        -1 => mild(Colour::White),
        1 => mild(Colour::Black),
        0 if !s.last_round() => mild(last.opposite()),
        _ => None,
    }
}

/// The colour of `a`'s first board against `b` (Article 4).
pub fn allocate(a: &TeamFacts, b: &TeamFacts, s: &TeamSwissSettings) -> Colour {
    // 4.2: the first-team.
    let a_first = match b.score.cmp(&a.score) {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => {
            if s.secondary_for_colours && a.secondary != b.secondary {
                a.secondary > b.secondary
            } else {
                a.tpn < b.tpn
            }
        }
    };
    let (first, other) = if a_first { (a, b) } else { (b, a) };
    let colour_of_first = first_team_colour(first, other, s);
    if a_first {
        colour_of_first
    } else {
        colour_of_first.opposite()
    }
}

/// 4.3 for the first-team `f` against `o`: `f`'s colour.
fn first_team_colour(f: &TeamFacts, o: &TeamFacts, s: &TeamSwissSettings) -> Colour {
    // 4.3.1
    if f.colours.is_empty() && o.colours.is_empty() {
        return if f.tpn % 2 == 1 {
            s.initial_colour
        } else {
            s.initial_colour.opposite()
        };
    }
    let (pf, po) = (preference(f, s), preference(o, s));
    match (pf, po) {
        // 4.3.2
        (Some(p), None) => return p.colour,
        (None, Some(p)) => return p.colour.opposite(),
        // 4.3.3
        (Some(p), Some(q)) if p.colour != q.colour => return p.colour,
        // 4.3.4
        (Some(p), Some(q)) if p.strong != q.strong => {
            return if p.strong {
                p.colour
            } else {
                q.colour.opposite()
            }
        }
        _ => {}
    }
    // 4.3.5
    match f.cd().cmp(&o.cd()) {
        Ordering::Less => return Colour::White,
        Ordering::Greater => return Colour::Black,
        Ordering::Equal => {}
    }
    // 4.3.6: the played sequences aligned from the last played match.
    for (cf, co) in f.colours.iter().rev().zip(o.colours.iter().rev()) {
        if cf != co {
            return cf.opposite();
        }
    }
    // 4.3.7
    if let Some(p) = pf {
        return p.colour;
    }
    // 4.3.8
    if let Some(c) = f.colours.last() {
        return c.opposite();
    }
    // 4.3.9 (the other team has played: 4.3.1 did not apply)
    *o.colours.last().expect("one of the two has played")
}

/// The colour of `a` in the first game of its match against `b` by C.04.5 (Double-Swiss),
/// Article 4: no preferences; the higher-ranked player (HRP: the higher score, then the
/// smaller TPN) is the one the rules speak of.
pub fn allocate_double_swiss(a: &TeamFacts, b: &TeamFacts, s: &TeamSwissSettings) -> Colour {
    let a_hrp = (Reverse(a.score), a.tpn) < (Reverse(b.score), b.tpn);
    let (h, o) = if a_hrp { (a, b) } else { (b, a) };
    let of_hrp = hrp_colour(h, o, s);
    if a_hrp {
        of_hrp
    } else {
        of_hrp.opposite()
    }
}

/// 4.3 of C.04.5 for the HRP `h` against `o`: `h`'s colour.
fn hrp_colour(h: &TeamFacts, o: &TeamFacts, s: &TeamSwissSettings) -> Colour {
    // 4.3.1
    if h.colours.is_empty() && o.colours.is_empty() {
        return if h.tpn % 2 == 1 {
            s.initial_colour
        } else {
            s.initial_colour.opposite()
        };
    }
    // 4.3.2: White to the one with fewer Whites.
    let whites = |t: &TeamFacts| t.colours.iter().filter(|&&c| c == Colour::White).count();
    match whites(h).cmp(&whites(o)) {
        Ordering::Less => return Colour::White,
        Ordering::Greater => return Colour::Black,
        Ordering::Equal => {}
    }
    // 4.3.3: the played sequences aligned from the last played match (General Handling
    // Rules 3.4), back to the latest where they differ.
    for (ch, co) in h.colours.iter().rev().zip(o.colours.iter().rev()) {
        if ch != co {
            return ch.opposite();
        }
    }
    // 4.3.4, then 4.3.5 (one of the two has played: 4.3.1 did not apply).
    if let Some(c) = h.colours.last() {
        return c.opposite();
    }
    o.colours.last().copied().unwrap_or(s.initial_colour)
}
