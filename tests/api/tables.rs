//! The stateless Berger table endpoint: a public contract.

use serde_json::json;

use crate::client::spawn;

#[test]
fn berger_table_has_the_contract_shape() {
    let s = spawn();
    let r = s.get("/api/v1/tables/berger?players=4&double=false");
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json(),
        json!({"players": 4, "rounds": [
            {"round": 1, "games": [{"board": 1, "white": 1, "black": 4}, {"board": 2, "white": 2, "black": 3}], "bye": null},
            {"round": 2, "games": [{"board": 1, "white": 4, "black": 3}, {"board": 2, "white": 1, "black": 2}], "bye": null},
            {"round": 3, "games": [{"board": 1, "white": 2, "black": 4}, {"board": 2, "white": 3, "black": 1}], "bye": null}
        ]})
    );
    let odd = s.get("/api/v1/tables/berger?players=5").json();
    assert_eq!(odd["rounds"].as_array().unwrap().len(), 5);
    assert_eq!(odd["rounds"][0]["bye"], 1);
    let double = s.get("/api/v1/tables/berger?players=8&double=true").json();
    assert_eq!(double["rounds"].as_array().unwrap().len(), 14);
    assert_eq!(
        double["rounds"][5]["games"][0],
        json!({"board": 1, "white": 4, "black": 8})
    );
}

#[test]
fn berger_table_refuses_bad_sizes() {
    let s = spawn();
    let r = s.get("/api/v1/tables/berger?players=2");
    r.problem(422);
    assert_eq!(r.fields(), vec!["players"]);
    assert_eq!(
        s.get("/api/v1/tables/berger?players=x").fields(),
        vec!["players"]
    );
    assert_eq!(s.get("/api/v1/tables/berger").fields(), vec!["players"]);
    assert_eq!(
        s.get("/api/v1/tables/berger?players=4&double=maybe")
            .fields(),
        vec!["double"]
    );
}

#[test]
fn scheveningen_table_has_the_contract_shape() {
    let s = spawn();
    let t = s.get("/api/v1/tables/scheveningen?boards=4").json();
    assert_eq!(t["boards"], 4);
    assert_eq!(t["rounds"].as_array().unwrap().len(), 4);
    assert_eq!(t["rounds"][0]["round"], 1);
    assert_eq!(
        t["rounds"][0]["games"][0],
        json!({"board": 1, "white": "A1", "black": "B1"})
    );
    assert_eq!(
        t["rounds"][0]["games"][2],
        json!({"board": 3, "white": "B3", "black": "A3"})
    );
    let r = s.get("/api/v1/tables/scheveningen?boards=21");
    r.problem(422);
    assert_eq!(r.fields(), vec!["boards"]);
}

#[test]
fn hilton_table_has_the_contract_shape() {
    let s = spawn();
    let t = s.get("/api/v1/tables/hilton?teams=4").json();
    assert_eq!(t["teams"], 4);
    assert_eq!(t["boards"], 3);
    assert_eq!(t["rounds"].as_array().unwrap().len(), 3);
    // Seed: board 1 of round 1 is "CB DA".
    assert_eq!(
        t["rounds"][0]["games"][0],
        json!({"board": 1, "white": "C", "black": "B"})
    );
    assert_eq!(
        t["rounds"][0]["games"][1],
        json!({"board": 1, "white": "D", "black": "A"})
    );
    assert_eq!(t["rounds"][0]["games"].as_array().unwrap().len(), 6);
    let wide = s.get("/api/v1/tables/hilton?teams=6&boards=7").json();
    assert_eq!(wide["boards"], 7);
    assert_eq!(
        s.get("/api/v1/tables/hilton?teams=5").fields(),
        vec!["teams"]
    );
}
