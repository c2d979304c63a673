//! What the benchmark programs share: an HTTP client of the API that signs players up and starts
//! Magnate games between them.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};

pub struct Client {
    pub http: awc::Client,
    pub base: String,
}

impl Client {
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut req = match method {
            "GET" => self.http.get(format!("{}{path}", self.base)),
            _ => self.http.post(format!("{}{path}", self.base)),
        };
        if let Some(t) = token {
            req = req.insert_header(("Authorization", format!("Bearer {t}")));
        }
        let mut resp = match body {
            Some(b) => req.send_json(&b).await.unwrap(),
            None => req.send().await.unwrap(),
        };
        let bytes = resp.body().limit(16 << 20).await.unwrap();
        (
            resp.status().as_u16(),
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    pub async fn user(&self, i: usize) -> String {
        let email = format!("p{i}@bench.test");
        let (st, _) = self.call("POST", "/api/v1/accounts", None, Some(json!({"email": email, "display_name": format!("P{i}"), "password": "bench password 1234"}))).await;
        assert_eq!(st, 201);
        let (_, t) = self
            .call(
                "POST",
                "/api/v1/auth/token",
                None,
                Some(json!({"email": email, "password": "bench password 1234"})),
            )
            .await;
        t["access_token"].as_str().unwrap().to_owned()
    }

    /// A new game between the pair; the tokens by seat.
    pub async fn game(&self, a: &str, b: &str, b_email: &str) -> (String, [String; 2]) {
        let (st, g) = self
            .call(
                "POST",
                "/api/v1/games",
                Some(a),
                Some(json!({"kind": "magnate", "invite": [b_email]})),
            )
            .await;
        assert_eq!(st, 201, "{g}");
        let id = g["id"].as_str().unwrap().to_owned();
        let (st, g) = self
            .call(
                "POST",
                &format!("/api/v1/games/{id}/join"),
                Some(b),
                Some(json!({})),
            )
            .await;
        assert_eq!(st, 200, "{g}");
        let (_, ga) = self
            .call("GET", &format!("/api/v1/games/{id}"), Some(a), None)
            .await;
        let tokens = if ga["you"]["seat"] == 0 {
            [a.to_owned(), b.to_owned()]
        } else {
            [b.to_owned(), a.to_owned()]
        };
        (id, tokens)
    }
}
