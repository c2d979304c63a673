//! The SMTP relay connection (`herald::email::smtp`): mails share one kept connection, a connection
//! the relay closed is replaced without losing a mail, a relay that is down is an error, not a
//! hang, an idle connection is closed, and TLS (from the start or by STARTTLS) is checked before
//! any password is sent.

use crate::smtp::{SmtpSink, TEST_AUTHORITY, Tls};
use herald::email::smtp::Smtp;
use lettre::Message;
use std::time::Duration;

fn mail(to: &str, n: usize) -> Message {
    Message::builder()
        .from("Herald <herald@localhost>".parse().unwrap())
        .to(to.parse().unwrap())
        .subject(format!("mail {n}"))
        .body(format!("body {n}\r\n.a line that starts with a dot\r\n"))
        .unwrap()
}

fn send(relay: &Smtp, to: &str, n: usize) -> Result<(), String> {
    let message = mail(to, n);
    relay.send(message.envelope(), message.formatted())
}

#[test]
fn mails_share_one_kept_connection_and_arrive_whole_in_order() {
    let sink = SmtpSink::start();
    let relay = Smtp::new(&sink.url(), Duration::from_secs(5), None).unwrap();
    assert_eq!(sink.connections(), 0, "no connection before the first mail");
    for n in 0..5 {
        send(&relay, &format!("p{n}@example.test"), n).unwrap();
    }
    let got = sink.messages();
    assert_eq!(got.len(), 5);
    for (n, m) in got.iter().enumerate() {
        assert!(m.is_to(&format!("p{n}@example.test")), "{:?}", m.to);
        assert_eq!(m.subject(), format!("mail {n}"));
        assert!(
            m.data.contains(".a line that starts with a dot"),
            "dot-stuffing undone: {}",
            m.data
        );
    }
    assert_eq!(sink.connections(), 1, "one connection for five mails");
}

#[test]
fn a_connection_the_relay_closed_is_replaced_and_no_mail_is_lost() {
    let sink = SmtpSink::start();
    sink.set_hang_up_after_each(true);
    let relay = Smtp::new(&sink.url(), Duration::from_secs(5), None).unwrap();
    for n in 0..3 {
        send(&relay, "ada@example.test", n).unwrap();
    }
    let subjects: Vec<String> = sink.messages().iter().map(|m| m.subject()).collect();
    assert_eq!(subjects, ["mail 0", "mail 1", "mail 2"]);
    assert_eq!(sink.connections(), 3);
}

#[test]
fn an_idle_connection_is_closed_with_quit_and_the_next_mail_opens_another() {
    let sink = SmtpSink::start();
    let idle = Duration::from_secs(1);
    let relay = Smtp::with_idle(&sink.url(), Duration::from_secs(5), None, idle).unwrap();
    send(&relay, "ada@example.test", 0).unwrap();
    send(&relay, "ada@example.test", 1).unwrap();
    assert_eq!(sink.quits(), 0, "kept while mails come");
    // Well past the idle time: the goodbye is said without any mail to prompt it.
    let end = std::time::Instant::now() + Duration::from_secs(5);
    while sink.quits() == 0 && std::time::Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(sink.quits(), 1, "QUIT after {idle:?} without a mail");
    send(&relay, "ada@example.test", 2).unwrap();
    let subjects: Vec<String> = sink.messages().iter().map(|m| m.subject()).collect();
    assert_eq!(subjects, ["mail 0", "mail 1", "mail 2"]);
    assert_eq!(sink.connections(), 2, "a new connection after the goodbye");
}

#[test]
fn an_ipv6_literal_relay_is_reached() {
    // `smtp://[::1]:port`: the address is looked up without the URL's brackets.
    let Some(sink) = SmtpSink::start_on("[::1]:0") else {
        eprintln!("no IPv6 loopback here: not tested");
        return;
    };
    let url = format!("smtp://[::1]:{}", sink.port);
    let relay = Smtp::new(&url, Duration::from_secs(5), None).unwrap();
    send(&relay, "ada@example.test", 0).unwrap();
    assert_eq!(sink.messages().len(), 1);
    assert_eq!(sink.connections(), 1);
}

#[test]
fn a_relay_that_is_down_is_an_error_and_delivery_resumes_when_it_is_back() {
    let sink = SmtpSink::start();
    let relay = Smtp::new(&sink.url(), Duration::from_secs(5), None).unwrap();
    send(&relay, "ada@example.test", 0).unwrap();
    sink.set_down(true);
    let refused = send(&relay, "ada@example.test", 1).unwrap_err();
    assert!(!refused.is_empty());
    assert_eq!(sink.messages().len(), 1, "nothing stored while down");
    sink.set_down(false);
    send(&relay, "ada@example.test", 2).unwrap();
    let subjects: Vec<String> = sink.messages().iter().map(|m| m.subject()).collect();
    assert_eq!(subjects, ["mail 0", "mail 2"]);
}

#[test]
fn nobody_listening_is_an_error_naming_the_relay() {
    // A port that was just free: bind, read it, let it go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let relay = Smtp::new(
        &format!("smtp://127.0.0.1:{port}"),
        Duration::from_secs(2),
        None,
    )
    .unwrap();
    let error = send(&relay, "ada@example.test", 0).unwrap_err();
    assert!(error.contains(&format!("127.0.0.1:{port}")), "{error}");
}

#[test]
fn urls_lettre_refuses_are_refused_and_tls_urls_wait_for_the_first_mail() {
    for bad in [
        "http://mail.example.org",
        "smtp://",
        "smtp://h?tls=sometimes",
        "not a url",
    ] {
        assert!(
            Smtp::new(bad, Duration::from_secs(1), None).is_err(),
            "{bad} accepted"
        );
    }
    // Nothing is contacted before a mail is sent: these hosts do not exist.
    for good in [
        "smtps://mailer:p%40ss@mail.invalid",
        "smtp://mail.invalid:587?tls=required",
        "smtp://mail.invalid/herald.example?tls=opportunistic",
    ] {
        assert!(
            Smtp::new(good, Duration::from_secs(1), None).is_ok(),
            "{good}"
        );
    }
}

#[test]
fn tls_the_url_asks_for_is_never_given_up_for_plain_text() {
    let sink = SmtpSink::start();
    let at = |url: String| Smtp::new(&url, Duration::from_secs(5), None).unwrap();
    // STARTTLS required of a relay that does not offer it: refused before any mail is sent.
    let required = at(format!("smtp://127.0.0.1:{}?tls=required", sink.port));
    let error = send(&required, "ada@example.test", 0).unwrap_err();
    assert!(error.contains("STARTTLS"), "{error}");
    // TLS from the start, with a relay that answers in plain text: refused.
    let wrapped = at(format!("smtps://127.0.0.1:{}", sink.port));
    let error = send(&wrapped, "ada@example.test", 1).unwrap_err();
    assert!(error.contains("TLS"), "{error}");
    assert!(sink.messages().is_empty(), "a mail went out in clear");
    // Opportunistic: plain text when the relay offers no STARTTLS, as the URL allows.
    let opportunistic = at(format!("smtp://127.0.0.1:{}?tls=opportunistic", sink.port));
    send(&opportunistic, "ada@example.test", 2).unwrap();
    assert_eq!(sink.messages().len(), 1);
}

#[test]
fn a_relay_that_does_not_answer_is_an_error_not_a_hang() {
    let sink = SmtpSink::start();
    // Takes each message, then answers only after the sender's limit (4 timeouts).
    sink.set_delay(Duration::from_secs(6));
    let relay = Smtp::new(&sink.url(), Duration::from_secs(1), None).unwrap();
    let error = send(&relay, "ada@example.test", 0).unwrap_err();
    assert!(error.contains("no answer from the SMTP relay"), "{error}");
}

#[test]
fn smtps_to_a_relay_of_a_trusted_authority_delivers_encrypted_and_signs_in() {
    let sink = SmtpSink::start_tls(Tls::FromStart);
    let url = format!("smtps://mailer:p%40ss@127.0.0.1:{}", sink.port);
    let relay = Smtp::new(&url, Duration::from_secs(5), Some(TEST_AUTHORITY)).unwrap();
    for n in 0..2 {
        send(&relay, "ada@example.test", n).unwrap();
    }
    let got = sink.messages();
    assert_eq!(got.len(), 2);
    for m in &got {
        assert!(m.encrypted);
        assert_eq!(m.signed_in, Some(("mailer".to_owned(), "p@ss".to_owned())));
    }
    assert_eq!(sink.connections(), 1);
}

#[test]
fn starttls_upgrades_before_signing_in() {
    let sink = SmtpSink::start_tls(Tls::StartTls);
    for tls in ["required", "opportunistic"] {
        let url = format!("smtp://mailer:secret@localhost:{}?tls={tls}", sink.port);
        let relay = Smtp::new(&url, Duration::from_secs(5), Some(TEST_AUTHORITY)).unwrap();
        send(&relay, "ada@example.test", 0).unwrap();
    }
    let got = sink.messages();
    assert_eq!(got.len(), 2);
    for m in &got {
        assert!(m.encrypted, "sent in clear");
        assert_eq!(
            m.signed_in,
            Some(("mailer".to_owned(), "secret".to_owned()))
        );
    }
}

#[test]
fn a_relay_certificate_no_trusted_authority_signed_gets_no_password_and_no_mail() {
    // The public roots alone: the test authority is not among them.
    for (tls, url) in [
        (Tls::FromStart, "smtps://mailer:secret@127.0.0.1:{port}"),
        (
            Tls::StartTls,
            "smtp://mailer:secret@127.0.0.1:{port}?tls=required",
        ),
    ] {
        let sink = SmtpSink::start_tls(tls);
        let url = url.replace("{port}", &sink.port.to_string());
        let relay = Smtp::new(&url, Duration::from_secs(5), None).unwrap();
        let error = send(&relay, "ada@example.test", 0).unwrap_err();
        assert!(
            error.to_lowercase().contains("certificate"),
            "{tls:?}: {error}"
        );
        assert!(sink.messages().is_empty(), "{tls:?}: a mail went out");
        assert_eq!(sink.auth_attempts(), 0, "{tls:?}: the password went out");
    }
}

#[test]
fn authorities_that_hold_no_certificate_are_refused_at_start() {
    let url = "smtps://mail.invalid";
    for (pem, why) in [
        (&b"not a certificate"[..], "no PEM certificate"),
        (
            b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
            "unusable",
        ),
    ] {
        let error = Smtp::new(url, Duration::from_secs(1), Some(pem))
            .err()
            .expect("accepted");
        assert!(format!("{error:#}").contains(why), "{error:#}");
    }
    let data = std::env::temp_dir().join("herald-ca-file-test");
    let mut settings = herald::config::Settings::for_tests("postgres://unused".to_owned(), data);
    settings.email.smtp_url = Some(url.to_owned());
    settings.email.smtp_ca_file = Some("/nonexistent/ca.pem".into());
    let error = herald::email::Mailer::from_settings(&settings)
        .err()
        .expect("an unreadable SMTP_CA_FILE accepted");
    assert!(format!("{error:#}").contains("SMTP_CA_FILE"), "{error:#}");
}
