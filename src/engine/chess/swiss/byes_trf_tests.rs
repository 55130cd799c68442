//! The kinds of byes in a pairing, and TRF files with team records or faults found only when
//! the state is paired.

use super::state::*;
use super::trf::{parse_trf, parse_trf_located};
use super::*;
use crate::engine::chess::swiss::us::pair_next_round;
use crate::engine::matching::BlossomSolver;

fn player(sn: u32) -> SwissPlayer {
    SwissPlayer {
        start_number: sn,
        name: format!("P{sn}"),
        rating: 2000 - 10 * sn,
        ..Default::default()
    }
}

#[test]
fn each_bye_says_its_kind() {
    let s = SwissState {
        settings: SwissSettings::default(),
        players: (1..=6).map(player).collect(),
        round: None,
        // A requested full-point bye looks like the pairing bye by its points alone.
        requested_byes: vec![RequestedBye {
            player: 2,
            points: 1.0,
        }],
        absent: vec![4],
    };
    let p = pair_next_round(&s, &BlossomSolver).unwrap();
    let kind = |sn: u32| {
        p.byes
            .iter()
            .find(|b| b.player == sn)
            .map(|b| (b.points, b.kind))
    };
    assert_eq!(kind(2), Some((1.0, ByeKind::Requested)));
    assert_eq!(kind(4), Some((0.0, ByeKind::Absent)));
    // Four players left: 1, 3, 5, 6 pair; no pairing bye. With 3 withdrawn, 6 gets it.
    assert_eq!(p.byes.len(), 2);
    let mut s = s;
    s.players[2].withdrawn = true;
    let p = pair_next_round(&s, &BlossomSolver).unwrap();
    let b = p.byes.iter().find(|b| b.kind == ByeKind::Pairing).unwrap();
    assert_eq!((b.player, b.points), (6, 1.0));
    let json = serde_json::to_value(b).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"player": 6, "points": 1.0, "kind": "pairing"})
    );
}

/// A `001` line: start number, name, rating, points, then round cells `(opponent, colour,
/// result)`.
fn line_001(sn: u32, name: &str, rating: u32, points: &str, cells: &[(u32, char, char)]) -> String {
    let mut l = format!(
        "001 {sn:>4}      {name:<33} {rating:>4}{:28}{points:>4} {sn:>4}  ",
        ""
    );
    for &(o, c, r) in cells {
        l.push_str(&format!("{o:>4} {c} {r}  "));
    }
    l
}

/// A TRF-2026 `310` team record.
fn line_310(no: u32, name: &str, match_points: &str, members: &[u32]) -> String {
    let mut l = format!(
        "310 {no:>3} {name:<32} {:<5} {:>6} {match_points:>6} {:>6} {no:>3}  ",
        "", "", "0.0"
    );
    for m in members {
        l.push_str(&format!("{m:>4} "));
    }
    l
}

fn four_players(extra: &[String]) -> String {
    let mut lines = vec![
        "012 Test".to_string(),
        "XXR 5".to_string(),
        line_001(1, "Alpha, Anna", 2100, "1.0", &[(3, 'w', '1')]),
        line_001(2, "Beta, Bob", 2000, "1.0", &[(4, 'b', '1')]),
        line_001(3, "Gamma, Gus", 1900, "0.0", &[(1, 'b', '0')]),
        line_001(4, "Delta, Dan", 1800, "0.0", &[(2, 'w', '0')]),
    ];
    lines.extend(extra.iter().cloned());
    lines.join("\n") + "\n"
}

#[test]
fn trf_2026_team_records_give_team_codes() {
    let text = four_players(&[
        line_310(1, "Rooks", "0.0", &[1, 3]),
        line_310(2, "Knights", "", &[2, 4]),
    ]);
    let s = parse_trf(&text).unwrap();
    let team = |sn: u32| {
        s.players
            .iter()
            .find(|p| p.start_number == sn)
            .and_then(|p| p.team.clone())
    };
    assert_eq!(team(1).as_deref(), Some("Rooks"));
    assert_eq!(team(3).as_deref(), Some("Rooks"));
    assert_eq!(team(4).as_deref(), Some("Knights"));
    // TRF-16 `013`: name in columns 5-36, members from 37.
    let text = four_players(&[format!("013 {:<32}{:>4} {:>4}", "Bishops", 2, 3)]);
    let s = parse_trf(&text).unwrap();
    assert_eq!(s.players[1].team.as_deref(), Some("Bishops"));
}

#[test]
fn a_team_swiss_file_is_refused_by_name() {
    // The spec's own example: match points 15.0, game points 28.0 (which the old reader
    // took for a start number).
    let text = four_players(&[line_310(1, "India", "15.0", &[1, 2, 3, 4])]);
    let err = parse_trf(&text).unwrap_err();
    assert_eq!(err.line, 7);
    let msg = err.to_string();
    assert!(
        msg.starts_with(
            "line 7: this is a team Swiss file (`310` team record of India with 15.0 match points)"
        ),
        "{msg}"
    );
    for (code, what) in [
        ("320", "a team's pairing-allocated bye"),
        ("330", "a forfeited team match"),
        ("300", "a team's board order"),
    ] {
        let text = four_players(&[format!("{code} 2.0 0.0 001")]);
        let msg = parse_trf(&text).unwrap_err().to_string();
        assert!(
            msg.starts_with(&format!(
                "line 7: this is a team Swiss file (`{code}` record: {what})"
            )),
            "{msg}"
        );
    }
    let msg = parse_trf(&four_players(&["082 12".into()]))
        .unwrap_err()
        .to_string();
    assert!(
        msg.starts_with("line 7: this is a team Swiss file"),
        "{msg}"
    );
    assert!(parse_trf(&four_players(&["082 0".into()])).is_ok());
}

#[test]
fn faults_found_when_pairing_are_reported_at_their_line() {
    // One round played, XXR 5; a --rounds 1 override leaves nothing to pair: the fault is the
    // number of rounds, reported at the XXR line.
    let (mut s, lines) = parse_trf_located(&four_players(&[])).unwrap();
    s.settings.total_rounds = 1;
    let err = pair_next_round(&s, &BlossomSolver).unwrap_err();
    let msg = lines.locate(&err).to_string();
    assert!(msg.starts_with("line 2: round: "), "{msg}");
    // A player's fault is reported at his `001` line.
    let (mut s, lines) = parse_trf_located(&four_players(&[])).unwrap();
    s.players[2].rating = 100_000;
    let err = pair_next_round(&s, &BlossomSolver).unwrap_err();
    assert!(lines
        .locate(&err)
        .to_string()
        .starts_with("line 5: players[2].rating: "));
    // Anything else is the file as a whole.
    let (mut s, lines) = parse_trf_located(&four_players(&[])).unwrap();
    for p in &mut s.players[1..] {
        p.withdrawn = true;
    }
    let err = pair_next_round(&s, &BlossomSolver).unwrap_err();
    assert!(lines
        .locate(&err)
        .to_string()
        .starts_with("line 0: players: "));
}

#[test]
fn a_player_paired_against_himself_is_refused_at_his_line() {
    let text = [
        "012 Test".to_string(),
        "XXR 5".to_string(),
        line_001(1, "Alpha, Anna", 2100, "1.0", &[(1, 'w', '1')]),
        line_001(2, "Beta, Bob", 2000, "1.0", &[(0, '-', 'U')]),
    ]
    .join("\n")
        + "\n";
    let msg = parse_trf(&text).unwrap_err().to_string();
    assert_eq!(msg, "line 3: round 1: player 1 is paired against himself");
}
