//! The session as USEBIO 1.2 XML (the EBU's results exchange format; pure, text out).
//!
//! Layout (one event, one session, one section):
//! ```text
//! USEBIO Version="1.2"
//!   EVENT EVENT_TYPE="PAIRS"
//!     BOARD_SCORING_METHOD  MATCH_POINTS | BUTLER | CROSS_IMPS
//!     EVENT_DESCRIPTION, DATE (DD/MM/YYYY), SESSION_COUNT, SECTION_COUNT, PAIRS,
//!     BOARDS_PLAYED, WINNER_TYPE (1 or 2)
//!     SESSION SESSION_ID="1"
//!       SECTION SECTION_ID="A"
//!         PARTICIPANTS
//!           PAIR*: PAIR_NUMBER, DIRECTION (NS/EW, two-winner and Mitchell-numbered
//!                  movements), PERCENTAGE (matchpoints), TOTAL_SCORE, PLACE ("1", "2="),
//!                  PLAYER* (PLAYER_NAME; a pair's name "A - B", "A & B" or "A / B" gives two)
//!         BOARD*: BOARD_NUMBER, VULNERABILITY and HAND* (DIRECTION, SPADES, HEARTS,
//!                 DIAMONDS, CLUBS) when the hand record is known,
//!                 TRAVELLER_LINE*: NS_PAIR_NUMBER, EW_PAIR_NUMBER, CONTRACT, PLAYED_BY, LEAD,
//!                 TRICKS, SCORE (NS score; the adjusted notation `A+/A-` for an artificial
//!                 score), then NS_MATCH_POINTS/EW_MATCH_POINTS or NS_IMPS/EW_IMPS
//! ```
//! Every text is XML-escaped (`&`, `<`, `>`, `"`, `'`), so the document is well formed
//! whatever the names hold.

use super::scoring::Vulnerability;
use super::session::Method;
use super::traveller::{BridgeStandings, HandRecord, Traveller};

/// The event as the file describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsebioEvent<'a> {
    pub name: &'a str,
    /// `DD/MM/YYYY`, or None.
    pub date: Option<String>,
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

/// The players of a pair from its name: `A - B`, `A & B`, `A / B` or `A and B` give two.
fn players(name: &str) -> Vec<String> {
    for sep in [" - ", " & ", " / ", " and "] {
        if let Some((a, b)) = name.split_once(sep) {
            return vec![a.trim().to_string(), b.trim().to_string()];
        }
    }
    vec![name.trim().to_string()]
}

fn vulnerability_text(v: Vulnerability) -> &'static str {
    match v {
        Vulnerability::None => "Love",
        Vulnerability::Ns => "North-South",
        Vulnerability::Ew => "East-West",
        Vulnerability::Both => "All",
    }
}

fn hands(x: &mut Xml, d: &HandRecord) {
    for (seat, hand) in [
        ("N", &d.north),
        ("E", &d.east),
        ("S", &d.south),
        ("W", &d.west),
    ] {
        x.start("HAND", &[]);
        x.leaf("DIRECTION", seat);
        let mut suits = hand.split('.');
        for suit in ["SPADES", "HEARTS", "DIAMONDS", "CLUBS"] {
            x.leaf(suit, suits.next().unwrap_or_default());
        }
        x.end();
    }
}

/// The session as a USEBIO 1.2 document.
pub fn write_usebio(
    event: &UsebioEvent,
    travellers: &[Traveller],
    totals: &BridgeStandings,
) -> String {
    let imps = totals.method.is_imps();
    let mut x = Xml {
        out: String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE USEBIO SYSTEM \"http://www.ebu.co.uk/usebio/usebio_v1_2.dtd\">\n",
        ),
        open: Vec::new(),
    };
    x.start("USEBIO", &[("Version", "1.2")]);
    x.start("EVENT", &[("EVENT_TYPE", "PAIRS")]);
    x.leaf(
        "BOARD_SCORING_METHOD",
        match totals.method {
            Method::Matchpoints => "MATCH_POINTS",
            Method::Butler => "BUTLER",
            Method::CrossImps => "CROSS_IMPS",
        },
    );
    x.leaf("EVENT_DESCRIPTION", event.name);
    if let Some(d) = &event.date {
        x.leaf("DATE", d);
    }
    x.leaf("SESSION_COUNT", "1");
    x.leaf("SECTION_COUNT", "1");
    let pairs: usize = totals.rankings.iter().map(|r| r.entries.len()).sum();
    x.leaf("PAIRS", &pairs.to_string());
    let played = travellers.iter().filter(|t| !t.results.is_empty()).count();
    x.leaf("BOARDS_PLAYED", &played.to_string());
    x.leaf("WINNER_TYPE", &totals.rankings.len().to_string());
    x.start("SESSION", &[("SESSION_ID", "1")]);
    x.start("SECTION", &[("SECTION_ID", "A")]);
    x.start("PARTICIPANTS", &[]);
    for r in &totals.rankings {
        for e in &r.entries {
            x.start("PAIR", &[]);
            x.leaf("PAIR_NUMBER", &e.pair.to_string());
            if let Some(d) = r.direction.or(e.line) {
                x.leaf("DIRECTION", d);
            }
            if let Some(p) = e.percent {
                x.leaf("PERCENTAGE", &two(p));
            }
            x.leaf("TOTAL_SCORE", &two(e.total));
            x.leaf("PLACE", &e.rank);
            for name in players(e.name.as_deref().unwrap_or_default()) {
                x.start("PLAYER", &[]);
                x.leaf("PLAYER_NAME", &name);
                x.end();
            }
            x.end();
        }
    }
    x.end();
    for t in travellers.iter().filter(|t| !t.results.is_empty()) {
        x.start("BOARD", &[]);
        x.leaf("BOARD_NUMBER", &t.board.to_string());
        if let Some(d) = &t.deal {
            x.leaf("VULNERABILITY", vulnerability_text(t.vulnerability));
            hands(&mut x, d);
        }
        for l in &t.results {
            x.start("TRAVELLER_LINE", &[]);
            x.leaf("NS_PAIR_NUMBER", &l.ns_pair.to_string());
            x.leaf("EW_PAIR_NUMBER", &l.ew_pair.to_string());
            x.leaf("CONTRACT", l.contract.as_deref().unwrap_or_default());
            x.leaf(
                "PLAYED_BY",
                &l.declarer.map(|d| d.to_string()).unwrap_or_default(),
            );
            x.leaf("LEAD", l.lead.as_deref().unwrap_or_default());
            x.leaf(
                "TRICKS",
                &l.tricks
                    .filter(|_| l.declarer.is_some())
                    .map(|t| t.to_string())
                    .unwrap_or_default(),
            );
            let score = match (&l.adjusted, l.ns_score) {
                (Some(a), _) => a.clone(),
                (None, Some(s)) => s.to_string(),
                (None, None) => String::new(),
            };
            x.leaf("SCORE", &score);
            if imps {
                x.leaf("NS_IMPS", &l.ns_imps.map(two).unwrap_or_default());
                x.leaf("EW_IMPS", &l.ew_imps.map(two).unwrap_or_default());
            } else {
                x.leaf("NS_MATCH_POINTS", &l.ns_mp.map(two).unwrap_or_default());
                x.leaf("EW_MATCH_POINTS", &l.ew_mp.map(two).unwrap_or_default());
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
    use crate::engine::bridge::scoring::Seat;
    use crate::engine::bridge::traveller::{BridgeRanking, BridgeStandingEntry, TravellerLine};

    fn sample(method: Method) -> (Vec<Traveller>, BridgeStandings) {
        let line = TravellerLine {
            round: 1,
            table: 1,
            ns_pair: 1,
            ew_pair: 2,
            contract: Some("3NT".into()),
            declarer: Some(Seat::S),
            tricks: Some(10),
            result: Some("+1".into()),
            lead: Some("S4".into()),
            ns_score: Some(430),
            ew_score: None,
            adjusted: None,
            ns_mp: Some(2.0),
            ew_mp: Some(0.0),
            ns_percent: Some(100.0),
            ew_percent: Some(0.0),
            ns_imps: Some(3.0),
            ew_imps: Some(-3.0),
        };
        let t = Traveller {
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
            top: None,
            datum: None,
            results: vec![line],
        };
        let entry = |pair: u32, name: &str| BridgeStandingEntry {
            rank: "1=".into(),
            pair,
            line: None,
            participant_id: Some(pair as i64),
            name: Some(name.into()),
            total: 2.0,
            percent: (method == Method::Matchpoints).then_some(100.0),
            boards: 1,
        };
        let totals = BridgeStandings {
            method,
            scale: None,
            rankings: vec![
                BridgeRanking {
                    direction: Some("NS"),
                    entries: vec![entry(1, "Smith & Sons <Ltd> - O'Neill")],
                },
                BridgeRanking {
                    direction: Some("EW"),
                    entries: vec![entry(2, "Brown - Green")],
                },
            ],
        };
        (vec![t], totals)
    }

    #[test]
    fn the_document_is_well_formed_and_escaped() {
        let (t, s) = sample(Method::Matchpoints);
        let xml = write_usebio(
            &UsebioEvent {
                name: "Club \"Pairs\" & more",
                date: Some("24/11/2026".into()),
            },
            &t,
            &s,
        );
        let names = check_well_formed(&xml).unwrap();
        assert_eq!(names[0], "USEBIO");
        assert_eq!(names[1], "EVENT");
        assert!(xml
            .contains("<EVENT_DESCRIPTION>Club &quot;Pairs&quot; &amp; more</EVENT_DESCRIPTION>"));
        assert!(xml.contains("<PLAYER_NAME>Smith &amp; Sons &lt;Ltd&gt;</PLAYER_NAME>"));
        assert!(xml.contains("<PLAYER_NAME>O&apos;Neill</PLAYER_NAME>"));
        assert!(xml.contains("<WINNER_TYPE>2</WINNER_TYPE>"));
        assert!(xml.contains("<PLACE>1=</PLACE>"));
        assert!(xml.contains("<NS_MATCH_POINTS>2.00</NS_MATCH_POINTS>"));
        assert!(xml.contains("<SPADES>AKQJ</SPADES>"));
        assert_eq!(names.iter().filter(|n| *n == "TRAVELLER_LINE").count(), 1);
        assert_eq!(names.iter().filter(|n| *n == "PLAYER").count(), 4);
    }

    #[test]
    fn imp_scoring_writes_imps() {
        let (t, s) = sample(Method::Butler);
        let xml = write_usebio(
            &UsebioEvent {
                name: "x",
                date: None,
            },
            &t,
            &s,
        );
        assert!(xml.contains("<BOARD_SCORING_METHOD>BUTLER</BOARD_SCORING_METHOD>"));
        assert!(xml.contains("<NS_IMPS>3.00</NS_IMPS>"));
        assert!(!xml.contains("PERCENTAGE"));
        check_well_formed(&xml).unwrap();
    }

    #[test]
    fn the_checker_finds_broken_documents() {
        assert!(check_well_formed("<A><B></A></B>").is_err());
        assert!(check_well_formed("<A>x & y</A>").is_err());
        assert!(check_well_formed("<A>").is_err());
        assert!(check_well_formed("<A b=\"1\">&amp;</A>").is_ok());
    }
}
