//! The club a USEBIO export names (`?club_name=`, `?club_id=`), for an event's export and a
//! field's alike.

use serde::Deserialize;
use utoipa::IntoParams;

use crate::domain::validate_text;
use crate::engine::bridge::usebio::UsebioClub;
use crate::error::ApiResult;
use crate::limits::{MAX_CODE_CHARS, MAX_NAME_CHARS};

/// `?club_name=...&club_id=...` of the USEBIO export: the club the results belong to (its
/// `CLUB` element; left out when neither is given).
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct UsebioQuery {
    /// The club's name.
    #[param(inline, value_type = Option<crate::limits::schema::PlainText>)]
    pub club_name: Option<String>,
    /// The club's number with the national body.
    #[param(inline, value_type = Option<crate::limits::schema::Code>)]
    pub club_id: Option<String>,
}

impl UsebioQuery {
    /// The club, checked (a 422 naming `club_name` or `club_id`).
    pub fn club(&self) -> ApiResult<Option<UsebioClub>> {
        let mut errors = Vec::new();
        if let Some(name) = &self.club_name {
            validate_text("club_name", name, MAX_NAME_CHARS, &mut errors);
        }
        if let Some(club) = &self.club_id {
            validate_text("club_id", club, MAX_CODE_CHARS, &mut errors);
        }
        crate::error::check(errors)?;
        Ok(
            (self.club_name.is_some() || self.club_id.is_some()).then(|| UsebioClub {
                name: self.club_name.clone().unwrap_or_default(),
                id: self.club_id.clone(),
            }),
        )
    }
}
