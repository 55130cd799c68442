//! Request metrics for `GET /metrics` (Prometheus text format): requests by route and status,
//! latency histograms by route, pairing times by system and format, beside the figures other
//! parts keep (the read cache's hits, the store's reads, the wait for the writer).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 9] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0, 5.0];
/// Upper bounds of the pairing-time buckets, in seconds (up to the default budget, 60 s).
const PAIRING_BUCKETS: [f64; 11] = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0, 60.0];
/// Upper bounds of the writer-wait buckets, in seconds (up to the default give-up, 10 s).
pub const WAIT_BUCKETS: [f64; 10] = [0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0];

/// A Prometheus histogram: counts at or under each bound (cumulative), count and sum.
#[derive(Debug, Clone)]
pub struct Histogram {
    bounds: &'static [f64],
    buckets: Vec<u64>,
    count: u64,
    sum: f64,
}

impl Histogram {
    pub fn new(bounds: &'static [f64]) -> Histogram {
        Histogram {
            bounds,
            buckets: vec![0; bounds.len()],
            count: 0,
            sum: 0.0,
        }
    }

    pub fn observe(&mut self, seconds: f64) {
        for (bound, count) in self.bounds.iter().zip(self.buckets.iter_mut()) {
            if seconds <= *bound {
                *count += 1;
            }
        }
        self.count += 1;
        self.sum += seconds;
    }

    /// The histogram's lines, `labels` being `key="value",...` (already escaped) or empty.
    pub fn render(&self, name: &str, labels: &str, out: &mut String) {
        let sep = if labels.is_empty() { "" } else { "," };
        for (bound, n) in self.bounds.iter().zip(self.buckets.iter()) {
            let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{bound}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {}",
            self.count
        );
        let braces = |s: &str| {
            if s.is_empty() {
                String::new()
            } else {
                format!("{{{s}}}")
            }
        };
        let _ = writeln!(out, "{name}_sum{} {}", braces(labels), self.sum);
        let _ = writeln!(out, "{name}_count{} {}", braces(labels), self.count);
    }
}

/// Time spent pairing, by system (`swiss`, `swiss_draft_change`, `bridge_swiss`) and format
/// (the event's format, or `stateless`): both from fixed lists, so the series stay few.
/// Process-wide, like the engines it times.
static PAIRINGS: Mutex<BTreeMap<(&'static str, &'static str), Histogram>> =
    Mutex::new(BTreeMap::new());

/// Runs `work` (a pairing, on a blocking thread) and records its time under `system` and
/// `format`; then the memory the pairing freed goes back to the system (`memory::give_back`).
pub fn time_pairing<T>(system: &'static str, format: &'static str, work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let done = work();
    crate::memory::give_back();
    if let Ok(mut pairings) = PAIRINGS.lock() {
        pairings
            .entry((system, format))
            .or_insert_with(|| Histogram::new(&PAIRING_BUCKETS))
            .observe(started.elapsed().as_secs_f64());
    }
    done
}

fn render_pairings(out: &mut String) {
    out.push_str("# HELP tourney_pairing_seconds Time to pair a round, by system and format.\n");
    out.push_str("# TYPE tourney_pairing_seconds histogram\n");
    if let Ok(pairings) = PAIRINGS.lock() {
        for ((system, format), h) in pairings.iter() {
            h.render(
                "tourney_pairing_seconds",
                &format!("system=\"{system}\",format=\"{format}\""),
                out,
            );
        }
    }
}

/// Counters of every answered request. Routes are the documented patterns
/// (`/api/v1/events/{event_id}`), so the number of series is bounded by the routes.
#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, String, u16), u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
}

impl Metrics {
    fn record(&self, route: &str, method: &str, status: u16, seconds: f64) {
        if let Ok(mut requests) = self.requests.lock() {
            *requests
                .entry((route.to_string(), method.to_string(), status))
                .or_default() += 1;
        }
        if let Ok(mut latency) = self.latency.lock() {
            latency
                .entry(route.to_string())
                .or_insert_with(|| Histogram::new(&BUCKETS))
                .observe(seconds);
        }
    }

    /// The request series and pairing times in the text format, followed by `histograms`
    /// and `gauges` (name, help, value) kept elsewhere.
    pub fn render(
        &self,
        histograms: &[(&str, &str, Histogram)],
        gauges: &[(&str, &str, f64)],
    ) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP tourney_requests_total Requests answered, by route, method and status.\n",
        );
        out.push_str("# TYPE tourney_requests_total counter\n");
        if let Ok(requests) = self.requests.lock() {
            for ((route, method, status), n) in requests.iter() {
                let _ = writeln!(
                    out,
                    "tourney_requests_total{{route=\"{}\",method=\"{method}\",status=\"{status}\"}} {n}",
                    label(route)
                );
            }
        }
        out.push_str("# HELP tourney_request_seconds Time to answer, by route.\n");
        out.push_str("# TYPE tourney_request_seconds histogram\n");
        if let Ok(latency) = self.latency.lock() {
            for (route, l) in latency.iter() {
                l.render(
                    "tourney_request_seconds",
                    &format!("route=\"{}\"", label(route)),
                    &mut out,
                );
            }
        }
        render_pairings(&mut out);
        for (name, help, histogram) in histograms {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
            histogram.render(name, "", &mut out);
        }
        for (name, help, value) in gauges {
            let kind = if name.ends_with("_total") {
                "counter"
            } else {
                "gauge"
            };
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        }
        out
    }
}

/// A label value escaped for the text format.
fn label(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The middleware: times every request and counts it under its route pattern (unrouted
/// requests under `unrouted`, so a scanner cannot grow the series).
pub async fn measure(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let metrics = req.app_data::<web::Data<Metrics>>().cloned();
    let method = req.method().to_string();
    let route = req.match_pattern().unwrap_or_else(|| "unrouted".into());
    let response = next.call(req).await?;
    if let Some(m) = metrics {
        m.record(
            &route,
            &method,
            response.status().as_u16(),
            started.elapsed().as_secs_f64(),
        );
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_are_counted_and_histograms_cumulative() {
        let m = Metrics::default();
        m.record("/api/v1/events/{event_id}", "GET", 200, 0.002);
        m.record("/api/v1/events/{event_id}", "GET", 200, 0.3);
        m.record("/api/v1/events/{event_id}", "GET", 304, 0.0001);
        let mut wait = Histogram::new(&WAIT_BUCKETS);
        wait.observe(0.003);
        time_pairing("swiss", "stateless", || ());
        let text = m.render(
            &[("tourney_store_writer_wait_seconds", "Wait.", wait)],
            &[("tourney_cache_hits_total", "Answers from the cache.", 7.0)],
        );
        assert!(text.contains(
            "tourney_requests_total{route=\"/api/v1/events/{event_id}\",method=\"GET\",status=\"200\"} 2"
        ));
        assert!(text.contains("status=\"304\"} 1"));
        assert!(text.contains("le=\"0.001\"} 1\n"));
        assert!(text.contains("le=\"0.005\"} 2\n"));
        assert!(text.contains("le=\"0.5\"} 3\n"));
        assert!(text.contains("le=\"+Inf\"} 3\n"));
        assert!(
            text.contains("# TYPE tourney_cache_hits_total counter\ntourney_cache_hits_total 7")
        );
        assert!(text.contains("tourney_store_writer_wait_seconds_bucket{le=\"0.001\"} 0\n"));
        assert!(text.contains("tourney_store_writer_wait_seconds_bucket{le=\"0.005\"} 1\n"));
        assert!(text.contains("tourney_store_writer_wait_seconds_count 1\n"));
        assert!(text.contains(
            "tourney_pairing_seconds_bucket{system=\"swiss\",format=\"stateless\",le=\"60\"} "
        ));
    }
}
