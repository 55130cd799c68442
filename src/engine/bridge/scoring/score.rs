//! The duplicate score of one board (Laws of Duplicate Bridge 2017, law 77).

use super::board::{Seat, Vulnerability};
use super::contract::{Contract, Doubling, Strain};
use super::ScoreError;

/// The largest score of one board, either way: 7NT redoubled and vulnerable, down 13
/// (400 + 12 × 600). Any score or difference beyond it cannot come from the table.
pub const MAX_SCORE: i32 = 7600;

/// The value of the first and of each further trick bid (or made over the contract,
/// undoubled) in a strain.
fn trick_values(strain: Strain) -> (i32, i32) {
    match strain {
        Strain::Clubs | Strain::Diamonds => (20, 20),
        Strain::Hearts | Strain::Spades => (30, 30),
        Strain::NoTrump => (40, 30),
    }
}

/// The declaring side's score for a made contract (`over` overtricks, ≥ 0).
fn made(level: u8, strain: Strain, doubling: Doubling, over: i32, vul: bool) -> i32 {
    let (first, each) = trick_values(strain);
    let factor = match doubling {
        Doubling::Undoubled => 1,
        Doubling::Doubled => 2,
        Doubling::Redoubled => 4,
    };
    let trick_score = (first + each * (i32::from(level) - 1)) * factor;
    let game_or_part = match (trick_score >= 100, vul) {
        (false, _) => 50,
        (true, false) => 300,
        (true, true) => 500,
    };
    let slam = match (level, vul) {
        (6, false) => 500,
        (6, true) => 750,
        (7, false) => 1000,
        (7, true) => 1500,
        _ => 0,
    };
    let (insult, per_overtrick) = match doubling {
        Doubling::Undoubled => (0, each),
        Doubling::Doubled => (50, if vul { 200 } else { 100 }),
        Doubling::Redoubled => (100, if vul { 400 } else { 200 }),
    };
    trick_score + game_or_part + slam + insult + per_overtrick * over
}

/// The defenders' score when the contract goes `down` (≥ 1) tricks.
fn set(doubling: Doubling, down: i32, vul: bool) -> i32 {
    let doubled = if vul {
        200 + 300 * (down - 1)
    } else {
        // 100 for the first, 200 for the second and third, 300 for each further one
        100 + 200 * (down - 1).min(2) + 300 * (down - 3).max(0)
    };
    match doubling {
        Doubling::Undoubled => down * if vul { 100 } else { 50 },
        Doubling::Doubled => doubled,
        Doubling::Redoubled => 2 * doubled,
    }
}

/// The NS score of a board (negative when EW score). A passed-out board scores 0.
/// Err (field `tricks`) when more than 13 tricks are given.
pub fn ns_score(
    contract: &Contract,
    declarer: Seat,
    tricks: u8,
    vul: Vulnerability,
) -> Result<i32, ScoreError> {
    if tricks > 13 {
        return Err(ScoreError::new(
            "tricks",
            format!("{tricks} tricks: a deal has 13"),
        ));
    }
    let Contract::Bid {
        level,
        strain,
        doubling,
    } = *contract
    else {
        return Ok(0);
    };
    let vulnerable = vul.is_vulnerable(declarer);
    let over = i32::from(tricks) - i32::from(contract.tricks_needed());
    let declarer_score = if over >= 0 {
        made(level, strain, doubling, over, vulnerable)
    } else {
        -set(doubling, -over, vulnerable)
    };
    Ok(if declarer.is_ns() {
        declarer_score
    } else {
        -declarer_score
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Vulnerability as V;

    /// Hand-checked (contract, result, declarer vulnerable?, declarer's score).
    /// Each line's arithmetic is in the comment.
    const MADE: &[(&str, &str, bool, i32)] = &[
        // part scores: trick score + 50
        ("1C", "=", false, 70),   // 20 + 50
        ("1C", "+1", false, 90),  // 20 + 50 + 20
        ("2D", "+3", true, 150),  // 40 + 50 + 3·20
        ("1NT", "=", false, 90),  // 40 + 50
        ("2S", "=", true, 110),   // 60 + 50
        ("2NT", "+1", true, 150), // 70 + 50 + 30
        ("4C", "=", false, 130),  // 80 + 50: 80 is below game
        ("4D", "=", true, 130),   // 80 + 50
        ("3H", "=", false, 140),  // 90 + 50
        // games: trick score ≥ 100 earns 300 / 500
        ("3NT", "=", false, 400),  // 100 + 300
        ("3NT", "=", true, 600),   // 100 + 500
        ("3NT", "+2", false, 460), // 100 + 300 + 2·30
        ("4S", "=", false, 420),   // 120 + 300
        ("4H", "+1", true, 650),   // 120 + 500 + 30
        ("5C", "=", false, 400),   // 100 + 300
        ("5D", "+1", true, 620),   // 100 + 500 + 20
        // small slams: 500 / 750
        ("6S", "=", false, 980),   // 180 + 300 + 500
        ("6S", "=", true, 1430),   // 180 + 500 + 750
        ("6NT", "=", false, 990),  // 190 + 300 + 500
        ("6NT", "=", true, 1440),  // 190 + 500 + 750
        ("6H", "+1", false, 1010), // 180 + 300 + 500 + 30
        ("6C", "=", true, 1370),   // 120 + 500 + 750
        // grand slams: 1000 / 1500
        ("7C", "=", false, 1440),  // 140 + 300 + 1000
        ("7C", "=", true, 2140),   // 140 + 500 + 1500
        ("7NT", "=", false, 1520), // 220 + 300 + 1000
        ("7NT", "=", true, 2220),  // 220 + 500 + 1500
        ("7S", "=", true, 2210),   // 210 + 500 + 1500
        // doubled: trick score ×2, insult 50, overtricks 100 / 200
        ("1NTX", "=", false, 180),  // 80 + 50 + 50: still a part score
        ("1NTX", "+1", false, 280), // 180 + 100
        ("1NTX", "+1", true, 380),  // 80 + 50 + 50 + 200
        ("2CX", "=", false, 180),   // 80 + 50 + 50
        ("2HX", "=", false, 470),   // 120 + 300 + 50: doubled into game
        ("3CX", "=", true, 670),    // 120 + 500 + 50
        ("4SX", "=", false, 590),   // 240 + 300 + 50
        ("4SX", "=", true, 790),    // 240 + 500 + 50
        ("4SX", "+1", false, 690),  // 590 + 100
        ("4SX", "+1", true, 990),   // 790 + 200
        ("3NTX", "+2", false, 750), // 200 + 300 + 50 + 2·100
        ("6DX", "=", false, 1090),  // 240 + 300 + 500 + 50
        ("7NTX", "=", true, 2490),  // 440 + 500 + 1500 + 50
        // redoubled: trick score ×4, insult 100, overtricks 200 / 400
        ("1CXX", "=", false, 230),   // 80 + 50 + 100
        ("1NTXX", "=", false, 560),  // 160 + 300 + 100: redoubled into game
        ("1NTXX", "=", true, 760),   // 160 + 500 + 100
        ("1NTXX", "+1", false, 760), // 560 + 200
        ("2DXX", "+2", true, 1560),  // 160 + 500 + 100 + 2·400
        ("4SXX", "=", false, 880),   // 480 + 300 + 100
        ("4SXX", "+1", true, 1480),  // 480 + 500 + 100 + 400
        ("6HXX", "=", true, 2070),   // 720 + 500 + 750 + 100
        ("7NTXX", "=", true, 2980),  // 880 + 500 + 1500 + 100
        ("7NTXX", "=", false, 2280), // 880 + 300 + 1000 + 100
    ];

    /// Penalties for down 1…7: undoubled 50/100 each; doubled not vulnerable 100, 200, 200,
    /// then 300 each; doubled vulnerable 200 then 300 each; redoubled twice doubled.
    const DOWN: &[(&str, bool, [i32; 7])] = &[
        ("", false, [50, 100, 150, 200, 250, 300, 350]),
        ("", true, [100, 200, 300, 400, 500, 600, 700]),
        ("X", false, [100, 300, 500, 800, 1100, 1400, 1700]),
        ("X", true, [200, 500, 800, 1100, 1400, 1700, 2000]),
        ("XX", false, [200, 600, 1000, 1600, 2200, 2800, 3400]),
        ("XX", true, [400, 1000, 1600, 2200, 2800, 3400, 4000]),
    ];

    /// Board vulnerability that makes a declarer of `seat` (not) vulnerable while the other
    /// side is the opposite: checks the declarer's side is the one that counts.
    fn vul_for(seat: Seat, vulnerable: bool) -> V {
        match (seat.is_ns(), vulnerable) {
            (true, true) | (false, false) => V::Ns,
            (true, false) | (false, true) => V::Ew,
        }
    }

    fn score(contract: &str, declarer: Seat, tricks: u8, vul: V) -> i32 {
        ns_score(&contract.parse().unwrap(), declarer, tricks, vul).unwrap()
    }

    #[test]
    fn made_contracts() {
        for &(c, r, vulnerable, expected) in MADE {
            let contract: Contract = c.parse().unwrap();
            let tricks = super::super::tricks_from_result(&contract, r).unwrap();
            for seat in Seat::ALL {
                let got = score(c, seat, tricks, vul_for(seat, vulnerable));
                let ns = if seat.is_ns() { expected } else { -expected };
                assert_eq!(got, ns, "{c} {r} by {seat}, vulnerable {vulnerable}");
                // the same with the whole board at that vulnerability
                let all = if vulnerable { V::Both } else { V::None };
                assert_eq!(score(c, seat, tricks, all), ns, "{c} {r} by {seat} ({all})");
            }
        }
    }

    #[test]
    fn undertricks_one_to_seven_in_every_doubling_state() {
        for &(x, vulnerable, ref penalties) in DOWN {
            for (i, &penalty) in penalties.iter().enumerate() {
                let down = i as u8 + 1;
                // the penalty does not depend on level or strain: try 1NT and 7S
                for base in ["1NT", "7S", "4H"] {
                    let c = format!("{base}{x}");
                    let contract: Contract = c.parse().unwrap();
                    let tricks = contract.tricks_needed() - down;
                    // declarer N: NS lose the penalty; declarer W: NS gain it
                    assert_eq!(
                        score(&c, Seat::N, tricks, vul_for(Seat::N, vulnerable)),
                        -penalty
                    );
                    assert_eq!(
                        score(&c, Seat::W, tricks, vul_for(Seat::W, vulnerable)),
                        penalty
                    );
                }
            }
        }
    }

    #[test]
    fn down_thirteen_continues_the_scale() {
        // 7NT with no tricks: doubled NV 100 + 2·200 + 10·300, V 200 + 12·300
        assert_eq!(score("7NTX", Seat::S, 0, V::None), -3500);
        assert_eq!(score("7NTX", Seat::S, 0, V::Both), -3800);
        assert_eq!(score("7NTXX", Seat::E, 0, V::Both), MAX_SCORE);
        assert_eq!(score("7NT", Seat::E, 0, V::Ew), 1300);
    }

    #[test]
    fn passed_out_scores_zero() {
        assert_eq!(score("PASS", Seat::N, 0, V::Both), 0);
        assert_eq!(
            ns_score(&Contract::PassedOut, Seat::E, 14, V::None)
                .unwrap_err()
                .field,
            "tricks"
        );
    }

    #[test]
    fn more_than_thirteen_tricks_is_an_error() {
        let e = ns_score(&"4S".parse().unwrap(), Seat::N, 14, V::None).unwrap_err();
        assert_eq!(e.field, "tricks");
    }

    #[test]
    fn vulnerability_is_the_declarers_side() {
        // board 7 (both), 4SX by N making 11: 790 + 200
        assert_eq!(
            score("4SX", Seat::N, 11, super::super::vulnerability(7)),
            990
        );
        // board 2 (NS vulnerable): 4H= by E is not vulnerable
        assert_eq!(
            score("4H", Seat::E, 10, super::super::vulnerability(2)),
            -420
        );
        assert_eq!(
            score("4H", Seat::S, 10, super::super::vulnerability(2)),
            620
        );
    }
}
