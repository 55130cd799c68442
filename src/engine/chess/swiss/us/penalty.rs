//! The penalty of one candidate board (a pair of players, or a player and the bye).
//!
//! Every board gets seven integer tier values, compared lexicographically (see the module
//! documentation of [`super`] for the function written out with worked numbers):
//!
//! | tier | name            | value of one board |
//! |------|-----------------|--------------------|
//! | 0    | repeat          | 1 if the two have met (or the player already had a full-point bye) |
//! | 1    | preference      | 2 for a pair the director prohibits, 1 for the same team code (when avoided) |
//! | 2    | absolute colour | FIDE style only: the serious-colour value below |
//! | 3    | score           | 4·d² where d = score difference in half-points; for the bye d = score − lowest score, +1 if the player is unrated |
//! | 4    | serious colour  | US style only: per player (run − 2)² for a third (fourth...) colour in a row (`33`) + (\|W−B\| − 2)² for an imbalance beyond 2 (`IMB`), + H for a change beyond the high limit |
//! | 5    | colour          | per player E·(\|W−B\| − 1)² once \|W−B\| reaches 2 (`EQ`; a `33` within balance counts E), 2 per alternation problem (`AL`), + 1 when both players are due the same colour (a clash), + the limit charge (FIDE style: E per clash + (\|W−B\| − 1)² per player, see below) |
//! | 6    | rating          | 8·(rating change, capped at 4000) + min(rank distance, 3) + 4 for an interchange; FIDE style: 4·k² (k = rank distance, capped at 100) + X for an exchange |
//!
//! `W−B` is counted after the game; E = 8·(boards + 1) outweighs every alternation problem,
//! clash and low-limit charge of the round together.
//!
//! *FIDE style* ranks the colour tier as the Dutch system's quality criteria do (FIDE C.04.3
//! C12, then C13): a clash, where one of the two players does not get the colour he is due,
//! costs E, and equalisation counts its units alone, (\|W−B\| − 1)² per player (no `AL`
//! charge): first as few players as possible without their colour, then as few taken out of
//! balance. (Measured over whole events, `scripts/bench-swiss quality` with bbpPairings: the US
//! order, every `EQ` before any clash, left ~5-10 % more clashes than the Dutch engine.)
//! The colours of a board are then those of FIDE C.04.3 E.1-E.5, allocated by the Dutch
//! engine's own code (see [`super::colour`]), so every tier is read for the colours that
//! engine would give.
//!
//! The *rating change* of a board measures its distance from the natural pairing as US
//! Chess directors measure transpositions and interchanges: if `N(x)` is the natural
//! opponent of `x`, the board x–y changes `|r(y) − r(N(x))|` or `|r(x) − r(N(y))|` rating
//! points, whichever is smaller (a transposition of two bottom-half players 60 points apart
//! shows a change of 60 on each of the two boards it touches).
//!
//! *FIDE style* measures that distance as the Dutch system orders its candidates (FIDE
//! C.04.3 D: S2 transposed, then exchanges between S1 and S2): k = |y − N(x)| in ranks, the
//! smaller of the two ways round, and the board costs 4·k², convex, so a transposition is
//! kept as near each head's natural opponent as the tiers above allow. An exchange (both
//! players in the same half of the natural pairing) adds X = 4·100² + 1, more than any
//! transposed board: exchanges only when transpositions cannot do as well on the tiers above.
//! Rating points play no part (the Dutch system ranks, then uses ranks only). Measured over
//! whole events against bbpPairings --dutch (250 players × 9 rounds, seeds 1-200), this took
//! our extra same-colour clashes per event from +3.2 to +0.4 (the US measure let near-rated
//! exchanges stand in for transpositions).
//!
//! *Limit charge* (not in FIDE style): a board whose rating change exceeds the low limit
//! adds 2 to the colour tier (one alternation problem), and one beyond the high limit adds
//! E to the colour tier and H to the serious-colour tier, H = 1 + the serious-colour values
//! of every player's worse colour this round, so a change larger than a limit never pays
//! for a colour correction of that class.

#![allow(clippy::needless_range_loop)]

use super::colour::{assign, assign_fide, fide_view, ColourContext};
use crate::engine::chess::swiss::colour::{classify, due, ColourCode, ColourEffect, ColourReason};
use crate::engine::chess::swiss::dutch::player::DutchPlayer;
use crate::engine::chess::swiss::state::{
    Colour, PairingSystem, PlayerView, SwissSettings, TeamAvoidance,
};

/// Number of tiers.
pub(crate) const TIERS: usize = 7;
pub(crate) const REPEAT: usize = 0;
pub(crate) const PREFERENCE: usize = 1;
/// Serious colour problems (33, IMB) in FIDE style: above the score tier.
pub(crate) const ABSOLUTE_COLOUR: usize = 2;
pub(crate) const SCORE: usize = 3;
/// Serious colour problems (33, IMB) and the high-limit charge in US style: below the score
/// tier, above equalisation and alternation.
pub(crate) const SERIOUS_COLOUR: usize = 4;
pub(crate) const COLOUR: usize = 5;
pub(crate) const RATING: usize = 6;

/// One tier value of one board. Every tier of every board fits (the largest, the US colour
/// tier, is below 8·5 001·98²·2 + 8·5 001 at 10 000 players and 99 rounds): kept narrow
/// because a large section holds a million candidate boards.
pub(crate) type Tier = i32;

/// A tier value computed in `i64`, stored as a [`Tier`] (saturating; never reached within
/// the limits).
pub(crate) fn narrow(x: i64) -> Tier {
    Tier::try_from(x).unwrap_or(if x < 0 { Tier::MIN } else { Tier::MAX })
}

/// Rating changes above this are counted as this (keeps the numbers small).
pub(crate) const CHANGE_CAP: i64 = 4000;
/// FIDE style: rank distances above this are counted as this.
pub(crate) const RANK_CAP: i64 = 100;
/// FIDE style: the rating tier of an exchanged board, more than of any transposed one.
const EXCHANGE: i64 = 4 * RANK_CAP * RANK_CAP + 1;

/// The players to pair this round, ranked, with their natural pairing.
pub(crate) struct Model {
    /// Available players, ranked: score desc, rating desc, start number asc.
    pub players: Vec<PlayerView>,
    /// Vertex of the bye (= players.len()) when the count is odd.
    pub bye: Option<usize>,
    /// Natural partner of every vertex (bye vertex included).
    pub natural: Vec<usize>,
    /// Lowest score among the available players (half-points).
    pub min_score: i64,
    /// Weight of one unit of equalisation in the colour tier: 8·(boards + 1), more than all
    /// alternation problems, clashes and low-limit charges of a round together.
    pub eq_weight: i64,
    /// The serious-colour charge of a change beyond the high limit (US style): 1 + the
    /// serious-colour values of every player's worse colour, more than any saving.
    pub high_serious: i64,
    pub colour_ctx: ColourContext,
    /// FIDE style: the players as the Dutch colour rules see them (indexed like `players`),
    /// for the allocation by C.04.3 E; empty otherwise.
    pub fide: Vec<DutchPlayer>,
    pub high_limit: i64,
    pub low_limit: i64,
    pub fide_style: bool,
    pub avoid_teams: bool,
    pub prohibited: Vec<(u32, u32)>,
}

/// One candidate board with its tier values and what they are made of.
#[derive(Debug, Clone)]
pub(crate) struct Board {
    pub u: usize,
    pub v: usize,
    pub tiers: [Tier; TIERS],
    /// Colour of `u` (the higher-ranked); none for the bye.
    pub colour_u: Option<Colour>,
    pub reason: Option<ColourReason>,
    pub codes: [ColourCode; 2],
    /// Rating change (points).
    pub change: i32,
    /// Score difference in half-points.
    pub drop: i32,
    pub rematch: bool,
    pub team: bool,
    pub prohibited: bool,
}

impl Model {
    pub fn vertices(&self) -> usize {
        self.players.len() + usize::from(self.bye.is_some())
    }

    fn rating(&self, v: usize) -> Option<i64> {
        self.players.get(v).map(|p| p.rating as i64)
    }

    /// Rating change and rank distance of the board u–v (u < v as vertices).
    pub fn change(&self, u: usize, v: usize) -> (i64, i64) {
        if self.natural[u] == v {
            return (0, 0);
        }
        let mut best: Option<(i64, i64)> = None;
        for (x, y) in [(u, v), (v, u)] {
            let n = self.natural[x];
            let (Some(ry), Some(rn)) = (self.rating(y), self.rating(n)) else {
                continue;
            };
            let cand = ((ry - rn).abs(), (y as i64 - n as i64).abs());
            if best.is_none_or(|b| cand < b) {
                best = Some(cand);
            }
        }
        best.unwrap_or((0, 0))
    }

    /// Rank distance of the board u–v from the natural pairing: the smaller of
    /// |y − N(x)| over the two ways round.
    pub fn rank_distance(&self, u: usize, v: usize) -> i64 {
        [(u, v), (v, u)]
            .map(|(x, y)| (y as i64 - self.natural[x] as i64).abs())
            .into_iter()
            .min()
            .unwrap_or(0)
    }

    /// The rating tier of the board u–v, whose rating change and rank distance are
    /// `change` and `rank` (see [`Model::change`]).
    pub fn rating_tier(&self, u: usize, v: usize, change: i64, rank: i64) -> i64 {
        // Two players of the same half of the natural pairing: an interchange (US Chess),
        // an exchange between S1 and S2 (FIDE C.04.3 D.3).
        let interchange = v != self.players.len() && (self.natural[u] > u) == (self.natural[v] > v);
        let i = i64::from(interchange);
        if self.fide_style {
            // The Dutch order: transpositions before exchanges, each as near the natural
            // S1[i]-S2[i] as possible. One exchanged board outweighs any transposition.
            let k = self.rank_distance(u, v).min(RANK_CAP);
            return 4 * k * k + EXCHANGE * i;
        }
        8 * change.min(CHANGE_CAP) + rank.min(3) + 4 * i
    }

    /// The largest rating tier of any board.
    pub fn max_rating_tier(&self) -> i64 {
        if self.fide_style {
            4 * RANK_CAP * RANK_CAP + EXCHANGE
        } else {
            8 * CHANGE_CAP + 3 + 4
        }
    }

    /// The serious-colour and colour tiers of a board (see the table above), written into
    /// `b.tiers` for the colours of `b`.
    fn set_colour_tiers(&self, b: &mut Board) {
        let mut serious = 0;
        let mut colour = 0;
        if let (Some(cu), true) = (b.colour_u, Some(b.v) != self.bye) {
            let (x, y) = (&self.players[b.u], &self.players[b.v]);
            for (p, c) in [(x, cu), (y, cu.opposite())] {
                let e = ColourEffect::of(p, c);
                serious += e.serious();
                if self.fide_style {
                    colour += e.equalisation();
                } else {
                    colour += self.eq_weight * e.equalisation();
                    if e.code() == ColourCode::Al {
                        colour += 2;
                    }
                }
            }
            // A clash: one of the two does not get the colour he is due. In FIDE style the
            // number of such players comes first (C.04.3 C12), then equalisation (C13).
            if due(x).is_some() && due(x) == due(y) {
                colour += if self.fide_style { self.eq_weight } else { 1 };
            }
        }
        if !self.fide_style {
            if i64::from(b.change) > self.high_limit {
                colour += self.eq_weight;
                serious += self.high_serious;
            } else if i64::from(b.change) > self.low_limit {
                colour += 2;
            }
        }
        let at = if self.fide_style {
            ABSOLUTE_COLOUR
        } else {
            SERIOUS_COLOUR
        };
        b.tiers[ABSOLUTE_COLOUR] = 0;
        b.tiers[SERIOUS_COLOUR] = 0;
        b.tiers[at] = narrow(serious);
        b.tiers[COLOUR] = narrow(colour);
    }

    /// The board u–v (u < v, both players) with the colour of `u` given (a director's
    /// choice): the colour codes and the colour tier are those of the colours as given;
    /// `reason` stays what the colour rules would say.
    pub fn board_coloured(&self, u: usize, v: usize, colour_u: Colour) -> Board {
        let mut b = self.board(u, v);
        if Some(v) == self.bye {
            return b;
        }
        b.colour_u = Some(colour_u);
        b.codes = [
            classify(&self.players[u], colour_u),
            classify(&self.players[v], colour_u.opposite()),
        ];
        self.set_colour_tiers(&mut b);
        b
    }

    /// The board u–v (u < v; v may be the bye vertex).
    pub fn board(&self, u: usize, v: usize) -> Board {
        let mut tiers = [0i64; TIERS];
        let (change, rank) = self.change(u, v);
        let x = &self.players[u];
        let mut b = Board {
            u,
            v,
            tiers: [0; TIERS],
            colour_u: None,
            reason: None,
            codes: [ColourCode::Ok; 2],
            change: narrow(change),
            drop: 0,
            rematch: false,
            team: false,
            prohibited: false,
        };
        if Some(v) == self.bye {
            b.rematch = x.had_full_bye;
            tiers[REPEAT] = i64::from(x.had_full_bye);
            let d = x.score - self.min_score;
            b.drop = narrow(d);
            tiers[SCORE] = 4 * d * d + i64::from(x.unrated);
        } else {
            let y = &self.players[v];
            b.rematch = x.met.contains(&y.sn);
            tiers[REPEAT] = i64::from(b.rematch);
            b.prohibited = self.prohibited.contains(&(x.sn.min(y.sn), x.sn.max(y.sn)));
            b.team = self.avoid_teams && x.team.is_some() && x.team == y.team;
            tiers[PREFERENCE] = 2 * i64::from(b.prohibited) + i64::from(b.team);
            let d = (x.score - y.score).abs();
            b.drop = narrow(d);
            tiers[SCORE] = 4 * d * d;
            let (c, reason) = if self.fide.is_empty() {
                assign(x, y, &self.colour_ctx)
            } else {
                assign_fide(&self.fide[u], &self.fide[v], self.colour_ctx.first_colour)
            };
            b.colour_u = Some(c);
            b.reason = Some(reason);
            b.codes = [classify(x, c), classify(y, c.opposite())];
        }
        tiers[RATING] = self.rating_tier(u, v, change, rank);
        b.tiers = tiers.map(narrow);
        self.set_colour_tiers(&mut b);
        b
    }
}

/// Ranks the players and lays out the natural pairing.
pub(crate) fn build_model(
    mut players: Vec<PlayerView>,
    settings: &SwissSettings,
    round: u32,
    first_colour: Colour,
) -> Model {
    players.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.rating.cmp(&a.rating))
            .then(a.sn.cmp(&b.sn))
    });
    let n = players.len();
    let bye = (n % 2 == 1).then_some(n);
    let min_score = players.iter().map(|p| p.score).min().unwrap_or(0);
    let mut natural = vec![usize::MAX; n + usize::from(bye.is_some())];
    let mut pool: Vec<usize> = (0..n).collect();
    if let Some(bv) = bye {
        // The natural bye: the lowest-ranked player of the lowest score group who has not had
        // one, rated before unrated; same order as the penalty (repeat, score tier, rank).
        let z = (0..n)
            .min_by_key(|&i| {
                let p = &players[i];
                let d = p.score - min_score;
                (
                    p.had_full_bye,
                    4 * d * d + i64::from(p.unrated),
                    std::cmp::Reverse(i),
                )
            })
            .expect("odd count has a player");
        natural[z] = bv;
        natural[bv] = z;
        pool.retain(|&i| i != z);
    }
    // Top-down layout: players dropped from a group play the top of the next group, the rest
    // of the group is paired by the system, an odd player drops.
    let mut carry: Vec<usize> = Vec::new();
    let mut k = 0;
    while k < pool.len() {
        let s = players[pool[k]].score;
        let mut group = Vec::new();
        while k < pool.len() && players[pool[k]].score == s {
            group.push(pool[k]);
            k += 1;
        }
        let m = carry.len().min(group.len());
        for i in 0..m {
            natural[carry[i]] = group[i];
            natural[group[i]] = carry[i];
        }
        let mut next: Vec<usize> = carry[m..].to_vec();
        let mut rest: Vec<usize> = group[m..].to_vec();
        if rest.len() % 2 == 1 {
            next.push(rest.pop().expect("odd is non-empty"));
        }
        pair_by_system(&rest, settings.system, &mut natural);
        carry = next;
    }
    pair_by_system(&carry, settings.system, &mut natural);
    let last_round = settings.total_rounds != 0 && round == settings.total_rounds;
    let avoid_teams = match settings.team_avoidance {
        TeamAvoidance::Ignore => false,
        TeamAvoidance::Avoid => true,
        TeamAvoidance::AvoidFirstN => round <= settings.team_avoidance_rounds,
    };
    let played = round.saturating_sub(1) as i64;
    let high_serious = 1 + players
        .iter()
        .map(|p| {
            [Colour::White, Colour::Black]
                .map(|c| ColourEffect::of(p, c).serious())
                .into_iter()
                .max()
                .unwrap_or(0)
        })
        .sum::<i64>();
    let fide = if settings.fide_style {
        players.iter().map(fide_view).collect()
    } else {
        Vec::new()
    };
    Model {
        fide,
        high_serious,
        eq_weight: 8 * ((n as i64 + 1) / 2 + 1),
        players,
        bye,
        natural,
        min_score,
        colour_ctx: ColourContext {
            rule: settings.colour_rule,
            last_round,
            // Even or plus: score >= half the rounds played (half-points: score >= played).
            even_threshold: played,
            first_colour,
            seed: settings.seed,
            round,
        },
        high_limit: settings.high_limit as i64,
        low_limit: settings.low_limit as i64,
        fide_style: settings.fide_style,
        avoid_teams,
        prohibited: settings
            .prohibited_pairs
            .iter()
            .map(|p| (p[0].min(p[1]), p[0].max(p[1])))
            .collect(),
    }
}

fn pair_by_system(list: &[usize], system: PairingSystem, natural: &mut [usize]) {
    let h = list.len() / 2;
    for i in 0..h {
        let (a, b) = match system {
            PairingSystem::Swiss
            | PairingSystem::FideDutch
            | PairingSystem::FideBurstein
            | PairingSystem::FideDubov
            | PairingSystem::FideLim => (list[i], list[i + h]),
            PairingSystem::Adjacent => (list[2 * i], list[2 * i + 1]),
        };
        natural[a] = b;
        natural[b] = a;
    }
}
