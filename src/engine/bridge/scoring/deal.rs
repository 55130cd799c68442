//! Hand records: the PBN deal string (`N:AKQ.JT9.876.5432 …`) and the deals of a PBN file
//! (tags `[Board]`, `[Dealer]`, `[Vulnerable]`, `[Deal]`, PBN 2.1).

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::board::{self, Seat, Vulnerability};
use super::ScoreError;

/// The deal of one board: the four hands N, E, S, W, each `spades.hearts.diamonds.clubs`
/// with the cards from ace down (`AKQ.JT9.876.5432`, a void is empty: `AKQJT98765432...`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Deal {
    pub board: u32,
    pub dealer: Seat,
    pub vulnerability: Vulnerability,
    pub hands: [String; 4],
}

/// A PBN file that cannot be read: the 1-based line at fault and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PbnError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for PbnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PbnError {}

const RANKS: &str = "AKQJT98765432";
const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];

fn deal_error(message: String) -> ScoreError {
    ScoreError::new("deal", message)
}

/// One hand `S.H.D.C` checked and written canonically (cards from ace down, uppercase; `10`
/// is read as `T`; `-` is read as a void). Marks each card in `seen` (suit × 13 + rank).
fn parse_hand(hand: &str, seat: Seat, seen: &mut [bool; 52]) -> Result<String, ScoreError> {
    let suits: Vec<&str> = hand.split('.').collect();
    if suits.len() != 4 {
        return Err(deal_error(format!(
            "{seat}'s hand '{hand}' needs four suits separated by dots (spades.hearts.diamonds.clubs)"
        )));
    }
    let mut count = 0;
    let mut canonical = Vec::with_capacity(4);
    for (s, text) in suits.iter().enumerate() {
        let text = text.to_ascii_uppercase().replace("10", "T");
        let mut ranks: Vec<usize> = Vec::new();
        for c in text.chars().filter(|&c| c != '-') {
            let Some(r) = RANKS.find(c) else {
                return Err(deal_error(format!(
                    "{seat}'s hand '{hand}': '{c}' is not a card"
                )));
            };
            let card = s * 13 + r;
            if seen[card] {
                return Err(deal_error(format!(
                    "{}{c} appears twice (again in {seat}'s hand)",
                    SUITS[s]
                )));
            }
            seen[card] = true;
            ranks.push(r);
        }
        count += ranks.len();
        ranks.sort_unstable();
        canonical.push(
            ranks
                .iter()
                .map(|&r| RANKS.as_bytes()[r] as char)
                .collect::<String>(),
        );
    }
    if count != 13 {
        return Err(deal_error(format!(
            "{seat}'s hand '{hand}' has {count} cards, not 13"
        )));
    }
    Ok(canonical.join("."))
}

/// A PBN deal string `F:h1 h2 h3 h4` (F the seat of the first hand, the others clockwise)
/// → the four hands in the order N, E, S, W. Each hand must have 13 cards and the deal 52
/// different cards. Errors name the field `deal`.
pub fn parse_deal_string(s: &str) -> Result<[String; 4], ScoreError> {
    let s = s.trim();
    let Some((first, hands)) = s.split_once(':') else {
        return Err(deal_error(format!(
            "'{s}' does not start with the first seat and a colon (N:…)"
        )));
    };
    let first: Seat = first.parse().map_err(|_| {
        deal_error(format!(
            "'{first}' before the colon is not a seat (N, E, S or W)"
        ))
    })?;
    let hands: Vec<&str> = hands.split_whitespace().collect();
    if hands.len() != 4 {
        return Err(deal_error(format!(
            "a deal has four hands, this one {}",
            hands.len()
        )));
    }
    let mut seen = [false; 52];
    let mut out: [String; 4] = Default::default();
    for (k, hand) in hands.iter().enumerate() {
        let seat = Seat::ALL[(first.index() + k) % 4];
        out[seat.index()] = parse_hand(hand, seat, &mut seen)?;
    }
    Ok(out)
}

/// The PBN deal string of four hands given N, E, S, W: `N:h1 h2 h3 h4`.
pub fn deal_string(hands: &[String; 4]) -> String {
    format!("N:{}", hands.join(" "))
}

/// The seat on the declarer's left, who makes the opening lead.
pub fn opening_leader(declarer: Seat) -> Seat {
    Seat::ALL[(declarer.index() + 1) % 4]
}

/// Whether a hand (`spades.hearts.diamonds.clubs`, canonical) holds a card written suit then
/// rank (`HK`, `DT`, as leads are stored).
pub fn holds(hand: &str, card: &str) -> bool {
    let mut chars = card.chars();
    let (Some(suit), Some(rank), None) = (chars.next(), chars.next(), chars.next()) else {
        return false;
    };
    let Some(s) = SUITS.iter().position(|&c| c == suit) else {
        return false;
    };
    hand.split('.')
        .nth(s)
        .is_some_and(|cards| cards.contains(rank))
}

/// Why a stored or entered lead cannot be right for a deal: None when the opening leader (the
/// declarer's left) holds it.
pub fn lead_fault(deal: &Deal, declarer: Seat, lead: &str) -> Option<String> {
    let leader = opening_leader(declarer);
    let hand = &deal.hands[leader.index()];
    (!holds(hand, lead)).then(|| {
        format!(
            "board {}: {lead} is not in {leader}'s hand ({hand}), and {leader} leads against {declarer}'s contract",
            deal.board
        )
    })
}

/// Where a hand record's dealer or vulnerability differs from its board's place in the
/// 16-board cycle: None when both agree, else what differs (`dealer E, not N`).
pub fn cycle_conflict(deal: &Deal) -> Option<String> {
    let (dealer, vul) = (board::dealer(deal.board), board::vulnerability(deal.board));
    let mut faults = Vec::new();
    if deal.dealer != dealer {
        faults.push(format!(
            "[Dealer \"{}\"] where board {} is dealt by {dealer}",
            deal.dealer, deal.board
        ));
    }
    if deal.vulnerability != vul {
        faults.push(format!(
            "[Vulnerable \"{}\"] where board {} is {}",
            deal.vulnerability.pbn_name(),
            deal.board,
            vul.pbn_name()
        ));
    }
    (!faults.is_empty()).then(|| faults.join(" and "))
}

/// A PBN tag value escaped per PBN 2.1: backslash and quote get a backslash; line breaks and
/// tabs (which a tag cannot hold) become spaces.
pub fn pbn_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The tags on a line, `[Name "value"]` one after the other (PBN import format allows several
/// on a line) → (name, unescaped value) each; None when the line is not made of tags.
fn parse_tags(line: &str) -> Option<Vec<(&str, String)>> {
    let mut tags = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[')?;
        let (name, after) = inner.split_once('"')?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return None;
        }
        let mut value = String::new();
        let mut chars = after.char_indices();
        let end = loop {
            match chars.next()? {
                (_, '\\') => value.push(chars.next()?.1),
                (k, '"') => break k,
                (_, c) => value.push(c),
            }
        };
        rest = after[end + 1..]
            .trim_start()
            .strip_prefix(']')?
            .trim_start();
        tags.push((name, value));
    }
    Some(tags)
}

/// The tags of one game that matter here, with the line each came from.
#[derive(Default)]
struct Game {
    board: Option<(usize, String)>,
    dealer: Option<(usize, String)>,
    vulnerable: Option<(usize, String)>,
    deal: Option<(usize, String)>,
}

impl Game {
    fn is_empty(&self) -> bool {
        self.board.is_none()
            && self.dealer.is_none()
            && self.vulnerable.is_none()
            && self.deal.is_none()
    }

    /// The game's deal, or None for a game without a `[Deal]` (not a hand record).
    fn into_deal(self) -> Result<Option<Deal>, PbnError> {
        let Some((deal_line, deal_text)) = self.deal else {
            return Ok(None);
        };
        let Some((board_line, board_text)) = self.board else {
            return Err(PbnError {
                line: deal_line,
                message: "a [Deal] without a [Board] tag".into(),
            });
        };
        let board: u32 = match board_text.trim().parse() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(PbnError {
                    line: board_line,
                    message: format!("[Board \"{board_text}\"] is not a board number"),
                })
            }
        };
        let dealer = match self.dealer {
            Some((line, d)) => d.parse().map_err(|_| PbnError {
                line,
                message: format!("[Dealer \"{d}\"] is not a seat (N, E, S or W)"),
            })?,
            None => board::dealer(board),
        };
        let vulnerability = match self.vulnerable {
            Some((line, v)) => v.parse().map_err(|_| PbnError {
                line,
                message: format!("[Vulnerable \"{v}\"] is not None, NS, EW or All"),
            })?,
            None => board::vulnerability(board),
        };
        let hands = parse_deal_string(&deal_text).map_err(|e| PbnError {
            line: deal_line,
            message: e.message,
        })?;
        Ok(Some(Deal {
            board,
            dealer,
            vulnerability,
            hands,
        }))
    }
}

/// The deals of a PBN file, in file order. Games are separated by blank lines (or a second
/// `[Board]`); games without a `[Deal]` are skipped; `[Dealer]` and `[Vulnerable]` default to
/// the board's place in the 16-board cycle. Comments (`%` lines, `;` to the end of a line,
/// `{…}` across lines) and the lines of sections (auction, play, tables) are passed over.
/// Errors name the line: a bad tag value, a deal that is not 4 × 13 distinct cards, a board
/// given twice.
pub fn parse_pbn_deals(text: &str) -> Result<Vec<Deal>, PbnError> {
    let mut deals: Vec<Deal> = Vec::new();
    let mut game = Game::default();
    let mut in_comment = false;
    let finish = |game: Game, deals: &mut Vec<Deal>| -> Result<(), PbnError> {
        let line = game.board.as_ref().map(|b| b.0).unwrap_or(0);
        if let Some(deal) = game.into_deal()? {
            if deals.iter().any(|d| d.board == deal.board) {
                return Err(PbnError {
                    line,
                    message: format!("board {} is given twice", deal.board),
                });
            }
            deals.push(deal);
        }
        Ok(())
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        if raw.trim().is_empty() && !in_comment {
            // a blank line ends a game
            if !game.is_empty() {
                finish(std::mem::take(&mut game), &mut deals)?;
            }
            continue;
        }
        // drop commentary: {…} possibly across lines, ; to the end of the line
        // (outside tag values)
        let mut line = String::new();
        let (mut in_value, mut escaped) = (false, false);
        for c in raw.chars() {
            if in_comment {
                in_comment = c != '}';
                continue;
            }
            if in_value {
                in_value = escaped || c != '"';
                escaped = !escaped && c == '\\';
            } else if c == '"' {
                in_value = true;
            } else if c == '{' {
                in_comment = true;
                continue;
            } else if c == ';' {
                break;
            }
            line.push(c);
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        if !line.starts_with('[') {
            continue; // auction, play or table rows
        }
        let Some(tags) = parse_tags(line) else {
            return Err(PbnError {
                line: number,
                message: format!("'{line}' is not a PBN tag [Name \"value\"]"),
            });
        };
        for (name, value) in tags {
            let slot = match name {
                "Board" => {
                    if game.board.is_some() {
                        finish(std::mem::take(&mut game), &mut deals)?;
                    }
                    &mut game.board
                }
                "Dealer" => &mut game.dealer,
                "Vulnerable" => &mut game.vulnerable,
                "Deal" => &mut game.deal,
                _ => continue,
            };
            *slot = Some((number, value));
        }
    }
    finish(game, &mut deals)?;
    Ok(deals)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD_1: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

    #[test]
    fn a_deal_string_gives_the_hands_north_first() {
        let hands = parse_deal_string(BOARD_1).unwrap();
        assert_eq!(hands[0], "AKQJ.T98.765.432");
        assert_eq!(hands[3], "432.AKQJ.T98.765");
        assert_eq!(deal_string(&hands), BOARD_1);
        // the same deal starting from East, lowercase, unordered, "10" for the ten
        let from_east = "e:98t.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.10 9 8.765.432";
        let from_east = from_east.replacen("10 9 8", "T98", 1);
        assert_eq!(parse_deal_string(&from_east).unwrap(), hands);
        // voids
        let voids = "W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
        let v = parse_deal_string(voids).unwrap();
        assert_eq!(v[3], "AKQJT98765432...");
        assert_eq!(v[0], ".AKQJT98765432..");
    }

    #[test]
    fn bad_deals_say_what_is_wrong() {
        let cases = [
            (
                "AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
                "colon",
            ),
            (
                "X:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
                "seat",
            ),
            (
                "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98",
                "four hands",
            ),
            (
                "N:AKQJ.T98.765.43 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
                "12 cards",
            ),
            (
                "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76",
                "12 cards",
            ),
            (
                "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765X",
                "not a card",
            ),
            (
                "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 A32.AKQJ.T98.765",
                "twice",
            ),
            (
                "N:AKQJ.T98.765 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
                "four suits",
            ),
        ];
        for (deal, why) in cases {
            let e = parse_deal_string(deal).unwrap_err();
            assert_eq!(e.field, "deal");
            assert!(e.message.contains(why), "{deal}: {}", e.message);
        }
    }

    #[test]
    fn a_pbn_file_gives_its_deals() {
        let text = format!(
            "% PBN 2.1\n% EXPORT\n[Event \"Club \\\"pairs\\\"; {{Monday}}\"]\n\n\
             [Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"{BOARD_1}\"]\n\
             {{ a comment\n[Board \"99\"] still a comment }}\n[Auction \"N\"]\n1NT Pass 3NT AP\n\n\
             [Board \"2\"] ; second board\n[Deal \"E:{}\"]\n",
            &BOARD_1[2..]
        );
        let deals = parse_pbn_deals(&text).unwrap();
        assert_eq!(deals.len(), 2);
        assert_eq!(deals[0].board, 1);
        assert_eq!(deals[0].dealer, Seat::N);
        assert_eq!(deals[0].vulnerability, Vulnerability::None);
        assert_eq!(deal_string(&deals[0].hands), BOARD_1);
        // board 2 from the cycle: E deals, NS vulnerable; hands rotated from East
        assert_eq!(
            (deals[1].board, deals[1].dealer, deals[1].vulnerability),
            (2, Seat::E, Vulnerability::Ns)
        );
        assert_eq!(deals[1].hands[1], "AKQJ.T98.765.432");
    }

    #[test]
    fn games_without_a_blank_line_and_without_a_deal() {
        let text = format!("\u{feff}[Board \"3\"]\n[Deal \"{BOARD_1}\"]\n[Board \"4\"]\r\n[Board \"5\"] [Vulnerable \"All\"]\r\n[Deal \"{BOARD_1}\"]");
        let deals = parse_pbn_deals(&text).unwrap();
        assert_eq!(
            deals.iter().map(|d| d.board).collect::<Vec<_>>(),
            vec![3, 5]
        );
        assert_eq!(deals[1].vulnerability, Vulnerability::Both);
    }

    #[test]
    fn pbn_errors_name_the_line() {
        let bad_deal = "[Board \"1\"]\n[Deal \"N:AKQ.T98.765.432 - - -\"]\n";
        assert_eq!(parse_pbn_deals(bad_deal).unwrap_err().line, 2);
        let twice =
            format!("[Board \"1\"]\n[Deal \"{BOARD_1}\"]\n\n[Board \"1\"]\n[Deal \"{BOARD_1}\"]\n");
        let e = parse_pbn_deals(&twice).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("twice"));
        let bad_board = format!("\n[Board \"x\"]\n[Deal \"{BOARD_1}\"]\n");
        assert_eq!(parse_pbn_deals(&bad_board).unwrap_err().line, 2);
        let bad_dealer = format!("[Board \"1\"]\n[Dealer \"Q\"]\n[Deal \"{BOARD_1}\"]\n");
        assert_eq!(parse_pbn_deals(&bad_dealer).unwrap_err().line, 2);
        let bad_vul = format!("[Board \"1\"]\n[Deal \"{BOARD_1}\"]\n[Vulnerable \"Some\"]\n");
        assert_eq!(parse_pbn_deals(&bad_vul).unwrap_err().line, 3);
        let no_board = format!("[Deal \"{BOARD_1}\"]\n");
        assert_eq!(parse_pbn_deals(&no_board).unwrap_err().line, 1);
        let broken = "[Board \"1\"\n";
        assert_eq!(parse_pbn_deals(broken).unwrap_err().line, 1);
        assert_eq!(parse_pbn_deals("").unwrap(), vec![]);
    }

    #[test]
    fn leads_and_the_cycle() {
        assert_eq!(opening_leader(Seat::S), Seat::W);
        assert_eq!(opening_leader(Seat::W), Seat::N);
        let hands = parse_deal_string(BOARD_1).unwrap();
        assert!(holds(&hands[0], "SA")); // North: AKQJ of spades
        assert!(holds(&hands[0], "HT"));
        assert!(!holds(&hands[0], "HK"));
        assert!(holds(&hands[1], "CA")); // East: AKQJ of clubs
        assert!(!holds(&hands[1], "C"));
        assert!(!holds(&hands[1], "XA"));
        let deal = |board, dealer, vulnerability| Deal {
            board,
            dealer,
            vulnerability,
            hands: hands.clone(),
        };
        assert_eq!(cycle_conflict(&deal(1, Seat::N, Vulnerability::None)), None);
        assert_eq!(cycle_conflict(&deal(18, Seat::E, Vulnerability::Ns)), None);
        let both = cycle_conflict(&deal(2, Seat::N, Vulnerability::Ew)).unwrap();
        assert!(both.contains("[Dealer \"N\"]") && both.contains("[Vulnerable \"EW\"]"));
        assert!(both.contains("is NS"), "{both}");
    }

    #[test]
    fn escaping_round_trips_through_a_tag() {
        let name = "O'Brien \"Bertie\" \\ Co\nLtd";
        let escaped = pbn_escape(name);
        assert_eq!(escaped, "O'Brien \\\"Bertie\\\" \\\\ Co Ltd");
        let line = format!("[Event \"{escaped}\"]");
        let tags = parse_tags(&line).unwrap();
        assert_eq!(
            tags,
            vec![("Event", "O'Brien \"Bertie\" \\ Co Ltd".to_string())]
        );
        // several tags on a line (import format), a "]" inside a value
        let line = r#"[Board "7"] [Dealer "S"][Event "a ] b"]"#;
        let tags = parse_tags(line).unwrap();
        assert_eq!(
            tags.iter().map(|t| t.0).collect::<Vec<_>>(),
            ["Board", "Dealer", "Event"]
        );
        assert_eq!(tags[2].1, "a ] b");
        for bad in [
            r#"[Board "7""#,
            r#"[Board 7]"#,
            r#"[ "7"]"#,
            r#"[Board "7"] x"#,
            r#"[Bo ard "7"]"#,
        ] {
            assert!(parse_tags(bad).is_none(), "{bad}");
        }
    }
}
