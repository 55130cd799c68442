//! Request metrics for `GET /metrics` (Prometheus text format): requests by route and status,
//! latency histograms by route, beside the figures other parts keep (the read cache's hits,
//! the store's reads and its writers' wait).

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

#[derive(Default)]
struct Latency {
    /// Requests at or under each bound (cumulative, as Prometheus wants them).
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// Counters of every answered request. Routes are the documented patterns
/// (`/api/v1/events/{event_id}`), so the number of series is bounded by the routes.
#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, String, u16), u64>>,
    latency: Mutex<BTreeMap<String, Latency>>,
}

impl Metrics {
    fn record(&self, route: &str, method: &str, status: u16, seconds: f64) {
        if let Ok(mut requests) = self.requests.lock() {
            *requests
                .entry((route.to_string(), method.to_string(), status))
                .or_default() += 1;
        }
        if let Ok(mut latency) = self.latency.lock() {
            let l = latency.entry(route.to_string()).or_default();
            for (bound, count) in BUCKETS.iter().zip(l.buckets.iter_mut()) {
                if seconds <= *bound {
                    *count += 1;
                }
            }
            l.count += 1;
            l.sum += seconds;
        }
    }

    /// The request series in the text format, followed by `gauges` (name, help, value).
    pub fn render(&self, gauges: &[(&str, &str, f64)]) -> String {
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
                let route = label(route);
                for (bound, n) in BUCKETS.iter().zip(l.buckets.iter()) {
                    let _ = writeln!(
                        out,
                        "tourney_request_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {n}"
                    );
                }
                let _ = writeln!(
                    out,
                    "tourney_request_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                    l.count
                );
                let _ = writeln!(
                    out,
                    "tourney_request_seconds_sum{{route=\"{route}\"}} {}",
                    l.sum
                );
                let _ = writeln!(
                    out,
                    "tourney_request_seconds_count{{route=\"{route}\"}} {}",
                    l.count
                );
            }
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
        let text = m.render(&[("tourney_cache_hits_total", "Answers from the cache.", 7.0)]);
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
    }
}
