//! The tie-breaks a director may order, and an event's tie-break settings: the ordered list
//! (`tiebreaks`), which text of the FIDE regulations computes them (`tiebreak_rules`).
//!
//! ## Naming a tie-break
//! A list holds FIDE codes exactly as C.07 writes them, with their modifiers, or the names
//! this server has always had: `"tiebreaks": ["BH/C1", "BH", "DE", "ARO/C1", "WIN"]`, or
//! `["buchholz_cut1", "buchholz", "direct_encounter"]`, mixed as one likes. A preset name
//! stands for a list: `"fide"` ([`FIDE_TIEBREAKS`]), `"us"` ([`SWISS_TIEBREAKS`]),
//! `"round_robin"` ([`DEFAULT_TIEBREAKS`]). Codes are read whatever their case (FIDE's
//! tie-break descriptors are); a standings line carries each tie-break under the name it was
//! asked by.
//!
//! | code | C.07 | modifiers | our name |
//! | --- | --- | --- | --- |
//! | `DE` | direct encounter (6) | `/P` forfeits count as games | `direct_encounter` |
//! | `WIN` | rounds won, played or not (7.1) | | `wins` |
//! | `WON` | games won over the board (7.2) | | `games_won` |
//! | `BPG` | games played with black (7.3) | | `games_with_black` |
//! | `BWG` | games won with black (7.4) | | |
//! | `PS` | progressive scores (7.5) | `/C1` `/C2` cut the first rounds | `progressive` |
//! | `GE`, `REP` | rounds one elected to play (7.6; `GE` in 2023, `REP` in 2026) | | |
//! | `TPN` | tournament pairing number, lower first (7.8) | `/R` higher first | |
//! | `BH` | Buchholz (8.1) | `/C1` `/C2` `/M1` `/M2` `/P` | `buchholz`, `buchholz_cut1`, `buchholz_cut2`, `median_buchholz` (`BH/M1`) |
//! | `FB` | Fore Buchholz (8.3) | as `BH` | |
//! | `AOB` | average of opponents' Buchholz (8.2) | `/F` of their Fore Buchholz | |
//! | `SB` | Sonneborn-Berger (9.1) | `/C1` `/C2` `/P` | `sonneborn_berger` |
//! | `KS` | Koya (9.2) | `/L<percent>`, `/L+<n>`, `/L-<n>` (half-points) the limit | `koya` |
//! | `ARO` | average rating of opponents (10.1) | `/C1` `/C2` `/M1` `/M2` | `aro_cut1` (`ARO/C1`) |
//! | `TPR` | tournament performance rating (10.2) | | |
//! | `PTP` | perfect tournament performance (10.3) | | |
//! | `APRO` | average of the opponents' TPR (10.4) | | |
//! | `APPO` | average of the opponents' PTP (10.5) | | |
//!
//! Ours, outside C.07: `games_played` (games over the board), `solkoff`, `modified_median`,
//! `cumulative` (US Chess, [`crate::engine::chess::tiebreak`]).
//!
//! A modifier a code does not take, the same modifier twice, a cut and a median together, or
//! a cut beyond 2 is refused, naming the list's entry.
//!
//! ## The text: `tiebreak_rules`
//! `"2023"`: C.07 as applied from 1 September 2023 (FIDE-rated events from 1 April 2024).
//! `"2026"`: as amended by the FIDE Council on 2 February 2026, in force from 1 March 2026.
//! Without the setting the event's start date decides (from 1 March 2026 the amended text;
//! without a start date the amended text, the one in force). What changes is written in
//! [`crate::engine::chess::fide_tiebreak`].

use chrono::NaiveDate;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

/// A tie-break by its C.07 code, or one of ours outside C.07.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    DE,
    WIN,
    WON,
    BPG,
    BWG,
    GE,
    REP,
    PS,
    TPN,
    BH,
    FB,
    AOB,
    SB,
    KS,
    ARO,
    TPR,
    PTP,
    APRO,
    APPO,
    /// Ours: games played over the board.
    GamesPlayed,
    /// US Chess: Solkoff.
    Solkoff,
    /// US Chess: modified median.
    ModifiedMedian,
    /// US Chess: cumulative.
    Cumulative,
}

/// The C.07 codes, as written.
const CODES: [(&str, Code); 19] = [
    ("DE", Code::DE),
    ("WIN", Code::WIN),
    ("WON", Code::WON),
    ("BPG", Code::BPG),
    ("BWG", Code::BWG),
    ("GE", Code::GE),
    ("REP", Code::REP),
    ("PS", Code::PS),
    ("TPN", Code::TPN),
    ("BH", Code::BH),
    ("FB", Code::FB),
    ("AOB", Code::AOB),
    ("SB", Code::SB),
    ("KS", Code::KS),
    ("ARO", Code::ARO),
    ("TPR", Code::TPR),
    ("PTP", Code::PTP),
    ("APRO", Code::APRO),
    ("APPO", Code::APPO),
];

impl Code {
    /// The modifiers the code takes: `C` cut, `M` median, `P` forfeits played, `F` Fore,
    /// `L` Koya limit, `R` reverse.
    fn takes(self) -> &'static str {
        match self {
            Code::DE => "P",
            Code::PS => "C",
            Code::BH | Code::FB => "CMP",
            Code::SB => "CP",
            Code::AOB => "F",
            Code::KS => "L",
            Code::ARO => "CM",
            Code::TPN => "R",
            _ => "",
        }
    }

    /// Whether the tie-break averages ratings (C.07 art. 10): unrated players count with
    /// `unrated_rating`, or are left out.
    pub fn rating_based(self) -> bool {
        matches!(
            self,
            Code::ARO | Code::TPR | Code::PTP | Code::APRO | Code::APPO
        )
    }
}

/// The Koya limit (C.07 art. 9.2): opponents with at least `percent` of the points possible,
/// moved by `half_points`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KoyaLimit {
    pub percent: u32,
    pub half_points: i32,
}

/// A tie-break with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiebreak {
    pub code: Code,
    /// Least significant values cut (`/C1`, `/C2`; `/Mn` also cuts n).
    pub cut_low: u32,
    /// Most significant values cut (`/Mn`).
    pub cut_high: u32,
    /// `/P`: forfeits count as games against the scheduled opponent.
    pub forfeits_played: bool,
    /// `/F` (AOB): of the opponents' Fore Buchholz.
    pub fore: bool,
    /// `/L…` (KS).
    pub koya: KoyaLimit,
    /// `/R`: the order reversed (TPN).
    pub reverse: bool,
}

impl Tiebreak {
    pub const fn plain(code: Code) -> Tiebreak {
        Tiebreak {
            code,
            cut_low: 0,
            cut_high: 0,
            forfeits_played: false,
            fore: false,
            koya: KoyaLimit {
                percent: 50,
                half_points: 0,
            },
            reverse: false,
        }
    }

    const fn cut(code: Code, low: u32, high: u32) -> Tiebreak {
        let mut t = Tiebreak::plain(code);
        t.cut_low = low;
        t.cut_high = high;
        t
    }

    /// Reads a tie-break as C.07 writes it (`BH/C1`, `SB/C1/P`, `KS/L40`) or by one of our
    /// names; the message says what is wrong.
    pub fn parse(text: &str) -> Result<Tiebreak, String> {
        if let Some((_, t)) = NAMES.iter().find(|(name, _)| *name == text) {
            return Ok(*t);
        }
        let mut parts = text.split('/');
        let head = parts.next().unwrap_or_default().to_ascii_uppercase();
        let Some(&(_, code)) = CODES.iter().find(|(c, _)| *c == head) else {
            return Err(format!(
                "unknown tie-break `{text}`; C.07 codes: {}; names: {}",
                CODES.map(|c| c.0).join(", "),
                NAMES.map(|n| n.0).join(", ")
            ));
        };
        let mut t = Tiebreak::plain(code);
        let mut seen = String::new();
        for raw in parts {
            let m = raw.to_ascii_uppercase();
            let Some(kind) = m.chars().next() else {
                return Err(format!("`{text}`: an empty modifier"));
            };
            let rest = &m[1..];
            if !code.takes().contains(kind) {
                return Err(format!(
                    "`{text}`: {head} takes no /{m}{}",
                    if code.takes().is_empty() {
                        " (it takes no modifier)".to_string()
                    } else {
                        format!(
                            " (it takes {})",
                            code.takes()
                                .chars()
                                .map(|c| format!("/{c}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                ));
            }
            let group = if kind == 'M' { 'C' } else { kind };
            if seen.contains(group) {
                return Err(format!(
                    "`{text}`: one /{kind} modifier at most (a cut or a median, not both)"
                ));
            }
            seen.push(group);
            let bad = || format!("`{text}`: /{m} is not a modifier of {head}");
            match kind {
                'C' | 'M' => {
                    let n: u32 = match rest {
                        "1" => 1,
                        "2" => 2,
                        _ => return Err(format!("`{text}`: /{kind}1 or /{kind}2")),
                    };
                    t.cut_low = n;
                    if kind == 'M' {
                        t.cut_high = n;
                    }
                }
                'P' | 'F' | 'R' if !rest.is_empty() => return Err(bad()),
                'P' => t.forfeits_played = true,
                'F' => t.fore = true,
                'R' => t.reverse = true,
                'L' => {
                    let number = |s: &str| s.parse::<u32>().ok().filter(|&n| n <= 200);
                    if let Some(n) = rest.strip_prefix('+').and_then(number) {
                        t.koya.half_points = n as i32;
                    } else if let Some(n) = rest.strip_prefix('-').and_then(number) {
                        t.koya.half_points = -(n as i32);
                    } else if let Some(p) = number(rest).filter(|&p| p <= 100) {
                        t.koya.percent = p;
                    } else {
                        return Err(format!(
                            "`{text}`: /L<percent> (0-100), /L+<n> or /L-<n> (half-points)"
                        ));
                    }
                }
                _ => return Err(bad()),
            }
        }
        Ok(t)
    }
}

/// Our names, as they were before C.07 codes were read.
const NAMES: [(&str, Tiebreak); 16] = [
    ("direct_encounter", Tiebreak::plain(Code::DE)),
    ("wins", Tiebreak::plain(Code::WIN)),
    ("games_won", Tiebreak::plain(Code::WON)),
    ("sonneborn_berger", Tiebreak::plain(Code::SB)),
    ("games_played", Tiebreak::plain(Code::GamesPlayed)),
    ("solkoff", Tiebreak::plain(Code::Solkoff)),
    ("modified_median", Tiebreak::plain(Code::ModifiedMedian)),
    ("cumulative", Tiebreak::plain(Code::Cumulative)),
    ("buchholz", Tiebreak::plain(Code::BH)),
    ("buchholz_cut1", Tiebreak::cut(Code::BH, 1, 0)),
    ("buchholz_cut2", Tiebreak::cut(Code::BH, 2, 0)),
    ("median_buchholz", Tiebreak::cut(Code::BH, 1, 1)),
    ("progressive", Tiebreak::plain(Code::PS)),
    ("games_with_black", Tiebreak::plain(Code::BPG)),
    ("aro_cut1", Tiebreak::cut(Code::ARO, 1, 0)),
    ("koya", Tiebreak::plain(Code::KS)),
];

/// A tie-break as it was asked for: the name or code given, and what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AskedTiebreak {
    pub name: String,
    pub tiebreak: Tiebreak,
}

impl AskedTiebreak {
    fn named(name: &str) -> AskedTiebreak {
        AskedTiebreak {
            name: name.to_string(),
            tiebreak: Tiebreak::parse(name).expect("a name of ours"),
        }
    }
}

/// The FIDE preset for a Swiss (`"tiebreaks": "fide"`): Buchholz cut-1, Buchholz, direct
/// encounter, average rating of opponents cut-1, wins, games with black.
pub const FIDE_TIEBREAKS: [&str; 6] = [
    "buchholz_cut1",
    "buchholz",
    "direct_encounter",
    "aro_cut1",
    "wins",
    "games_with_black",
];

/// US Chess order for Swiss sections: modified median, Solkoff, cumulative.
pub const SWISS_TIEBREAKS: [&str; 3] = ["modified_median", "solkoff", "cumulative"];

/// Round robins: direct encounter, wins, Sonneborn-Berger.
pub const DEFAULT_TIEBREAKS: [&str; 3] = ["direct_encounter", "wins", "sonneborn_berger"];

/// Tie-breaks by name (each must be a code or one of our names).
pub fn asked(names: &[&str]) -> Vec<AskedTiebreak> {
    names.iter().map(|n| AskedTiebreak::named(n)).collect()
}

/// A named tie-break order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TiebreakPreset {
    /// FIDE for a Swiss: Buchholz cut-1, Buchholz, direct encounter, ARO cut-1, wins, games
    /// with black.
    Fide,
    /// US Chess for a Swiss: modified median, Solkoff, cumulative.
    Us,
    /// Round robins: direct encounter, wins, Sonneborn-Berger.
    RoundRobin,
}

/// The most tie-breaks a list holds.
pub const MAX_TIEBREAKS: usize = 20;

/// The pattern of a list entry [`Tiebreak::parse`] reads (for the API document): one of our
/// names, or a C.07 code in any case with the modifiers it takes, each kind at most once, in
/// any order. Both ECMA-262 and Python read it alike.
pub fn entry_pattern() -> String {
    let either = |c: char| format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase());
    let word = |w: &str| w.chars().map(either).collect::<String>();
    let mut choices: Vec<String> = NAMES.iter().map(|(name, _)| name.to_string()).collect();
    for (text, code) in CODES {
        let takes = code.takes();
        let mut groups: Vec<String> = Vec::new();
        if takes.contains('C') || takes.contains('M') {
            let kinds: String = takes.chars().filter(|k| "CM".contains(*k)).collect();
            groups.push(format!("/{}[12]", word_class(&kinds)));
        }
        for kind in takes.chars().filter(|k| "PFR".contains(*k)) {
            groups.push(format!("/{}", either(kind)));
        }
        if takes.contains('L') {
            groups.push(format!(
                "/{}(?:0*(?:100|[1-9]?[0-9])|[+-]0*(?:200|1[0-9]{{2}}|[1-9]?[0-9]))",
                either('L')
            ));
        }
        let mut orders = Vec::new();
        orderings(&groups, &mut Vec::new(), &mut orders);
        let modifiers = orders
            .iter()
            .filter(|o| !o.is_empty())
            .map(|o| o.concat())
            .collect::<Vec<_>>();
        if modifiers.is_empty() {
            choices.push(word(text));
        } else {
            choices.push(format!("{}(?:{})?", word(text), modifiers.join("|")));
        }
    }
    format!("^(?:{})$", choices.join("|"))
}

/// A character class of the letters `kinds` in either case.
fn word_class(kinds: &str) -> String {
    let letters: String = kinds
        .chars()
        .flat_map(|k| [k.to_ascii_uppercase(), k.to_ascii_lowercase()])
        .collect();
    format!("[{letters}]")
}

/// Every sequence of distinct elements of `groups` (the empty one too).
fn orderings(groups: &[String], prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(prefix.clone());
    for g in groups {
        if !prefix.contains(g) {
            prefix.push(g.clone());
            orderings(groups, prefix, out);
            prefix.pop();
        }
    }
}

/// The `tiebreaks` setting: a preset name, or the tie-breaks in order (at most
/// [`MAX_TIEBREAKS`], each once), each a C.07 code with its modifiers (`BH/C1`, `SB`, `ARO`,
/// `TPR`…) or one of our names (`buchholz_cut1`…).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum TiebreakOrder {
    Preset(TiebreakPreset),
    List(Vec<String>),
}

impl utoipa::PartialSchema for TiebreakOrder {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        crate::limits::schema::from_json(serde_json::json!({
            "description": "A preset, or the tie-breaks in order, each once: a C.07 code with its modifiers (`BH/C1`, `SB`, `ARO`, `TPR`...) or one of our names (`buchholz_cut1`...).",
            "oneOf": [
                {"$ref": "#/components/schemas/TiebreakPreset"},
                {
                    "type": "array",
                    "items": {"type": "string", "pattern": entry_pattern()},
                    "maxItems": MAX_TIEBREAKS,
                    "uniqueItems": true
                }
            ],
            "example": ["BH/C1", "BH", "DE", "ARO/C1", "WIN"]
        }))
    }
}

impl ToSchema for TiebreakOrder {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        use utoipa::PartialSchema;
        schemas.push((
            TiebreakPreset::name().into_owned(),
            TiebreakPreset::schema(),
        ));
    }
}

impl TiebreakOrder {
    /// The tie-breaks in the order they apply, or each bad entry: (index, what is wrong).
    pub fn resolve(&self) -> Result<Vec<AskedTiebreak>, Vec<(usize, String)>> {
        match self {
            TiebreakOrder::Preset(TiebreakPreset::Fide) => Ok(asked(&FIDE_TIEBREAKS)),
            TiebreakOrder::Preset(TiebreakPreset::Us) => Ok(asked(&SWISS_TIEBREAKS)),
            TiebreakOrder::Preset(TiebreakPreset::RoundRobin) => Ok(asked(&DEFAULT_TIEBREAKS)),
            TiebreakOrder::List(list) if list.len() > MAX_TIEBREAKS => Err(vec![(
                MAX_TIEBREAKS,
                format!("at most {MAX_TIEBREAKS} tie-breaks"),
            )]),
            TiebreakOrder::List(list) => {
                let mut out = Vec::new();
                let mut errors = Vec::new();
                for (i, name) in list.iter().enumerate() {
                    match Tiebreak::parse(name) {
                        Ok(_) if out.iter().any(|a: &AskedTiebreak| a.name == *name) => {
                            errors.push((i, format!("`{name}` is already in the list")));
                        }
                        Ok(tiebreak) => out.push(AskedTiebreak {
                            name: name.clone(),
                            tiebreak,
                        }),
                        Err(e) => errors.push((i, e)),
                    }
                }
                if errors.is_empty() {
                    Ok(out)
                } else {
                    Err(errors)
                }
            }
        }
    }
}

impl<'de> Deserialize<'de> for TiebreakOrder {
    /// A preset name, or a list; a list's entries are checked by [`TiebreakOrder::resolve`]
    /// (so that an error names the entry): an entry that is not a string is kept as its JSON
    /// text and refused there.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(name) => {
                TiebreakPreset::deserialize(serde_json::Value::String(name.clone()))
                    .map(TiebreakOrder::Preset)
                    .map_err(|_| {
                        D::Error::custom(format!(
                            "unknown preset `{name}`; presets: fide, us, round_robin (or a list of tie-breaks)"
                        ))
                    })
            }
            serde_json::Value::Array(items) => Ok(TiebreakOrder::List(
                items
                    .into_iter()
                    .map(|v| match v {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    })
                    .collect(),
            )),
            _ => Err(D::Error::custom(
                "must be a preset (fide, us, round_robin) or a list of tie-breaks",
            )),
        }
    }
}

/// Which text of C.07 computes the tie-breaks (`tiebreak_rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum TiebreakRules {
    /// C.07 of 2023 (FIDE-rated events from 1 April 2024 to 28 February 2026).
    #[serde(rename = "2023")]
    C2023,
    /// C.07 as amended in February 2026, in force from 1 March 2026.
    #[serde(rename = "2026")]
    C2026,
}

impl TiebreakRules {
    /// The setting if given, else the text in force on the start date (the amended text
    /// without a date).
    pub fn for_event(setting: Option<TiebreakRules>, start: Option<NaiveDate>) -> TiebreakRules {
        setting.unwrap_or(match start {
            Some(d) if d < NaiveDate::from_ymd_opt(2026, 3, 1).expect("a date") => {
                TiebreakRules::C2023
            }
            _ => TiebreakRules::C2026,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TiebreakRules::C2023 => "2023",
            TiebreakRules::C2026 => "2026",
        }
    }
}

#[cfg(test)]
mod tests {
    /// The document's pattern takes exactly what `Tiebreak::parse` takes: every code with
    /// every modifier and pair of modifiers in both orders, in both cases, and the names.
    #[test]
    fn the_entry_pattern_is_the_parsers_rule() {
        let pattern = regex::Regex::new(&entry_pattern()).unwrap();
        let modifiers = [
            "C1", "C2", "C3", "M1", "M2", "P", "F", "R", "L", "L0", "L50", "L100", "L101", "L+3",
            "L-200", "L+201", "P1", "X", "",
        ];
        let mut tried = 0;
        for (text, _) in CODES {
            for head in [text.to_string(), text.to_ascii_lowercase()] {
                let mut entries = vec![head.clone()];
                for a in modifiers {
                    entries.push(format!("{head}/{a}"));
                    for b in modifiers {
                        entries.push(format!("{head}/{a}/{b}"));
                    }
                }
                for entry in entries {
                    assert_eq!(
                        pattern.is_match(&entry),
                        Tiebreak::parse(&entry).is_ok(),
                        "{entry}"
                    );
                    tried += 1;
                }
            }
        }
        for (name, _) in NAMES {
            assert!(pattern.is_match(name), "{name}");
        }
        assert!(!pattern.is_match("buchholz/C1"));
        assert!(tried > 10_000);
    }

    use super::*;
    use serde_json::json;

    fn resolve(v: serde_json::Value) -> Result<Vec<AskedTiebreak>, Vec<(usize, String)>> {
        serde_json::from_value::<TiebreakOrder>(v)
            .unwrap()
            .resolve()
    }

    #[test]
    fn a_preset_or_a_list_of_codes_and_names() {
        let fide = resolve(json!("fide")).unwrap();
        assert_eq!(fide[0].tiebreak, Tiebreak::cut(Code::BH, 1, 0));
        assert_eq!(fide[0].name, "buchholz_cut1");
        let list = resolve(json!([
            "BH/C1", "sb/c2/p", "KS/L40", "koya", "ARO/M1", "TPN/R"
        ]))
        .unwrap();
        assert_eq!(list[0].tiebreak, Tiebreak::cut(Code::BH, 1, 0));
        assert_eq!(list[1].name, "sb/c2/p");
        assert!(list[1].tiebreak.forfeits_played && list[1].tiebreak.cut_low == 2);
        assert_eq!(list[2].tiebreak.koya.percent, 40);
        assert_eq!(list[3].tiebreak, Tiebreak::plain(Code::KS));
        assert_eq!(
            (list[4].tiebreak.cut_low, list[4].tiebreak.cut_high),
            (1, 1)
        );
        assert!(list[5].tiebreak.reverse);
        assert_eq!(Tiebreak::parse("KS/L-2").unwrap().koya.half_points, -2);
        for bad in [json!("fidee"), json!(3)] {
            assert!(serde_json::from_value::<TiebreakOrder>(bad).is_err());
        }
        assert_eq!(
            serde_json::to_value(serde_json::from_value::<TiebreakOrder>(json!("fide")).unwrap())
                .unwrap(),
            json!("fide")
        );
    }

    #[test]
    fn bad_entries_are_named_by_their_index() {
        let errors = resolve(json!([
            "BH", "XYZ", "WIN/C1", "BH/C3", "BH/C1/M1", "SB/M1", 7, "BH", "AOB/F", "KS/L101"
        ]))
        .unwrap_err();
        let at: Vec<usize> = errors.iter().map(|e| e.0).collect();
        assert_eq!(at, vec![1, 2, 3, 4, 5, 6, 7, 9]);
        assert!(errors[1].1.contains("takes no /C1"), "{}", errors[1].1);
        assert!(errors[4].1.contains("takes no /M1"), "{}", errors[4].1);
    }

    #[test]
    fn the_text_by_start_date() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day);
        assert_eq!(
            TiebreakRules::for_event(None, d(2026, 2, 28)),
            TiebreakRules::C2023
        );
        assert_eq!(
            TiebreakRules::for_event(None, d(2026, 3, 1)),
            TiebreakRules::C2026
        );
        assert_eq!(TiebreakRules::for_event(None, None), TiebreakRules::C2026);
        assert_eq!(
            TiebreakRules::for_event(Some(TiebreakRules::C2023), d(2027, 1, 1)),
            TiebreakRules::C2023
        );
        assert!(serde_json::from_value::<TiebreakRules>(json!("2024")).is_err());
        assert_eq!(
            serde_json::from_value::<TiebreakRules>(json!("2026")).unwrap(),
            TiebreakRules::C2026
        );
    }
}
