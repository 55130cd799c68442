//! A bridge pairs session read and scored in one transaction: its movement, results, hand
//! records and who holds each pair. Scored here on its own results; a section scored across
//! the field gets its field's scores from `api::tournaments::field::load_session`.

use std::collections::BTreeMap;

use rusqlite::Connection;

use crate::api::bridge::movement::{ensure_pairs_event, seated};
use crate::engine::bridge::analysis::{DdTable, DealAnalysis};
use crate::engine::bridge::movement::cards::pairs;
use crate::engine::bridge::movement::model::{Movement, PairId, PairNumbering};
use crate::engine::bridge::movement::report::report;
use crate::engine::bridge::scoring::Deal;
use crate::engine::bridge::session::{score_session, ScoringSettings, SessionScore};
use crate::engine::bridge::traveller::{
    standings, travellers, AcrossTheFieldMark, BridgeStandings, Holder, TableResult, Traveller,
};
use crate::error::{ApiError, ApiResult};
use crate::store::board_results::{self, BoardResult};
use crate::store::{events, movements};

/// A scored session, read in one transaction.
pub(crate) struct Session {
    pub movement: Movement,
    pub settings: ScoringSettings,
    pub results: Vec<TableResult>,
    pub deals: Vec<Deal>,
    /// The double-dummy tables analysed so far, by board.
    pub tables: BTreeMap<u32, DdTable>,
    pub holders: BTreeMap<PairId, Holder>,
    /// The section's results and ranking: scored alone, or as its field scores them.
    pub score: SessionScore,
    /// The field the section is scored in, with every section's results of each board.
    pub field: Option<(AcrossTheFieldMark, Vec<Traveller>)>,
}

impl Session {
    /// Every board the movement plays, in number order.
    pub fn boards(&self) -> Vec<u32> {
        movement_boards(&self.movement)
    }

    /// The travellers: the section's results, or (scored across the field) every section's
    /// results of each board, each with its section's letter.
    pub fn travellers(&self) -> Vec<Traveller> {
        let mut own = travellers(
            &self.boards(),
            &self.results,
            &self.score,
            &self.deals,
            self.settings.scoring,
        );
        if let Some((mark, field)) = &self.field {
            for t in &mut own {
                if let Some(f) = field.iter().find(|f| f.board == t.board) {
                    t.results = f.results.clone();
                }
                t.across_the_field = Some(mark.clone());
            }
        }
        with_analyses(own, &self.tables)
    }

    pub fn standings(&self) -> BridgeStandings {
        BridgeStandings {
            across_the_field: self.field.as_ref().map(|(mark, _)| mark.clone()),
            ..standings(&self.score, self.settings, &self.holders)
        }
    }
}

/// Each traveller with a hand record gets its analysis (pending until the worker's table is in).
pub(crate) fn with_analyses(
    mut travellers: Vec<Traveller>,
    tables: &BTreeMap<u32, DdTable>,
) -> Vec<Traveller> {
    for t in travellers.iter_mut().filter(|t| t.deal.is_some()) {
        t.analysis = Some(DealAnalysis::of(
            tables.get(&t.board).copied(),
            t.vulnerability,
            t.dealer,
        ));
    }
    travellers
}

/// The hand records of an event and their tables, by board.
pub(crate) fn hand_records(
    conn: &Connection,
    event_id: i64,
) -> ApiResult<(Vec<Deal>, BTreeMap<u32, DdTable>)> {
    let analysed = board_results::analysed_deals(conn, event_id)?;
    let tables = analysed
        .iter()
        .filter_map(|a| Some((a.deal.board, a.dd?)))
        .collect();
    Ok((analysed.into_iter().map(|a| a.deal).collect(), tables))
}

/// The pairs that held the NS and EW cards at a stored result.
pub(crate) fn card_holders(m: &Movement, r: &BoardResult) -> (PairId, PairId) {
    let (ns, ew) = match m.pair_numbering {
        PairNumbering::Mitchell => (PairId::Ns(r.ns_pair), PairId::Ew(r.ew_pair)),
        PairNumbering::Howell => (PairId::Pair(r.ns_pair), PairId::Pair(r.ew_pair)),
    };
    let switched = m
        .rounds
        .iter()
        .find(|x| x.round == r.round)
        .and_then(|x| x.tables.iter().find(|t| t.table == r.table))
        .is_some_and(|t| t.arrow_switch);
    if switched {
        (ew, ns)
    } else {
        (ns, ew)
    }
}

/// Every board the movement plays, in number order.
pub(crate) fn movement_boards(m: &Movement) -> Vec<u32> {
    let mut b: Vec<u32> = m
        .rounds
        .iter()
        .flat_map(|r| r.tables.iter().flat_map(|t| t.boards.iter().copied()))
        .collect();
    b.sort_unstable();
    b.dedup();
    b
}

/// Reads and scores the session of a bridge pairs event on its own results alone.
pub(crate) fn load_session_alone(conn: &Connection, event_id: i64) -> ApiResult<Session> {
    let event = events::get(conn, event_id)?;
    ensure_pairs_event(&event)?;
    let movement = movements::get(conn, event_id)?;
    let settings = ScoringSettings::parse(&event.settings)
        .map_err(|e| ApiError::conflict(format!("the event's {}: {}", e.field, e.message)))?;
    let results: Vec<TableResult> = board_results::all(conn, event_id)?
        .into_iter()
        .map(|r| {
            let (ns, ew) = card_holders(&movement, &r);
            TableResult {
                round: r.round,
                table: r.table,
                board: r.board,
                ns,
                ew,
                outcome: r.outcome,
            }
        })
        .collect();
    let played = results
        .iter()
        .map(|r| {
            r.played().ok_or_else(|| {
                ApiError::Internal(format!(
                    "stored result of round {} table {} board {} holds no score",
                    r.round, r.table, r.board
                ))
            })
        })
        .collect::<ApiResult<Vec<_>>>()?;
    let holders = seated(conn, event_id, &movement)?
        .into_iter()
        .filter_map(|s| {
            let p = s.participant?;
            Some((
                s.pair.pair_id(),
                Holder {
                    participant_id: p.id,
                    name: p.name,
                },
            ))
        })
        .collect();
    let two_winners = report(&movement).winners == 2;
    let score = score_session(&played, &pairs(&movement), settings, two_winners);
    let (deals, tables) = hand_records(conn, event_id)?;
    Ok(Session {
        deals,
        tables,
        movement,
        settings,
        results,
        holders,
        score,
        field: None,
    })
}
