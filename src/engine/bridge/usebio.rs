//! A bridge event as USEBIO 1.2 XML, the results format national bodies import for
//! masterpoints and ranking (pure, text out). The layout follows the files the club scoring
//! programs write (Compscore3's, as the ABF's results service reads them), element by element:
//! ```text
//! <!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">
//! USEBIO Version="1.2"
//!   CLUB: CLUB_NAME, CLUB_ID_NUMBER                 (when the export names the club)
//!   EVENT EVENT_TYPE="MP_PAIRS|BUTLER_PAIRS|CROSS_IMP|TEAMS|SWISS_PAIRS|SWISS_TEAMS"
//!     EVENT_IDENTIFIER, EVENT_DESCRIPTION, PROGRAM_NAME, PROGRAM_VERSION, WINNER_TYPE (1 or 2),
//!     DATE (dd/mm/yyyy), SESSION_COUNT (1), SECTION_COUNT (1, or a field's sections),
//!     SCORING_METHOD (MATCH_POINTS | IMPS), MATCH_SCORING_METHOD (VPS: teams and Swiss)
//!     then, for one event, its PARTICIPANTS, MATCHes and BOARDs directly (below); for a field
//!     scored across the field, each section in its own element:
//!     SESSION SESSION_ID="1"
//!       SECTION* SECTION_ID="A" (the section's letter): its PARTICIPANTS and its BOARDs
//!             (only its own traveller lines, with the field's matchpoints)
//!     PARTICIPANTS EVENT_TYPE=…
//!       PAIR: PAIR_NUMBER (1NS / 1EW under Mitchell numbering, else 1; in a field after
//!             the section's letter, A1NS), DIRECTION (NS, EW or empty), TOTAL_SCORE,
//!             PERCENTAGE (matchpoints), PLACE (a number; tied entries share it; in a field
//!             the overall place, NS and EW apart under WINNER_TYPE 2),
//!             PLAYER*: PLAYER_NAME, NATIONAL_ID_NUMBER (when known)
//!       TEAM (teams, Swiss teams): TEAM_NAME, TEAM_NUMBER, TOTAL_SCORE (VPs), PLACE, PLAYER*
//!     MATCH* (teams and Swiss events): ROUND_NUMBER, TEAM, OPPOSING_TEAM (team or pair
//!             numbers), TEAM_IMPS, OPPOSING_TEAM_IMPS, TEAM_SCORE, OPPOSING_TEAM_SCORE (VPs)
//!     BOARD* EVENT_TYPE=…: BOARD_NUMBER, BOARD_AVERAGE (Butler's datum),
//!       TRAVELLER_LINE*: NS_PAIR_NUMBER, EW_PAIR_NUMBER (the pairs holding the NS and EW
//!             cards), CONTRACT (4S, 3NTX, PASS), PLAYED_BY (N E S W), LEAD (rank first: TD,
//!             KH), TRICKS, SCORE (NS, a number), ADJUSTED_SCORE (an artificial score, A+/A-,
//!             in place of the contract and score), then the line's points for the event's
//!             scoring: NS_/EW_MATCH_POINTS, NS_/EW_BUTLER_POINTS, NS_/EW_CROSS_IMP_POINTS or
//!             NS_/EW_IMPS (teams)
//!   HANDSET
//!     BOARD*: BOARD_NUMBER, HAND* (DIRECTION North/East/South/West, CLUBS, DIAMONDS, HEARTS,
//!             SPADES)
//! ```
//! A field is one game, so its file is one event: the sections nest as the real 1.2 writers
//! nest them (a TypeScript club scorer writes `EVENT/SESSION[@SESSION_ID]/SECTION[@SECTION_ID]/
//! (PARTICIPANTS, BOARD*)`; a Scorer-to-USEBIO converter writes `EVENT/SECTION[@SECTION_ID]`,
//! ranks places across the sections and, with several sections, writes the section in every
//! pair number), and as marcshearer/ImportUsebio reads them (`PARTICIPANTS` under `EVENT`,
//! `SESSION` or `SECTION` alike, every section's pairs in one list, which is why the pair
//! numbers carry the letter: `A1NS` and `B1NS` stay apart). The `SESSION` wrapper follows the
//! `SESSION_COUNT` the header declares.
//!
//! Numbers with decimals (percentages, matchpoints, IMPs, VPs) are written with two. Every
//! text is XML-escaped (`&`, `<`, `>`, `"`, `'`; characters XML 1.0 forbids are dropped), so
//! the document is well formed whatever the names hold.

use super::movement::model::PairId;
use super::session::Method;
use super::traveller::{HandRecord, Traveller, TravellerLine};

/// What kind of event the file describes, with its `EVENT_TYPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsebioKind {
    /// A pairs event scored by matchpoints, Butler or cross-IMPs.
    Pairs(Method),
    /// A teams event (its team movement), IMPs and VPs.
    Teams,
    /// Swiss pairs: matches scored from the field (Butler or cross-IMPs), VPs.
    SwissPairs(Method),
    /// Swiss teams, IMPs and VPs.
    SwissTeams,
}

impl UsebioKind {
    fn event_type(self) -> &'static str {
        match self {
            UsebioKind::Pairs(Method::Matchpoints) => "MP_PAIRS",
            UsebioKind::Pairs(Method::Butler) => "BUTLER_PAIRS",
            UsebioKind::Pairs(Method::CrossImps) => "CROSS_IMP",
            UsebioKind::Teams => "TEAMS",
            UsebioKind::SwissPairs(_) => "SWISS_PAIRS",
            UsebioKind::SwissTeams => "SWISS_TEAMS",
        }
    }

    fn matchpoints(self) -> bool {
        self == UsebioKind::Pairs(Method::Matchpoints)
    }

    fn has_matches(self) -> bool {
        !matches!(self, UsebioKind::Pairs(_))
    }

    /// The element names of a traveller line's points.
    fn points(self) -> (&'static str, &'static str) {
        match self {
            UsebioKind::Pairs(Method::Matchpoints) => ("NS_MATCH_POINTS", "EW_MATCH_POINTS"),
            UsebioKind::Pairs(Method::Butler) | UsebioKind::SwissPairs(Method::Butler) => {
                ("NS_BUTLER_POINTS", "EW_BUTLER_POINTS")
            }
            UsebioKind::Pairs(Method::CrossImps) | UsebioKind::SwissPairs(_) => {
                ("NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS")
            }
            UsebioKind::Teams | UsebioKind::SwissTeams => ("NS_IMPS", "EW_IMPS"),
        }
    }
}

/// The club the results belong to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsebioClub {
    pub name: String,
    pub id: Option<String>,
}

/// The event as the file describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsebioEvent<'a> {
    pub id: i64,
    pub name: &'a str,
    /// `dd/mm/yyyy`, or None.
    pub date: Option<String>,
    pub kind: UsebioKind,
    pub club: Option<UsebioClub>,
    /// 2 when NS and EW are ranked apart, else 1.
    pub winner_type: usize,
    /// Pair numbers written `1NS` / `1EW` (a Mitchell-numbered pairs movement).
    pub mitchell: bool,
    /// The sections of a field scored across the field (`A`, `B`, ...), each written as its
    /// own `SECTION` with the entries and traveller lines that name it (the others are not
    /// written); empty for one event, whose pairs and boards sit under `EVENT`.
    pub sections: Vec<String>,
}

/// A player as the national body knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsebioPlayer {
    pub name: String,
    pub national_id: Option<String>,
}

/// A pair or a team of the event with its result.
#[derive(Debug, Clone, PartialEq)]
pub struct UsebioEntry {
    /// The pair or team number within its section (`3NS`, `3`).
    pub number: String,
    /// The section's letter in a field scored across the field, written before the number
    /// (`A3NS`) as the field's traveller lines write it; None for one event.
    pub section: Option<String>,
    /// `NS` or `EW` under Mitchell numbering; None otherwise (written empty for pairs).
    pub direction: Option<&'static str>,
    /// A team's name (written as a TEAM); None for a pair.
    pub team_name: Option<String>,
    /// `1`, `2` (tied entries share the number).
    pub place: String,
    /// Matchpoints, IMPs or VPs.
    pub total: f64,
    /// Matchpoint scoring only.
    pub percentage: Option<f64>,
    pub players: Vec<UsebioPlayer>,
}

/// A match of a teams or Swiss event with its result.
#[derive(Debug, Clone, PartialEq)]
pub struct UsebioMatch {
    pub round: u32,
    /// The home and away team (or pair) numbers.
    pub team: u32,
    pub opposing_team: u32,
    /// IMPs won by each side, when scored from IMPs.
    pub imps: Option<(u32, u32)>,
    /// VPs of each side, once scored.
    pub vps: Option<(f64, f64)>,
}

/// Escapes text for XML content and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow are dropped.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// A tiny indenting XML writer: elements open and close in order, so nesting is right by
/// construction.
struct Xml {
    out: String,
    open: Vec<&'static str>,
}

impl Xml {
    fn indent(&mut self) {
        for _ in 0..self.open.len() {
            self.out.push_str("  ");
        }
    }

    fn start(&mut self, name: &'static str, attrs: &[(&str, &str)]) {
        self.indent();
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            self.out.push_str(&format!(" {k}=\"{}\"", xml_escape(v)));
        }
        self.out.push_str(">\n");
        self.open.push(name);
    }

    fn end(&mut self) {
        if let Some(name) = self.open.pop() {
            self.indent();
            self.out.push_str(&format!("</{name}>\n"));
        }
    }

    fn leaf(&mut self, name: &str, text: &str) {
        self.indent();
        self.out
            .push_str(&format!("<{name}>{}</{name}>\n", xml_escape(text)));
    }
}

fn two(x: f64) -> String {
    format!("{x:.2}")
}

/// A lead as USEBIO writes it: rank then suit (`TD` for the ten of diamonds).
pub fn usebio_lead(lead: &str) -> String {
    let mut chars = lead.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some(suit), Some(rank), None) => format!("{rank}{suit}"),
        _ => lead.to_string(),
    }
}

/// The players of a pair from its name: `A - B`, `A & B`, `A / B` or `A and B` give two.
pub fn players_from_name(name: &str) -> Vec<String> {
    for sep in [" - ", " & ", " / ", " and "] {
        if let Some((a, b)) = name.split_once(sep) {
            return vec![a.trim().to_string(), b.trim().to_string()];
        }
    }
    vec![name.trim().to_string()]
}

/// A pair number as written: `3NS`, `3EW` under Mitchell numbering, `3` otherwise.
fn label(id: Option<PairId>, number: u32, mitchell: bool) -> String {
    match (id, mitchell) {
        (Some(PairId::Ns(n)), true) => format!("{n}NS"),
        (Some(PairId::Ew(n)), true) => format!("{n}EW"),
        _ => number.to_string(),
    }
}

fn hand_directions(d: &HandRecord) -> [(&'static str, &String); 4] {
    [
        ("North", &d.north),
        ("East", &d.east),
        ("South", &d.south),
        ("West", &d.west),
    ]
}

fn player(x: &mut Xml, p: &UsebioPlayer) {
    x.start("PLAYER", &[]);
    x.leaf("PLAYER_NAME", &p.name);
    if let Some(id) = &p.national_id {
        x.leaf("NATIONAL_ID_NUMBER", id);
    }
    x.end();
}

fn traveller_line(x: &mut Xml, event: &UsebioEvent, l: &TravellerLine) {
    x.start("TRAVELLER_LINE", &[]);
    let section = l.section.as_deref().unwrap_or_default();
    x.leaf(
        "NS_PAIR_NUMBER",
        &format!("{section}{}", label(l.ns_id, l.ns_pair, event.mitchell)),
    );
    x.leaf(
        "EW_PAIR_NUMBER",
        &format!("{section}{}", label(l.ew_id, l.ew_pair, event.mitchell)),
    );
    if let Some(a) = &l.adjusted {
        x.leaf("ADJUSTED_SCORE", a);
    } else {
        if let Some(c) = &l.contract {
            x.leaf("CONTRACT", c);
        }
        if let Some(d) = l.declarer {
            x.leaf("PLAYED_BY", &d.to_string());
        }
        if let Some(lead) = &l.lead {
            x.leaf("LEAD", &usebio_lead(lead));
        }
        if let (Some(t), Some(_)) = (l.tricks, l.declarer) {
            x.leaf("TRICKS", &t.to_string());
        }
        if let Some(s) = l.ns_score {
            x.leaf("SCORE", &s.to_string());
        }
    }
    let (ns_name, ew_name) = event.kind.points();
    let (ns, ew) = if event.kind.matchpoints() {
        (l.ns_mp, l.ew_mp)
    } else {
        (l.ns_imps, l.ew_imps)
    };
    if let (Some(ns), Some(ew)) = (ns, ew) {
        x.leaf(ns_name, &two(ns));
        x.leaf(ew_name, &two(ew));
    }
    x.end();
}

/// The `PARTICIPANTS` of the event or of one section.
fn participants<'a>(x: &mut Xml, event_type: &str, entries: impl Iterator<Item = &'a UsebioEntry>) {
    x.start("PARTICIPANTS", &[("EVENT_TYPE", event_type)]);
    for e in entries {
        let number = format!("{}{}", e.section.as_deref().unwrap_or_default(), e.number);
        if let Some(team) = &e.team_name {
            x.start("TEAM", &[]);
            x.leaf("TEAM_NAME", team);
            x.leaf("TEAM_NUMBER", &number);
        } else {
            x.start("PAIR", &[]);
            x.leaf("PAIR_NUMBER", &number);
            x.leaf("DIRECTION", e.direction.unwrap_or_default());
        }
        x.leaf("TOTAL_SCORE", &two(e.total));
        if let Some(p) = e.percentage {
            x.leaf("PERCENTAGE", &two(p));
        }
        x.leaf("PLACE", &e.place);
        for p in &e.players {
            player(x, p);
        }
        x.end();
    }
    x.end();
}

fn write_matches(x: &mut Xml, matches: &[UsebioMatch]) {
    for m in matches {
        x.start("MATCH", &[]);
        x.leaf("ROUND_NUMBER", &m.round.to_string());
        x.leaf("TEAM", &m.team.to_string());
        x.leaf("OPPOSING_TEAM", &m.opposing_team.to_string());
        if let Some((a, b)) = m.imps {
            x.leaf("TEAM_IMPS", &a.to_string());
            x.leaf("OPPOSING_TEAM_IMPS", &b.to_string());
        }
        if let Some((a, b)) = m.vps {
            x.leaf("TEAM_SCORE", &two(a));
            x.leaf("OPPOSING_TEAM_SCORE", &two(b));
        }
        x.end();
    }
}

/// Every board with results and its traveller lines: all of them, or one section's.
fn boards(x: &mut Xml, event: &UsebioEvent, travellers: &[Traveller], section: Option<&str>) {
    let event_type = event.kind.event_type();
    for t in travellers {
        let lines: Vec<&TravellerLine> = t
            .results
            .iter()
            .filter(|l| section.is_none() || l.section.as_deref() == section)
            .collect();
        if lines.is_empty() {
            continue;
        }
        x.start("BOARD", &[("EVENT_TYPE", event_type)]);
        x.leaf("BOARD_NUMBER", &t.board.to_string());
        if let Some(datum) = t.datum {
            x.leaf("BOARD_AVERAGE", &datum.to_string());
        }
        for l in lines {
            traveller_line(x, event, l);
        }
        x.end();
    }
}

/// The event as a USEBIO 1.2 document: its entries (pairs or teams, with their players and
/// places), its matches (teams and Swiss events), every board's traveller lines (a field's:
/// section by section), and the hands of the boards whose hand record is loaded.
pub fn write_usebio(
    event: &UsebioEvent,
    entries: &[UsebioEntry],
    matches: &[UsebioMatch],
    travellers: &[Traveller],
) -> String {
    let mut x = Xml {
        out: String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE USEBIO SYSTEM \"http://www.ebu.co.uk/usebio/usebio_v1_2.dtd\">\n",
        ),
        open: Vec::new(),
    };
    let event_type = event.kind.event_type();
    x.start("USEBIO", &[("Version", "1.2")]);
    if let Some(club) = &event.club {
        x.start("CLUB", &[]);
        x.leaf("CLUB_NAME", &club.name);
        if let Some(id) = &club.id {
            x.leaf("CLUB_ID_NUMBER", id);
        }
        x.end();
    }
    x.start("EVENT", &[("EVENT_TYPE", event_type)]);
    x.leaf("EVENT_IDENTIFIER", &event.id.to_string());
    x.leaf("EVENT_DESCRIPTION", event.name);
    x.leaf("PROGRAM_NAME", "tourney");
    x.leaf("PROGRAM_VERSION", env!("CARGO_PKG_VERSION"));
    x.leaf("WINNER_TYPE", &event.winner_type.to_string());
    if let Some(d) = &event.date {
        x.leaf("DATE", d);
    }
    x.leaf("SESSION_COUNT", "1");
    x.leaf("SECTION_COUNT", &event.sections.len().max(1).to_string());
    x.leaf(
        "SCORING_METHOD",
        if event.kind.matchpoints() {
            "MATCH_POINTS"
        } else {
            "IMPS"
        },
    );
    if event.kind.has_matches() {
        x.leaf("MATCH_SCORING_METHOD", "VPS");
    }
    if event.sections.is_empty() {
        participants(&mut x, event_type, entries.iter());
        write_matches(&mut x, matches);
        boards(&mut x, event, travellers, None);
    } else {
        write_matches(&mut x, matches);
        x.start("SESSION", &[("SESSION_ID", "1")]);
        for section in &event.sections {
            x.start("SECTION", &[("SECTION_ID", section.as_str())]);
            let own = entries
                .iter()
                .filter(|e| e.section.as_deref() == Some(section.as_str()));
            participants(&mut x, event_type, own);
            boards(&mut x, event, travellers, Some(section));
            x.end();
        }
        x.end();
    }
    x.end();
    let hands: Vec<(u32, &HandRecord)> = travellers
        .iter()
        .filter_map(|t| Some((t.board, t.deal.as_ref()?)))
        .collect();
    if !hands.is_empty() {
        x.start("HANDSET", &[]);
        for (board, d) in hands {
            x.start("BOARD", &[]);
            x.leaf("BOARD_NUMBER", &board.to_string());
            for (seat, hand) in hand_directions(d) {
                x.start("HAND", &[]);
                x.leaf("DIRECTION", seat);
                let suits: Vec<&str> = hand.split('.').collect();
                for (k, name) in ["CLUBS", "DIAMONDS", "HEARTS", "SPADES"].iter().enumerate() {
                    x.leaf(name, suits.get(3 - k).copied().unwrap_or_default());
                }
                x.end();
            }
            x.end();
        }
        x.end();
    }
    while !x.open.is_empty() {
        x.end();
    }
    x.out
}

/// Checks that `xml` is well formed as far as this writer's output goes: every tag closes
/// in order, attribute values are quoted, and `&` only starts the five predefined entities.
/// Returns the element names in document order. (For tests; not a general XML parser.)
pub fn check_well_formed(xml: &str) -> Result<Vec<String>, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = xml;
    while let Some(lt) = rest.find('<') {
        check_text(&rest[..lt])?;
        let gt = rest[lt..].find('>').ok_or("a tag is not closed")? + lt;
        let tag = &rest[lt + 1..gt];
        rest = &rest[gt + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect();
        let attrs = &tag[name.len()..];
        if !attrs.matches('"').count().is_multiple_of(2) {
            return Err(format!("<{name}>: unbalanced quotes"));
        }
        check_text(attrs)?;
        names.push(name.clone());
        if !tag.ends_with('/') {
            stack.push(name);
        }
    }
    check_text(rest)?;
    if let Some(open) = stack.pop() {
        return Err(format!("<{open}> is never closed"));
    }
    Ok(names)
}

fn check_text(text: &str) -> Result<(), String> {
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        rest = &rest[i + 1..];
        let ok = ["amp;", "lt;", "gt;", "quot;", "apos;"]
            .iter()
            .any(|e| rest.starts_with(e));
        if !ok {
            return Err(format!("a bare & before {:?}", &rest[..rest.len().min(8)]));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bridge::scoring::{Seat, Vulnerability};

    fn line() -> TravellerLine {
        TravellerLine {
            round: 1,
            table: 1,
            ns_pair: 1,
            ew_pair: 2,
            ns_id: Some(PairId::Ns(1)),
            ew_id: Some(PairId::Ew(2)),
            contract: Some("3NT".into()),
            declarer: Some(Seat::S),
            tricks: Some(10),
            result: Some("+1".into()),
            lead: Some("DT".into()),
            ns_score: Some(430),
            ew_score: None,
            adjusted: None,
            ns_mp: Some(2.0),
            ew_mp: Some(0.0),
            ns_percent: Some(100.0),
            ew_percent: Some(0.0),
            ns_imps: Some(3.0),
            ew_imps: Some(-3.0),
            section: None,
        }
    }

    fn sample() -> Vec<Traveller> {
        let adjusted = TravellerLine {
            table: 2,
            ns_id: Some(PairId::Ns(2)),
            ew_id: Some(PairId::Ew(1)),
            contract: None,
            declarer: None,
            tricks: None,
            result: None,
            lead: None,
            ns_score: None,
            adjusted: Some("A+/A-".into()),
            ..line()
        };
        vec![Traveller {
            board: 1,
            dealer: Seat::N,
            vulnerability: Vulnerability::None,
            deal: Some(HandRecord {
                north: "AKQJ.AKQ.AKQ.AKQ".into(),
                east: "T98.JT9.JT9.JT98".into(),
                south: "765.876.876.7654".into(),
                west: "432.5432.5432.32".into(),
            }),
            analysis: None,
            across_the_field: None,
            top: None,
            datum: Some(260),
            results: vec![line(), adjusted],
        }]
    }

    fn entry(number: &str, direction: &'static str, players: &[&str]) -> UsebioEntry {
        UsebioEntry {
            number: number.into(),
            section: None,
            direction: Some(direction),
            team_name: None,
            place: "1=".into(),
            total: 2.0,
            percentage: Some(66.666),
            players: players
                .iter()
                .map(|p| UsebioPlayer {
                    name: p.to_string(),
                    national_id: Some(format!("<{p}>")),
                })
                .collect(),
        }
    }

    fn event(kind: UsebioKind) -> UsebioEvent<'static> {
        UsebioEvent {
            id: 7,
            name: "Club \"Pairs\" & more",
            date: Some("24/11/2026".into()),
            kind,
            club: Some(UsebioClub {
                name: "Smith & Sons".into(),
                id: Some("4680".into()),
            }),
            winner_type: 2,
            mitchell: true,
            sections: Vec::new(),
        }
    }

    #[test]
    fn a_pairs_event_as_importers_read_it() {
        let entries = [
            entry("1NS", "NS", &["Smith & Sons <Ltd>", "O'Neill"]),
            entry("2EW", "EW", &["Brown", "Green"]),
        ];
        let xml = write_usebio(
            &event(UsebioKind::Pairs(Method::Matchpoints)),
            &entries,
            &[],
            &sample(),
        );
        let names = check_well_formed(&xml).unwrap();
        assert_eq!(&names[..3], ["USEBIO", "CLUB", "CLUB_NAME"]);
        assert!(xml
            .contains("<!DOCTYPE USEBIO SYSTEM \"http://www.ebu.co.uk/usebio/usebio_v1_2.dtd\">"));
        assert!(xml.contains("<EVENT EVENT_TYPE=\"MP_PAIRS\">"));
        assert!(xml.contains("<CLUB_NAME>Smith &amp; Sons</CLUB_NAME>"));
        assert!(xml
            .contains("<EVENT_DESCRIPTION>Club &quot;Pairs&quot; &amp; more</EVENT_DESCRIPTION>"));
        assert!(xml.contains("<PLAYER_NAME>Smith &amp; Sons &lt;Ltd&gt;</PLAYER_NAME>"));
        assert!(xml.contains("<NATIONAL_ID_NUMBER>&lt;O&apos;Neill&gt;</NATIONAL_ID_NUMBER>"));
        assert!(xml.contains("<PAIR_NUMBER>1NS</PAIR_NUMBER>"));
        assert!(xml.contains("<PERCENTAGE>66.67</PERCENTAGE>"));
        assert!(xml.contains("<SCORING_METHOD>MATCH_POINTS</SCORING_METHOD>"));
        assert!(xml.contains("<NS_PAIR_NUMBER>1NS</NS_PAIR_NUMBER>"));
        assert!(xml.contains("<EW_PAIR_NUMBER>1EW</EW_PAIR_NUMBER>"));
        assert!(xml.contains("<LEAD>TD</LEAD>"));
        assert!(xml.contains("<SCORE>430</SCORE>"));
        assert!(xml.contains("<ADJUSTED_SCORE>A+/A-</ADJUSTED_SCORE>"));
        assert!(!xml.contains("<SCORE>A"));
        assert!(xml.contains("<NS_MATCH_POINTS>2.00</NS_MATCH_POINTS>"));
        assert!(xml.contains("<DIRECTION>North</DIRECTION>\n        <CLUBS>AKQ</CLUBS>"));
        assert!(xml.contains("<SPADES>AKQJ</SPADES>"));
        // the importers' paths: USEBIO/EVENT/PARTICIPANTS/PAIR, USEBIO/EVENT/BOARD,
        // USEBIO/HANDSET/BOARD
        let event_at = xml.find("<EVENT ").unwrap();
        let end_event = xml.find("</EVENT>").unwrap();
        let handset = xml.find("<HANDSET>").unwrap();
        assert!(event_at < xml.find("<PARTICIPANTS").unwrap());
        assert!(xml.find("<BOARD EVENT_TYPE").unwrap() < end_event);
        assert!(end_event < handset);
        assert!(!xml.contains("<SESSION ") && !xml.contains("<SECTION "));
        assert_eq!(names.iter().filter(|n| *n == "TRAVELLER_LINE").count(), 2);
        assert_eq!(names.iter().filter(|n| *n == "PLAYER").count(), 4);
    }

    #[test]
    fn imp_events_write_their_own_points() {
        for (kind, name, event_type) in [
            (
                UsebioKind::Pairs(Method::Butler),
                "NS_BUTLER_POINTS",
                "BUTLER_PAIRS",
            ),
            (
                UsebioKind::Pairs(Method::CrossImps),
                "NS_CROSS_IMP_POINTS",
                "CROSS_IMP",
            ),
            (UsebioKind::Teams, "NS_IMPS", "TEAMS"),
            (
                UsebioKind::SwissPairs(Method::Butler),
                "NS_BUTLER_POINTS",
                "SWISS_PAIRS",
            ),
            (UsebioKind::SwissTeams, "NS_IMPS", "SWISS_TEAMS"),
        ] {
            let mut e = event(kind);
            e.mitchell = false;
            let team = UsebioEntry {
                team_name: Some("Hastings".into()),
                number: "3".into(),
                ..entry("3", "NS", &["A"])
            };
            let matches = [UsebioMatch {
                round: 1,
                team: 3,
                opposing_team: 1,
                imps: Some((34, 12)),
                vps: Some((15.65, 4.35)),
            }];
            let xml = write_usebio(&e, &[team], &matches, &sample());
            check_well_formed(&xml).unwrap();
            assert!(xml.contains(&format!("<{name}>3.00</{name}>")), "{xml}");
            assert!(xml.contains(&format!("EVENT_TYPE=\"{event_type}\"")));
            assert!(xml.contains("<SCORING_METHOD>IMPS</SCORING_METHOD>"));
            assert!(xml.contains("<BOARD_AVERAGE>260</BOARD_AVERAGE>"));
            assert!(xml.contains("<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>"));
            if kind.has_matches() {
                assert!(xml.contains("<TEAM_SCORE>15.65</TEAM_SCORE>"));
                assert!(xml.contains("<MATCH_SCORING_METHOD>VPS</MATCH_SCORING_METHOD>"));
            }
        }
    }

    #[test]
    fn a_field_writes_each_section_in_its_own_section_element() {
        let mut e = event(UsebioKind::Pairs(Method::Matchpoints));
        e.sections = vec!["A".into(), "B&".into()];
        let in_section = |section: &str, number: &str, place: &str| UsebioEntry {
            section: Some(section.into()),
            place: place.into(),
            ..entry(number, "NS", &["X"])
        };
        // ranked overall: B&'s pair first
        let entries = [in_section("B&", "1NS", "1"), in_section("A", "1NS", "2")];
        let mut travellers = sample();
        travellers[0].results[0].section = Some("A".into());
        travellers[0].results[1].section = Some("B&".into());
        let xml = write_usebio(&e, &entries, &[], &travellers);
        let names = check_well_formed(&xml).unwrap();
        assert!(xml.contains("<SECTION_COUNT>2</SECTION_COUNT>"), "{xml}");
        assert!(xml.contains("<SESSION_COUNT>1</SESSION_COUNT>"));
        // EVENT/SESSION/SECTION/(PARTICIPANTS, BOARD*), nothing under EVENT directly
        let at = |s: &str| xml.find(s).unwrap_or_else(|| panic!("{s} in {xml}"));
        assert!(at("<EVENT ") < at("<SESSION SESSION_ID=\"1\">"));
        let a = at("<SECTION SECTION_ID=\"A\">");
        let b = at("<SECTION SECTION_ID=\"B&amp;\">");
        assert!(at("<SESSION ") < a && a < b && b < at("</SESSION>"));
        assert!(at("</SESSION>") < at("</EVENT>"));
        let (section_a, section_b) = (&xml[a..b], &xml[b..at("</SESSION>")]);
        assert_eq!(section_a.matches("<PARTICIPANTS").count(), 1);
        assert!(section_a.contains("<PAIR_NUMBER>A1NS</PAIR_NUMBER>\n"));
        assert!(section_a.contains("<PLACE>2</PLACE>"));
        assert!(section_a.contains("<NS_PAIR_NUMBER>A1NS</NS_PAIR_NUMBER>"));
        assert!(!section_a.contains("B&amp;1"));
        assert!(section_b.contains("<PAIR_NUMBER>B&amp;1NS</PAIR_NUMBER>"));
        assert!(section_b.contains("<PLACE>1</PLACE>"));
        assert!(section_b.contains("<NS_PAIR_NUMBER>B&amp;2NS</NS_PAIR_NUMBER>"));
        assert!(section_b.contains("<ADJUSTED_SCORE>A+/A-</ADJUSTED_SCORE>"));
        assert!(!section_b.contains("A1NS"));
        assert_eq!(names.iter().filter(|n| *n == "SECTION").count(), 2);
        assert_eq!(names.iter().filter(|n| *n == "PARTICIPANTS").count(), 2);
        assert_eq!(names.iter().filter(|n| *n == "TRAVELLER_LINE").count(), 2);
        // a board per section that played it, the hands once
        assert_eq!(xml.matches("<BOARD EVENT_TYPE").count(), 2);
        assert_eq!(xml.matches("<HANDSET>").count(), 1);
    }

    #[test]
    fn leads_are_written_rank_first() {
        assert_eq!(usebio_lead("DT"), "TD");
        assert_eq!(usebio_lead("HK"), "KH");
        assert_eq!(players_from_name("A - B"), ["A", "B"]);
        assert_eq!(players_from_name("Solo"), ["Solo"]);
    }

    #[test]
    fn the_checker_finds_broken_documents() {
        assert!(check_well_formed("<A><B></A></B>").is_err());
        assert!(check_well_formed("<A>x & y</A>").is_err());
        assert!(check_well_formed("<A>").is_err());
        assert!(check_well_formed("<A b=\"1\">&amp;</A>").is_ok());
    }
}
