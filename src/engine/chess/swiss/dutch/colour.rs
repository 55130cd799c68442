//! Colour allocation of a board (C.04.3 E) and the colour criteria of a pair (C.04.3 C.10,
//! C.12, C.13 and the topscorer exceptions of the last round, C.04.3 A.7 / C.3).

use super::player::DutchPlayer;
use crate::engine::chess::swiss::Colour;

/// Preferences that do not clash: different, or at least one player without one.
pub(crate) fn compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none() || b.is_none()
}

/// Ranks `a` above `b`: higher score, then lower start-number position.
pub(crate) fn ranks_above(a: &DutchPlayer, b: &DutchPlayer) -> bool {
    (a.score, std::cmp::Reverse(a.rank)) > (b.score, std::cmp::Reverse(b.rank))
}

/// The colours of the most recent round in which the two played different colours (played
/// games only, each history read backwards on its own), if any (C.04.3 E.3).
fn first_difference(a: &DutchPlayer, b: &DutchPlayer) -> Option<(Colour, Colour)> {
    a.colours
        .iter()
        .rev()
        .zip(b.colours.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(x, y)| (*x, *y))
}

/// The rule of C.04.3 E that allocated the colours of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Allocation {
    /// E.1: both preferences granted (or the one preference, when the other has none).
    BothPreferences,
    /// E.2: the stronger preference granted (absolute over strong over mild; of two absolute,
    /// the wider colour difference).
    Stronger,
    /// E.3: colours alternated against the most recent round in which they differed.
    History,
    /// E.4: the higher-ranked player's preference granted.
    HigherRanked,
    /// E.5: by the higher-ranked player's pairing number and the initial colour.
    PairingNumber,
}

/// E.1-E.3: the colour of `p` against `o` decided by preferences and history, and the rule
/// that decided; `None` when the two are alike in every respect (then the rank decides,
/// E.4/E.5).
pub(crate) fn neutral(p: &DutchPlayer, o: &DutchPlayer) -> Option<(Colour, Allocation)> {
    use Allocation::{BothPreferences, History, Stronger};
    if compatible(p.preference, o.preference) {
        return p
            .preference
            .or(o.preference.map(Colour::opposite))
            .map(|c| (c, BothPreferences));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference.map(|c| (c, Stronger));
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.preference.map(|c| (c.opposite(), Stronger));
    }
    if p.strong && !o.strong {
        return p.preference.map(|c| (c, Stronger));
    }
    if o.strong && !p.strong {
        return o.preference.map(|c| (c.opposite(), Stronger));
    }
    first_difference(p, o).map(|(_, theirs)| (theirs, History))
}

/// The colour of `p` against `o` (C.04.3 E); `initial` is the colour of the top player in
/// round 1 (E.5: the higher-ranked player gets it when his position is odd-numbered).
pub(crate) fn colour_of(p: &DutchPlayer, o: &DutchPlayer, initial: Colour) -> Colour {
    allocate(p, o, initial).0
}

/// [`colour_of`] with the rule that decided (the Swiss engine's FIDE style allocates by it).
pub(crate) fn allocate(p: &DutchPlayer, o: &DutchPlayer, initial: Colour) -> (Colour, Allocation) {
    if let Some(decided) = neutral(p, o) {
        return decided;
    }
    let (higher, p_is_higher) = if ranks_above(p, o) {
        (p, true)
    } else {
        (o, false)
    };
    let (higher_colour, rule) = match higher.preference {
        Some(c) => (c, Allocation::HigherRanked),
        None if higher.rank % 2 == 0 => (initial, Allocation::PairingNumber),
        None => (initial.opposite(), Allocation::PairingNumber),
    };
    if p_is_higher {
        (higher_colour, rule)
    } else {
        (higher_colour.opposite(), rule)
    }
}

/// The four colour flags of a pair inside the bracket, each `true` when the pair is bad on
/// that criterion, in order: two absolute imbalances wanting the same colour (topscorers,
/// last round), two absolute preferences wanting the same colour where the one given it
/// again would get it a third time or beyond balance, clashing preferences (C.10), clashing
/// strong preferences (C.12/C.13). `lower` is the lower-ranked player.
pub(crate) fn pair_flags(lower: &DutchPlayer, higher: &DutchPlayer) -> [bool; 4] {
    let (p, o) = (lower, higher);
    let same = p.preference == o.preference;
    let imbalances = p.absolute_imbalance() && o.absolute_imbalance() && same;
    let repeat_ok = if p.imbalance == o.imbalance {
        p.repeated.is_none() || p.repeated != o.repeated
    } else {
        let less = if p.imbalance > o.imbalance { o } else { p };
        less.repeated != p.preference.map(Colour::opposite)
    };
    let absolutes = p.absolute() && o.absolute() && same && !repeat_ok;
    let clash = !compatible(p.preference, o.preference);
    let strong_p = p.strong || p.absolute();
    let strong_o = o.strong || o.absolute();
    let strong_clash = strong_p && strong_o && !(p.absolute() && o.absolute()) && same;
    [imbalances, absolutes, clash, strong_clash]
}

/// May the two meet without breaking an absolute criterion (C.1 no rematch or forbidden
/// pair, C.3 no two players with the same absolute preference, unless in the last round one
/// of them is a topscorer: more than half the maximum score, `topscore` half-points)?
pub(crate) fn may_meet(a: &DutchPlayer, b: &DutchPlayer, last_round: bool, topscore: i64) -> bool {
    if a.forbidden.contains(&b.sn) || b.forbidden.contains(&a.sn) {
        return false;
    }
    !(a.absolute() && b.absolute() && a.preference == b.preference)
        || (last_round && (a.score > topscore || b.score > topscore))
}
