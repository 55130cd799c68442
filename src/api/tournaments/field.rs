//! `GET /api/v1/tournaments/{id}/across-the-field`: the tournament's bridge pairs sections
//! scored across the field (`settings.across_the_field` of the tournament, or of a named group
//! of its sections). Scoring rules: [`crate::engine::bridge::field`].

use std::collections::BTreeMap;

use actix_web::{get, web, HttpRequest, HttpResponse};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::bridge::session::{load_session_alone, Session};
use crate::api::extract::json_cached;
use crate::api::responses::PublicRead;
use crate::domain::tournament::TournamentSettings;
use crate::domain::FORMAT_PAIRS;
use crate::engine::bridge::field::{score_field, section_letter, FieldSection};
use crate::engine::bridge::movement::cards::pairs;
use crate::engine::bridge::movement::model::{Direction, PairId};
use crate::engine::bridge::movement::report::report;
use crate::engine::bridge::scoring::Scale;
use crate::engine::bridge::session::{Method, Played, ScoringSettings, SessionScore};
use crate::engine::bridge::traveller::{
    line_name, pair_number, standings, travellers, AcrossTheFieldMark, BridgeStandingEntry,
    BridgeStandings, Traveller, TravellerLine,
};
use crate::error::{ApiError, ApiResult};
use crate::store::{events, tournaments, Store};

/// A section of a field.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FieldSectionName {
    pub event_id: i64,
    pub name: String,
}

/// One result of a board, in its section, scored across the field.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FieldTravellerLine {
    /// The section the result was played in.
    pub event_id: i64,
    #[serde(flatten)]
    pub line: TravellerLine,
}

/// Every result of one board in every section of the field.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FieldTraveller {
    pub board: u32,
    /// Matchpoint scoring: the board's top over the whole field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top: Option<f64>,
    /// Butler scoring: the field's datum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub datum: Option<i32>,
    /// By section, then round and table.
    pub results: Vec<FieldTravellerLine>,
}

/// A pair in the overall ranking.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FieldStandingEntry {
    /// The pair's section.
    pub event_id: i64,
    #[serde(flatten)]
    pub entry: BridgeStandingEntry,
}

/// One overall ranking: the NS or EW pairs of every section (`NS`, `EW`), or everyone (null).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FieldRankingOut {
    #[schema(value_type = Option<String>, example = "NS")]
    pub direction: Option<&'static str>,
    pub entries: Vec<FieldStandingEntry>,
}

/// A section's own ranking: its pairs on the field's scores, as its standings show it
/// (`GET /api/v1/events/{id}/bridge-standings`), and the section scored on its own results
/// alone, for comparison.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SectionRanking {
    pub event_id: i64,
    pub standings: BridgeStandings,
    pub scored_alone: BridgeStandings,
}

/// Sections scored as one field.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Field {
    /// The group's name (`all sections` when the whole tournament is one field).
    pub name: String,
    pub sections: Vec<FieldSectionName>,
    pub method: Method,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
    /// Every board any section plays, with every section's results.
    pub travellers: Vec<FieldTraveller>,
    /// Every pair of the field ranked on the scores across the field.
    pub overall: Vec<FieldRankingOut>,
    /// Each section's pairs ranked on the scores across the field.
    pub section_rankings: Vec<SectionRanking>,
}

/// The fields of a tournament.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AcrossTheField {
    pub tournament_id: i64,
    /// One per field; none when no setting asks for scoring across the field.
    pub fields: Vec<Field>,
}

fn direction_name(d: Direction) -> &'static str {
    match d {
        Direction::Ns => "NS",
        Direction::Ew => "EW",
    }
}

/// Every field of the tournament, scored.
pub(crate) fn across_the_field(conn: &Connection, id: i64) -> ApiResult<AcrossTheField> {
    let tournament = tournaments::get(conn, id)?;
    let settings = TournamentSettings::parse(Some(&tournament.settings))?;
    let sections = events::of_tournament(conn, id)?;
    let pairs_sections: Vec<i64> = sections
        .iter()
        .filter(|e| e.format == FORMAT_PAIRS)
        .map(|e| e.id)
        .collect();
    let mut fields = Vec::new();
    for (k, (name, ids)) in settings.fields(&pairs_sections).into_iter().enumerate() {
        let loaded = load_field(conn, &sections, &ids)?;
        let n = k as u32 + 1;
        fields.push(score_with_travellers(id, n, name, &loaded)?.field);
    }
    Ok(AcrossTheField {
        tournament_id: id,
        fields,
    })
}

/// A field scored, with its travellers as the exports write them (each row's section letter).
pub(crate) struct ScoredField {
    pub field: Field,
    pub travellers: Vec<Traveller>,
    pub settings: ScoringSettings,
    pub two_winners: bool,
    /// The overall entries with the section's letter.
    pub entries: Vec<(String, Option<&'static str>, i64, BridgeStandingEntry)>,
    /// Each section's results and ranking as the field scores them, in the field's order.
    pub scores: Vec<SessionScore>,
    /// Each section's mark (its tournament, field and letter), in the field's order.
    pub marks: Vec<AcrossTheFieldMark>,
}

fn score_with_travellers(
    tournament_id: i64,
    n: u32,
    name: String,
    loaded: &[(i64, String, Session)],
) -> ApiResult<ScoredField> {
    let settings = loaded
        .first()
        .map(|(_, _, s)| s.settings)
        .unwrap_or_default();
    for (event_id, _, s) in loaded {
        if s.settings != settings {
            return Err(ApiError::conflict(format!(
                "the sections of {name:?} are scored differently (section {event_id}: {}); give them the same settings.scoring and settings.scale",
                s.settings.scoring.as_str()
            )));
        }
    }
    let played: Vec<Vec<Played>> = loaded
        .iter()
        .map(|(_, _, s)| s.results.iter().filter_map(|r| r.played()).collect())
        .collect();
    let all_pairs: Vec<Vec<PairId>> = loaded.iter().map(|(_, _, s)| pairs(&s.movement)).collect();
    let inputs: Vec<FieldSection> = loaded
        .iter()
        .enumerate()
        .map(|(k, (_, _, s))| FieldSection {
            played: &played[k],
            pairs: &all_pairs[k],
            two_winners: report(&s.movement).winners == 2,
        })
        .collect();
    let scored = score_field(&inputs, settings);
    let scores: Vec<SessionScore> = (0..loaded.len()).map(|k| scored.section_score(k)).collect();
    let marks: Vec<AcrossTheFieldMark> = (0..loaded.len())
        .map(|k| AcrossTheFieldMark {
            tournament_id,
            field: n,
            name: name.clone(),
            section: section_letter(k),
        })
        .collect();

    let mut boards: BTreeMap<u32, FieldTraveller> = BTreeMap::new();
    let mut merged: BTreeMap<u32, Traveller> = BTreeMap::new();
    for (k, (event_id, _, s)) in loaded.iter().enumerate() {
        for t in travellers(
            &s.boards(),
            &s.results,
            &scores[k],
            &s.deals,
            settings.scoring,
        ) {
            let letter = section_letter(k);
            let m = merged.entry(t.board).or_insert_with(|| Traveller {
                results: Vec::new(),
                ..t.clone()
            });
            m.results.extend(t.results.iter().cloned().map(|mut l| {
                l.section = Some(letter.clone());
                l
            }));
            let board = boards.entry(t.board).or_insert_with(|| FieldTraveller {
                board: t.board,
                top: t.top,
                datum: t.datum,
                results: Vec::new(),
            });
            board
                .results
                .extend(t.results.into_iter().map(|line| FieldTravellerLine {
                    event_id: *event_id,
                    line,
                }));
        }
    }
    let overall: Vec<FieldRankingOut> = scored
        .overall
        .iter()
        .map(|r| FieldRankingOut {
            direction: r.direction.map(direction_name),
            entries: r
                .entries
                .iter()
                .map(|e| {
                    let (event_id, _, s) = &loaded[e.section];
                    let holder = s.holders.get(&e.ranked.pair);
                    FieldStandingEntry {
                        event_id: *event_id,
                        entry: BridgeStandingEntry {
                            rank: e.ranked.rank.clone(),
                            pair: pair_number(e.ranked.pair),
                            line: if r.direction.is_none() {
                                line_name(e.ranked.pair)
                            } else {
                                None
                            },
                            participant_id: holder.map(|h| h.participant_id),
                            name: holder.map(|h| h.name.clone()),
                            total: e.ranked.total,
                            percent: e.ranked.percent,
                            boards: e.ranked.boards,
                        },
                    }
                })
                .collect(),
        })
        .collect();
    let entries = overall_entries(&overall);
    let two_winners = scored.overall.len() == 2;
    let field = Field {
        name,
        sections: loaded
            .iter()
            .map(|(event_id, name, _)| FieldSectionName {
                event_id: *event_id,
                name: name.clone(),
            })
            .collect(),
        method: settings.scoring,
        scale: (!settings.scoring.is_imps()).then(|| settings.scale()),
        travellers: boards.into_values().collect(),
        overall,
        section_rankings: loaded
            .iter()
            .enumerate()
            .map(|(k, (event_id, _, s))| SectionRanking {
                event_id: *event_id,
                standings: BridgeStandings {
                    across_the_field: Some(marks[k].clone()),
                    ..standings(&scores[k], settings, &s.holders)
                },
                scored_alone: s.standings(),
            })
            .collect(),
    };
    let letters: BTreeMap<i64, String> = loaded
        .iter()
        .enumerate()
        .map(|(k, (id, _, _))| (*id, section_letter(k)))
        .collect();
    Ok(ScoredField {
        entries: entries
            .into_iter()
            .map(|(direction, event_id, e)| (letters[&event_id].clone(), direction, event_id, e))
            .collect(),
        field,
        travellers: merged.into_values().collect(),
        settings,
        two_winners,
        scores,
        marks,
    })
}

fn overall_entries(
    overall: &[FieldRankingOut],
) -> Vec<(Option<&'static str>, i64, BridgeStandingEntry)> {
    overall
        .iter()
        .flat_map(|r| {
            r.entries
                .iter()
                .map(move |e| (r.direction, e.event_id, e.entry.clone()))
        })
        .collect()
}

/// Reads and scores the session of a bridge pairs event: as its field scores it when it is a
/// section scored across the field, else on its own.
pub(crate) fn load_session(conn: &Connection, event_id: i64) -> ApiResult<Session> {
    let mut session = load_session_alone(conn, event_id)?;
    let event = events::get(conn, event_id)?;
    if let Some(f) = field_of_section(conn, &event)? {
        session.score = f.score;
        session.field = Some((f.mark, f.travellers));
    }
    Ok(session)
}

/// Field `n` (1 the first) of the tournament, scored with its travellers.
pub(crate) fn scored_field(conn: &Connection, id: i64, n: u32) -> ApiResult<ScoredField> {
    let tournament = tournaments::get(conn, id)?;
    let settings = TournamentSettings::parse(Some(&tournament.settings))?;
    let sections = events::of_tournament(conn, id)?;
    let pairs_sections: Vec<i64> = sections
        .iter()
        .filter(|e| e.format == FORMAT_PAIRS)
        .map(|e| e.id)
        .collect();
    let fields = settings.fields(&pairs_sections);
    let Some((name, ids)) = (n as usize)
        .checked_sub(1)
        .and_then(|k| fields.get(k))
        .cloned()
    else {
        return Err(ApiError::not_found(format!(
            "tournament {id} has {} field(s) scored across the field; there is no field {n}",
            fields.len()
        )));
    };
    let loaded = load_field(conn, &sections, &ids)?;
    score_with_travellers(id, n, name, &loaded)
}

/// Where a section scored across the field stands in its field: its results and ranking as
/// the field scores them, its mark, and every board's results in every section of the field
/// (each line with its section's letter).
pub(crate) struct SectionOfField {
    pub score: SessionScore,
    pub mark: AcrossTheFieldMark,
    pub travellers: Vec<Traveller>,
}

/// The field `event` is scored in, as (tournament id, field number, 1 the first), if it is a
/// bridge pairs section of a tournament whose settings score it across the field.
pub(crate) fn field_number_of(
    conn: &Connection,
    event: &crate::domain::Event,
) -> ApiResult<Option<(i64, u32)>> {
    Ok(section_field(conn, event)?.map(|(t, k, _, _, _)| (t, k as u32 + 1)))
}

type Found = (i64, usize, String, Vec<i64>, Vec<crate::domain::Event>);

/// The tournament, the field's index, name and section ids, and the tournament's sections.
fn section_field(conn: &Connection, event: &crate::domain::Event) -> ApiResult<Option<Found>> {
    let Some(tournament_id) = event.tournament_id else {
        return Ok(None);
    };
    if event.format != FORMAT_PAIRS {
        return Ok(None);
    }
    let tournament = tournaments::get(conn, tournament_id)?;
    let settings = TournamentSettings::parse(Some(&tournament.settings))?;
    let sections = events::of_tournament(conn, tournament_id)?;
    let pairs_sections: Vec<i64> = sections
        .iter()
        .filter(|e| e.format == FORMAT_PAIRS)
        .map(|e| e.id)
        .collect();
    let found = settings
        .fields(&pairs_sections)
        .into_iter()
        .enumerate()
        .find(|(_, (_, ids))| ids.contains(&event.id));
    Ok(found.map(|(k, (name, ids))| (tournament_id, k, name, ids, sections)))
}

/// The field `event` is scored in, if it is a bridge pairs section of a tournament whose
/// settings score it across the field and it has a movement (None otherwise).
pub(crate) fn field_of_section(
    conn: &Connection,
    event: &crate::domain::Event,
) -> ApiResult<Option<SectionOfField>> {
    let Some((tournament_id, k, name, ids, sections)) = section_field(conn, event)? else {
        return Ok(None);
    };
    let loaded = load_field(conn, &sections, &ids)?;
    let Some(at) = loaded.iter().position(|(id, _, _)| *id == event.id) else {
        return Ok(None); // no movement yet
    };
    let mut scored = score_with_travellers(tournament_id, k as u32 + 1, name, &loaded)?;
    Ok(Some(SectionOfField {
        score: scored.scores.swap_remove(at),
        mark: scored.marks.swap_remove(at),
        travellers: scored.travellers,
    }))
}

/// The sections of a field that have a movement, each read and scored alone.
fn load_field(
    conn: &Connection,
    sections: &[crate::domain::Event],
    ids: &[i64],
) -> ApiResult<Vec<(i64, String, Session)>> {
    let mut loaded = Vec::new();
    for &event_id in ids {
        let Some(event) = sections.iter().find(|e| e.id == event_id) else {
            continue; // a section deleted since the group was named
        };
        if crate::store::movements::find(conn, event_id)?.is_none() {
            continue; // no movement yet: nothing to score
        }
        loaded.push((
            event_id,
            event.name.clone(),
            load_session_alone(conn, event_id)?,
        ));
    }
    Ok(loaded)
}

/// The tournament's bridge pairs sections scored across the field: for each field (the whole
/// tournament with `settings.across_the_field`, or each group of `settings.groups` with
/// `across_the_field`), every board's results in every section matchpointed (or IMPed) together
/// (Neuberg where a board was played fewer times than the most played board of the field),
/// the overall ranking on those scores, and each section's own ranking. Public.
///
/// 409: The sections of a field are scored with different settings.
#[utoipa::path(
    get, path = "/api/v1/tournaments/{tournament_id}/across-the-field", tag = "tournaments",
    params(("tournament_id" = i64, Path, description = "Tournament id")),
    responses(
        (status = 200, body = AcrossTheField),
        PublicRead,
    )
)]
#[get("/api/v1/tournaments/{tournament_id}/across-the-field")]
pub async fn get_across_the_field(
    req: HttpRequest,
    store: web::Data<Store>,
    path: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let answer = store.read(move |conn| across_the_field(conn, id)).await?;
    json_cached(&req, &answer)
}
