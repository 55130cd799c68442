//! The TRF-16 `001` columns of a player's identity (sex, title, federation, FIDE id, birth
//! date) are read and written where the format puts them, and a name is cut to its columns
//! without splitting what a reader sees as one character.

use super::state::{RoundRecord, RoundResult, SwissPlayer, SwissState};
use super::trf::{cut_at, parse_trf, write_trf};

/// A real-looking file: titles in both spellings (`g`, `WGM`), a birth date given as a year
/// only, and a newcomer with none of the identity columns.
const FULL: &str = "012 Open\nXXR 5\n\
001    1 m  g Mirzoev, Azer                     2527 AZE    13400304 1978/04/02  1.0    1     2 w 1\n\
001    2 wWGM Kosteniuk, Alexandra              2500 SUI     4147103 1984/04/23  0.0    4     1 b 0\n\
001    3 m    Müller, Jürgen                    1900 GER    24600040 1999        0.5    2     4 w =\n\
001    4      Newcomer, Ann                                                      0.5    3     3 b =\n";

fn some(s: &str) -> Option<String> {
    Some(s.to_string())
}

#[test]
fn every_player_column_survives_parse_write_parse() {
    let first = parse_trf(FULL).unwrap();
    let p = &first.players;
    assert_eq!(p[0].sex, some("m"));
    assert_eq!(p[0].title, some("g"));
    assert_eq!(p[0].federation, some("AZE"));
    assert_eq!(p[0].fide_id, some("13400304"));
    assert_eq!(p[0].birth_date, some("1978/04/02"));
    assert_eq!(p[1].sex, some("w"));
    assert_eq!(p[1].title, some("WGM"));
    assert_eq!(p[1].federation, some("SUI"));
    assert_eq!(p[1].fide_id, some("4147103"));
    assert_eq!(p[2].name, "Müller, Jürgen");
    assert_eq!(p[2].title, None);
    assert_eq!(p[2].birth_date, some("1999"));
    assert_eq!(
        (
            &p[3].sex,
            &p[3].title,
            &p[3].federation,
            &p[3].fide_id,
            &p[3].birth_date
        ),
        (&None, &None, &None, &None, &None),
        "blank columns are no value"
    );
    assert_eq!(
        p[0].rating, 2527,
        "the name and rating columns are unchanged"
    );
    let written = write_trf(&first, "Open");
    assert_eq!(written, FULL, "the file is written back as it was read");
    assert_eq!(parse_trf(&written).unwrap(), first);
}

/// The 1-based, inclusive columns `from..=to` of a line, by characters as TRF readers count.
fn cols(line: &str, from: usize, to: usize) -> String {
    line.chars().skip(from - 1).take(to + 1 - from).collect()
}

fn odd_player() -> SwissPlayer {
    SwissPlayer {
        start_number: 12,
        // 40 characters, with an accent straddling column 47
        name: format!("{}e\u{301}tienne Long", "A".repeat(32)),
        rating: 2830,
        sex: some("w"),
        title: some("W\nM"),
        // longer than their columns (a state built by hand, not checked)
        federation: some("Norway"),
        fide_id: some("123456789012345"),
        birth_date: some("2001/12/31 extra"),
        history: vec![RoundRecord {
            opponent: None,
            colour: None,
            result: RoundResult::PairingBye,
        }],
        ..Default::default()
    }
}

#[test]
fn long_and_odd_values_never_move_a_column() {
    let state = SwissState {
        settings: Default::default(),
        players: vec![
            odd_player(),
            SwissPlayer {
                start_number: 3,
                name: "Short".into(),
                fide_id: some("7"),
                history: vec![RoundRecord {
                    opponent: None,
                    colour: None,
                    result: RoundResult::ZeroBye,
                }],
                ..Default::default()
            },
        ],
        round: None,
        requested_byes: vec![],
        absent: vec![],
    };
    let text = write_trf(&state, "T");
    let line = text.lines().find(|l| l.starts_with("001   12")).unwrap();
    assert_eq!(cols(line, 1, 3), "001");
    assert_eq!(cols(line, 5, 8), "  12");
    assert_eq!(cols(line, 10, 10), "w");
    assert_eq!(
        cols(line, 11, 13),
        "W M",
        "a control character becomes a space"
    );
    // the name stops before the letter whose accent would not fit
    assert_eq!(cols(line, 15, 47), format!("{} ", "A".repeat(32)));
    assert_eq!(cols(line, 49, 52), "2830");
    assert_eq!(cols(line, 54, 56), "Nor");
    assert_eq!(cols(line, 58, 68), "12345678901");
    assert_eq!(cols(line, 70, 79), "2001/12/31");
    assert_eq!(cols(line, 81, 84), " 1.0");
    assert_eq!(cols(line, 86, 89), "   1");
    assert_eq!(cols(line, 92, 99), "0000 - U");
    for gap in [4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91] {
        assert_eq!(cols(line, gap, gap), " ", "column {gap} separates fields");
    }
    let short = text.lines().find(|l| l.starts_with("001    3")).unwrap();
    assert_eq!(cols(short, 54, 56), "   ");
    assert_eq!(
        cols(short, 58, 68),
        "          7",
        "the FIDE id is right-aligned"
    );
    assert_eq!(cols(short, 92, 99), "0000 - Z");
    let again = parse_trf(&text).unwrap();
    let p = again.players.iter().find(|p| p.start_number == 12).unwrap();
    assert_eq!(p.name, "A".repeat(32));
    assert_eq!(p.fide_id, some("12345678901"));
    assert_eq!(p.rating, 2830);
}

/// Cuts `text` to `width` characters the way the writer does.
fn cut(text: &str, width: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars[..cut_at(&chars, width)].iter().collect()
}

#[test]
fn a_name_is_never_cut_inside_what_reads_as_one_character() {
    let a = |n| "a".repeat(n);
    // a letter and its combining accent stay together
    assert_eq!(cut(&format!("{}e\u{301}x", a(32)), 33), a(32));
    assert_eq!(
        cut(&format!("{}e\u{301}x", a(31)), 33),
        format!("{}e\u{301}", a(31))
    );
    // stacked marks from the other combining blocks
    assert_eq!(cut(&format!("{}o\u{1AB0}\u{1DC0}", a(31)), 33), a(31));
    // a ZWJ family emoji is kept whole or not at all
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
    assert_eq!(cut(&format!("{}{family}", a(30)), 33), a(30));
    assert_eq!(
        cut(&format!("{}{family}", a(28)), 33),
        format!("{}{family}", a(28))
    );
    // a flag is two regional indicators: never one of them
    let no = "\u{1F1F3}\u{1F1F4}";
    let se = "\u{1F1F8}\u{1F1EA}";
    assert_eq!(cut(&format!("{}{no}", a(32)), 33), a(32));
    assert_eq!(
        cut(&format!("{}{no}{se}", a(31)), 33),
        format!("{}{no}", a(31))
    );
    assert_eq!(
        cut(&format!("{}{no}{se}", a(30)), 33),
        format!("{}{no}", a(30))
    );
    // variation selectors, keycaps and skin tones belong to the character before them
    assert_eq!(cut(&format!("{}\u{2764}\u{FE0F}", a(32)), 33), a(32));
    assert_eq!(cut(&format!("{}1\u{FE0F}\u{20E3}", a(31)), 33), a(31));
    assert_eq!(cut(&format!("{}\u{1F44D}\u{1F3FD}", a(32)), 33), a(32));
    // nothing to cut, or nothing but marks
    assert_eq!(cut("Müller", 33), "Müller");
    assert_eq!(cut(&"\u{301}".repeat(40), 33), "");
    assert_eq!(cut(&a(40), 33), a(33));
}

#[test]
fn a_value_wider_than_its_column_is_refused_by_name() {
    let mut state = parse_trf(FULL).unwrap();
    state.validate_history().unwrap();
    for (field, set) in [
        (
            "sex",
            (|p: &mut SwissPlayer| p.sex = some("mw")) as fn(&mut SwissPlayer),
        ),
        ("title", |p| p.title = some("WCMX")),
        ("federation", |p| p.federation = some("Norway")),
        ("fide_id", |p| p.fide_id = some("123456789012")),
        ("birth_date", |p| p.birth_date = some("2001/12/31X")),
    ] {
        let mut bad = state.clone();
        set(&mut bad.players[1]);
        let err = bad.validate_history().unwrap_err();
        assert_eq!(err.field, format!("players[1].{field}"), "{err}");
    }
    state.players[1].title = some("G\u{7}M");
    assert_eq!(
        state.validate_history().unwrap_err().field,
        "players[1].title"
    );
}
