//! Title norms as the FIDE Title Regulations (Handbook B.01) count them: for one player, does
//! this event meet a GM, IM, WGM or WIM norm, and if not, what is missing. What a player's
//! games decide is checked here; what the event decides (a standard rate of play, at most
//! two games a day, the arbiters, the registration, the exceptions of 1.43 for national
//! and team championships) is the chief arbiter's to certify and is not.
//!
//! ## The requirements, per norm
//! * **Games** (1.41): at least 9 games played over the board; 8 are enough when the player
//!   also won a round without playing that the player did not ask for (a pairing-allocated
//!   bye or a forfeit win). Forfeits, byes and absences are not games; the performance
//!   counts the games played.
//! * **Titled opponents** (1.45): at least half the opponents hold a title other than CM and
//!   WCM, and at least a third of them, and no fewer than 3, hold the norm's title or a
//!   higher one (GM norm: GMs; IM: GMs and IMs; WGM: GMs, IMs and WGMs; WIM: those and
//!   WIMs).
//! * **Federations** (1.43, 1.44): at least two federations other than the player's among the
//!   opponents; at most 3/5 of the opponents from the player's federation, at most 2/3 from
//!   any one federation (rounded down).
//! * **Ratings** (1.46): the ratings at the start of the event; an unrated opponent counts
//!   as 1400 (the rating floor), and at most a fifth of the opponents may be unrated. One
//!   opponent rated below the norm's floor (GM 2200, IM 2050, WGM 2000, WIM 1850), the
//!   lowest, is raised to it.
//! * **Average and performance** (1.47, 1.48): the opponents' average `Ra` (rounded half up)
//!   at least GM 2380, IM 2230, WGM 2180, WIM 2030, and the performance `Ra + dp` at least
//!   GM 2600, IM 2450, WGM 2400, WIM 2250 ([`crate::engine::chess::rating`]), with at least
//!   35 % of the points.
//!
//! WGM and WIM norms are for women: a player recorded as a man (sex `m`) is not checked for
//! them. When a norm is missed by the score alone, the result names the score that would
//! have made it on the same games.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::chess::rating::{average_rating, DP};

/// A FIDE title (B.01 0.3), written as FIDE abbreviates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
pub enum Title {
    GM,
    IM,
    WGM,
    FM,
    WIM,
    CM,
    WFM,
    WCM,
}

impl Title {
    /// Reads `GM`, `g`, `WIM`, `wm`… (TRF columns 11-13 and the usual spellings).
    pub fn parse(text: &str) -> Option<Title> {
        Some(match text.trim().to_ascii_uppercase().as_str() {
            "GM" | "G" => Title::GM,
            "IM" | "M" => Title::IM,
            "WGM" | "WG" => Title::WGM,
            "FM" | "F" => Title::FM,
            "WIM" | "WM" => Title::WIM,
            "CM" | "C" => Title::CM,
            "WFM" | "WF" => Title::WFM,
            "WCM" | "WC" => Title::WCM,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Title::GM => "GM",
            Title::IM => "IM",
            Title::WGM => "WGM",
            Title::FM => "FM",
            Title::WIM => "WIM",
            Title::CM => "CM",
            Title::WFM => "WFM",
            Title::WCM => "WCM",
        }
    }
}

/// The norms B.01 knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub enum Norm {
    GM,
    IM,
    WGM,
    WIM,
}

impl Norm {
    pub const ALL: [Norm; 4] = [Norm::GM, Norm::IM, Norm::WGM, Norm::WIM];

    /// (rating floor, minimum average, minimum performance)
    fn levels(self) -> (i32, i32, i32) {
        match self {
            Norm::GM => (2200, 2380, 2600),
            Norm::IM => (2050, 2230, 2450),
            Norm::WGM => (2000, 2180, 2400),
            Norm::WIM => (1850, 2030, 2250),
        }
    }

    /// Whether an opponent's title counts toward the norm's third.
    fn counts(self, t: Title) -> bool {
        match self {
            Norm::GM => t == Title::GM,
            Norm::IM => matches!(t, Title::GM | Title::IM),
            Norm::WGM => matches!(t, Title::GM | Title::IM | Title::WGM),
            Norm::WIM => matches!(t, Title::GM | Title::IM | Title::WGM | Title::WIM),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Norm::GM => "GM",
            Norm::IM => "IM",
            Norm::WGM => "WGM",
            Norm::WIM => "WIM",
        }
    }
}

/// An opponent met over the board, as the norm counts them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opponent {
    pub rating: Option<i32>,
    pub title: Option<Title>,
    pub federation: Option<String>,
    /// Points scored against this opponent, in half-points.
    pub half_points: u32,
}

/// One player's event, as the norm counts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormInput {
    pub federation: Option<String>,
    /// `Some(false)` for a player recorded as a man (no women's norms).
    pub woman: Option<bool>,
    /// The games played over the board.
    pub opponents: Vec<Opponent>,
    /// Rounds won without playing that the player did not ask for (PAB, forfeit win).
    pub unrequested_wins: u32,
}

/// Whether a norm is met, and what is missing when it is not.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct NormCheck {
    pub norm: Norm,
    pub met: bool,
    /// The games counted.
    pub games: u32,
    /// The opponents' average rating, the lowest raised to the floor (rounded half up).
    pub average_rating: Option<i32>,
    /// `Ra + dp`.
    pub performance: Option<i32>,
    /// What is missing, one line per requirement not met (empty when met).
    pub missing: Vec<String>,
    /// The points (on the same games) that would have reached the performance, when the
    /// score is what is missing.
    pub points_needed: Option<f64>,
}

/// Ra + dp of `half` half-points on `ratings`.
fn performance(half: u32, ratings: &[i32]) -> Option<i32> {
    let ra = average_rating(ratings)?;
    let n = ratings.len() as i64;
    let percent = crate::engine::chess::rating::round_half_up(half as i64 * 50, n) as usize;
    Some(ra + DP[percent.min(100)])
}

/// Checks one norm.
pub fn check(input: &NormInput, norm: Norm) -> NormCheck {
    let (floor, min_average, min_performance) = norm.levels();
    let opponents = &input.opponents;
    let n = opponents.len() as u32;
    let mut missing = Vec::new();
    let enough = n >= 9 || (n == 8 && input.unrequested_wins > 0);
    if !enough {
        missing.push(format!(
            "{n} games played over the board: 9 needed (8 with an unrequested bye or forfeit win)"
        ));
    }
    let titled = opponents
        .iter()
        .filter(|o| {
            o.title
                .is_some_and(|t| !matches!(t, Title::CM | Title::WCM))
        })
        .count() as u32;
    if titled * 2 < n {
        missing.push(format!(
            "{titled} of {n} opponents hold a title (CM and WCM aside): half needed"
        ));
    }
    let of_norm = opponents
        .iter()
        .filter(|o| o.title.is_some_and(|t| norm.counts(t)))
        .count() as u32;
    let needed = n.div_ceil(3).max(3);
    if of_norm < needed {
        missing.push(format!(
            "{of_norm} opponents hold the {} title or a higher one: {needed} needed (a third, at least 3)",
            norm.as_str()
        ));
    }
    let own = input.federation.as_deref().filter(|f| !f.is_empty());
    let mut by_federation: std::collections::BTreeMap<&str, u32> = Default::default();
    let mut unknown = 0;
    for o in opponents {
        match o
            .federation
            .as_deref()
            .filter(|f| !f.is_empty() && *f != "FID")
        {
            Some(f) => *by_federation.entry(f).or_default() += 1,
            None => unknown += 1,
        }
    }
    match own {
        None => missing.push("the player's federation is not known".into()),
        Some(own) => {
            let others = by_federation.keys().filter(|f| **f != own).count();
            if others < 2 {
                missing.push(format!(
                    "opponents from {others} federation(s) other than {own}: 2 needed"
                ));
            }
            let home = by_federation.get(own).copied().unwrap_or(0);
            if home * 5 > n * 3 {
                missing.push(format!(
                    "{home} of {n} opponents from {own}: at most {} (3/5)",
                    n * 3 / 5
                ));
            }
        }
    }
    if let Some((f, most)) = by_federation.iter().max_by_key(|(_, c)| **c) {
        if most * 3 > n * 2 {
            missing.push(format!(
                "{most} of {n} opponents from {f}: at most {} (2/3)",
                n * 2 / 3
            ));
        }
    }
    if unknown > 0 {
        missing.push(format!(
            "{unknown} opponent(s) without a federation (or FID): not counted toward the federations"
        ));
    }
    let unrated = opponents.iter().filter(|o| o.rating.is_none()).count() as u32;
    if unrated * 5 > n {
        missing.push(format!(
            "{unrated} of {n} opponents unrated: at most a fifth"
        ));
    }
    let mut ratings: Vec<i32> = opponents
        .iter()
        .map(|o| o.rating.filter(|&r| r > 0).unwrap_or(1400))
        .collect();
    if let Some(lowest) = ratings.iter_mut().min() {
        *lowest = (*lowest).max(floor);
    }
    let half: u32 = opponents.iter().map(|o| o.half_points).sum();
    let ra = average_rating(&ratings);
    let rp = performance(half, &ratings);
    if ra.is_some_and(|ra| ra < min_average) {
        missing.push(format!(
            "average rating {} of the opponents: {min_average} needed",
            ra.unwrap_or_default()
        ));
    }
    let mut points_needed = None;
    if rp.is_some_and(|rp| rp < min_performance) || half * 20 < n * 7 {
        let reach = (half..=2 * n).find(|&h| {
            performance(h, &ratings).is_some_and(|p| p >= min_performance) && h * 20 >= n * 7
        });
        missing.push(format!(
            "performance {} ({} of {n}): {min_performance} needed{}",
            rp.map(|r| r.to_string()).unwrap_or_default(),
            crate::engine::chess::scoring::format_half_points(half),
            reach
                .map(|h| format!(
                    ", i.e. {} points",
                    crate::engine::chess::scoring::format_half_points(h)
                ))
                .unwrap_or_else(|| ", out of reach on these games".into())
        ));
        points_needed = reach.map(|h| h as f64 / 2.0);
    }
    NormCheck {
        norm,
        met: missing.is_empty(),
        games: n,
        average_rating: ra,
        performance: rp,
        missing,
        points_needed,
    }
}

/// A player as the norms of the opponents count them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NormPlayer {
    pub rating: Option<i32>,
    pub title: Option<Title>,
    pub federation: Option<String>,
    pub woman: Option<bool>,
}

/// Each player's [`NormInput`] from the section's games and byes.
pub fn inputs(
    players: &[NormPlayer],
    games: &[crate::engine::chess::games::ScoredGame],
    byes: &[crate::engine::chess::games::ScoredBye],
) -> Vec<NormInput> {
    let mut out: Vec<NormInput> = players
        .iter()
        .map(|p| NormInput {
            federation: p.federation.clone(),
            woman: p.woman,
            opponents: Vec::new(),
            unrequested_wins: 0,
        })
        .collect();
    let mut sorted: Vec<_> = games.iter().collect();
    sorted.sort_by_key(|g| g.round);
    for g in sorted {
        let Some(r) = g.result else { continue };
        let (w, b) = r.half_points();
        if r.played() {
            for (me, other, half) in [(g.white, g.black, w), (g.black, g.white, b)] {
                let o = &players[other];
                out[me].opponents.push(Opponent {
                    rating: o.rating.filter(|&r| r > 0),
                    title: o.title,
                    federation: o.federation.clone(),
                    half_points: half,
                });
            }
        } else {
            for (me, half) in [(g.white, w), (g.black, b)] {
                if half == 2 {
                    out[me].unrequested_wins += 1;
                }
            }
        }
    }
    for b in byes.iter().filter(|b| b.allocated && b.half_points == 2) {
        out[b.player].unrequested_wins += 1;
    }
    out
}

/// Every norm the player can make (the women's norms unless recorded as a man).
pub fn check_all(input: &NormInput) -> Vec<NormCheck> {
    Norm::ALL
        .iter()
        .filter(|n| !(matches!(n, Norm::WGM | Norm::WIM) && input.woman == Some(false)))
        .map(|&n| check(input, n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opp(rating: i32, title: &str, fed: &str, half: u32) -> Opponent {
        Opponent {
            rating: Some(rating),
            title: Title::parse(title),
            federation: Some(fed.into()),
            half_points: half,
        }
    }

    /// Nine opponents averaging 2400 (3 GMs, 2 IMs, 2 FMs), from four federations; 7 points.
    fn nine(score: [u32; 9]) -> NormInput {
        let list = [
            (2550, "GM", "GER"),
            (2500, "GM", "NED"),
            (2480, "g", "FRA"),
            (2420, "IM", "GER"),
            (2400, "IM", "NED"),
            (2350, "FM", "ENG"),
            (2300, "f", "FRA"),
            (2250, "", "ENG"),
            (2350, "", "ENG"),
        ];
        NormInput {
            federation: Some("ENG".into()),
            woman: Some(false),
            opponents: list
                .iter()
                .zip(score)
                .map(|(&(r, t, f), h)| opp(r, t, f, h))
                .collect(),
            unrequested_wins: 0,
        }
    }

    #[test]
    fn a_gm_norm_met_and_missed_by_half_a_point() {
        // Ra = 21600 / 9 = 2400; 7 of 9 = 78 % -> dp 220: Rp 2620 >= 2600
        let made = check(&nine([2, 2, 2, 2, 2, 1, 1, 1, 1]), Norm::GM);
        assert_eq!(made.average_rating, Some(2400));
        assert_eq!(made.performance, Some(2620));
        assert!(made.met, "{:?}", made.missing);
        // 6½ of 9 = 72 % -> dp 166: 2566, short; 7 points needed
        let missed = check(&nine([2, 2, 2, 2, 1, 1, 1, 1, 1]), Norm::GM);
        assert!(!missed.met);
        assert_eq!(missed.points_needed, Some(7.0));
        assert_eq!(missed.missing.len(), 1, "{:?}", missed.missing);
        // no women's norms for a man
        assert_eq!(check_all(&nine([2; 9])).len(), 2);
    }

    #[test]
    fn what_is_missing_is_named() {
        let mut few = nine([2; 9]);
        few.opponents.truncate(7);
        for o in &mut few.opponents {
            o.federation = Some("ENG".into());
        }
        let c = check(&few, Norm::IM);
        let text = c.missing.join("; ");
        assert!(text.contains("7 games played"), "{text}");
        assert!(text.contains("other than ENG"), "{text}");
        assert!(text.contains("at most 4 (3/5)"), "{text}");
        // the lowest opponent is raised to the floor, only one
        let mut low = nine([2; 9]);
        low.opponents[7].rating = Some(1800);
        low.opponents[8].rating = Some(1900);
        let c = check(&low, Norm::GM);
        // 2550+2500+2480+2420+2400+2350+2300+2200(1800 raised)+1900 = 21100 / 9 = 2344.4
        assert_eq!(c.average_rating, Some(2344));
    }
}
