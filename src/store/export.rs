//! An event's rows read into one document and written back under new ids (the document's
//! shape and checks: `event_document`). Which rows belong to an event is the same rule the
//! event versions use (`versions::EVENT_TABLES`); the columns come from the database itself,
//! so a column added by a migration is exported and imported without a change here.

use std::collections::HashMap;

use rusqlite::types::{Value as Sql, ValueRef};
use rusqlite::Connection;
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::event_document::{
    self, document_columns, visit_path, Affinity, Column, EventDocument, Table, TABLES,
};
use crate::store::versions;

/// The columns of each exported table, as the database declares them.
pub fn columns(conn: &Connection) -> ApiResult<HashMap<&'static str, Vec<Column>>> {
    let mut all = HashMap::new();
    for table in TABLES {
        let mut stmt = conn.prepare(&format!("PRAGMA main.table_info({})", table.name))?;
        let rows = stmt
            .query_map([], |r| {
                let name: String = r.get("name")?;
                let declared: String = r.get("type")?;
                let not_null: bool = r.get("notnull")?;
                let default: Option<String> = r.get("dflt_value")?;
                let primary: i64 = r.get("pk")?;
                Ok((
                    name,
                    declared.to_ascii_uppercase(),
                    not_null,
                    default,
                    primary,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        // a single INTEGER PRIMARY KEY is the rowid: the database numbers it; a column of a
        // composite key is given like any other
        let keys = rows.iter().filter(|r| r.4 > 0).count();
        let columns = rows
            .into_iter()
            .map(|(name, declared, not_null, default, primary)| {
                let affinity = if declared.contains("INT") {
                    Affinity::Integer
                } else if declared.contains("REAL") || declared.contains("FLOA") {
                    Affinity::Real
                } else {
                    Affinity::Text
                };
                let rowid = primary > 0 && keys == 1 && declared == "INTEGER";
                Column {
                    name,
                    affinity,
                    required: not_null && default.is_none() && !rowid,
                }
            })
            .collect::<Vec<_>>();
        all.insert(table.name, columns);
    }
    Ok(all)
}

/// The database schema (migrations applied).
pub fn schema(conn: &Connection) -> ApiResult<u32> {
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

fn json_of(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::from(i),
        ValueRef::Real(f) => Value::from(f),
        ValueRef::Text(t) => Value::from(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::from(b.iter().map(|x| format!("{x:02x}")).collect::<String>()),
    }
}

/// Replaces the id in `value` by `ids[id]` (a reference the database holds always resolves).
fn renumber(value: &mut Value, ids: &HashMap<i64, i64>, table: &str) -> ApiResult<()> {
    if let Some(id) = value.as_i64() {
        let new = ids
            .get(&id)
            .ok_or_else(|| ApiError::Internal(format!("{table} has no row {id}")))?;
        *value = Value::from(*new);
    }
    Ok(())
}

/// Renumbers a row's references (plain and inside JSON) through `ids` (table → old → new).
fn renumber_row(
    table: &Table,
    row: &mut Map<String, Value>,
    ids: &HashMap<&str, HashMap<i64, i64>>,
) -> ApiResult<()> {
    for (column, target) in table.references {
        if let Some(value) = row.get_mut(*column) {
            renumber(value, &ids[target], target)?;
        }
    }
    for (column, path, target) in table.json_references {
        if let Some(value) = row.get_mut(*column) {
            let mut failed = None;
            visit_path(value, path, &mut |v| {
                if let Err(e) = renumber(v, &ids[target], target) {
                    failed = Some(e);
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
        }
    }
    Ok(())
}

/// The event's rows as one document, ids numbered 1, 2, ... per table.
pub fn export(conn: &Connection, event: i64, exported_at: &str) -> ApiResult<EventDocument> {
    let columns = columns(conn)?;
    let mut tables = std::collections::BTreeMap::new();
    let mut ids: HashMap<&str, HashMap<i64, i64>> = HashMap::new();
    for table in TABLES {
        let of_event = versions::event_of_row(table.name)
            .ok_or_else(|| ApiError::Internal(format!("{} names no event", table.name)))?
            .replace("{row}", "r");
        let kept = document_columns(table, &columns[table.name]);
        let list: Vec<String> = kept.iter().map(|c| format!("r.\"{}\"", c.name)).collect();
        let sql = format!(
            "SELECT {} FROM main.{} AS r WHERE {of_event} = ?1 ORDER BY r.rowid",
            list.join(", "),
            table.name
        );
        let mut stmt = conn.prepare(&sql)?;
        let mut rows = stmt.query([event])?;
        let mut out = Vec::new();
        let numbers = ids.entry(table.name).or_default();
        while let Some(r) = rows.next()? {
            let mut row = Map::new();
            for (i, column) in kept.iter().enumerate() {
                let mut value = json_of(r.get_ref(i)?);
                if table.json.contains(&column.name.as_str()) {
                    if let Value::String(text) = &value {
                        value = serde_json::from_str(text).unwrap_or(value);
                    }
                }
                row.insert(column.name.clone(), value);
            }
            if table.id {
                let old = row.get("id").and_then(Value::as_i64).unwrap_or_default();
                let new = numbers.len() as i64 + 1;
                numbers.insert(old, new);
                row.insert("id".into(), Value::from(new));
            }
            out.push(row);
        }
        tables.insert(table.name.to_string(), out);
    }
    for table in TABLES {
        for row in tables.get_mut(table.name).into_iter().flatten() {
            renumber_row(table, row, &ids)?;
        }
    }
    if tables["events"].is_empty() {
        return Err(ApiError::not_found(format!("no event {event}")));
    }
    Ok(EventDocument {
        kind: event_document::KIND.into(),
        version: event_document::VERSION,
        schema: schema(conn)?,
        exported_at: exported_at.into(),
        tables,
    })
}

fn sql_of(value: &Value, json: bool) -> Sql {
    match value {
        Value::Null => Sql::Null,
        _ if json => Sql::Text(value.to_string()),
        Value::Bool(b) => Sql::Integer(*b as i64),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Sql::Integer(i),
            None => Sql::Real(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => Sql::Text(s.clone()),
        other => Sql::Text(other.to_string()),
    }
}

/// Writes a checked document (see [`event_document::check`]) as a new event and returns its
/// id. Run inside one write: a row the database refuses (a duplicate pairing number, a result
/// it does not know) is a 422 naming the row, and nothing is kept.
pub fn import(conn: &Connection, document: &EventDocument) -> ApiResult<i64> {
    let columns = columns(conn)?;
    event_document::check(document, schema(conn)?, &columns)?;
    let mut ids: HashMap<&str, HashMap<i64, i64>> = HashMap::new();
    let mut event = 0;
    for table in TABLES {
        let rows = document
            .tables
            .get(table.name)
            .map_or(&[][..], Vec::as_slice);
        let kept = document_columns(table, &columns[table.name]);
        for (i, row) in rows.iter().enumerate() {
            let mut row = row.clone();
            // references inside JSON may name rows written later (the event's settings name
            // participants): they are renumbered once every row is in, below
            let plain = Table {
                json_references: &[],
                ..*table
            };
            renumber_row(&plain, &mut row, &ids)?;
            let mut names = Vec::new();
            let mut values = Vec::new();
            for column in &kept {
                if table.id && column.name == "id" {
                    continue;
                }
                if let Some(value) = row.get(&column.name) {
                    names.push(format!("\"{}\"", column.name));
                    values.push(sql_of(value, table.json.contains(&column.name.as_str())));
                }
            }
            if let Some(column) = table.event_column {
                names.push(format!("\"{column}\""));
                values.push(Sql::Integer(event));
            }
            let marks: Vec<String> = (1..=values.len()).map(|n| format!("?{n}")).collect();
            let sql = format!(
                "INSERT INTO main.{} ({}) VALUES ({})",
                table.name,
                names.join(", "),
                marks.join(", ")
            );
            conn.execute(&sql, rusqlite::params_from_iter(values.iter()))
                .map_err(|e| match &e {
                    rusqlite::Error::SqliteFailure(..) if crate::store::is_constraint(&e) => {
                        ApiError::invalid(
                            format!("tables.{}[{i}]", table.name),
                            format!("the database refuses this row: {e}"),
                        )
                    }
                    _ => ApiError::from(e),
                })?;
            let new = conn.last_insert_rowid();
            if table.name == "events" {
                event = new;
            }
            if table.id {
                let old = row.get("id").and_then(Value::as_i64).unwrap_or_default();
                ids.entry(table.name).or_default().insert(old, new);
            } else {
                ids.entry(table.name).or_default();
            }
        }
        ids.entry(table.name).or_default();
    }
    for table in TABLES
        .iter()
        .filter(|t| t.id && !t.json_references.is_empty())
    {
        for row in document.tables.get(table.name).into_iter().flatten() {
            let mut row = row.clone();
            let old = row.get("id").and_then(Value::as_i64).unwrap_or_default();
            let only_json = Table {
                references: &[],
                ..*table
            };
            renumber_row(&only_json, &mut row, &ids)?;
            for (column, _, _) in table.json_references {
                if let Some(value) = row.get(*column) {
                    conn.execute(
                        &format!(
                            "UPDATE main.{} SET \"{column}\" = ?1 WHERE id = ?2",
                            table.name
                        ),
                        rusqlite::params![sql_of(value, true), ids[table.name][&old]],
                    )?;
                }
            }
        }
    }
    Ok(event)
}

#[cfg(test)]
mod tests {
    /// A number an import writes is one the server reads back: every integer or real column
    /// of an exported table (but ids and references, renumbered) has a bound in
    /// `event_document::TABLES`, so a year of 2^32 is a 422 at the import, not a 500 later.
    /// A row of a table keyed by two columns (a bye: its round and player) must give both; a
    /// table's own `id` is numbered by the database.
    #[test]
    fn a_column_of_a_composite_key_is_required_and_a_rowid_is_not() {
        let dir = crate::scratch::ScratchDir::new("export").unwrap();
        let mut conn = rusqlite::Connection::open(dir.path().join("e.db")).unwrap();
        crate::store::migrations().to_latest(&mut conn).unwrap();
        let columns = super::columns(&conn).unwrap();
        let required = |table: &str, column: &str| {
            columns[table]
                .iter()
                .find(|c| c.name == column)
                .unwrap()
                .required
        };
        assert!(required("byes", "round_id"));
        assert!(required("byes", "participant_id"));
        assert!(!required("byes", "points"), "it has a default");
        assert!(!required("games", "id"));
    }

    #[test]
    fn every_number_an_import_writes_has_a_bound() {
        use crate::event_document::Affinity;
        let dir = crate::scratch::ScratchDir::new("export").unwrap();
        let mut conn = rusqlite::Connection::open(dir.path().join("e.db")).unwrap();
        crate::store::migrations().to_latest(&mut conn).unwrap();
        let columns = super::columns(&conn).unwrap();
        let mut unbounded = Vec::new();
        for table in super::TABLES {
            for column in &columns[table.name] {
                let name = column.name.as_str();
                let exempt = name == "id"
                    || table.event_column == Some(name)
                    || table.skipped.contains(&name)
                    || table.references.iter().any(|(c, _)| *c == name);
                if exempt || matches!(column.affinity, Affinity::Text) {
                    continue;
                }
                if !table.bounds.iter().any(|(c, _)| *c == name) {
                    unbounded.push(format!("{}.{name}", table.name));
                }
            }
        }
        assert!(
            unbounded.is_empty(),
            "numbers without a bound: {unbounded:?}"
        );
    }

    #[test]
    fn every_table_of_an_event_is_exported() {
        let exported: Vec<&str> = super::TABLES.iter().map(|t| t.name).collect();
        let mut of_events = crate::store::versions::event_tables();
        let mut sorted = exported.clone();
        of_events.sort();
        sorted.sort();
        assert_eq!(
            sorted, of_events,
            "a table of EVENT_TABLES is missing in event_document::TABLES (or the reverse)"
        );
    }
}
